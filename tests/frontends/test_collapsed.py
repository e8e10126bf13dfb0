"""The front-end for registry text with its line breaks collapsed (grammar/collapsed.lark)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.base.source import Pos
from generator.frontends import collapsed
from generator.frontends.document import (
    LOST_PARAMETER_NAMES,
    Document,
    Heading,
    ListItem,
    Paragraph,
    Prototype,
    Table,
    TokenDef,
)
from tests.pathological import assert_linear
from tests.support import parse_error, seed


@pytest.fixture(scope="module")
def document() -> Document:
    return collapsed.parse(seed("cl_nv_d3d11_sharing.txt"))


def test_it_is_known_to_have_lost_parameter_names(document: Document) -> None:
    assert LOST_PARAMETER_NAMES in document.lost


def test_template_titles_even_without_line_breaks(document: Document) -> None:
    titles = [b.title for b in document.blocks if isinstance(b, Heading)]
    assert titles[:3] == ["Name String", "Version", "Number"]
    # "Version 2, ..." inside the Version field and the revision history is text, not a title
    assert titles.count("Version") == 1 and titles[-1] == "Revision History"
    assert Paragraph("Version 2, January 6, 2010", Pos(1, 41)) in document.blocks


def test_prototypes_tokens_and_bullets(document: Document) -> None:
    blocks = document.blocks
    assert len([b for b in blocks if isinstance(b, Prototype)]) == 12
    tokens = [b for b in blocks if isinstance(b, TokenDef)]
    assert [t.name for t in tokens][:2] == ["CL_D3D11_DEVICE_NV", "CL_D3D11_DXGI_ADAPTER_NV"]
    assert tokens[0].pos == Pos(1, 1694)
    items = [b for b in blocks if isinstance(b, ListItem)]
    assert items[0].text.startswith("CL_INVALID_D3D11_DEVICE_NV if the value of the property")
    assert "CL_INVALID_PLATFORM if is not a valid platform," in [i.text for i in items]


def test_tables_rebuilt_from_words(document: Document) -> None:
    tables = [b for b in document.blocks if isinstance(b, Table)]
    assert [len(t.rows) for t in tables] == [2, 1, 1, 2, 2, 36]
    assert tables[0].rows[1].cells == ("CL_CONTEXT_D3D11_DEVICE_NV", "ID3D11Device*", "NULL",
                                       "Specifies the ID3D11Device* to use for Direct3D 11 interoperabilty.")
    assert tables[3].rows[0].cells == ("CL_D3D11_DEVICE_NV", "ID3D11Device *")
    assert tables[5].rows[-1].cells == ("DXGI_FORMAT_R8_SINT", "CL_R", "CL_SIGNED_INT8")


def test_unterminated_table_is_an_error() -> None:
    text = "Name String cl_x_y New Tokens ---------- A B ---- ---- CL_A 1"
    message = parse_error(collapsed.parse, text, "bad.txt")
    assert message.startswith("bad.txt:1:62: error: unexpected end of input; expected rule")


def test_a_list_must_end_its_last_sentence() -> None:
    text = "Name String cl_x_y Overview It returns * CL_A if b is c New Tokens CL_C 1"
    message = parse_error(collapsed.parse, text, "bad.txt")
    assert message.startswith("bad.txt:1:57: error: unexpected section title 'New Tokens'; expected")


def test_titles_that_never_end_take_linear_time(tmp_path: Path) -> None:
    """A title's free middle stops at the next title of its kind instead of scanning on from each."""
    assert_linear("section-titles", tmp_path)
