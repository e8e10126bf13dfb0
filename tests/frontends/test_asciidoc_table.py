"""AsciiDoc tables (generator/frontends/asciidoc_table.py): cells, specifiers and spans."""

from __future__ import annotations

import pytest

from generator.base.errors import InputError
from generator.base.source import SpecFile
from generator.frontends import asciidoc
from generator.frontends.asciidoc_table import column_count
from generator.frontends.document import Table
from tests.pathological import assert_linear


def _table(text: str) -> Table:
    (table,) = asciidoc.parse(SpecFile.from_text("x.adoc", text)).blocks
    assert isinstance(table, Table)
    return table


def test_cells_without_blanks_around_their_bars() -> None:
    table = _table('[cols="5,15"]\n[options="header"]\n|====\n|Rev|Changes\n|A|*First* one.\n|B|A \\| B\n|====\n')
    assert table.header == ("Rev", "Changes")
    assert [row.cells for row in table.rows] == [("A", "First one."), ("B", "A \\| B")]


def test_column_and_row_spans_fill_every_place() -> None:
    text = ('[options="header"]\n|====\n| Name | Where 2+| Accessible By\n\n'
            ".2+| **Host** .2+| Host\n| Host | Yes\n| Device | No\n|====\n")
    table = _table(text)
    assert table.header == ("Name", "Where", "Accessible By", "Accessible By")
    assert [row.cells for row in table.rows] == [("Host", "Host", "Host", "Yes"), ("Host", "Host", "Device", "No")]
    assert [row.pos.line for row in table.rows] == [5, 5]


def test_a_duplicated_cell() -> None:
    assert _table('[cols="3"]\n|====\n| a 2*| b\n|====\n').rows[0].cells == ("a", "b", "b")


def test_a_span_past_the_row_is_an_error() -> None:
    with pytest.raises(InputError) as caught:
        _table('[cols="2"]\n|====\n| a 2+| b\n|====\n')
    assert "does not fit in rows of 2 columns" in caught.value.render()


def test_a_word_that_ends_a_cell_is_no_specifier() -> None:
    assert _table('[cols="2"]\n|====\n| this is a | b\n|====\n').rows[0].cells == ("this is a", "b")


@pytest.mark.parametrize(("attributes", "count"), [('cols="1,1,3"', 3), ('cols="2*,3"', 3), ('cols="3*"', 3),
                                                     ('options="header"', None), ('cols=4', 4), ('cols="2"', 2)])
def test_column_count(attributes: str, count: int | None) -> None:
    assert column_count(attributes) == count


def test_long_cells_take_linear_time(tmp_path: pytest.TempPathFactory) -> None:
    assert_linear("table-cell-lines", tmp_path)  # type: ignore[arg-type]
