"""Input errors as the user reads them (generator/base/errors.py): one or several, paths and lines printed safely."""

from __future__ import annotations

import pytest

from generator.base.errors import Gather, InputError, InputErrors, excerpt, printable
from generator.base.source import Pos


def errors() -> list[InputError]:
    return [InputError("specs/a.txt", Pos(3, 5), "first", "    bad line"),
            InputError("specs/b.txt", None, "second"),
            InputError("specs/c.txt", Pos(1, 1), "third")]


def test_several_errors_are_one_input_error_reading_as_the_first() -> None:
    """Callers catch `InputError` and read `path`, `pos`, `message`: the run's handling stays one `except`."""
    with pytest.raises(InputError) as caught:
        raise InputErrors(errors())
    error = caught.value
    assert (error.path, error.pos, error.message) == ("specs/a.txt", Pos(3, 5), "first")
    assert [e.message for e in error.all] == ["first", "second", "third"]


def test_several_errors_render_each_with_its_excerpt_then_their_count() -> None:
    assert InputErrors(errors()).render().split("\n") == [
        "specs/a.txt:3:5: error: first", "        bad line", "        ^",
        "specs/b.txt: error: second",
        "specs/c.txt:1:1: error: third",
        "3 errors",
    ]


def test_gathered_errors_are_flattened_and_each_kept_once() -> None:
    a, b, c = errors()
    gathered = InputErrors([a, InputErrors([b, a]), c, InputError("specs/c.txt", Pos(1, 1), "third")])
    assert gathered.all == (a, b, c)


def test_gather_keeps_going_and_raises_what_it_collected() -> None:
    gather = Gather()
    done: list[str] = []
    for error in errors():
        with gather.attempt():
            raise error
        done.append(error.message)  # the loop goes on past each
    assert done == ["first", "second", "third"]
    with pytest.raises(InputErrors) as caught:
        gather.check()
    assert len(caught.value.all) == 3


def test_gather_with_one_error_raises_it_as_it_is_and_with_none_nothing() -> None:
    gather = Gather()
    gather.check()
    error = errors()[0]
    with gather.attempt():
        raise error
    with pytest.raises(InputError) as caught:
        gather.check()
    assert caught.value is error


def test_an_error_with_a_control_character_in_its_path_prints_it_escaped() -> None:
    error = InputError("specs/\x1b]0;owned\x07\udcff.txt", Pos(1, 1), "bad")
    assert error.render() == "specs/\\x1b]0;owned\\x07\\xff.txt:1:1: error: bad"


@pytest.mark.parametrize(("path", "shown"), [
    ("specs/plain.txt", "specs/plain.txt"),
    ("specs/café €.txt", "specs/café €.txt"),
    ("specs/a\tb", "specs/a\\x09b"),
    ("specs/rl\u202eo", "specs/rl\\u202eo"),
    ("specs/\udce9", "specs/\\xe9"),
])
def test_printable(path: str, shown: str) -> None:
    assert printable(path) == shown


def test_the_excerpt_shows_control_characters_as_replacements_under_the_same_caret() -> None:
    text, caret = excerpt("a\x1b[2Jb\u202ec\tX", 10)
    assert text == "a\ufffd[2Jb\ufffdc X" and text[caret] == "X"
