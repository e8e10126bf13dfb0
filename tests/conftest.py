"""Shared fixtures: the project's seed specs, the reference truth, and a helper to write spec files."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator import pipeline
from generator.errors import InputError
from generator.knowledge import Knowledge, load
from generator.source import SpecFile

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
TRUTH = Path(__file__).resolve().parent / "data" / "truth.yaml"


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
