"""A made-up extension in the book's form: the reference page of its command, the items it adds to a core
function's error list and query table inside its `ifdef`, its appendix page, and its registry XML. Nothing of it
is in the generator: what comes out right comes from the form."""

from __future__ import annotations

from typing import Any

import pytest

from generator import pipeline
from generator.ir import files as ir
from tests.samples import GIZMO_BOOK, GIZMO_CORE, GIZMO_PAGE, GIZMO_XML

BOOK, CORE, PAGE, XML = GIZMO_BOOK, GIZMO_CORE, GIZMO_PAGE, GIZMO_XML


def at(needle: str) -> str:
    """Where the book's made-up core file says `needle`, as the IR cites it."""
    return f"specs/api/core.asciidoc:{next(n for n, line in enumerate(CORE.split(chr(10)), 1) if needle in line)}"


@pytest.fixture(scope="module")
def gizmo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("checkout")
    for name, text in {"Book.txt": BOOK, "api/core.asciidoc": CORE, "api/cl_acme_gizmo.asciidoc": PAGE,
                       "xml/cl.xml": XML}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(root, extensions=("cl_acme_gizmo",)).extensions
    return ir.to_dict(extension)


def test_the_command_comes_with_the_xml_s_prototype_and_the_book_s_errors(gizmo: dict[str, Any]) -> None:
    functions = {f["name"]: f for f in gizmo["functions"]}
    made = functions["clMakeGizmoACME"]
    assert [(p["name"], p["type"]) for p in made["params"]] == [
        ("context", "cl_context"), ("kind", "cl_gizmo_kind_acme"), ("errcode_ret", "cl_int *")]
    assert made["source"] == "specs/xml/cl.xml:12"  # its <command>
    assert [(e["code"], e["source"]) for e in made["errors"]] == [
        ("CL_INVALID_CONTEXT", at("{CL_INVALID_CONTEXT} if")), ("CL_INVALID_VALUE", at("{CL_INVALID_VALUE} if _kind_"))]


def test_the_items_inside_its_ifdef_are_conditions_it_adds_to_the_core_function(gizmo: dict[str, Any]) -> None:
    functions = {f["name"]: f for f in gizmo["functions"]}
    core = functions["clGetMemObjectInfo"]
    assert core["core"] is True
    added = [(e["code"], e["source"]) for e in core["errors"]]
    assert added == [("CL_INVALID_GIZMO_ACME", at("{CL_INVALID_GIZMO_ACME} if"))]
    assert "another extension" not in str(gizmo)  # another extension's ifdef stays out


def test_its_rows_of_a_core_query_table_and_its_enums_by_type(gizmo: dict[str, Any]) -> None:
    (table,) = [t for t in gizmo["tables"] if any("CL_MEM_GIZMO_ACME" in row[0] for row in t["rows"])]
    assert [row[0] for row in table["rows"]] == ["CL_MEM_GIZMO_ACME"]  # the core rows are the frame, not kept
    groups = {g["name"]: g for g in gizmo["token_groups"]}
    assert groups["kind"]["functions"] == ["clMakeGizmoACME"] and groups["kind"]["c_type"] == "cl_gizmo_kind_acme"
    assert groups["mem_info"]["functions"] == ["clGetMemObjectInfo"]
    assert {t["name"]: (t["value"], t["group"]) for t in gizmo["tokens"]} == {
        "CL_GIZMO_ROUND_ACME": (0x9000, "kind"), "CL_MEM_GIZMO_ACME": (0x9001, "mem_info"),
        "CL_INVALID_GIZMO_ACME": (-9000, "error_code")}
    assert gizmo["revision"] == "Revision 1.0.0, 2026-01-01"
