"""The corpus' scoring rules (tests/scoring.py), on small IRs made for each rule."""

from __future__ import annotations

from typing import Any

from tests.scoring import Run, canonical_type, score

ENTRY: dict[str, Any] = {
    "file": "x.txt", "extension": "cl_x", "expected": "generate",
    "functions": [
        {"name": "clF", "return_type": "cl_int", "params": [{"type": "const cl_mem *", "name": "objects"}]},
        {"name": "clNamedOnly", "return_type": None, "params": None},
    ],
    "tokens": [{"name": "CL_A", "value": 0x10}, {"name": "CL_B", "value": None}],
    "errors": {"clF": [{"code": "CL_INVALID_VALUE", "line": 10}, {"code": "CL_INVALID_VALUE", "line": 20}]},
    "core_functions": {},
}


def ir(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "functions": [{"name": "clF", "return_type": "cl_int", "params": [{"type": "const cl_mem*", "name": "objects"}],
                       "errors": [{"code": "CL_INVALID_VALUE", "source": "specs/x.txt:21"},
                                  {"code": "CL_INVALID_VALUE", "source": "specs/x.txt:90"}]}],
        "tokens": [{"name": "CL_A", "value": 16}, {"name": "CL_B", "value": None}],
        "diagnostics": [{"message": "clNamedOnly is named but never declared"}],
    }
    return base | changes


def test_a_complete_ir_scores_in_full() -> None:
    result = score(ENTRY, Run(ir(), 0, ""))
    assert result.clean and result.total == 1 + 2 + 1 + 2 + 1 + 2


def test_each_kind_of_miss_costs_a_point() -> None:
    result = score(ENTRY, Run(ir(tokens=[{"name": "CL_A", "value": 17}], diagnostics=[]), 0, ""))
    assert result.total - result.ok == 3
    assert any("CL_B" in m for m in result.misses) and any("clNamedOnly" in m for m in result.misses)


def test_no_ir_scores_no_point_of_its_own() -> None:
    result = score(ENTRY, Run(None, 2, ""))
    assert result.ok == 0 and "no IR written" in result.misses[0]


def test_a_condition_matches_near_its_line_first_then_by_code() -> None:
    one = ir(functions=[{**ir()["functions"][0], "errors": [{"code": "CL_INVALID_VALUE", "source": "s:90"}]}])
    result = score(ENTRY, Run(one, 0, ""))
    assert result.total - result.ok == 1 and "line" in result.misses[0]


def test_a_refusal_must_be_exit_2_citing_the_defect() -> None:
    entry = {**ENTRY, "expected": "refuse: two declarations", "refuse_at": [[5, 7]]}
    assert score(entry, Run(None, 2, "specs/x.txt:6:1: error: declared twice")).clean
    assert not score(entry, Run(None, 2, "specs/x.txt:60:1: error: something else")).clean
    assert not score(entry, Run(None, 1, "specs/x.txt:6:1: error: declared twice")).clean
    assert not score(entry, Run(ir(), 0, "")).clean


def test_types_compare_without_spacing_and_callbacks_without_argument_names() -> None:
    assert canonical_type("const cl_mem *") == canonical_type("const cl_mem*")
    assert canonical_type("void * []") == canonical_type("void **")
    assert canonical_type("void (CL_CALLBACK *)(cl_event e, void *user_data)") == canonical_type(
        "void (*pfn)(cl_event, void *)")
    assert canonical_type("cl_int") != canonical_type("cl_uint")
