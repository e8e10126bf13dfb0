"""Tables in one canonical shape."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.base.diagnostics import Location
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import TableFact, TableRowFact
from generator.ir import read
from generator.ir.model import Extension, Token
from generator.merging.tables import canonical
from tests.support import SPECS, CliRun

WHERE = Location("t.txt", Pos(1))


def table(header: tuple[str, ...] | None, *rows: tuple[str, ...]) -> TableFact:
    return TableFact(header, tuple(TableRowFact(r, Location("t.txt", Pos(i + 2))) for i, r in enumerate(rows)), WHERE)


def ext() -> Extension:
    return Extension("cl_acme_widget", "ACME", None, {}, (),
                     tokens=(Token("CL_WIDGET_ACME", 1, "widget_source", WHERE),))


def test_pairs_are_split_and_enum_columns_named_by_their_group(knowledge: Knowledge) -> None:
    fact = table(("Format", "CL image format (channel order, channel data type)"),
                 ("DXGI_FORMAT_R8_UINT", "CL_R, CL_UNSIGNED_INT8"), ("DXGI_FORMAT_R8_SINT", "CL_R, CL_SIGNED_INT8"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None
    assert (result.name, result.columns) == ("dxgi_format_mapping", ("dxgi_format", "channel_order", "channel_type"))
    assert result.rows[1] == ("DXGI_FORMAT_R8_SINT", "CL_R", "CL_SIGNED_INT8")
    assert result.header == ("Format", "channel order", "channel data type")


def test_types_defaults_and_descriptions(knowledge: Knowledge) -> None:
    fact = table(None, ("CL_WIDGET_ACME", "IWidget*", "Specifies the widget. The default value is NULL."))
    result = canonical(fact, ext(), knowledge)
    assert result is not None
    assert (result.name, result.columns) == ("widget_source", ("widget_source", "type", "default", "description"))
    assert result.rows[0][:3] == ("CL_WIDGET_ACME", "IWidget *", "NULL")


def test_a_table_of_unknown_keys_is_named_from_its_header(knowledge: Knowledge) -> None:
    fact = table(("cl_image_info", "Return type"), ("CL_WIDGETS_ACME", "UINT"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None and (result.name, result.columns) == ("image_info", ("image_info", "type"))
    assert result.row_sources == (Location("t.txt", Pos(2)),)


def test_a_header_named_type_over_tokens_is_no_column_of_types(knowledge: Knowledge) -> None:
    fact = table(("Type", "Description"), ("CL_BLOCK_16x16_ACME", "Each block is 16x16"),
                 ("CL_BLOCK_8x8_ACME", "Each block is 8x8"))
    result = canonical(fact, ext(), knowledge)
    assert result is not None and "type" not in result.columns
    assert (result.name, result.columns) == ("table", ("table", "description"))


# -- one row per key: conflicting rows are diagnostics, not "the last wins" ------------------------------------

NV = "cl_nv_d3d10_sharing.txt"
ROW = "    DXGI_FORMAT_R32G32B32A32_FLOAT   CL_RGBA           CL_FLOAT\n"


def _generate(files: dict[str, str], tmp_path: Path, main: Callable[..., CliRun]) -> CliRun:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name, text in files.items():
        (specs / name).write_text(text, encoding="utf-8")
    return main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), "-v", cwd=tmp_path)


def _nv(row_after: str) -> str:
    text = (SPECS / NV).read_text(encoding="utf-8")
    assert text.count(ROW) == 1
    return text.replace(ROW, ROW + row_after)


def _rows(tmp_path: Path, key: str) -> list[list[str]]:
    (table,) = [t for t in read.load(tmp_path / "out" / "ir" / "cl_nv_d3d10_sharing.yaml").tables
                if t.name == "dxgi_format_mapping"]
    return [list(row) for row in table.rows if row[0] == key]


@pytest.mark.parametrize("other", [
    "    DXGI_FORMAT_R32G32B32A32_FLOAT   CL_RGBA           CL_HALF_FLOAT\n",
    "    DXGI_FORMAT_R32G32B32A32_FLOAT   CL_BGRA           CL_FLOAT\n",
    "    DXGI_FORMAT_R32G32B32A32_UINT    CL_RGBA           CL_UNSIGNED_INT32\n"
    "    DXGI_FORMAT_R32G32B32A32_FLOAT   CL_R              CL_FLOAT\n",
])
def test_one_table_mapping_one_format_two_ways_is_an_input_error(other: str, tmp_path: Path,
                                                                 main: Callable[..., CliRun]) -> None:
    """The package's lookup took the last row in silence, the docs showed both."""
    run = _generate({NV: _nv(other)}, tmp_path, main)
    assert run.status == 2, run.err
    first = run.err.splitlines()[0]
    line = 533 + other.count("\n")
    assert first.startswith(f"specs/{NV}:{line}:") and "table dxgi_format_mapping: row DXGI_FORMAT_R32G32B32A32_FLOAT" \
        in first and first.endswith(f"at specs/{NV}:533:5, in the same table: which one holds, the text does not tell")


def test_a_row_given_twice_alike_is_kept_once_with_a_note(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    run = _generate({NV: _nv(ROW)}, tmp_path, main)
    assert run.status == 0, run.err
    assert f"specs/{NV}:534: note: table dxgi_format_mapping: row DXGI_FORMAT_R32G32B32A32_FLOAT is given again" \
        in run.err
    assert _rows(tmp_path, "DXGI_FORMAT_R32G32B32A32_FLOAT") == [["DXGI_FORMAT_R32G32B32A32_FLOAT", "CL_RGBA",
                                                                  "CL_FLOAT"]]


def test_two_texts_mapping_one_format_two_ways_use_the_first_and_say_so(tmp_path: Path,
                                                                       main: Callable[..., CliRun]) -> None:
    text = (SPECS / NV).read_text(encoding="utf-8")
    changed = text.replace(ROW, ROW.replace("CL_FLOAT", "CL_HALF_FLOAT"))
    run = _generate({"a.txt": text, "b.txt": changed}, tmp_path, main)
    assert run.status == 0, run.err
    assert ("specs/b.txt:533: warning: table dxgi_format_mapping: row DXGI_FORMAT_R32G32B32A32_FLOAT reads "
            "['DXGI_FORMAT_R32G32B32A32_FLOAT', 'CL_RGBA', 'CL_HALF_FLOAT'] here but "
            "['DXGI_FORMAT_R32G32B32A32_FLOAT', 'CL_RGBA', 'CL_FLOAT'] at specs/a.txt:533:5, which is used; this row "
            "is left out") in run.err
    assert _rows(tmp_path, "DXGI_FORMAT_R32G32B32A32_FLOAT") == [["DXGI_FORMAT_R32G32B32A32_FLOAT", "CL_RGBA",
                                                                  "CL_FLOAT"]]
    formats = (tmp_path / "out" / "cl_d3d_sharing" / "formats.py").read_text(encoding="utf-8")
    assert [line.strip() for line in formats.splitlines() if "DXGIFormat.R32G32B32A32_FLOAT:" in line] == [
        "DXGIFormat.R32G32B32A32_FLOAT: CLFormat(ChannelOrder.RGBA, ChannelType.FLOAT),"]


KHR = "cl_khr_d3d11_sharing.txt"
KHR_ROW = "| DXGI_FORMAT_R32G32B32A32_UINT  | CL_RGBA, CL_UNSIGNED_INT32\n"


@pytest.mark.parametrize(("row", "said"), [
    ("| dxgi_format_r32g32b32a32_uint | CL_RGBA, CL_UNSIGNED_INT32\n",
     "table dxgi: column 1 holds dxgi_format in 36 of its 37 cells, but not `dxgi_format_r32g32b32a32_uint`: it is "
     "read as dxgi, not as dxgi_format"),
    ("| DXGI_FORMAT_R32G32B32A32_UINT (1) | CL_RGBA, CL_UNSIGNED_INT32\n",
     "table dxgi: column 1 holds dxgi_format in 36 of its 37 cells, but not `DXGI_FORMAT_R32G32B32A32_UINT (1)`"),
    ("| DXGI_FORMAT_R32G32B32A32_UINT | CL_RGBA; CL_UNSIGNED_INT32\n",
     "table dxgi_format: column 2 holds channel_order, channel_type in 36 of its 37 cells, but not "
     "`CL_RGBA; CL_UNSIGNED_INT32`: it is read as description"),
    ("| DXGI_FORMAT_R32G32B32A32_UINT | CL_RGBA, CL_UNSIGNED_INT32 [2]\n",
     "table dxgi_format: column 2 holds channel_order, channel_type in 36 of its 37 cells, but not "
     "`CL_RGBA, CL_UNSIGNED_INT32 [2]`"),
])
def test_one_odd_cell_that_turns_a_table_into_no_lookup_is_named(row: str, said: str, tmp_path: Path,
                                                                 main: Callable[..., CliRun]) -> None:
    """One cell of 37 that is no token of its column's group (lower case, a footnote mark, another separator) made
    the column prose: the extension's whole format table left the package's `formats` without a word, and its rows
    were no longer compared for duplicates."""
    text = (SPECS / KHR).read_text(encoding="utf-8")
    assert text.count(KHR_ROW) == 1
    run = _generate({KHR: text.replace(KHR_ROW, row)}, tmp_path, main)
    assert run.status == 0, run.err
    (warned,) = [line for line in run.err.splitlines() if ": warning: table dxgi" in line]
    assert warned.startswith(f"specs/{KHR}:585: warning: {said}") and "the package has none for it" in warned
    assert not (tmp_path / "out" / "cl_d3d_sharing" / "formats.py").exists()  # what the warning says


def test_a_table_row_without_its_first_cell_is_named(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """A row whose key cell is empty was dropped in silence."""
    text = (SPECS / KHR).read_text(encoding="utf-8")
    run = _generate({KHR: text.replace(KHR_ROW, "| | CL_RGBA, CL_UNSIGNED_INT32\n")}, tmp_path, main)
    assert run.status == 0, run.err
    assert (f"specs/{KHR}:592: warning: this row of table dxgi_format_mapping has no first cell (its key), so it is "
            "not kept:  | CL_RGBA, CL_UNSIGNED_INT32") in run.err.splitlines()
