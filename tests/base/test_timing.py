"""The stage clock behind `generate --timings` and `make bench`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.base import timing
from generator.base.errors import InputError
from tests.support import GENERATED, ROOT, SPECS, CliRun, snapshot


class Clock:
    """A clock that moves only when told: stage times as exact as the test says, whatever the machine does."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(timing, "time", made)
    monkeypatch.setattr(timing, "_mark", made.now)
    return made


def test_a_nested_stage_is_not_counted_twice(clock: Clock) -> None:
    before = timing.totals()
    with timing.stage("outer test stage"):
        clock.now += 0.02
        with timing.stage("inner test stage"):
            clock.now += 0.03
        clock.now += 0.01
    clock.now += 0.5  # outside every stage: `other`
    after = timing.totals()
    outer = after["outer test stage"] - before.get("outer test stage", 0.0)
    inner = after["inner test stage"] - before.get("inner test stage", 0.0)
    assert (round(outer, 6), round(inner, 6)) == (0.03, 0.03)  # counted twice, the outer would be 0.06
    assert round(after[timing.OTHER] - before.get(timing.OTHER, 0.0), 6) == 0.5


def test_a_stage_that_raises_is_still_closed() -> None:
    try:
        with timing.stage("failing test stage"):
            raise ValueError
    except ValueError:
        pass
    before = timing.totals()["failing test stage"]
    time.sleep(0.01)
    assert timing.totals()["failing test stage"] == before


def test_generate_writes_every_stage_of_the_pipeline(tmp_path: Path) -> None:
    """A cold run charges each stage it went through (no time is compared: the file says where the run's time
    went, which a loaded machine changes)."""
    subprocess.run([sys.executable, "-m", "generator", "generate", "--force", "--specs", str(SPECS),
                    "--out", str(tmp_path / "out"), "--timings", str(tmp_path / "t.json")],
                   cwd=ROOT, check=True, capture_output=True)
    stages = json.loads((tmp_path / "t.json").read_text())
    for name in ("import", "read", "detect", "parse collapsed", "parse asciidoc", "extract", "merge", "IR",
                 "template compile", "template render", "cffi modules", "write"):
        assert stages[name] > 0, name
    assert all(seconds >= 0 for seconds in stages.values())


@pytest.mark.parametrize("where", ["no/such/folder/t.json", "a folder", "/dev/full"])
def test_a_timings_file_that_cannot_be_written_is_a_clean_error(
    tmp_path: Path, main: Callable[..., CliRun], where: str,
) -> None:
    """Refused before the run where the path cannot be opened; at its end when the write fails (a full disk)."""
    if where == "a folder":
        (tmp_path / "a folder").mkdir()
    run = main("generate", "--specs", str(SPECS), "--out", str(tmp_path / "out"), "--timings", where, cwd=tmp_path)
    assert run.status == 2
    assert run.err.splitlines()[-1].startswith(f"{where}: error: cannot write the timings here: "), run.err
    assert "Traceback" not in run.err
    assert (tmp_path / "out").exists() == (where == "/dev/full")


@pytest.mark.parametrize("where", ["specs/cl_khr_d3d11_sharing.txt", "specs/new.json", "out/INPUTS.sha256",
                                   "out/t.json"])
def test_a_timings_file_among_the_specs_or_in_out_is_refused_before_anything(
    tmp_path: Path, main: Callable[..., CliRun], where: str,
) -> None:
    """The run reads the specs and replaces OUT whole: a timings file there would empty a spec, or leave a
    file the next run finds foreign. Nothing is written, not even the timings."""
    shutil.copytree(SPECS, tmp_path / "specs")
    assert main("generate", "--specs", "specs", "--out", "out", cwd=tmp_path).status == 0
    before = snapshot(tmp_path)
    run = main("generate", "--specs", "specs", "--out", "out", "--force", "--timings", where, cwd=tmp_path)
    assert run.status == 2
    assert run.err.startswith(f"{where}: error: the timings file may not be inside the "), run.err
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("target", ["a user's file", "nothing yet"])
def test_a_timings_file_that_is_a_link_is_not_written_through(
    tmp_path: Path, main: Callable[..., CliRun], target: str,
) -> None:
    """A run as root with `--timings` in a folder others can write: a link planted there under the file's name
    made the run overwrite (or create) the file it leads to."""
    victim = tmp_path / "victim" / "passwd"
    victim.parent.mkdir()
    if target == "a user's file":
        victim.write_text("root:x:0:0::/root:/bin/sh\n")
    (tmp_path / "t.json").symlink_to(victim)
    run = main("generate", "--specs", str(SPECS), "--out", str(tmp_path / "out"), "--timings", "t.json", cwd=tmp_path)
    assert run.status == 2
    assert run.err.splitlines()[-1] == ("t.json: error: cannot write the timings here: a symbolic link, which is not "
                                        "followed"), run.err
    assert (victim.read_text() == "root:x:0:0::/root:/bin/sh\n") if target == "a user's file" else not victim.exists()


@pytest.mark.parametrize("command", ["check", "coverage"])
def test_check_and_coverage_write_their_timings_too(tmp_path: Path, main: Callable[..., CliRun], command: str) -> None:
    """CONTRACTS.md: `generate|check|coverage --timings FILE` also writes FILE; `check` and `coverage` took the
    option and wrote nothing."""
    run = main(command, "--out", str(GENERATED), "--timings", str(tmp_path / "t.json"))
    assert run.status == 0, run.err
    stages = json.loads((tmp_path / "t.json").read_text())
    assert stages["IR"] > 0 and stages["template render"] > 0


def test_a_timings_file_that_is_a_fifo_is_refused_before_the_run(tmp_path: Path) -> None:
    """Opening a FIFO to write waits for a reader: the run, done, hung there for ever. A FIFO (or a socket) is
    refused before anything is written; one put in the file's place during the run is not waited on either."""
    os.mkfifo(tmp_path / "t.json")
    done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(SPECS),
                           "--out", str(tmp_path / "out"), "--timings", str(tmp_path / "t.json")],
                          cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"{tmp_path / 't.json'}: error: cannot write the timings here: a FIFO or a socket, "
                           "which a run would wait on for a reader\n")
    assert not (tmp_path / "out").exists()
    report = timing.Report(tmp_path / "t.json")
    with pytest.raises(InputError, match="cannot write the timings here: No such device or address"):
        report.write()  # what the run's end meets when the FIFO is put there after the check
