"""The coverage report: every clause with its class, and whether a generated check enforces it."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace

import pytest

from generator import coverage
from generator.emission.package_model import Package
from generator.ir import read
from generator.ir.model import Extension
from generator.pipeline import Result
from tests.support import ROOT, packaged


@pytest.fixture(scope="module")
def irs(seed_result: Result) -> list[Extension]:
    return [read.record(extension) for extension in seed_result.extensions]


@pytest.fixture(scope="module")
def package(irs: list[Extension]) -> Package:
    return packaged(irs)


def test_no_host_or_state_clause_is_unchecked(irs: list[Extension], package: Package) -> None:
    found = coverage.rows(irs, package)
    assert coverage.gaps(found) == []
    assert all(row.enforced == (row.kind != "driver") for row in found)
    assert {row.extension for row in found if row.kind == "state"} == {i.name for i in irs}


def test_the_readme_shows_the_totals(irs: list[Extension], package: Package) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for kind, (count, enforced) in coverage.totals(coverage.rows(irs, package)).items():
        shown = "(the implementation's)" if kind == "driver" else str(enforced)
        assert re.search(rf"\| {kind} \| {count} \| {re.escape(shown)} \|", readme), kind


def test_a_check_the_package_lost_is_a_gap(irs: list[Extension], package: Package) -> None:
    first = package.extensions[0]
    function = next(f for f in first.functions if f.checks)
    dropped = replace(function, checks=function.checks[1:])
    functions = tuple(dropped if f is function else f for f in first.functions)
    broken = replace(package, extensions=(replace(first, functions=functions), *package.extensions[1:]))
    missing = coverage.gaps(coverage.rows(irs, broken))
    assert [(row.function, row.clause) for row in missing] == [
        (function.name, clause) for clause in function.checks[0].clauses]
    assert "MISSING" in coverage.render(coverage.rows(irs, broken))


def test_the_command_prints_every_clause_and_exits_0() -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "coverage"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "  clEnqueueAcquireD3D11ObjectsKHR" in lines
    assert any(line.startswith("    [checked] state  CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR: any of mem_objects")
               for line in lines)
    assert lines[-1] == "0 host or state clause(s) unchecked"
