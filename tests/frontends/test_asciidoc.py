"""The AsciiDoc front-end (grammar/asciidoc.lark)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.document import Heading, ListItem, Paragraph, Prototype, Table, TokenDef
from generator.frontends import asciidoc
from generator.source import Pos
from tests.conftest import parse_error, seed
from tests.pathological import assert_linear


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
