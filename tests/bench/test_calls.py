"""The calls benchmark runs, in both modes, and reads its targets right (no time is asserted: `make bench` does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.bench import calls
from tests.support import ROOT


def test_a_ratio_over_its_target_is_missed_and_a_row_without_one_never_is() -> None:
    row = calls.Row("mine", 3.0, "theirs", 1.0, 3.0, 2.0)
    assert not row.met and "<= 2.0x MISSED" in calls.table([row])
    assert calls.Row("mine", 3.0, "theirs", 1.0, 3.0, None).met
    assert calls.Row("mine", 2.0, "theirs", 1.0, 2.0, 2.0).met


@pytest.mark.parametrize(("checks", "targets"), [
    ("on", [calls.MARKER_TARGET, calls.BARRIER_TARGET, calls.RAISING_TARGET, calls.RAISING_TARGET, None, None]),
    ("off", [calls.OFF_C_TARGET, calls.OFF_PYTHONIC_TARGET]),
])
def test_each_mode_measures_its_rows_in_a_process_of_its_own(checks: str, targets: list[float | None]) -> None:
    env = {**os.environ, calls.CHECKS_SWITCH: "1" if checks == "on" else "0", "POCL_DEVICES": calls.POCL_DEVICE}
    done = subprocess.run([sys.executable, "-m", "tests.bench.calls", "--child", checks, "--rounds", "1",
                           "--seconds", "0.002"], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    rows = [calls.Row(**row) for row in json.loads(done.stdout)]
    assert [r.target for r in rows] == targets
    assert all(r.us > 0 and r.reference_us > 0 for r in rows)
    assert all(("checks off" in r.what) == (checks == "off") for r in rows if "cffi" in r.what)


def test_a_child_whose_package_has_the_other_mode_refuses_to_measure() -> None:
    env = {**os.environ, calls.CHECKS_SWITCH: "0", "POCL_DEVICES": calls.POCL_DEVICE}
    done = subprocess.run([sys.executable, "-m", "tests.bench.calls", "--child", "on", "--rounds", "1"], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "checks are off, not on" in done.stderr
