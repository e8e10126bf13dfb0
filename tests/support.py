"""What the tests share that is no fixture: the project's folders, the generated package, the reference truth,
the skip-or-fail rule for missing components. A plain module, so test modules import it and never a conftest
(which pytest imports as it likes)."""

from __future__ import annotations

import contextlib
import cProfile
import ctypes
import importlib
import json
import multiprocessing
import os
import re
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any, Literal, NamedTuple, NoReturn

import pytest
import yaml

from generator.base.errors import InputError
from generator.base.knowledge import Knowledge, load, load_package
from generator.base.source import SpecFile
from generator.emission.package import model_package
from generator.emission.package_model import Package
from generator.ir.model import Extension

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
TRUTH = Path(__file__).resolve().parent / "data" / "truth.yaml"
GENERATED = ROOT / "generated"


def generated_module(name: str = "") -> ModuleType:
    """A module of the committed generated package (the package itself for ""), imported from generated/.

    Importing needs no install and no OpenCL library.
    """
    if str(GENERATED) not in sys.path:
        sys.path.insert(0, str(GENERATED))
    return importlib.import_module(f"cl_d3d_sharing.{name}" if name else "cl_d3d_sharing")


def cited(entry: dict[str, Any]) -> str:
    """An IR entry's place as the package and the pages cite it: `path:line`, and the column the IR keeps on a
    text's first line."""
    source: str = entry["source"]
    return source + (f":{entry['column']}" if entry.get("column") and source.endswith(":1") else "")


def cited_texts(irs: Iterable[Extension]) -> dict[str, str]:
    """A text for each one the IRs cite, for a package model made from IR alone (its texts are not under test)."""
    return {path: f"the text of {path}\n" for ir in irs for path in
            [*(s.path for s in ir.sources), *([ir.registry] if ir.registry else [])]}


def packaged(irs: list[Extension], knowledge: Knowledge | None = None) -> Package:
    """The package model of `irs` (read from IR, so with stand-in texts: `cited_texts`)."""
    return model_package(irs, knowledge or load(), load_package(), cited_texts(irs))


def missing(component: str) -> NoReturn:
    """Skip for want of a component, or fail under CI, which must have it installed."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must install {component}")
    pytest.skip(f"{component} is missing; .ci/run installs it")


class Violation(NamedTuple):
    """One thing ruff reports: the file (relative to the folder linted), its line, the rule."""

    path: str
    line: int
    code: str


def lint(folder: Path) -> list[Violation]:
    """What ruff reports of the Python files under `folder` with the project's settings (pyproject.toml's, which
    `make lint` applies to generated/ too), in file and line order."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"),
         "--output-format", "json", "--exit-zero", str(folder)],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return sorted(Violation(Path(found["filename"]).relative_to(folder).as_posix(), found["location"]["row"],
                            found["code"]) for found in json.loads(done.stdout))


def typecheck(out: Path) -> str:
    """What mypy reports of the package generated into `out` with its own settings (OUT's pyproject.toml, as
    `make lint` checks generated/); "" when it finds nothing."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", "--no-incremental",
                           "cl_d3d_sharing"], cwd=out, capture_output=True, text=True, check=False, timeout=600)
    return "" if done.returncode == 0 else done.stdout + done.stderr


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class CliRun(NamedTuple):
    status: int
    out: str
    err: str


def generate_texts(tmp_path: Path, main: Callable[..., CliRun], files: dict[str, str], *flags: str) -> CliRun:
    """`generate` (through the `main` fixture) from a folder `specs/` of `files` (name -> text) into `out/`, both
    under `tmp_path`."""
    specs = tmp_path / "specs"
    specs.mkdir()
    for name, text in files.items():
        (specs / name).write_text(text, encoding="utf-8")
    return main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), *flags, cwd=tmp_path)


class Peak(NamedTuple):
    """A command's exit status, its stderr, and the most memory it held (bytes resident, at its peak)."""

    status: int
    err: str
    memory: int


#: A small process that runs a command and writes the peak memory of that command and its children, as the
#: kernel counts it for the children it waited for (`ru_maxrss`, the largest of them all, not their sum). A
#: process started straight from this one would be charged this one's own peak too: the kernel counts the memory
#: a child held before its `exec`, which for a fork of the test process is the test process's.
_MEASURE = ("import resource, subprocess, sys\n"
            "status = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL).returncode\n"
            "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024))\n"
            "sys.exit(status)\n")


def peak_memory(argv: list[str], cwd: Path) -> Peak:
    """Run `argv` and measure its peak resident memory. Memory is counted work: the same on a loaded machine."""
    with tempfile.TemporaryDirectory() as folder:
        peak = Path(folder) / "peak"
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _MEASURE, str(peak), *argv], cwd=cwd,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace", check=False)
        return Peak(done.returncode, done.stderr, int(peak.read_text()))


@cache
def load_truth() -> dict[str, Any]:
    """Official facts (Khronos and NVIDIA headers, registry), copied from the workplace for tests only."""
    with open(TRUTH, encoding="utf-8") as stream:
        data: dict[str, Any] = yaml.safe_load(stream)["extensions"]
    return data


def parse_error(parse: Callable[[SpecFile], object], text: str, name: str = "bad.txt") -> str:
    """The message of the input error that parsing `text` with a front-end raises."""
    with pytest.raises(InputError) as caught:
        parse(SpecFile.from_text(name, text))
    return caught.value.render()


def seed(name: str) -> SpecFile:
    """A seed spec, named as the generator names it when run from the project root."""
    return SpecFile.from_text(f"specs/{name}", (SPECS / name).read_text(encoding="utf-8"))


@contextmanager
def calls_counted() -> Iterator[dict[str, int]]:
    """The calls made inside the block, per function, filled in when it ends: Python's functions (`path:line(name)`)
    and the builtins (by their own description), as `cProfile` counts them. A count is work done, the same on a
    loaded machine as on an idle one; it does not see work inside one builtin call (a regex's backtracking)."""
    calls: dict[str, int] = {}
    profile = cProfile.Profile(builtins=True)
    profile.enable()
    try:
        yield calls
    finally:
        profile.disable()
        for entry in profile.getstats():
            name = _function(entry.code)
            calls[name] = calls.get(name, 0) + entry.callcount


def _function(code: CodeType | str) -> str:
    if not isinstance(code, CodeType):
        return str(code)
    path = os.path.relpath(code.co_filename, ROOT) if code.co_filename.startswith(str(ROOT)) else code.co_filename
    return f"{path}:{code.co_firstlineno}({code.co_name})"


def grown(small: dict[str, int], large: dict[str, int], ratio: float, floor: int,
          base: dict[str, int] | None = None) -> list[str]:
    """The functions whose calls grew more than `ratio` times from `small` to `large`, by more than `floor`
    calls, the most grown first (five at most); with `base`, the calls of the work both share (counted alone)
    are taken out of each first. Linear work grows as the input, quadratic work as its square."""
    base = base or {}
    found = []
    for name, calls in large.items():
        before, after = small.get(name, 0) - base.get(name, 0), calls - base.get(name, 0)
        if after > ratio * max(before, 0) + floor:
            found.append((after / max(before, 1), f"{name}: {before:,} -> {after:,} calls"))
    return [line for _, line in sorted(found, reverse=True)[:5]]


class Unprivileged(NamedTuple):
    """Where a command can run as a user the file permissions bind (root ignores them): `prefix` runs it as
    `nobody` when the tests run as root (util-linux's setpriv), as this user otherwise; `folder` is scratch
    space that user may write; `python` an interpreter that user can run, and `env` the environment in which it
    imports the generator and its libraries from a copy anyone may read (`conftest.readable_generator`): the
    clone and its `.venv` may lie in a folder only their owner may enter (as `mktemp -d` makes)."""

    prefix: list[str]
    folder: Path
    python: str
    env: dict[str, str]

    def generator(self, *args: str) -> list[str]:
        """The command line of `python -m generator ARGS` run as that user."""
        return [*self.prefix, self.python, "-m", "generator", *args]


def footprint(folder: Path) -> dict[str, tuple[object, ...]]:
    """Everything about a tree that a run must not change: each entry under `folder` (itself included, links not
    followed) with its kind, permissions, owner, and bytes or link target."""
    found: dict[str, tuple[object, ...]] = {}
    for path in [folder, *sorted(folder.rglob("*"))]:
        status = os.lstat(path)
        content: object = (os.readlink(path) if stat.S_ISLNK(status.st_mode) else
                           path.read_bytes() if stat.S_ISREG(status.st_mode) else None)
        found[path.relative_to(folder).as_posix()] = (stat.S_IFMT(status.st_mode), stat.S_IMODE(status.st_mode),
                                                      status.st_uid, status.st_gid, content)
    return found


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _swapping(a: bytes, b: bytes, refill: Callable[[], None] | None, pause: float, stop: Any, count: Any) -> None:
    """The loop of `swapping`'s process."""
    libc = ctypes.CDLL(None, use_errno=True)
    done = 0
    while not stop.is_set():
        for _ in range(1 if pause else 200):
            if libc.renameat2(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE) == 0:
                done += 1
            elif refill is not None:  # a run removed one of them
                with contextlib.suppress(OSError):
                    refill()
        count.value = done
        if pause:
            stop.wait(pause)


def _hijacking(folder: Path, prefix: str, target: Path, stop: Any, count: Any) -> None:
    """The loop of `hijacking`'s process."""
    done = 0
    while not stop.is_set():
        with contextlib.suppress(OSError):
            for name in os.listdir(folder):
                path = folder / name
                if name.startswith(prefix) and not path.is_symlink():
                    path.rename(folder / f"moved-{done}")
                    path.symlink_to(target)
                    done += 1
                    count.value = done


@contextlib.contextmanager
def _beside(target: Callable[..., None], *args: object) -> Iterator[Callable[[], int]]:
    context = multiprocessing.get_context("fork")
    stop, count = context.Event(), context.Value("q", 0)
    process = context.Process(target=target, args=(*args, stop, count), daemon=True)
    process.start()
    try:
        yield lambda: int(count.value)
    finally:
        stop.set()
        process.join(30)
        if process.is_alive():
            process.kill()
            process.join()


def swapping(a: Path, b: Path, refill: Callable[[], None] | None = None,
             pause: float = 0.0) -> contextlib.AbstractContextManager[Callable[[], int]]:
    """An attacker who can write the folders of `a` and `b`: a second process that swaps the two entries (each a
    file, a folder or a link) in one atomic step (renameat2 RENAME_EXCHANGE) again and again for the block, and
    calls `refill` when a swap fails (to put back what a run removed). Without a `pause` it swaps as fast as it
    can (for races of microseconds); with one, it sleeps that long between swaps, and a process that sleeps is
    run as soon as it wakes: on a loaded machine its swaps then land all along a run (for races of
    milliseconds). Gives how many swaps it made so far."""
    return _beside(_swapping, os.fsencode(a), os.fsencode(b), refill, pause)


def hijacking(folder: Path, prefix: str, target: Path) -> contextlib.AbstractContextManager[Callable[[], int]]:
    """An attacker who can write `folder`: a second process that moves every folder named `prefix...` there as
    soon as it appears, and puts a link to `target` in its place. Gives how many it took so far."""
    return _beside(_hijacking, folder, prefix, target)


def type_errors(checker: Literal["mypy", "pyright"], program: Path) -> set[int]:
    """The lines of `program` that `checker`, strict, reports an error on, the generated package read as an
    installed one is: its own files are not the program's to answer for (mypy follows them silently, pyright
    reports only the program). Configuration and caches go beside `program`."""
    folder = program.parent
    if checker == "mypy":
        config = folder / "mypy.ini"
        config.write_text(f"[mypy]\nmypy_path = {GENERATED}\n\n[mypy-cl_d3d_sharing.*]\nfollow_imports = silent\n")
        checked = subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(folder / "cache"),
             "--config-file", str(config), "--no-error-summary", program.name],
            capture_output=True, text=True, check=False, cwd=folder)
        assert checked.returncode in (0, 1), checked.stdout + checked.stderr
        lines = {int(m[1]) for m in re.finditer(rf"^{re.escape(program.name)}:(\d+): error:", checked.stdout, re.M)}
        assert bool(lines) == (checked.returncode == 1), checked.stdout
        return lines
    (folder / "pyrightconfig.json").write_text(json.dumps(
        {"typeCheckingMode": "strict", "extraPaths": [str(GENERATED)], "pythonVersion": "3.11"}))
    checked = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, "--outputjson", program.name],
        capture_output=True, text=True, check=False, cwd=folder)
    assert checked.returncode in (0, 1), checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["summary"]["filesAnalyzed"] == 1, report
    return {d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"] if d["severity"] == "error"}
