"""Tables in one canonical shape."""

from __future__ import annotations

from generator.base.diagnostics import Location
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import TableFact, TableRowFact
from generator.merging.draft import Extension, Token
from generator.merging.tables import canonical

WHERE = Location("t.txt", Pos(1))


def table(header: tuple[str, ...] | None, *rows: tuple[str, ...]) -> TableFact:
    return TableFact(header, tuple(TableRowFact(r, Location("t.txt", Pos(i + 2))) for i, r in enumerate(rows)), WHERE)


def ext() -> Extension:
    extension = Extension("cl_acme_widget", "ACME", None, {}, [])
    extension.tokens = [Token("CL_WIDGET_ACME", 1, "widget_source", WHERE)]
    return extension


def test_pairs_are_split_and_enum_columns_named_by_their_group(knowledge: Knowledge) -> None:
    fact = table(("Format", "CL image format (channel order, channel data type)"),
                 ("DXGI_FORMAT_R8_UINT", "CL_R, CL_UNSIGNED_INT8"), ("DXGI_FORMAT_R8_SINT", "CL_R, CL_SIGNED_INT8"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None
    assert (result.name, result.columns) == ("dxgi_format_mapping", ["dxgi_format", "channel_order", "channel_type"])
    assert result.rows[1] == ["DXGI_FORMAT_R8_SINT", "CL_R", "CL_SIGNED_INT8"]
    assert result.header == ["Format", "channel order", "channel data type"]


def test_types_defaults_and_descriptions(knowledge: Knowledge) -> None:
    fact = table(None, ("CL_WIDGET_ACME", "IWidget*", "Specifies the widget. The default value is NULL."))
    result = canonical(fact, ext(), knowledge)
    assert result is not None
    assert (result.name, result.columns) == ("widget_source", ["widget_source", "type", "default", "description"])
    assert result.rows[0][:3] == ["CL_WIDGET_ACME", "IWidget *", "NULL"]


def test_a_table_of_unknown_keys_is_named_from_its_header(knowledge: Knowledge) -> None:
    fact = table(("cl_image_info", "Return type"), ("CL_WIDGETS_ACME", "UINT"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None and (result.name, result.columns) == ("image_info", ["image_info", "type"])
    assert result.row_sources == [Location("t.txt", Pos(2))]


def test_a_header_named_type_over_tokens_is_no_column_of_types(knowledge: Knowledge) -> None:
    fact = table(("Type", "Description"), ("CL_BLOCK_16x16_ACME", "Each block is 16x16"),
                 ("CL_BLOCK_8x8_ACME", "Each block is 8x8"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None and "type" not in result.columns
    assert (result.name, result.columns) == ("table", ["table", "description"])
