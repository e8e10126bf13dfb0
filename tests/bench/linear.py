"""`make bench --only linear`: the time each pathological shape costs per KB of its line, from 1 KB to 1 MB.

Each shape of `tests/pathological.py` is generated at each size in a forked child (the fuzz harness), and
its work is the sum of the run's own stage times (`--timings`, the interpreter's start left out). Less the
work of the same seed with the shape at its smallest, divided by the KB added, it is the cost of one KB of
the line: linear work keeps it flat from 1 KB to 1 MB, while quadratic work would make it grow with the
size (a thousandfold over the table).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from generator.emission.render import docstring
from tests import pathological
from tests.fuzz import harness

SIZES = (1024, 4 * 1024, 16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024)
#: How much the cost per KB may grow from 64 KB to 1 MB (16 times the size): linear work stays within it
#: (a larger heap, the machine's mood), quadratic work would grow 16 times.
GROWTH_TARGET = 2.5
#: Seconds a run may take: 1 MB of one kind of line is 100 times the largest real spec, and some forms
#: (thousands of functions, each a wrapper to write and compile) cost tens of ms per KB, linearly.
BOUND = 120.0


@dataclass(frozen=True)
class Row:
    shape: str
    per_kb: tuple[float | None, ...]  # seconds per KB at each of SIZES (None: no result within the bound)

    @property
    def growth(self) -> float | None:
        at_64k, at_1m = self.per_kb[SIZES.index(64 * 1024)], self.per_kb[-1]
        return at_1m / at_64k if at_64k and at_1m is not None else None

    @property
    def met(self) -> bool:
        return self.growth is not None and self.growth <= GROWTH_TARGET


def work(shape: pathological.Shape, size: int, folder: Path) -> float | None:
    measured = pathological.run(shape, size, folder, BOUND)
    if measured.outcome.verdict == "FAIL":
        return None
    return sum(seconds for stage, seconds in measured.stages.items() if stage != "import")


def least_work(shape: pathological.Shape, size: int, folder: Path) -> float | None:
    """The least work of three runs up to 64 KB (where the line adds a few ms to the seed's 0.2 s, and the
    machine's noise would decide the cost per KB), of one run above."""
    runs = [work(shape, size, folder / str(i)) for i in range(3 if size <= 64 * 1024 else 1)]
    return None if None in runs else min(seconds for seconds in runs if seconds is not None)


def measure(work_folder: Path) -> list[Row]:
    harness.warm()
    rows = []
    for name, shape in pathological.SHAPES.items():
        with tempfile.TemporaryDirectory(dir=work_folder) as folder:
            base = least_work(shape, 0, Path(folder) / "base") or 0.0
            per_kb = []
            for size in SIZES:
                seconds = least_work(shape, size, Path(folder) / str(size))
                per_kb.append(None if seconds is None else max(0.0, seconds - base) / (size / 1024))
        rows.append(Row(name, tuple(per_kb)))
    return rows


def table(rows: list[Row]) -> str:
    def size(n: int) -> str:
        return f"{n // 1024 // 1024} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"

    lines = [f"{'shape':<20} " + " ".join(f"{size(n):>8}" for n in SIZES) + "   1 MB / 64 KB",
             f"{'':<20} " + " ".join(f"{'ms/KB':>8}" for _ in SIZES)]
    for row in rows:
        cells = " ".join(f"{'killed':>8}" if t is None else f"{t * 1000:8.2f}" for t in row.per_kb)
        growth = f"{row.growth:5.1f}x" if row.growth is not None else "    -"
        lines.append(f"{row.shape:<20} {cells}   {growth}")
    return "\n".join(lines)


#: The lines of a docstring the filter is timed on (`docstring_growth`).
DOCSTRING_LINES = (50_000, 400_000)


def docstring_growth() -> float:
    """How many times the docstring filter's time per line grows from 50,000 lines to 400,000 (the least of
    three runs each): about 1 when a paragraph's lines are joined once, 8 when each line copies the text before
    it (as it once did: work inside one call, which the tests' call counts cannot see)."""
    def per_line(lines: int) -> float:
        text = "\n".join(["word"] * lines)
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            docstring(text)
            runs.append(time.perf_counter() - started)
        return min(runs) / lines

    small, large = DOCSTRING_LINES
    return per_line(large) / per_line(small)
