"""Which extension a document describes (`extraction/extension_name.py`), read through `extract`: a Name Strings
section, prose that names one, a title's or an anchor's word, in every form's markup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from generator.base.knowledge import Knowledge
from generator.base.source import SpecFile
from generator.extraction.extract import extract
from generator.extraction.facts import SourceFacts
from generator.frontends import asciidoc, registry
from tests.samples import WIDGET

_ADOC_BODY = ("\n\n== New API Functions\n\n[source,opencl]\n----\ncl_int clDoWidgetACME(cl_context context);\n----\n")


def _adoc(text: str, knowledge: Knowledge) -> SourceFacts:
    return extract(asciidoc.parse(SpecFile.from_text("gadget.asciidoc", text)), knowledge)


@pytest.mark.parametrize(("text", "name"), [
    ("= cl_acme_titled\n\nProse.\n", "cl_acme_titled"),
    ("[[cl_acme_chapter]]\n== A Chapter\n\nProse.\n", "cl_acme_chapter"),
    ("[[cl_acme_chapter]]\n== A Chapter\n\nThe extension name is *cl_acme_stated*.\n", "cl_acme_stated"),
    ("This adds functionality in the `cl_acme_other` extension.\n\n== Name Strings\n\n`cl_acme_own` +\n"
     "`cl_acme_own_too`\n", "cl_acme_own"),
])
def test_how_a_text_names_its_extension(text: str, name: str, knowledge: Knowledge) -> None:
    assert _adoc(text, knowledge).extension == name


@pytest.mark.parametrize("names", ["    cl_acme_widget\n    cl_acme_widget_more\n    cl_acme_widget_most\n",
                                   "    cl_acme_widget\n\n    cl_acme_widget_more cl_acme_widget_most\n"])
def test_other_extension_strings_of_the_name_section_are_said(names: str, knowledge: Knowledge) -> None:
    """The first name string is the extension; the others were dropped in silence."""
    text = WIDGET.replace("    cl_acme_widget\n", names, 1)
    found = extract(registry.parse(SpecFile.from_text("widget.txt", text)), knowledge)
    assert found.extension == "cl_acme_widget"
    (remark,) = [r for r in found.remarks if r.kind == "other-names"]
    assert remark.note and remark.message == ("the text names other extension strings too (cl_acme_widget_more, "
                                              "cl_acme_widget_most): it is read as describing cl_acme_widget, and "
                                              "they are not generated")
    plain = extract(registry.parse(SpecFile.from_text("widget.txt", WIDGET)), knowledge)
    assert not [r for r in plain.remarks if r.kind == "other-names"]


@pytest.mark.parametrize(("text", "parse"), [
    (WIDGET.replace("    cl_acme_widget\n", "    +cl_acme_widget+\n", 1), registry.parse),  # AsciiDoc's literal
    (WIDGET.replace("    cl_acme_widget\n", "    \"cl_acme_widget\"\n", 1), registry.parse),
    ("= The cl_acme_widget Extension" + _ADOC_BODY, asciidoc.parse),  # only in a title of words
    ("[[cl_acme_widget-opencl]]\n= Widgets" + _ADOC_BODY, asciidoc.parse),  # only in an anchor
])
def test_the_extension_string_is_found_in_markup_a_title_or_an_anchor(
    text: str, parse: Callable[[SpecFile], object], knowledge: Knowledge,
) -> None:
    document = parse(SpecFile.from_text("w.txt", text))
    assert extract(document, knowledge).extension == "cl_acme_widget"  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "= Passing cl_context_properties to the cl_acme_widget Extension" + _ADOC_BODY,  # a core type comes first
    "[[cl_acme_widget__overview]]\n= Widgets" + _ADOC_BODY,  # the 2017 texts' anchors
])
def test_a_core_type_or_an_anchors_part_is_no_extension_string(text: str, knowledge: Knowledge) -> None:
    assert extract(asciidoc.parse(SpecFile.from_text("w.txt", text)), knowledge).extension == "cl_acme_widget"


def test_a_text_cut_out_of_the_book_is_the_extension_it_was_cut_for(knowledge: Knowledge) -> None:
    """Whatever its prose says: a page shared by two extensions names one, and the cut is the other's (a note)."""
    text = "= Book\n\nThis section describes the cl_acme_base extension." + _ADOC_BODY
    document = asciidoc.parse(SpecFile.from_text("book.asciidoc", text))
    facts = extract(replace(document, extension="cl_acme_layered"), knowledge)
    assert facts.extension == "cl_acme_layered" and facts.extension_where is not None
    assert facts.extension_where.pos.line == 1
    (note,) = [r for r in facts.remarks if r.kind == "other-names"]
    assert note.note and note.where.pos.line == 3
    assert note.message == ("the text names cl_acme_base as the extension it describes; cut out of the book for "
                            "cl_acme_layered, it is read as that one's")
    assert extract(document, knowledge).extension == "cl_acme_base"
