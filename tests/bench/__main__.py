"""`make bench`: the three benchmarks of the project, their tables, and whether the targets are met.

    python -m tests.bench [--only generation|scaling|calls|linear|book] [--repeat N] [--plot PATH]

1. Generation: `python -m generator generate --force` on the six seed specs in a
   new interpreter each time, wall time and time per stage (`--timings`), as a
   user sees it once the generator's bytecode, compiled templates and grammars
   are cached (after any first run; the first run after a clone is shown too).
   `--force` takes nothing else from earlier runs: every module is compiled
   again, as for specs never seen. Then the same command with nothing changed.
2. Scaling: corpora of 10, 50, 100 and 200 renamed copies of the seeds
   (`corpus.py`): wall time, time per spec (with and without the fixed part of a
   run, measured as a one-spec corpus's run) and peak memory; a plot of time
   against corpus size.
3. Calls: the generated wrappers against PyOpenCL's calls of the same shape (the
   checks on) and against cffi alone (the checks off), on POCL's basic device
   (`calls.py`).
4. Linear: the time per KB of each pathological line (`tests/pathological.py`), from
   1 KB to 1 MB (`linear.py`); flat when the work is linear in the line. And the
   docstring filter's time per line at 50,000 and 400,000 lines. `make test` counts
   the same work in calls instead; time is measured here only.
5. Book: the 2026 OpenCL book (a Khronos checkout) for one extension, the two D3D
   ones and every one with reference pages, in one run each, against reading its
   bytes (`book.py`); each further extension must add little: the book is read once.

Every figure is the median of repeated runs. Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.bench import book, calls, corpus, linear
from tests.support import ROOT, SPECS

SIZES = (10, 50, 100, 200)
#: The targets of issue 8. Its 0.6 s wall is shown, no longer judged (issue 39): it depends on the machine, and
#: the run reads the project's registry XML since issue 38; the ratio to the imports below is the judged figure.
WALL_SHOWN, NO_CHANGE_TARGET, STAGE_SHARE_TARGET = 0.6, 0.15, 0.40
#: Issue 23: a cold `generate` into a new folder against importing the libraries it uses, in the same run.
#: Issue 39 asked 6x and decided 7.5x (README, "The target, decided in issue 39"): a guard against added work.
IMPORTS, IMPORTS_TARGET = "import lark, jinja2, yaml, cffi", 7.5
LINEAR_TOLERANCE = 0.20
#: What a user's interpreter does: write and read bytecode (this machine's shells may turn it off).
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass(frozen=True)
class Run:
    wall: float
    peak_kib: int
    stages: dict[str, float]


def generate(specs: Path, out: Path, *, force: bool = True, timings: Path | None = None) -> Run:
    """One `generate` in a new interpreter: wall seconds, peak memory (KiB), seconds per stage."""
    command = [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)]
    command += ["--force"] if force else []
    command += ["--timings", str(timings)] if timings else []
    with tempfile.TemporaryFile() as errors:  # not a pipe: a corpus's warnings would fill it and stall the child
        started = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, env=USER_ENV, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"bench: generate failed ({child.returncode}):\n{errors.read().decode()}")
    stages = json.loads(timings.read_text()) if timings else {}
    return Run(wall, usage.ru_maxrss, stages)


def outside_stages(wall: float, stages: dict[str, float]) -> float:
    """What no stage timed: the interpreter's start and exit. The stages add up to the work done, so this is
    never more than the start of an interpreter that does nothing (`interpreter_start`)."""
    return min(interpreter_start(), max(0.0, wall - sum(stages.values())))


@cache
def interpreter_start() -> float:
    """An interpreter's start and exit, doing nothing (median of five)."""
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=USER_ENV, check=True)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    memory = next((int(line.split()[1]) // 1024 // 1024 for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal")), 0)
    return (f"machine: {cpu}, {os.cpu_count()} cores, {memory} GiB; {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}")


# -- 1. generation ------------------------------------------------------------


def bench_generation(work: Path, repeat: int) -> tuple[str, bool]:
    out, timings = work / "out", work / "timings.json"
    first = first_run(work)
    generate(SPECS, out)  # warm-up: bytecode and compiled templates, as after any first run
    runs = [generate(SPECS, out, timings=timings) for _ in range(repeat)]
    unchanged = statistics.median(generate(SPECS, out, force=False).wall for _ in range(repeat))
    wall = statistics.median(r.wall for r in runs)
    names = list(runs[0].stages)
    stages = {name: statistics.median(r.stages.get(name, 0.0) for r in runs) for name in names}
    stages["interpreter start and exit"] = outside_stages(wall, stages)
    lines = [f"generate --force, the six seed specs (median of {repeat} new interpreters)",
             f"  {'stage':<28} {'ms':>7}  share"]
    for name, seconds in sorted(stages.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name:<28} {seconds * 1000:7.1f}  {seconds / wall:5.1%}")
    worst = max((kv for kv in stages.items() if kv[0] != "interpreter start and exit"), key=lambda kv: kv[1])
    lines.append(f"  shown   wall {wall:.3f} s (issue 8's {WALL_SHOWN} s, not judged since issue 39)")
    met = [
        (worst[1] / wall <= STAGE_SHARE_TARGET,
         f"largest stage {worst[0]} {worst[1] / wall:.0%} (target <= {STAGE_SHARE_TARGET:.0%})"),
        (unchanged < NO_CHANGE_TARGET, f"nothing changed: {unchanged:.3f} s (target < {NO_CHANGE_TARGET} s)"),
    ]
    cold, imports, ratios = against_imports(work, repeat)
    ratio = statistics.median(ratios)
    met.append((ratio <= IMPORTS_TARGET, f"generate into a new folder {cold:.3f} s, {ratio:.1f}x "
                                         f"`python -c \"{IMPORTS}\"` ({imports:.3f} s; target <= {IMPORTS_TARGET}x; "
                                         f"the rounds {min(ratios):.1f}x to {max(ratios):.1f}x)"))
    lines += [f"  {'met   ' if ok else 'MISSED'} {text}" for ok, text in met]
    lines.append(f"  first run after a clone (no bytecode of the generator, no compiled templates): {first:.3f} s")
    return "\n".join(lines), all(ok for ok, _ in met)


def against_imports(work: Path, repeat: int) -> tuple[float, float, list[float]]:
    """A cold `generate` (no --force, a new output folder each time: nothing to reuse) and the imports alone,
    interleaved: their medians and each round's ratio (their median is the figure judged; their spread is the
    machine's: a run on two cores is slowed more than an import on one by the load of a neighbour)."""
    pairs = []
    for round_ in range(repeat):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", IMPORTS], cwd=ROOT, env=USER_ENV, check=True)
        imports = time.perf_counter() - started
        cold = generate(SPECS, work / f"cold-{round_}", force=False).wall
        pairs.append((cold, imports))
    return (statistics.median(c for c, _ in pairs), statistics.median(i for _, i in pairs),
            [c / i for c, i in pairs])


def first_run(work: Path) -> float:
    """One run with the generator's own caches gone, as right after `git clone`."""
    for folder in (ROOT / "templates" / "__pycache__", *ROOT.joinpath("generator").rglob("__pycache__")):
        shutil.rmtree(folder, ignore_errors=True)
    return generate(SPECS, work / "first").wall


# -- 2. scaling ---------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    specs: int
    input_bytes: int
    wall: float
    peak_kib: int

    @property
    def per_spec(self) -> float:
        return self.wall / self.specs

    def work_per_spec(self, one: Size) -> float:
        """Time per spec beyond a one-spec run: the fixed part of a run (the interpreter, the imports, the
        registry XML, the compile check) weighs 10 times more on 10 specs than on 100 and would make a linear
        generator look sublinear. Measured, not assumed: it grows whenever a run learns a new fixed step."""
        return (self.wall - one.wall) / (self.specs - one.specs)


def measure_size(work: Path, count: int, repeat: int) -> Size:
    folder = work / f"corpus-{count}"
    written = corpus.make(folder, count)
    runs = [generate(folder, work / f"out-{count}") for _ in range(repeat)]
    shutil.rmtree(work / f"out-{count}", ignore_errors=True)
    return Size(count, written, statistics.median(r.wall for r in runs), max(r.peak_kib for r in runs))


def bench_scaling(work: Path, repeat: int, plot: Path | None) -> tuple[str, bool]:
    one = measure_size(work, 1, repeat)
    sizes = [measure_size(work, count, repeat) for count in SIZES]
    lines = [f"generate --force on corpora of renamed seed extensions (median of {repeat} runs each)",
             f"  {'specs':>5} {'input':>9} {'wall':>8} {'per spec':>9} {'beyond one':>14} {'each added':>11} "
             f"{'peak memory':>12}"]
    for before, s in zip([None, *sizes], sizes, strict=False):
        added = f"{(s.wall - before.wall) / (s.specs - before.specs) * 1000:6.1f} ms" if before else ""
        lines.append(f"  {s.specs:5d} {s.input_bytes / 1e6:7.2f} MB {s.wall:6.2f} s {s.per_spec * 1000:6.1f} ms "
                     f"{s.work_per_spec(one) * 1000:11.1f} ms {added:>11} {s.peak_kib / 1024:9.0f} MiB")
    spread = max(s.work_per_spec(one) for s in sizes) / min(s.work_per_spec(one) for s in sizes) - 1
    # super-linear work shows as a spec costing more in a larger corpus; one costing less (work shared by a
    # family of texts, met once) is no defect of scaling, so the target bounds the growth only
    growth = max(s.work_per_spec(one) for s in sizes[1:]) / sizes[0].work_per_spec(one) - 1
    wall_spread = max(s.per_spec for s in sizes) / min(s.per_spec for s in sizes) - 1
    small, large = sizes[0], sizes[-1]
    memory_growth, input_growth = large.peak_kib / small.peak_kib, large.input_bytes / small.input_bytes
    met = [
        (growth <= LINEAR_TOLERANCE, f"time per spec beyond a one-spec run's {one.wall:.2f} s grows by at most "
                                     f"{growth:+.0%} from {small.specs} specs (target <= +{LINEAR_TOLERANCE:.0%}); "
                                     f"it varies by {spread:.0%} in all from {small.specs} to {large.specs}, and by "
                                     f"{wall_spread:.0%} with the fixed part"),
        (memory_growth <= input_growth, f"peak memory grows {memory_growth:.1f}x for {input_growth:.1f}x the input "
                                        "(target: no faster than the input)"),
    ]
    lines += [f"  {'met   ' if ok else 'MISSED'} {text}" for ok, text in met]
    if plot is not None:
        draw(sizes, plot)
        lines.append(f"  plot: {plot.relative_to(ROOT) if plot.is_relative_to(ROOT) else plot}")
    return "\n".join(lines), all(ok for ok, _ in met)


def draw(sizes: list[Size], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, time_axis = pyplot.subplots(figsize=(6.4, 4.0), dpi=100)
    counts = [s.specs for s in sizes]
    time_axis.plot(counts, [s.wall for s in sizes], "o-", color="tab:blue", label="wall time (s)")
    slope = sizes[-1].wall / sizes[-1].specs
    time_axis.plot([0, counts[-1]], [0, slope * counts[-1]], ":", color="tab:blue", alpha=0.6,
                   label=f"linear: {slope * 1000:.0f} ms per spec")
    time_axis.set_xlabel("extensions in the corpus (renamed copies of the seeds)")
    time_axis.set_ylabel("generate --force, wall time (s)")
    memory_axis = time_axis.twinx()
    memory_axis.plot(counts, [s.peak_kib / 1024 for s in sizes], "s--", color="tab:orange", label="peak memory (MiB)")
    memory_axis.set_ylabel("peak memory (MiB)")
    memory_axis.set_ylim(bottom=0)
    time_axis.set_ylim(bottom=0)
    handles = time_axis.get_legend_handles_labels()[0] + memory_axis.get_legend_handles_labels()[0]
    time_axis.legend(handles, [str(h.get_label()) for h in handles], loc="upper left")
    time_axis.set_title("Generation time and memory against corpus size")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    pyplot.close(figure)


# -- 3. calls -----------------------------------------------------------------


def bench_calls() -> tuple[str, bool]:
    rows = calls.measure()
    heading = ("per call, against PyOpenCL (the checks on) and cffi alone (the checks off); the Direct3D function a "
               "no-op C function, POCL's basic device")
    text = heading + "\n" + "\n".join("  " + line for line in calls.table(rows).splitlines())
    if not all(r.met for r in rows):  # the profile that shows the floor
        env = {**os.environ, "POCL_DEVICES": calls.POCL_DEVICE, calls.CHECKS_SWITCH: "1"}
        floor = subprocess.run([sys.executable, "-m", "tests.bench.floor"], cwd=ROOT, env=env, capture_output=True,
                               text=True, check=True).stdout
        text += "\nwhere the checked C-named call's time goes (tests/bench/floor.py)\n" + "\n".join(
            "  " + line for line in floor.splitlines())
    return text, all(r.met for r in rows)


# -- 4. linear ----------------------------------------------------------------


def bench_linear(work: Path) -> tuple[str, bool]:
    rows = linear.measure(work)
    heading = ("time per KB of each pathological line (generate in a forked child, its stage times less the seed's; "
               "the least of three runs up to 64 KB, one above)")
    met = [f"  {'met   ' if row.met else 'MISSED'} {row.shape}: the cost per KB at 1 MB is "
           + (f"{row.growth:.1f}x" if row.growth is not None else "unknown")
           + f" that at 64 KB (target <= {linear.GROWTH_TARGET}x; quadratic work: 16x)" for row in rows]
    growth = linear.docstring_growth()
    docstring_met = growth <= linear.GROWTH_TARGET
    met.append(f"  {'met   ' if docstring_met else 'MISSED'} docstring filter: the time per line at "
               f"{linear.DOCSTRING_LINES[1]:,} lines is {growth:.1f}x that at {linear.DOCSTRING_LINES[0]:,} (target <= "
               f"{linear.GROWTH_TARGET}x; quadratic work: 8x)")
    text = heading + "\n" + "\n".join("  " + line for line in linear.table(rows).splitlines()) + "\n" + "\n".join(met)
    return text, all(row.met for row in rows) and docstring_met


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("generation", "scaling", "calls", "linear", "book"), action="append",
                        help="run only these benchmarks (repeatable)")
    parser.add_argument("--repeat", type=int, default=0, help="runs per figure (default: 9 for generation, "
                        "3 for scaling)")
    parser.add_argument("--plot", type=Path, default=Path(__file__).with_name("scaling.png"),
                        help="where the scaling plot goes (PNG)")
    args = parser.parse_args()
    chosen = args.only or ["generation", "scaling", "calls", "linear", "book"]
    print(machine(), flush=True)
    all_met = True
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        work = Path(folder)
        for name in chosen:
            started = time.perf_counter()
            if name == "generation":
                text, met = bench_generation(work, args.repeat or 9)
            elif name == "scaling":
                text, met = bench_scaling(work, args.repeat or 3, args.plot)
            elif name == "linear":
                text, met = bench_linear(work)
            elif name == "book":
                text, met = book.measure(args.repeat or 5)
                text = ("a Khronos checkout, in this process (median of the runs)\n" + text)
            else:
                text, met = bench_calls()
            print(f"\n{name} ({time.perf_counter() - started:.0f} s)\n{text}", flush=True)
            all_met = all_met and met
    print("\nall targets met" if all_met else "\nsome targets MISSED")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
