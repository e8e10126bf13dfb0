"""`make fuzz`: the long fuzz run, split over the machine's cores, and its figures.

    python -m tests.fuzz [--cases 10000] [--jobs N] [--seed 1] [--seeds cl.xml,...]

Each job is a pytest run of `test_fuzz.py` with its own hypothesis seed and a
share of the cases; the first also cuts every seed at every section boundary and
runs every pathological shape of `tests/pathological.py` at 256 KB. Pathological
lines of 256 KB are among the random mutations too. Besides the damaged specs
through `generate`, a fifth as many damaged IR files go through `diff`
(`ir_mutations.py`).
Every case is logged, and the report sums them up. Exit 1 if any case failed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

TEST = Path(__file__).with_name("test_fuzz.py")
#: The size of the pathological lines of the long run.
LINE_SIZE = 256 * 1024


def shard(number: int, cases: int, seed: int, log: Path, seeds: str | None) -> subprocess.Popen[bytes]:
    selection = [] if number == 0 and not seeds else ["-k", "damaged"]
    env = dict(os.environ, FUZZ_CASES=str(cases), FUZZ_LOG=str(log), FUZZ_LINE_SIZE=str(LINE_SIZE))
    if seeds:
        env["FUZZ_SEEDS"] = seeds
    command = [sys.executable, "-m", "pytest", str(TEST), "-q", "-x", "-p", "no:cacheprovider",
               f"--hypothesis-seed={seed}", "--hypothesis-show-statistics", *selection]
    return subprocess.Popen(command, env=env)


def report(entries: list[dict[str, object]], seconds: float, jobs: int) -> str:
    verdicts = Counter(str(e["verdict"]) for e in entries)
    times = sorted(float(str(e["seconds"])) for e in entries)
    kinds = Counter(kind for e in entries for kind in str(e["kinds"]).split("+"))
    failed = [e for e in entries if e["verdict"] == "FAIL"]
    lines = [
        f"fuzz: {len(entries)} cases in {seconds / 60:.1f} min on {jobs} jobs: "
        f"{verdicts['ir']} valid output, {verdicts['error']} clean input errors, {len(failed)} failures",
        f"  time per case: median {statistics.median(times):.3f} s, slowest {times[-1]:.3f} s" if times else "",
        "  mutations used: " + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()),
        f"  damaged IR files through diff: {sum(str(e['seed']).startswith('ir/') for e in entries)}",
        "  by seed: " + ", ".join(f"{seed} {count}" for seed, count in
                                  sorted(Counter(str(e["seed"]) for e in entries).items())),
    ]
    lines += [f"  FAILED: {e['seed']} {e['kinds']}: {e['reason']}" for e in failed]
    return "\n".join(line for line in lines if line)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="random cases in all (default 10000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1, help="base of the hypothesis seeds")
    parser.add_argument("--seeds", help="draw the random cases from these seed files only (comma-separated "
                        "names, e.g. cl.xml); the boundary cuts and pathological shapes are then left out")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fuzz-") as scratch:
        logs = [Path(scratch) / f"job{n}.jsonl" for n in range(args.jobs)]
        started = time.monotonic()
        share = -(-args.cases // args.jobs)
        runs = [shard(n, share, args.seed * 1000 + n, log, args.seeds) for n, log in enumerate(logs)]
        statuses = [run.wait() for run in runs]
        seconds = time.monotonic() - started
        entries = [json.loads(line) for log in logs if log.exists() for line in log.read_text().splitlines()]
    print(report(entries, seconds, args.jobs))
    return 0 if all(status == 0 for status in statuses) and entries else 1


if __name__ == "__main__":
    sys.exit(main())
