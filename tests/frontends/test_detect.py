"""Telling the format of a spec from its content."""

from __future__ import annotations

import pytest

from generator.base.errors import InputError
from generator.base.source import SpecFile
from generator.frontends.detect import NOTES, detect, note_like
from tests.support import SPECS, seed


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("cl_nv_d3d10_sharing.txt", "registry"),
        ("cl_nv_d3d11_sharing.txt", "registry-collapsed"),
        ("cl_khr_d3d10_sharing.txt", "asciidoc"),
        ("cl_khr_d3d11_sharing.txt", "asciidoc"),
        ("clEnqueueReleaseD3D10ObjectsKHR.txt", "refpage"),
        ("clEnqueueAcquireD3D11ObjectsKHR.txt", "refpage"),
        ("README.md", NOTES),
    ],
)
def test_seed_formats(name: str, expected: str) -> None:
    assert detect(seed(name)) == expected


def test_names_do_not_matter() -> None:
    text = (SPECS / "cl_khr_d3d11_sharing.txt").read_text(encoding="utf-8")
    assert detect(SpecFile.from_text("notes.md", text)) == "asciidoc"


@pytest.mark.parametrize("text", ["Hello world.\nNothing to see here.\n", "x" * 5000, "# A\n"])
def test_unknown_format_is_an_error_naming_the_file(text: str) -> None:
    with pytest.raises(InputError) as caught:
        detect(SpecFile.from_text("specs/odd.txt", text))
    assert str(caught.value).startswith("specs/odd.txt:1:1: error: cannot recognise the format of this file")


def test_empty_file_is_an_error() -> None:
    with pytest.raises(InputError, match="empty file"):
        detect(SpecFile.from_text("specs/empty.txt", " \n\n"))


def test_one_long_line_does_not_make_a_text_collapsed() -> None:
    text = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    text = text.replace("Overview\n\n", "Overview\n\n    " + "long " * 800 + "\n\n")
    assert detect(SpecFile.from_text("x.txt", text)) == "registry"


def test_the_current_asciidoc_form_by_its_own_marks() -> None:
    """Attribute entries, `[source,opencl]` and preprocessor lines are AsciiDoc's; the titles alone are too few."""
    text = (":data-uri:\n:icons: font\ninclude::../config/attribs.txt[]\n\n== Name Strings\n\n`cl_acme_x`\n\n"
            "ifdef::cl_acme_y[]\n[source,opencl]\n----\ncl_int clX(void);\n----\nendif::cl_acme_y[]\n")
    assert detect(SpecFile.from_text("x.txt", text)) == "asciidoc"


@pytest.mark.parametrize("name", ["cl_nv_d3d10_sharing.txt", "cl_nv_d3d11_sharing.txt", "cl_khr_d3d10_sharing.txt",
                                  "clEnqueueReleaseD3D10ObjectsKHR.txt", "clEnqueueAcquireD3D11ObjectsKHR.txt"])
def test_markdown_headings_never_make_a_spec_a_note(name: str) -> None:
    """The note is what no spec format fits: a spec with more `#` lines than marks of its own is a spec."""
    text = (SPECS / name).read_text(encoding="utf-8") + "".join(f"\n# Heading {n}\n" for n in range(200))
    spec = SpecFile.from_text(f"specs/{name}", text)
    assert detect(spec) == detect(seed(name)) != NOTES
    assert note_like(spec, detect(spec))  # passed over only if, read so, it states nothing
    assert not note_like(seed(name), detect(seed(name)))


def test_a_file_of_invisible_characters_is_an_empty_file_saying_so() -> None:
    with pytest.raises(InputError, match="empty file but for 3 invisible or space characters: not a specification"):
        detect(SpecFile.from_text("specs/odd.txt", "\u200b\n\u00ad \u3000\n"))
