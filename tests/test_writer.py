"""Writing the output tree whole or not at all."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator import writer
from tests.conftest import SPECS, snapshot


def test_write_replaces_the_whole_tree(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n", "ir/b.yaml": "b\n"})
    writer.write(out, {"ir/a.yaml": "new a\n"})
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["ir/a.yaml"]
    assert (out / "ir" / "a.yaml").read_text() == "new a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_on_linux_the_two_folders_are_exchanged_in_one_step(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "from_a").write_text("a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "from_b").write_text("b")
    assert writer._exchange(tmp_path / "a", tmp_path / "b")
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["from_b"]
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["from_a"]


def test_a_failed_write_leaves_the_previous_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})

    def broken(*_: object, **__: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "write_text", broken)
    with pytest.raises(OSError):
        writer.write(out, {"ir/a.yaml": "changed\n"})
    monkeypatch.undo()
    assert (out / "ir" / "a.yaml").read_text() == "a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_stale_lists_differing_missing_and_extra_files(tmp_path: Path) -> None:
    writer.write(tmp_path / "out", {"a": "1", "b": "2"})
    assert writer.stale(tmp_path / "out", {"a": "1", "b": "2"}) == []
    assert writer.stale(tmp_path / "out", {"a": "changed", "c": "3"}) == ["a", "b", "c"]
    assert writer.stale(tmp_path / "missing", {"a": "1"}) == ["a"]


def test_an_out_moved_aside_by_a_killed_run_comes_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})
    out.rename(tmp_path / ".out-previous")  # killed between the two renames
    writer.recover(out)
    assert (out / "ir" / "a.yaml").read_text() == "a\n"


def test_a_generation_killed_at_any_moment_leaves_out_whole(tmp_path: Path) -> None:
    """SIGKILL at 20 random moments of `generate`: OUT is always exactly the old tree or exactly the new one.

    Runs alternate between the seeds and a revision of them, so every run has a different tree to write.
    """
    revised = tmp_path / "revised"
    shutil.copytree(SPECS, revised)
    seed = revised / "cl_nv_d3d10_sharing.txt"
    seed.write_text(seed.read_text(encoding="utf-8").replace("0x4010", "0x4030", 1), encoding="utf-8")
    out = tmp_path / "out"
    trees, durations = [], []
    for specs in (SPECS, revised):
        started = time.monotonic()
        subprocess.run(generate(specs, out), check=True, capture_output=True)
        durations.append(time.monotonic() - started)
        trees.append(snapshot(out))
    assert trees[0] != trees[1]
    moments = random.Random(20261121)
    unchanged = 0
    for i in range(20):
        before = snapshot(out)
        run = subprocess.Popen(generate((SPECS, revised)[i % 2], out), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:  # about half the kills land before the swap
            run.wait(timeout=moments.uniform(0.0, 2 * max(durations)))
        except subprocess.TimeoutExpired:
            run.send_signal(signal.SIGKILL)
            run.wait()
        after = snapshot(out)
        assert after in trees, f"kill {i}: OUT is neither the old nor the new tree"
        unchanged += after == before
    assert 0 < unchanged < 20  # some kills came before the swap, some after
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "revised"]  # nothing left behind


def generate(specs: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)]
