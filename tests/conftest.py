"""Shared fixtures: the project's seed specs, the reference truth, and a helper to write spec files."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import pytest
import yaml

from generator import cli, pipeline
from generator.base.errors import InputError
from generator.base.knowledge import Knowledge, load
from generator.base.source import SpecFile
from generator.ir import files as ir

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


def missing(component: str) -> None:
    """Skip for want of a component, or fail under CI, which must have it installed."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must install {component}")
    pytest.skip(f"{component} is missing; .ci/run installs it")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class CliRun(NamedTuple):
    status: int
    out: str
    err: str


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


@cache
def load_truth() -> dict[str, Any]:
    """Official facts (Khronos and NVIDIA headers, registry), copied from the workplace for tests only."""
    with open(TRUTH, encoding="utf-8") as stream:
        data: dict[str, Any] = yaml.safe_load(stream)["extensions"]
    return data


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


def parse_error(parse: Callable[[SpecFile], object], text: str, name: str = "bad.txt") -> str:
    """The message of the input error that parsing `text` with a front-end raises."""
    with pytest.raises(InputError) as caught:
        parse(SpecFile.from_text(name, text))
    return caught.value.render()


def seed(name: str) -> SpecFile:
    """A seed spec, named as the generator names it when run from the project root."""
    return SpecFile.from_text(f"specs/{name}", (SPECS / name).read_text(encoding="utf-8"))


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


class Unprivileged(NamedTuple):
    """Where a command can run as a user the file permissions bind (root ignores them): `prefix` runs it as
    `nobody` when the tests run as root (util-linux's setpriv), as this user otherwise; `folder` is scratch
    space that user may write."""

    prefix: list[str]
    folder: Path


@pytest.fixture
def unprivileged() -> Iterator[Unprivileged]:
    folder = Path(tempfile.mkdtemp(prefix="unprivileged-"))
    os.chmod(folder, 0o777)
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            missing("util-linux's setpriv")
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    try:
        yield Unprivileged(prefix, folder)
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", str(folder)], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
