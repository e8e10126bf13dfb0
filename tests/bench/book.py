"""The book benchmark: generating from the 2026 OpenCL book (tests/corpus/opencl-docs-2026), one extension, the
two D3D ones, and every extension whose commands have reference pages, each in one run, against reading the
bytes of the files a run reads. The book is read once per run, so a run for many extensions must cost little
more than a run for one."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable

from generator import pipeline
from tests.book.snapshot import SNAPSHOT, registry, with_pages

#: What each extension after the first may add to a run, at most, as a share of a run for one: the book is read
#: once, and only the extension's own cut, extraction and merge are repeated.
FURTHER_TARGET = 0.25
ONE = ("cl_khr_d3d11_sharing",)
D3D = ("cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing")


def _median(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(repeat: int) -> tuple[str, bool]:
    many = tuple(sorted(with_pages(registry())))
    read = pipeline.run(SNAPSHOT, extensions=ONE)
    paths = [SNAPSHOT / name.removeprefix("specs/") for name in read.digests]
    size = sum(path.stat().st_size for path in paths)
    reading = _median(lambda: [path.read_bytes() for path in paths], repeat)
    runs = {label: _median(functools.partial(pipeline.run, SNAPSHOT, extensions=chosen), repeat)
            for label, chosen in (("one extension", ONE), ("the two D3D extensions", D3D),
                                  (f"every extension with reference pages ({len(many)})", many))}
    lines = [f"  reading the {len(paths)} files a run reads ({size / 1e6:.1f} MB): {reading * 1000:.1f} ms"]
    lines += [f"  {label}: {seconds:.2f} s, {seconds / reading:.0f}x reading the bytes"
              for label, seconds in runs.items()]
    one, every = runs["one extension"], list(runs.values())[-1]
    further = (every - one) / (len(many) - 1) / one
    met = further <= FURTHER_TARGET
    lines.append(f"  {'met   ' if met else 'MISSED'} each further extension adds {further:.0%} of a one-extension run "
                 f"(target <= {FURTHER_TARGET:.0%}: the book is read once per run)")
    return "\n".join(lines), met


if __name__ == "__main__":
    print(measure(5)[0])
