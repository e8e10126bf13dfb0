"""Conditions that cannot be read as the text meant them: named at default verbosity, marked in the IR, the docs
and the docstrings, never checked, and `coverage` fails for them (`analysis/damaged.py`).

The example: the collapsed NVIDIA D3D11 text lost its `<param>` names, which its sibling (the D3D10 text)
restores. Generated alone, nothing restores them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.analysis.damaged import gaps
from generator.ir import read
from generator.ir.model import Extension
from tests.pathological import assert_linear
from tests.support import GENERATED, SPECS, CliRun

COLLAPSED = "cl_nv_d3d11_sharing.txt"


def generate(tmp_path: Path, main: Callable[..., CliRun], files: dict[str, str]) -> CliRun:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name, text in files.items():
        (specs / name).write_text(text, encoding="utf-8")
    return main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)


def damaged(ir: Extension) -> list[tuple[str, str, str, str]]:
    """(function, code, place as cited, why) of every damaged condition."""
    return [(f.name, e.code, e.source.cited(), e.damaged) for f in ir.functions for e in f.errors if e.damaged]


@pytest.fixture
def alone(tmp_path: Path, main: Callable[..., CliRun]) -> tuple[CliRun, Extension]:
    run = generate(tmp_path, main, {COLLAPSED: (SPECS / COLLAPSED).read_text(encoding="utf-8")})
    assert run.status == 0, run.err
    return run, read.load(tmp_path / "out" / "ir" / "cl_nv_d3d11_sharing.yaml")


def test_the_collapsed_text_alone_names_each_condition_it_could_not_restore(alone: tuple[CliRun, Extension]) -> None:
    run, ir = alone
    marked = damaged(ir)
    conditions = [e for f in ir.functions for e in f.errors]
    assert len(marked) == 37 and len(conditions) == 48
    said = [line for line in run.err.splitlines() if "that no other text restores" in line]
    assert len(said) == len(marked)  # at default verbosity, one each
    for function, code, where, why in marked:
        assert why.startswith("lost parameter names (") and why.endswith(") that no other text restores")
        assert any(line.startswith(f"{where}: warning: {function} {code}: the condition '") for line in said)
    undamaged = {e.condition for e in conditions if e.damaged is None}
    assert "there is a failure to allocate resources required by the OpenCL implementation on the host" in undamaged
    assert all("if is" not in c and " in are" not in c for c in undamaged)


def test_a_damaged_condition_has_no_check_and_is_marked_in_the_docs_and_the_docstring(
        alone: tuple[CliRun, Extension], tmp_path: Path) -> None:
    _, ir = alone
    platform = next(e for f in ir.functions for e in f.errors if e.code == "CL_INVALID_PLATFORM")
    assert platform.condition == "is not a valid platform" and platform.damaged is not None
    assert all(c.kind == "driver" and c.predicate is None for c in platform.check)
    page = (tmp_path / "out" / "docs" / "nv_d3d11" / "clGetDeviceIDsFromD3D11NV.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `CL_INVALID_PLATFORM`"))
    assert "**damaged, not restored**: lost parameter names (at its start) that no other text restores" in row
    module = (tmp_path / "out" / "cl_d3d_sharing" / "nv_d3d11.py").read_text(encoding="utf-8")
    assert "- CL_INVALID_PLATFORM: is not a valid platform [damaged: not restored, not checked]" in module


def test_coverage_fails_naming_each_damaged_condition(alone: tuple[CliRun, Extension], tmp_path: Path,
                                                       main: Callable[..., CliRun]) -> None:
    _, ir = alone
    run = main("coverage", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "cover"), cwd=tmp_path)
    assert run.status == 1
    rows = re.findall(r"\[DAMAGED\] (\w+): .*  \((specs/[^)]+)\)\n\s+why: (.*)", run.out)
    assert sorted(rows) == sorted((code, where, why) for _, code, where, why in damaged(ir))
    assert "37 condition(s) damaged: not read as checks" in run.out


def test_with_its_sibling_every_condition_is_restored(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    names = (COLLAPSED, "cl_nv_d3d10_sharing.txt")
    run = generate(tmp_path, main, {name: (SPECS / name).read_text(encoding="utf-8") for name in names})
    assert run.status == 0, run.err
    assert "restores" not in run.err
    assert damaged(read.load(tmp_path / "out" / "ir" / "cl_nv_d3d11_sharing.yaml")) == []
    assert all("damaged" not in p.read_text(encoding="utf-8") for p in (GENERATED / "ir").glob("*.yaml"))


@pytest.mark.parametrize("sibling", [None, "cl_khr_d3d10_sharing.txt"])
def test_any_text_that_lost_its_names_is_handled_alike(tmp_path: Path, main: Callable[..., CliRun],
                                                       sibling: str | None) -> None:
    """The NVIDIA D3D10 text with its `<name>`s dropped, alone: every condition that named a parameter is damaged.
    Beside the Khronos D3D10 text, which words some conditions alike, those are restored and the rest named."""
    stripped = re.sub(r"<\w+>", "", (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8"))
    files = {"cl_nv_d3d10_sharing.txt": stripped}
    if sibling:
        files[sibling] = (SPECS / sibling).read_text(encoding="utf-8")
    run = generate(tmp_path, main, files)
    assert run.status == 0, run.err
    ir = read.load(tmp_path / "out" / "ir" / "cl_nv_d3d10_sharing.yaml")
    marked = damaged(ir)
    restored = [e for f in ir.functions for e in f.errors if e.recovered == "parameter names" and not e.damaged]
    assert len(marked) == (14 if sibling else 37) and len(restored) == (23 if sibling else 0)
    assert len([line for line in run.err.splitlines() if "that no other text restores" in line]) == len(marked)
    acquire = next(f for f in ir.functions if f.name == "clEnqueueAcquireD3D10ObjectsNV")
    assert bool(acquire.effects) == bool(sibling)  # "acquired using F" with its objects lost records nothing


@pytest.mark.parametrize(("condition", "places"), [
    ("is not a valid platform", ["at its start"]),
    ("> 0 and is NULL", ["at its start"]),
    ("values specified in are not valid", ["after 'in'"]),
    ("no OpenCL devices that correspond to were found", ["after 'to'"]),
    ("is not a valid subresource index for", ["at its start", "after 'for'"]),
    ("both and are NULL", ["after 'both'"]),
    ("is NULL and > 0, or is not NULL", ["at its start", "after 'and'"]),
    ("the size in bytes specified by is less than the size", ["after 'by'"]),
    ("the widget, > 4", ["after ','"]),
    ("if is zero", ["after 'if'"]),
])
def test_where_a_name_was_lost_is_told_from_the_words_around(condition: str, places: list[str]) -> None:
    assert gaps(condition) == places


@pytest.mark.parametrize("condition", [
    "there is a failure to allocate resources required by the OpenCL implementation on the host",
    "the value of the property is non-NULL and does not specify a valid device",
    "<num_objects> is zero and is not a NULL value",
    "memory objects that are not valid, or if they have not been acquired",
    "the context is to be created with the devices which were given",
    "<flags> is not a valid value, or if <size> > 4",
    "an implementation needs to have been told",
])
def test_a_condition_that_lost_nothing_has_no_gap(condition: str) -> None:
    assert gaps(condition) == []


def test_thousands_of_damaged_conditions_take_linear_time(tmp_path: Path) -> None:
    assert_linear("damaged-conditions", tmp_path)


def test_the_table_rows_the_collapsed_text_alone_cannot_restore_are_named(alone: tuple[CliRun, Extension]) -> None:
    """Its table rows "If was created using ..., returns the argument specified when was created." were kept with
    their gaps in silence (at default verbosity); a cell that starts with its verb ("Specifies the ...") lost
    nothing."""
    run, ir = alone
    said = [line for line in run.err.splitlines() if "the row is kept with the gaps" in line]
    assert [line.split(": the cell")[0] for line in said] == [
        "specs/cl_nv_d3d11_sharing.txt:1:5663: warning: table mem_info, row CL_MEM_D3D11_RESOURCE_NV",
        "specs/cl_nv_d3d11_sharing.txt:1:6586: warning: table image_info, row CL_IMAGE_D3D11_SUBRESOURCE_NV"]
    assert all("lost parameter names (after 'if', after 'when'), which no other text restores" in s for s in said)
    assert len([d for d in ir.diagnostics if d.kind == "unrestored-row"]) == 2
