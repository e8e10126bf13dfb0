"""The reference-page front-end (grammar/refpage.lark), for both damaged kinds of page."""

from __future__ import annotations

from pathlib import Path

from generator.base.source import Pos
from generator.frontends import refpage
from generator.frontends.document import LOST_ERROR_CODES, Definition, ListItem, Paragraph, Prototype
from tests.pathological import assert_linear
from tests.support import parse_error, seed


def test_man_page_site_paragraphs() -> None:
    document = refpage.parse(seed("clEnqueueAcquireD3D11ObjectsKHR.txt"))
    blocks = document.blocks
    prototype = next(b for b in blocks if isinstance(b, Prototype))
    assert prototype.pos == Pos(6, 1) and len(prototype.function.params) == 6
    definition = blocks[6]
    assert isinstance(definition, Definition)
    assert (definition.terms, definition.pos) == (("num_events_in_wait_list", "event_wait_list"), Pos(20, 1))
    items = [b for b in blocks if isinstance(b, ListItem)]
    assert len(items) == 8 and items[0].text.startswith("CL_INVALID_VALUE if num_objects is zero")
    # man cross-references lose their section: `clGetImageInfo(3clc)` -> `clGetImageInfo`
    assert not any("(3clc)" in str(getattr(b, "text", "")) for b in blocks)
    assert not document.marks_parameters and not document.lost


def test_html_scraped_page_is_cut_into_sentences() -> None:
    document = refpage.parse(seed("clEnqueueReleaseD3D10ObjectsKHR.txt"))
    blocks = document.blocks
    assert blocks[1] == Definition(("num_objects",), "The number of memory objects to be released in mem_objects.",
                                   Pos(2, 1))
    assert isinstance(blocks[3], Definition) and blocks[3].terms == ("num_events_in_wait_list", "event_wait_list")
    items = [b for b in blocks if isinstance(b, ListItem)]
    assert [i.pos.line for i in items] == [98, 104, 109, 111, 113, 118]
    assert items[0].text == "num_objects is zero and mem_objects is not a NULL value or if num_objects > 0 and " \
                            "mem_objects is NULL."
    assert LOST_ERROR_CODES in document.lost
    assert any(isinstance(b, Paragraph) and b.text.startswith("Returns CL_SUCCESS if") for b in blocks)


def test_page_text_accepts_any_line_sequence() -> None:
    """The grammar only groups lines; a bad page shows up where its C prototype is parsed."""
    text = "clFoo - does foo\n\ncl_int clFoo(cl_uint a, const);\n"
    message = parse_error(refpage.parse, text, "bad.txt")
    assert message.startswith("bad.txt:3:25: error: a parameter without a type in the prototype of clFoo")


def test_a_line_of_blanks_in_a_broken_paragraph_takes_linear_time(tmp_path: Path) -> None:
    """Each line of a broken paragraph is tried as a parameter name alone on its line."""
    assert_linear("term-line-blanks", tmp_path)
