"""Reading input files: line ends, encodings and what is not text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile


def test_line_ends_and_no_break_spaces_are_normalised(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffone\r\ntwo\u00a0words\rthree\n".encode())
    spec = SpecFile.read(path, tmp_path)
    assert spec.path == "specs/a.txt"
    assert spec.text == "one\ntwo words\nthree\n"


def test_binary_is_an_error_with_its_position() -> None:
    with pytest.raises(InputError) as caught:
        SpecFile.from_text("b.txt", "text\nmore\x00here")
    assert str(caught.value).startswith("b.txt:2:5: error: control character U+0000")


def test_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(b"ok\ncaf\xe9\n")
    with pytest.raises(InputError) as caught:
        SpecFile.read(path, tmp_path)
    assert str(caught.value).startswith("specs/latin.txt:2:4: error: not UTF-8 text")


def test_long_lines_are_cut_around_the_caret() -> None:
    error = SpecFile.from_text("c.txt", "a" * 500 + "X" + "b" * 500).error(Pos(1, 501), "here")
    text, caret = error.render().splitlines()[1:]
    assert len(text) < 140 and text[caret.index("^")] == "X"


@pytest.mark.parametrize(("name", "shown", "why"), [
    ("tab\there.txt", "tab\\x09here.txt", "the character U+0009"),
    ("esc\x1b]0;title\x07.txt", "esc\\x1b]0;title\\x07.txt", "the character U+001B"),
    ("c1\x9bm.txt", "c1\\x9bm.txt", "the character U+009B"),
    ("bidi\u202etxt.exe", "bidi\\u202etxt.exe", "the character U+202E"),
    ("line\u2028break.txt", "line\\u2028break.txt", "the character U+2028"),
    (os.fsdecode(b"latin\xe9.txt"), "latin\\xe9.txt", "the byte \\xe9, which is not UTF-8"),
])
def test_a_file_name_that_does_not_print_as_itself_is_refused_escaped(tmp_path: Path, name: str, shown: str,
                                                                       why: str) -> None:
    path = tmp_path / name
    path.write_text("Name\n\n    cl_foo_bar\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        SpecFile.read(path, tmp_path)
    assert caught.value.pos is None, "a fault of the name, not of a place in the text"
    rendered = caught.value.render()
    assert rendered.startswith(f"specs/{shown}: error: the file name holds {why}"), rendered
    assert rendered.isprintable()


@pytest.mark.parametrize("name", ["plain.txt", "with space.txt", "café €.txt", "we\"ird ' \\ $(x).txt"])
def test_a_printable_file_name_is_read(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("text\n", encoding="utf-8")
    assert SpecFile.read(tmp_path / name, tmp_path).path == f"specs/{name}"
