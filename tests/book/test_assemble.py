"""A made-up extension in the book's form: the reference page of its command, the items it adds to a core
function's error list and query table inside its `ifdef`, its appendix page, and its registry XML. Nothing of it
is in the generator: what comes out right comes from the form."""

from __future__ import annotations

from typing import Any

import pytest

from generator import pipeline
from generator.ir import files as ir

BOOK = """= The Book
:numbered:

include::api/core.asciidoc[]
"""

CORE = """== Memory Objects

[open,refpage='clGetMemObjectInfo',desc='Query',type='protos']
--
To get information common to all memory objects, call the function

include::{generated}/api/protos/clGetMemObjectInfo.txt[]

[[mem-info-table]]
.List of supported param_names by {clGetMemObjectInfo}
[width="100%",cols="<33%,<17%,<50%",options="header"]
|====
| Memory Object Info | Return type | Description
| {CL_MEM_TYPE_anchor}
  | {cl_mem_object_type_TYPE}
    | Returns the type.
ifdef::cl_acme_gizmo[]
| {CL_MEM_GIZMO_ACME_anchor}
  | {cl_uint_TYPE}
    | If _memobj_ was made by {clMakeGizmoACME}, returns its _kind_ argument.
endif::cl_acme_gizmo[]
|====

// refError

{clGetMemObjectInfo} returns {CL_SUCCESS} if the function is executed
successfully.
Otherwise, it returns one of the following errors:

  * {CL_INVALID_MEM_OBJECT} if _memobj_ is a not a valid memory object.
ifdef::cl_acme_gizmo[]
  * {CL_INVALID_GIZMO_ACME} if _param_name_ is {CL_MEM_GIZMO_ACME} and
    _memobj_ was not made by {clMakeGizmoACME}.
endif::cl_acme_gizmo[]
--

ifdef::cl_acme_gizmo[]
=== Gizmos

[open,refpage='clMakeGizmoACME',desc='Make a gizmo',type='protos']
--
To make a gizmo, call the function

include::{generated}/api/protos/clMakeGizmoACME.txt[]

  * _context_ is a valid OpenCL context.
  * _kind_ is the kind of gizmo.
  * _errcode_ret_ will return an appropriate error code.

// refError

{clMakeGizmoACME} returns a valid non-zero memory object and _errcode_ret_
is set to {CL_SUCCESS} if it is made successfully.
Otherwise, it returns a `NULL` value with one of the following error values
returned in _errcode_ret_:

  * {CL_INVALID_CONTEXT} if _context_ is not a valid context.
  * {CL_INVALID_VALUE} if _kind_ is not one of the kinds of gizmo.
--
endif::cl_acme_gizmo[]

ifdef::cl_other_thing[]
  * {CL_INVALID_VALUE} if this belongs to another extension.
endif::cl_other_thing[]
"""

PAGE = """include::{generated}/meta/{refprefix}cl_acme_gizmo.txt[]

=== Description

{cl_acme_gizmo_EXT} makes gizmos.

=== New Commands

  * {clMakeGizmoACME}

=== New Types

  * {cl_gizmo_kind_acme_TYPE}

=== New Enums

  * {cl_gizmo_kind_acme_TYPE}
  ** {CL_GIZMO_ROUND_ACME}
  * {cl_mem_info_TYPE}
  ** {CL_MEM_GIZMO_ACME}
  * New Error Codes
  ** {CL_INVALID_GIZMO_ACME}

=== Version History

  * Revision 1.0.0, 2026-01-01
  ** First version.
"""

XML = """<?xml version="1.0" encoding="UTF-8"?>
<registry>
    <types>
        <type category="define">typedef <type>cl_uint</type> <name>cl_gizmo_kind_acme</name>;</type>
    </types>
    <enums name="enums.9000" start="0x9000" end="0x900F">
        <enum value="0x9000" name="CL_GIZMO_ROUND_ACME"/>
        <enum value="0x9001" name="CL_MEM_GIZMO_ACME"/>
        <enum value="-9000" name="CL_INVALID_GIZMO_ACME"/>
    </enums>
    <commands>
        <command>
            <proto><type>cl_mem</type> <name>clMakeGizmoACME</name></proto>
            <param><type>cl_context</type> <name>context</name></param>
            <param><type>cl_gizmo_kind_acme</type> <name>kind</name></param>
            <param><type>cl_int</type>* <name>errcode_ret</name></param>
        </command>
    </commands>
    <extensions>
        <extension name="cl_acme_gizmo" supported="opencl">
            <require>
                <type name="cl_gizmo_kind_acme"/>
                <enum name="CL_GIZMO_ROUND_ACME"/>
                <enum name="CL_MEM_GIZMO_ACME"/>
                <enum name="CL_INVALID_GIZMO_ACME"/>
                <command name="clMakeGizmoACME"/>
            </require>
        </extension>
    </extensions>
</registry>
"""


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
