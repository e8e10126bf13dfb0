"""Writing the output tree whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator import emit


def test_write_replaces_the_whole_tree(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, {"ir/a.yaml": "a\n", "ir/b.yaml": "b\n"})
    emit.write(out, {"ir/a.yaml": "new a\n"})
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["ir/a.yaml"]
    assert (out / "ir" / "a.yaml").read_text() == "new a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_failed_write_leaves_the_previous_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    emit.write(out, {"ir/a.yaml": "a\n"})

    def broken(*_: object, **__: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "write_text", broken)
    with pytest.raises(OSError):
        emit.write(out, {"ir/a.yaml": "changed\n"})
    monkeypatch.undo()
    assert (out / "ir" / "a.yaml").read_text() == "a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_stale_lists_differing_missing_and_extra_files(tmp_path: Path) -> None:
    emit.write(tmp_path / "out", {"a": "1", "b": "2"})
    assert emit.stale(tmp_path / "out", {"a": "1", "b": "2"}) == []
    assert emit.stale(tmp_path / "out", {"a": "changed", "c": "3"}) == ["a", "b", "c"]
    assert emit.stale(tmp_path / "missing", {"a": "1"}) == ["a"]


def test_an_out_moved_aside_by_a_killed_run_comes_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    emit.write(out, {"ir/a.yaml": "a\n"})
    out.rename(tmp_path / ".out-previous")  # killed between the two renames
    emit.restore(out)
    assert (out / "ir" / "a.yaml").read_text() == "a\n"
