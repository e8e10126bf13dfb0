"""The floor's table: the whole call and the floor against the marker, each step below (no time is asserted)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.bench import calls, floor
from tests.support import ROOT


def test_the_table_gives_the_whole_call_and_the_floor_as_multiples_of_the_marker() -> None:
    found = [("whole", 4.0, False), ("floor", 3.0, False), ("marker", 1.0, False), ("a step", 0.5, True),
             ("another", 0.25, False)]
    lines = floor.table(found).splitlines()
    assert "4.0x the marker" in lines[0] and "3.0x the marker" in lines[1]
    assert lines[-2].endswith("(a step of the floor)") and not lines[-1].endswith(")")


def test_it_runs_on_pocl_with_a_row_per_step() -> None:
    env = {**os.environ, "POCL_DEVICES": calls.POCL_DEVICE, calls.CHECKS_SWITCH: "1"}
    done = subprocess.run([sys.executable, "-m", "tests.bench.floor", "--seconds", "0.002"], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 9 and "the floor" in done.stdout
