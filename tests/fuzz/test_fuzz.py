"""Damaged specs through the whole generator: valid output or a clean `file:line:col: error`, nothing else.

The number of cases and the seed come from the environment (FUZZ_CASES, and
pytest's --hypothesis-seed), which `python -m tests.fuzz` sets for its long
run; by default a fixed-seed share runs within `make test`. With FUZZ_LOG set,
each case adds one JSON line there for the long run's report.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.fuzz import harness
from tests.fuzz.ir_mutations import IrCase, ir_cases
from tests.fuzz.mutations import (
    BOOK,
    BOOK_SEEDS,
    SPEC_SEEDS,
    Case,
    Mutation,
    cases,
    mutations,
    section_boundaries,
    write,
)
from tests.pathological import SHAPES

CASES = int(os.environ.get("FUZZ_CASES", "120"))
#: Damaged IR files through `diff`: a fifth as many as damaged specs (each case is quicker: no generation).
IR_CASES = max(1, CASES // 5)
LOG = os.environ.get("FUZZ_LOG")
#: Damaged books through `generate --extension`: a tenth as many (each reads the whole 2.2 MB book).
BOOK_CASES = max(4, CASES // 10)
#: Every section boundary in the long run; every fifth in `make test`.
BOUNDARY_STEP = 1 if "FUZZ_CASES" in os.environ else 5


def record(seed: str, kinds: str, outcome: harness.Outcome) -> None:
    if LOG:
        entry = {"seed": seed, "kinds": kinds, "verdict": outcome.verdict, "status": outcome.status,
                 "seconds": round(outcome.seconds, 4), "reason": outcome.reason}
        with open(LOG, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


@settings(max_examples=CASES, deadline=None, database=None, derandomize="FUZZ_CASES" not in os.environ,
          suppress_health_check=list(HealthCheck))
@given(case=cases)
def test_a_damaged_spec_gives_output_or_a_clean_error(case: Case, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("case")
    files = case.files()
    write(files, folder / "specs")
    outcome = harness.run(folder, files)
    event(f"outcome: {outcome.verdict}")
    record(case.seed, case.kinds() + ("+others" if case.with_others else ""), outcome)
    assert outcome.verdict != "FAIL", f"{case}\n{outcome.reason}\n--- stderr ---\n{outcome.stderr[-3000:]}"


@settings(max_examples=BOOK_CASES, deadline=None, database=None, derandomize="FUZZ_CASES" not in os.environ,
          suppress_health_check=list(HealthCheck))
@given(seed=st.sampled_from(sorted(BOOK_SEEDS)), changes=st.lists(mutations, min_size=1, max_size=4).map(tuple))
def test_a_damaged_book_gives_output_or_a_clean_error(seed: str, changes: tuple[Mutation, ...],
                                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """One file of the 2026 OpenCL book (a section, an appendix page, the registry XML) damaged, the D3D
    extensions cut out of it."""
    data = BOOK_SEEDS[seed]
    for change in changes:
        data = change.apply(data)
    outcome = harness.run_book(tmp_path_factory.mktemp("book-case"), BOOK, {seed: data},
                               ("cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing"))
    kinds = "+".join(type(change).__name__ for change in changes)
    event(f"outcome: {outcome.verdict}")
    record(f"book/{seed}", kinds, outcome)
    assert outcome.verdict != "FAIL", f"{seed} {changes}\n{outcome.reason}\n--- stderr ---\n{outcome.stderr[-3000:]}"


@settings(max_examples=IR_CASES, deadline=None, database=None, derandomize="FUZZ_CASES" not in os.environ,
          suppress_health_check=list(HealthCheck))
@given(case=ir_cases)
def test_a_damaged_ir_gives_a_diff_or_a_clean_error(case: IrCase, tmp_path_factory: pytest.TempPathFactory) -> None:
    """`diff` over a damaged copy of a committed IR file: the API changes (still an IR), or exit 2 pointing into it."""
    outcome = harness.run_diff(tmp_path_factory.mktemp("ir-case"), case.seed, case.damaged())
    event(f"outcome: {outcome.verdict}")
    record(f"ir/{case.seed}", case.kinds(), outcome)
    assert outcome.verdict != "FAIL", f"{case}\n{outcome.reason}\n--- stderr ---\n{outcome.stderr[-3000:]}"


@pytest.mark.parametrize("seed", sorted(SPEC_SEEDS))
def test_every_truncation_at_a_section_boundary(seed: str, tmp_path: Path) -> None:
    """Each seed cut where each of its sections starts: the head alone, as if the file ended early."""
    boundaries = section_boundaries(SPEC_SEEDS[seed])
    assert len(boundaries) >= 5, "the boundary finder sees the seed's sections"
    for number, cut in enumerate(boundaries[::BOUNDARY_STEP]):
        files = {seed: SPEC_SEEDS[seed][:cut]}
        folder = tmp_path / str(number)
        write(files, folder / "specs")
        outcome = harness.run(folder, files)
        record(seed, "TruncateAtSection(every)", outcome)
        assert outcome.verdict != "FAIL", f"{seed} cut at byte {cut}: {outcome.reason}\n{outcome.stderr[-3000:]}"


#: The shapes `make test` runs at 256 KB (the long run runs them all): a fraction of a second each.
SHARE = ("token-padded", "reference-markers", "term-line-blanks")


@pytest.mark.parametrize("shape", [s for s in SHAPES if "FUZZ_CASES" in os.environ or s in SHARE])
def test_every_pathological_shape_at_256_kb(shape: str, tmp_path: Path) -> None:
    """Each shape that once took quadratic time, at 256 KB: valid output or a clean error within the bound."""
    files = SHAPES[shape].files(256 * 1024)
    write(files, tmp_path / "specs")
    outcome = harness.run(tmp_path, files)
    record(SHAPES[shape].seed, f"Pathological({shape})", outcome)
    assert outcome.verdict != "FAIL", f"{shape}: {outcome.reason}\n{outcome.stderr[-3000:]}"
