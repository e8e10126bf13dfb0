"""Specs written to break the generator or the code it writes: each ends in a clear error or harmless output.

Every case is the NVIDIA D3D10 seed with one hostile edit, run through `python -m generator generate` in this
process. "Harmless" means: every generated module compiles, importing the package runs nothing from the spec,
and the spec's text arrives intact where it belongs (a docstring, a tuple). This module holds the seed and what
the cases share to judge a run; `conftest.py` the fixtures that run one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.support import SPECS, CliRun

SEED = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")


SEED_NAME = "cl_nv_d3d10_sharing.txt"


Generate = Callable[..., CliRun]


def edited(old: str, new: str, count: int = 1) -> str:
    assert SEED.count(old) >= count, old
    return SEED.replace(old, new) if count == -1 else SEED.replace(old, new, count)


def error_at(run: CliRun, line: int, column: int | None = None) -> str:
    """The message of a run that failed cleanly at `line` (and `column`) of the spec."""
    assert run.status == 2, run.err
    first = run.err.splitlines()[0]
    match = re.match(rf"specs/{re.escape(SEED_NAME)}:(\d+):(\d+): error: (.*)", first)
    assert match, first
    assert int(match[1]) == line and (column is None or int(match[2]) == column), first
    assert "Traceback" not in run.err
    return match[3]


def compiles(out: Path) -> None:
    for path in (out / "cl_d3d_sharing").rglob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)
