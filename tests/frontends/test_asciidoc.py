"""The AsciiDoc front-end (grammar/asciidoc.lark)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.base.source import Pos, SpecFile
from generator.frontends import asciidoc
from generator.frontends.document import Heading, ListItem, Paragraph, Prototype, Table, TokenDef
from tests.pathological import assert_linear
from tests.support import parse_error, seed


@pytest.fixture(scope="module")
def blocks() -> list[object]:
    return list(asciidoc.parse(seed("cl_khr_d3d10_sharing.txt")).blocks)


def test_titles_with_their_levels(blocks: list[object]) -> None:
    headings = [b for b in blocks if isinstance(b, Heading)]
    assert (headings[0].level, headings[1].title, headings[1].level) == (1, "Overview", 2)
    assert headings[-1].title == "Issues"


def test_source_listings_hold_prototypes(blocks: list[object]) -> None:
    prototypes = [b for b in blocks if isinstance(b, Prototype)]
    assert prototypes[0].pos == Pos(20, 1)
    assert prototypes[0].function.name == "clGetDeviceIDsFromD3D10KHR"
    assert prototypes[-1].function.name == "clCreateFromD3D10Texture1D"  # discussed in Issues, not declared


def test_plain_listings_hold_tokens(blocks: list[object]) -> None:
    tokens = [b for b in blocks if isinstance(b, TokenDef)]
    assert len(tokens) == 14 and tokens[0] == TokenDef("CL_D3D10_DEVICE_KHR", "0x4010", Pos(67, 1))


def test_tables_with_header_and_cells_over_lines(blocks: list[object]) -> None:
    tables = [b for b in blocks if isinstance(b, Table)]
    context = tables[0]
    assert context.header == ("cl_context_properties enum", "Property value", "Description")
    assert context.rows[0].cells[1] == "ID3D10Device *"
    assert context.rows[0].cells[2].endswith("The default value is NULL.")
    formats = tables[-1]
    assert formats.header == ("DXGI format", "CL image format (channel order, channel data type)")
    assert len(formats.rows) == 37  # empty separator rows dropped
    assert formats.rows[0].cells == ("DXGI_FORMAT_R32G32B32A32_FLOAT", "CL_RGBA, CL_FLOAT")


def test_lists(blocks: list[object]) -> None:
    items = [b for b in blocks if isinstance(b, ListItem)]
    assert items[0] == ListItem(
        "CL_INVALID_D3D10_DEVICE_KHR if the value of the property CL_CONTEXT_D3D10_DEVICE_KHR is non-NULL and does "
        "not specify a valid Direct3D 10 device with which the <cl_device_ids> against which this context is to "
        "be created may interoperate.", Pos(178, 1))


def test_paragraph_text(blocks: list[object]) -> None:
    assert Paragraph("<platform> refers to the platform ID returned by clGetPlatformIDs.", Pos(296, 1)) in blocks


def test_unterminated_listing_is_an_error() -> None:
    text = "== Title\n\n[source]\n----\ncl_int clFoo(void)\n"
    message = parse_error(asciidoc.parse, text, "bad.adoc")
    assert message.startswith("bad.adoc:5:19: error: unexpected end of input; expected")


def test_bad_prototype_in_a_listing() -> None:
    text = "== Title\n\n[source]\n----\ncl_int clFoo(cl_int *)x)\n----\n"
    message = parse_error(asciidoc.parse, text, "bad.adoc")
    assert message.startswith("bad.adoc:5:24: error: unexpected ')'; expected '('")


def test_a_table_whose_cells_do_not_fill_its_rows() -> None:
    text = '== T\n\n[cols="2,1",options="header",]\n|====\n| *a*\n| *b*\n\n| CL_X\n|====\n'
    message = parse_error(asciidoc.parse, text, "bad.adoc")
    assert message.startswith("bad.adoc:4:1: error: this table has 3 cells, which do not fill rows of 2 columns")


@pytest.mark.parametrize("shape", ["reference-markers", "index-terms", "table-cell-lines"])
def test_unclosed_markup_and_long_cells_take_linear_time(shape: str, tmp_path: Path) -> None:
    """Markup left open is looked for once, not from each opening; a cell's lines are joined once."""
    assert_linear(shape, tmp_path)


def _blocks(text: str) -> list[object]:
    return list(asciidoc.parse(SpecFile.from_text("x.adoc", text)).blocks)


def _items(text: str) -> list[tuple[str, int]]:
    return [(b.text, b.pos.line) for b in _blocks(text) if isinstance(b, ListItem)]


def test_sub_items_of_a_code_are_its_conditions() -> None:
    text = ("* {CL_INVALID_VALUE} if _a_ is 0.\n"
            "* {CL_INVALID_DEVICE}\n"
            "  ** if _b_ is not valid, or\n"
            "  ** if _c_ cannot import it.\n"
            "* {CL_OUT_OF_HOST_MEMORY}\n")
    assert _items(text) == [("CL_INVALID_VALUE if <a> is 0.", 1), ("CL_INVALID_DEVICE if <b> is not valid", 3),
                            ("CL_INVALID_DEVICE if <c> cannot import it.", 4), ("CL_OUT_OF_HOST_MEMORY", 5)]


def test_a_list_goes_on_over_blank_lines_and_nests_by_marker() -> None:
    text = "* `CL_X`\n\n** if a\n\n* CL_Y if b\n\n. step\n* inner\n. next\n"
    assert _items(text) == [("CL_X if a", 3), ("CL_Y if b", 5), ("step", 7), ("inner", 8), ("next", 9)]


def test_sub_items_of_prose_stay_items_of_their_own() -> None:
    text = "* A new type.\n** It is mandatory.\n\nProse.\n\n** CL_Z if c\n"
    assert _items(text) == [("A new type.", 1), ("It is mandatory.", 2), ("CL_Z if c", 6)]


def test_preprocessor_lines_break_no_paragraph_list_or_listing() -> None:
    text = ("First line\nifdef::cl_khr_x[]\nsecond line.\nendif::cl_khr_x[]\n\n* CL_A if a\nifndef::y[]\n"
            "continued\nendif::y[]\n* CL_B if b\n\n"
            "[source]\n----\nifeval::[\"{a}\" == \"b\"]\ncl_int clFoo(\n    cl_int x);\n----\n")
    blocks = _blocks(text)
    assert blocks[0] == Paragraph("First line second line.", Pos(1, 1))
    assert blocks[1:3] == [ListItem("CL_A if a continued", Pos(6, 1)), ListItem("CL_B if b", Pos(10, 1))]
    assert isinstance(blocks[3], Prototype) and blocks[3].pos == Pos(15, 1)


def test_attribute_entries_define_what_follows() -> None:
    text = ":refpage: clFoo\n:code: CL_X\n\n{refpage} returns {code}.\n"
    assert _blocks(text) == [Paragraph("clFoo returns CL_X.", Pos(4, 1))]


def test_includes_are_reported_and_a_prototype_include_stands_for_the_prototype() -> None:
    text = ("== New API Functions\n\n[source,opencl]\n----\ncl_int clFoo(cl_int x);\n----\n\n"
            "include::provisional_notice.asciidoc[]\n\n== Body\n\n"
            "The function\n\ninclude::{generated}/api/protos/clFoo.txt[]\n\n_x_ is a value.\n")
    document = asciidoc.parse(SpecFile.from_text("x.adoc", text))
    prototypes = [b for b in document.blocks if isinstance(b, Prototype)]
    assert [p.pos.line for p in prototypes] == [5, 14]
    assert document.blocks.index(prototypes[1]) == len(document.blocks) - 2  # before the description
    assert [(o.pos.line, o.kind) for o in document.omissions] == [(8, "include"), (14, "include")]
    assert "provisional_notice.asciidoc holds is not in the IR" in document.omissions[0].message
    assert "prototype of clFoo, which is read from line 5" in document.omissions[1].message


def test_titles_keep_their_level_and_anchor() -> None:
    text = "= cl_abc_title\n\n[[cl_abc_chapter]]\n== A Chapter\n\n=== Section\n"
    assert [b for b in _blocks(text) if isinstance(b, Heading)] == [
        Heading("cl_abc_title", 0, Pos(1, 1)), Heading("A Chapter", 1, Pos(4, 1), "cl_abc_chapter"),
        Heading("Section", 2, Pos(6, 1))]


def test_block_attributes_on_several_lines_apply_together() -> None:
    text = '[cols="1,2"]\n[options="header"]\n|====\n| Rev | Changes\n| A | First.\n|====\n'
    (table,) = _blocks(text)
    assert isinstance(table, Table) and table.header == ("Rev", "Changes")
    assert table.rows[0].cells == ("A", "First.")


@pytest.mark.parametrize("shape", ["inline-markup", "nested-items", "mixed-listing"])
def test_the_current_forms_take_linear_time(shape: str, tmp_path: Path) -> None:
    """Attribute references and unclosed markup, long nested lists among preprocessor lines, and listings of
    tokens between comments are each read once."""
    assert_linear(shape, tmp_path)


def test_comment_blocks_notes_and_literal_blocks() -> None:
    text = ("////\n* CL_GONE if commented out\n////\n\n[NOTE]\n====\nA note.\n====\n\n"
            "....\nCL_LITERAL_X  0x1\n....\n\n[[inline-id]]An anchored line.\n")
    assert _blocks(text) == [Paragraph("A note.", Pos(7, 1)), TokenDef("CL_LITERAL_X", "0x1", Pos(11, 1)),
                             Paragraph("An anchored line.", Pos(14, 1))]


def test_a_reference_page_opens_a_section_on_its_function() -> None:
    """`[open,refpage='f',...]` is the book's section on f: the walk then reads what follows as f's."""
    text = ("== Memory\n\n[open,refpage='clFooKHR',desc='Foo',type='protos']\n--\nTo foo, call\n--\n")
    blocks = asciidoc.parse(SpecFile.from_text("book.adoc", text)).blocks
    headings = [(b.title, b.level, b.pos.line) for b in blocks if isinstance(b, Heading)]
    assert headings == [("Memory", 1, 1), ("clFooKHR", 2, 3)]
