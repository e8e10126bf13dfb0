"""The AsciiDoc preprocessor over a book: includes inside the checkout only, conditionals kept per line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.base.errors import InputError
from generator.frontends.book import preprocess


def book(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def texts(found: preprocess.Book, extension: str | None = None) -> list[str]:
    defined = found.defined(frozenset({extension} if extension else ()))
    return [line.text for line in found.lines if preprocess.holds(line.scope, defined)]


def test_includes_are_read_relative_to_the_including_file_and_cited_where_each_line_stands(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "= Book\ninclude::api/a.asciidoc[]\nend\n",
                           "api/a.asciidoc": "a1\ninclude::b.asciidoc[]\n", "api/b.asciidoc": "b1\n"})
    found = preprocess.read(root, "specs/main.txt")
    assert texts(found) == ["= Book", "a1", "b1", "", "", "end", ""]
    b1 = next(line for line in found.lines if line.text == "b1")
    assert str(b1.where) == "specs/api/b.asciidoc:1"


def test_a_file_included_twice_is_read_once(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "include::x.txt[]\ninclude::x.txt[]\n", "x.txt": "x\n"})
    found = preprocess.read(root, "specs/main.txt")
    assert texts(found).count("x") == 2
    assert sorted(found.files) == ["specs/main.txt", "specs/x.txt"]


@pytest.mark.parametrize(("condition", "selected", "kept"), [
    ("ifdef::cl_a[]", "cl_a", True),
    ("ifdef::cl_a[]", "cl_b", False),
    ("ifdef::cl_a,cl_b[]", "cl_b", True),
    ("ifdef::cl_a+cl_b[]", "cl_b", False),
    ("ifndef::cl_a[]", "cl_b", True),
    ("ifndef::cl_a[]", "cl_a", False),
])
def test_a_conditional_holds_as_asciidoctor_judges_it_for_the_extension_selected(
        tmp_path: Path, condition: str, selected: str, kept: bool) -> None:
    endif = condition.replace("ifndef", "endif").replace("ifdef", "endif")
    root = book(tmp_path, {"main.txt": f"{condition}\ninside\n{endif}\n"})
    assert ("inside" in texts(preprocess.read(root, "specs/main.txt"), selected)) == kept


def test_an_attribute_the_book_sets_counts_as_set(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": ":local:\nifdef::local[]\ninside\nendif::local[]\n"})
    assert "inside" in texts(preprocess.read(root, "specs/main.txt"))


def test_one_line_conditionals_keep_their_text_under_their_condition(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "ifdef::cl_a[or {cl_x_TYPE}[]]\n"})
    found = preprocess.read(root, "specs/main.txt")
    assert texts(found, "cl_a")[0] == "or {cl_x_TYPE}[]"
    assert texts(found, "cl_b")[0] == ""


def test_an_escaped_directive_is_text(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "\\include::x.txt[]\n"})
    assert texts(preprocess.read(root, "specs/main.txt"))[0] == "include::x.txt[]"


def test_a_directive_of_a_form_asciidoctor_does_not_read_is_text_with_a_note(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "ifdef::[] stray\n"})
    found = preprocess.read(root, "specs/main.txt")
    assert texts(found)[0] == "ifdef::[] stray"
    assert [note.kind for note in found.notes] == ["unread-directive"]


def test_an_include_of_a_file_the_build_makes_is_kept_as_that_file_s_name(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "include::{generated}/api/protos/clFoo.txt[]\n"})
    assert preprocess.read(root, "specs/main.txt").lines[0].generated == "api/protos/clFoo.txt"


def test_an_include_through_an_attribute_the_build_sets_is_passed_over_with_a_note(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": "include::{appendices}/x.txt[]\n"})
    found = preprocess.read(root, "specs/main.txt")
    assert [note.kind for note in found.notes] == ["unread-include"]


def test_an_ifeval_block_is_left_out_with_a_note(tmp_path: Path) -> None:
    root = book(tmp_path, {"main.txt": 'ifeval::["{x}" == "y"]\ninside\nendif::[]\n'})
    found = preprocess.read(root, "specs/main.txt")
    assert "inside" not in texts(found)
    assert [note.kind for note in found.notes] == ["ifeval"]


def error(root: Path) -> InputError:
    with pytest.raises(InputError) as raised:
        preprocess.read(root, "specs/main.txt")
    return raised.value


def test_an_include_cycle_is_an_input_error_naming_the_chain(tmp_path: Path) -> None:
    found = error(book(tmp_path, {"main.txt": "include::a.txt[]\n", "a.txt": "include::main.txt[]\n"}))
    assert "include cycle: specs/main.txt includes specs/a.txt includes specs/main.txt" in found.message
    assert (found.path, found.pos and found.pos.line) == ("specs/a.txt", 1)


def test_includes_nested_past_the_limit_are_an_input_error(tmp_path: Path) -> None:
    files = {f"f{n}.txt": f"include::f{n + 1}.txt[]\n" for n in range(preprocess.MOST_DEPTH + 1)}
    files["main.txt"] = "include::f0.txt[]\n"
    assert "includes nested more than" in error(book(tmp_path, files)).message


@pytest.mark.parametrize("target", ["../outside.txt", "/etc/passwd", "sub/../../outside.txt"])
def test_an_include_leaving_the_checkout_is_refused_unread(tmp_path: Path, target: str) -> None:
    (tmp_path / "outside.txt").write_text("SECRET\n", encoding="utf-8")
    root = book(tmp_path / "checkout", {"main.txt": f"include::{target}[]\n"})
    found = error(root)
    assert "leads out of the checkout" in found.message and "SECRET" not in found.render()


def test_an_include_through_a_link_leaving_the_checkout_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("SECRET\n", encoding="utf-8")
    root = book(tmp_path / "checkout", {"main.txt": "include::inside.txt[]\n"})
    os.symlink(tmp_path / "outside.txt", root / "inside.txt")
    found = error(root)
    assert "symbolic link that leads out" in found.message and "SECRET" not in found.render()


def test_a_missing_include_is_an_input_error_at_the_include(tmp_path: Path) -> None:
    found = error(book(tmp_path, {"main.txt": "text\ninclude::gone.txt[]\n"}))
    assert (found.path, found.pos and found.pos.line) == ("specs/main.txt", 2)
    assert "cannot include specs/gone.txt" in found.message


def test_conditionals_nested_100000_deep_are_an_input_error(tmp_path: Path) -> None:
    deep = "ifdef::cl_a[]\n" * 100_000 + "x\n" + "endif::cl_a[]\n" * 100_000
    assert "nested more than" in error(book(tmp_path, {"main.txt": deep})).message


@pytest.mark.parametrize(("text", "said"), [
    ("ifdef::cl_a[]\nx\n", "is never closed"),
    ("x\nendif::cl_a[]\n", "no ifdef"),
    ("ifdef::cl_a[]\nx\nendif::cl_b[]\n", "does not close ifdef::cl_a[]"),
])
def test_unbalanced_conditionals_are_input_errors(tmp_path: Path, text: str, said: str) -> None:
    assert said in error(book(tmp_path, {"main.txt": text})).message


def test_files_including_each_other_many_times_over_stop_at_the_size_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(preprocess, "MOST_BYTES", 100_000)
    files = {f"f{n}.txt": f"include::f{n + 1}.txt[]\n" * 10 for n in range(6)}
    files["f6.txt"] = "leaf\n"
    files["main.txt"] = "include::f0.txt[]\n"
    assert "grows past" in error(book(tmp_path, files)).message
