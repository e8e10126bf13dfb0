"""Where a run's time goes, stage by stage: `generate --timings FILE` writes it, `make bench` reads it.

Times are exclusive: while a stage nested in another runs (a grammar's parse
inside a front-end), only the inner one is charged, so the stages of a run add
up to its time. Time outside every stage is charged to `other`. The clock is
always on; a stage costs about a microsecond.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OTHER = "other"

_totals: dict[str, float] = {}
_open: list[str] = [OTHER]
_mark = time.perf_counter()


def _charge(now: float) -> None:
    global _mark
    _totals[_open[-1]] = _totals.get(_open[-1], 0.0) + now - _mark
    _mark = now


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Charge the time spent inside the block to `name` (less the time of stages nested in it)."""
    _charge(time.perf_counter())
    _open.append(name)
    try:
        yield
    finally:
        _charge(time.perf_counter())
        _open.pop()


def reset() -> None:
    """Start the totals afresh: a process forked from one that has run stages starts its own count."""
    global _mark
    _totals.clear()
    _mark = time.perf_counter()


def totals() -> dict[str, float]:
    """Seconds per stage so far, `other` included, in the order the stages first ran."""
    _charge(time.perf_counter())
    return dict(_totals)


def write(path: Path) -> None:
    path.write_text(json.dumps(totals(), indent=1) + "\n", encoding="utf-8")
