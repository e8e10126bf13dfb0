"""Shared fixtures: the project's seed specs, the reference truth, the official C headers, and a helper to write
spec files.

Shared helpers that are no fixtures live in `tests/support.py`, which test modules import instead of this file.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from generator import cli, pipeline
from generator.base.knowledge import Knowledge, load
from generator.ir import files as ir
from tests.support import ROOT, CliRun, Unprivileged, load_truth, missing

#: The fixtures that need a component besides Python, by the marker that says so (pyproject.toml): a test that
#: uses one, itself or through another fixture, is marked, and `-m "not pocl and not chromium and not gcc and
#: not headers"` leaves it out. Without the component such a fixture skips the test (fails it under CI=true).
NEEDS = {"pocl": {"platform", "device", "context", "queue"}, "chromium": {"chromium"}, "gcc": {"compiler"},
         "headers": {"headers"}}
#: One official C header of each Debian package the `headers` fixture asks for.
HEADERS = [Path("/usr/include/CL/cl.h"), Path("/usr/share/mingw-w64/include/dxgiformat.h"),
           Path("/usr/include/GL/glext.h"), Path("/usr/include/EGL/eglext.h"), Path("/usr/include/va/va.h")]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with the components its fixtures need, so that a run can leave them out by name."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in NEEDS.items():
            if used & fixtures:
                item.add_marker(marker)


@pytest.fixture
def headers() -> None:
    """The official C headers, which the data checks read and gcc compiles against (`missing` without them)."""
    if not all(path.exists() for path in HEADERS):
        missing("an official C header (Debian's opencl-c-headers, mingw-w64-common, libgl-dev, libegl-dev, libva-dev)")


@pytest.fixture
def compiler() -> str:
    """gcc (or another `cc`), to build C the tests need (`missing` without one)."""
    found = shutil.which("gcc") or shutil.which("cc")
    if not found:
        missing("a C compiler")
    return found


@pytest.fixture
def main(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., CliRun]:
    """`python -m generator ...` through its entry point in this process (faster than a new interpreter)."""

    def call(*args: str, cwd: Path = ROOT) -> CliRun:
        monkeypatch.chdir(cwd)
        status = cli.main(list(args))
        captured = capsys.readouterr()
        return CliRun(status, captured.out, captured.err)

    return call


@pytest.fixture(scope="session")
def knowledge() -> Knowledge:
    return load()


@pytest.fixture(scope="session")
def truth() -> dict[str, Any]:
    return load_truth()


@pytest.fixture(scope="session")
def seed_result() -> pipeline.Result:
    """The pipeline run once over the seed specs, from the project root (so paths read `specs/...`)."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return pipeline.run(Path("specs"))
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="session")
def seed_irs(seed_result: pipeline.Result) -> list[dict[str, Any]]:
    """The IR dictionaries of the seed specs (copy them before changing them)."""
    return [ir.to_dict(extension) for extension in seed_result.extensions]


@pytest.fixture
def spec_dir(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """Write files into a fresh specs folder and return it."""

    def write(files: dict[str, str]) -> Path:
        folder = tmp_path / "specs"
        folder.mkdir(exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        return folder

    return write


#: What the generator reads of the project when it runs (`generator.ROOT`; `writing/fingerprint.py` hashes them).
PROJECT_INPUTS = ("generator", "grammar", "templates", "data", "docs")
#: Prints, as JSON, the files of the installed libraries a `generate` run imports (run in a child, so that what
#: the tests import themselves is not counted).
_LIBRARIES = """
import json, os, site, sys, sysconfig, tempfile
from generator import cli
with tempfile.TemporaryDirectory() as out:
    cli.main(["generate", "--force", "--specs", sys.argv[1], "--out", out])
paths = sysconfig.get_paths()
roots = {os.path.realpath(p) for p in (*site.getsitepackages(), paths["purelib"], paths["platlib"])}
found = set()
for module in list(sys.modules.values()):
    path = os.path.realpath(getattr(module, "__file__", None) or "")
    for root in roots:
        if path.startswith(root + os.sep):
            top = path[len(root) + 1:].split(os.sep)[0]
            if top != "generator" and not top.startswith("__editable__"):
                found.add(os.path.join(root, top))
print(json.dumps(sorted(found)))
"""


@pytest.fixture(scope="session")
def readable_generator() -> Iterator[Path]:
    """A copy of the generator, what it reads of the project and the libraries it imports, in a folder of this
    session's that anyone may read (the user's own folders are left as they are): `PYTHONPATH` for a run as
    another user."""
    copy = Path(tempfile.mkdtemp(prefix="readable-generator-"))
    try:
        for name in PROJECT_INPUTS:
            shutil.copytree(ROOT / name, copy / "project" / name)
        found = subprocess.run([sys.executable, "-c", _LIBRARIES, str(ROOT / "specs")], capture_output=True,
                               text=True, check=True, cwd=copy)
        (copy / "libraries").mkdir()
        for library in map(Path, json.loads(found.stdout.splitlines()[-1])):
            if library.is_dir():
                shutil.copytree(library, copy / "libraries" / library.name)
            else:
                shutil.copy2(library, copy / "libraries" / library.name)
        subprocess.run(["chmod", "-R", "a+rX", str(copy)], check=True)
        yield copy
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _runnable_python(prefix: list[str]) -> str | None:
    """An interpreter of this Python version that the user of `prefix` can start (the venv's may lie in a
    folder of this user's alone; its base interpreter, or the system's, may not)."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    base: str = getattr(sys, "_base_executable", sys.executable)
    candidates = [base, os.path.realpath(base),
                  shutil.which(f"python{version}") or "", f"/usr/bin/python{version}"]
    for python in dict.fromkeys(c for c in candidates if c):
        with contextlib.suppress(OSError):
            done = subprocess.run([*prefix, python, "-c", "import sys; print(*sys.version_info[:2], sep='.')"],
                                  capture_output=True, text=True, check=False, cwd="/")
            if done.stdout.strip() == version:
                return str(python)
    return None


@pytest.fixture
def unprivileged(readable_generator: Path) -> Iterator[Unprivileged]:
    folder = Path(tempfile.mkdtemp(prefix="unprivileged-"))
    os.chmod(folder, 0o777)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            missing("util-linux's setpriv")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    python = _runnable_python(prefix)
    if python is None:
        missing(f"a Python {sys.version_info.major}.{sys.version_info.minor} that the user nobody can run")
    path = os.pathsep.join(str(readable_generator / part) for part in ("project", "libraries"))
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1"}
    try:
        yield Unprivileged(prefix, folder, python, env)
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(folder)], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
