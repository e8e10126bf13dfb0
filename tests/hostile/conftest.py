"""Fixtures of the hostile cases: a generate run on one edited seed, its output folder, the package it made."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.seed import SEED_NAME, Generate
from tests.support import CliRun


@pytest.fixture
def generate(tmp_path: Path, main: Callable[..., CliRun]) -> Generate:
    """Write `text` as the only spec (or `files`), run generate into tmp/out; the run's status and output."""

    def run(text: str | None = None, files: dict[str, str | bytes] | None = None) -> CliRun:
        specs = tmp_path / "specs"
        specs.mkdir(exist_ok=True)
        for name, data in (files or {SEED_NAME: text or ""}).items():
            path = specs / name
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)

    return run


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "out"


@pytest.fixture
def imported(out: Path) -> Iterator[Callable[[str], Any]]:
    """Import a module of the package generated into `out` (and forget it afterwards)."""
    before = set(sys.modules)
    sys.path.insert(0, str(out))
    saved = {k: v for k, v in sys.modules.items() if k.split(".")[0] == "cl_d3d_sharing"}
    for name in saved:
        del sys.modules[name]
    yield lambda name: importlib.import_module(f"cl_d3d_sharing.{name}")
    sys.path.remove(str(out))
    for name in set(sys.modules) - before:
        del sys.modules[name]
    sys.modules.update(saved)
