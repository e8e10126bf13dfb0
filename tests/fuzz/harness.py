"""One fuzz case end to end: `python -m generator generate` in a forked child, bounded in time, then judged.

The child is forked from the test process, which has already imported the
generator, so a case costs a fork instead of an interpreter start; a crash or
a hang in the child is seen by the parent instead of stopping the run.

What counts as a pass is what CONTRACTS.md promises for any input:
- exit 0: OUT is whole (every file its INPUTS.sha256 lists, with that hash, and
  nothing else), its IR passes the schema, and every Python module compiles;
- exit 2: stderr starts with `file:line:col: error: ...` pointing into the
  file (a fault of the folder as a whole may give `specs: error: ...`), and OUT
  is exactly what it was before;
- anything else (another status, a traceback, a signal, the time bound) fails.

The time bound is the child's CPU time (`RLIMIT_CPU`), which other work on the machine does not lengthen, with
the wall clock as a guard ten times as long against a child that hangs without working (a lock, a pipe).
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import resource
import shutil
import signal
import sys
import time
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from generator import cli, pipeline
from generator.base import timing
from generator.emission import emit
from generator.ir import read
from generator.writing import fingerprint, writer
from tests.support import GENERATED, SPECS, snapshot

#: Far above any real case (a whole run of the six seeds takes about a second of CPU).
TIME_BOUND = 30.0
#: The wall clock a child has, as a multiple of its CPU bound: it is only waiting when it takes longer.
WALL_FACTOR = 10
#: OUT before the run, as an earlier run left it (with its manifest): what the run must leave alone when it fails.
PREVIOUS = {"ir/previous.yaml": "left: by an earlier run\n"}

_ERROR = re.compile(r"^(?P<path>.+?):(?:(?P<line>\d+):(?P<column>\d+):)? error: \S")


@dataclass(frozen=True)
class Outcome:
    verdict: str  # "ir" (valid output), "error" (a clean input error), or "FAIL"
    status: int | None
    seconds: float
    reason: str = ""
    stderr: str = ""


@cache
def warm() -> None:
    """Compile every template and load the data files once, here, so that each forked child starts warm."""
    result = pipeline.run(SPECS)
    emit.outputs(result.extensions, result.texts)


def run(folder: Path, files: dict[str, bytes], extra: tuple[str, ...] = (), bound: float = TIME_BOUND,
        around: Callable[[], AbstractContextManager[object]] | None = None) -> Outcome:
    """Generate from `folder/specs` (holding `files`) into `folder/out`, and judge the result.

    `extra` goes on the command line (`--timings FILE`: the child's own stage times, as if it had started fresh);
    `bound` is the seconds of CPU after which the child is killed (more for inputs far larger than any real
    spec); `around` is entered in the child around the run (to count its work).
    """
    warm()
    specs, out = folder / "specs", folder / "out"
    argv = ["generate", "--specs", str(specs), "--out", str(out), "--force", *extra]
    return _judged(folder, argv, files, bound, around)


def _judged(folder: Path, argv: list[str], files: dict[str, bytes], bound: float = TIME_BOUND,
            around: Callable[[], AbstractContextManager[object]] | None = None) -> Outcome:
    """`argv` run in a child over `folder/out` (a previous run's output first written there), judged."""
    out = folder / "out"
    writer.write(out, PREVIOUS)
    before = snapshot(out)
    started = time.perf_counter()
    status, stderr = child(folder, argv, bound, around)
    seconds = time.perf_counter() - started
    if status is None:
        return Outcome("FAIL", None, seconds, f"no result within {bound} s of CPU (killed)", stderr)
    reason = judge(status, stderr, files, out, before)
    if reason:
        return Outcome("FAIL", status, seconds, reason, stderr)
    return Outcome("ir" if status == 0 else "error", status, seconds, stderr=stderr)


def run_book(folder: Path, checkout: Path, damaged: dict[str, bytes], extensions: tuple[str, ...]) -> Outcome:
    """Generate `extensions` from a copy of `checkout` whose files `damaged` (by path in it) replaces, judged as
    `run` judges: an error must point into a file of the checkout."""
    warm()
    specs = folder / "specs"
    shutil.copytree(checkout, specs)
    for name, data in damaged.items():
        (specs / name).write_bytes(data)
    files = {path.name: path.read_bytes() for path in specs.rglob("*") if path.is_file()}
    argv = ["generate", "--specs", str(specs), "--out", str(folder / "out"), *(f"--extension={e}" for e in extensions)]
    return _judged(folder, argv, files)


def judge(status: int, stderr: str, files: dict[str, bytes], out: Path, before: dict[str, bytes]) -> str:
    """Why the run broke the contract, or "" when it kept it."""
    if "Traceback" in stderr:
        return "a traceback on stderr"
    if status == 0:
        return _whole(out)
    if status == cli.INPUT_ERROR:
        if snapshot(out) != before:
            return "OUT changed although the run failed"
        return _clean_error(stderr, files)
    return f"exit status {status}"


def run_diff(folder: Path, name: str, data: bytes) -> Outcome:
    """`diff` from a folder holding one IR file, `name` with `data`, to the committed IR, judged."""
    old = folder / "old"
    old.mkdir(parents=True, exist_ok=True)
    (old / name).write_bytes(data)
    started = time.perf_counter()
    status, stderr = child(folder, ["diff", str(old), str(GENERATED / "ir")])
    seconds = time.perf_counter() - started
    if status is None:
        return Outcome("FAIL", None, seconds, f"no result within {TIME_BOUND} s of CPU (killed)", stderr)
    if "Traceback" in stderr:
        return Outcome("FAIL", status, seconds, "a traceback on stderr", stderr)
    if status in (0, 1):  # still a valid IR: the API against the committed one
        return Outcome("ir", status, seconds, stderr=stderr)
    if status != cli.INPUT_ERROR:
        return Outcome("FAIL", status, seconds, f"exit status {status}", stderr)
    first = stderr.split("\n", 1)[0]
    match = _ERROR.match(first)
    if match is None or Path(match["path"]) != old / name:
        return Outcome("FAIL", status, seconds, f"not a `{old / name}[:line:col]: error:` message: {first[:200]!r}",
                       stderr)
    lines = len(data.decode("utf-8", "replace").splitlines()) + 1
    if match["line"] is not None and not (1 <= int(match["line"]) <= lines and int(match["column"]) >= 1):
        return Outcome("FAIL", status, seconds, f"the position {match['line']}:{match['column']} is outside the file",
                       stderr)
    return Outcome("error", status, seconds, stderr=stderr)


def _whole(out: Path) -> str:
    if not fingerprint.intact(out):
        return "OUT is not exactly the files its INPUTS.sha256 lists, with their hashes"
    try:
        read.load_folder(out / "ir")
    except Exception as error:
        return f"the IR does not load back: {error}"
    for path in out.rglob("*.py"):
        name = path.relative_to(out).as_posix()
        try:
            compile(path.read_text(encoding="utf-8"), name, "exec", dont_inherit=True)
        except SyntaxError as error:
            return f"{name} is not valid Python: {error}"
    return ""


def _clean_error(stderr: str, files: dict[str, bytes]) -> str:
    first = stderr.split("\n", 1)[0]
    match = _ERROR.match(first)
    if match is None:
        return f"not a `file:line:col: error:` message: {first[:200]!r}"
    name = Path(match["path"]).name
    if match["line"] is None:
        return "" if name == "specs" else f"an error about {match['path']!r} gives no line and column"
    if name not in files:
        return f"the error names {match['path']!r}, not a spec file"
    text = files[name].decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    line, column = int(match["line"]), int(match["column"])
    if not 1 <= line <= text.count("\n") + 1 or column < 1:
        return f"the position {line}:{column} is outside the file"
    return ""


def child(folder: Path, argv: list[str], bound: float = TIME_BOUND,
          around: Callable[[], AbstractContextManager[object]] | None = None) -> tuple[int | None, str]:
    """Run the CLI in a forked child with stdout and stderr in files; its status, or None when it used `bound`
    seconds of CPU (or ten times as long on the wall clock) and was killed."""
    err_path = folder / "stderr.txt"
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 70
        try:
            os.chdir(folder)
            seconds = math.ceil(bound)
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))  # SIGXCPU, then SIGKILL
            with open(err_path, "w", encoding="utf-8") as err, open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout, sys.stderr = null, err
                try:
                    timing.reset()
                    with around() if around is not None else contextlib.nullcontext():
                        status = cli.main(argv)
                except BaseException:
                    traceback.print_exc()
                err.flush()
        finally:
            os._exit(status)
    deadline = time.monotonic() + WALL_FACTOR * bound
    while True:
        done, wait_status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, _read(err_path)
        time.sleep(0.002)
    stderr = _read(err_path)
    if os.WIFSIGNALED(wait_status) and usage.ru_utime + usage.ru_stime >= bound:  # SIGXCPU, or SIGKILL after it
        return None, stderr
    if os.WIFSIGNALED(wait_status):
        return 128 + os.WTERMSIG(wait_status), stderr + f"\n(killed by signal {os.WTERMSIG(wait_status)})"
    return os.WEXITSTATUS(wait_status), stderr


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
