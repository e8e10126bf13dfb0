"""Versions that tell builds apart: the package's version carries a digest of the API it was made from, and
`SOURCES` the digest of each text; the same inputs always give the same version."""

from __future__ import annotations

import ast
import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import __version__
from tests.support import SPECS, CliRun


def generated(main: Callable[..., CliRun], specs: Path, out: Path) -> dict[str, object]:
    """The package's `__version__`, `GENERATOR_VERSION`, `SOURCES` and `errors.TEXTS` as `generate` writes them
    into `out`."""
    run = main("generate", "--specs", str(specs), "--out", str(out))
    assert run.status == 0, run.err
    found: dict[str, object] = {}
    for node in ast.parse((out / "cl_d3d_sharing" / "__init__.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None \
                and node.target.id in ("__version__", "GENERATOR_VERSION", "SOURCES"):
            found[node.target.id] = ast.literal_eval(node.value)
    for node in ast.parse((out / "cl_d3d_sharing" / "errors.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "TEXTS":
            found["TEXTS"] = ast.literal_eval(node.value) if node.value is not None else None
    found["pyproject"] = next(line for line in (out / "pyproject.toml").read_text(encoding="utf-8").splitlines()
                              if line.startswith("version = "))
    return found


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("seeds") / "specs"
    shutil.copytree(SPECS, folder)
    return folder


def test_the_same_texts_twice_give_one_version(main: Callable[..., CliRun], seeds: Path, tmp_path: Path) -> None:
    first, second = generated(main, seeds, tmp_path / "a"), generated(main, seeds, tmp_path / "b")
    assert first["__version__"] == second["__version__"]
    assert str(first["__version__"]).startswith(f"{__version__}+") and first["GENERATOR_VERSION"] == __version__
    assert first["pyproject"] == f'version = "{first["__version__"]}"'


def test_a_changed_text_gives_another_version(main: Callable[..., CliRun], seeds: Path, tmp_path: Path) -> None:
    changed = tmp_path / "specs"
    shutil.copytree(seeds, changed)
    text = changed / "cl_khr_d3d11_sharing.txt"
    text.write_text(text.read_text(encoding="utf-8").replace("0x4019", "0x4119", 1), encoding="utf-8")
    before, after = generated(main, seeds, tmp_path / "a"), generated(main, changed, tmp_path / "b")
    assert before["__version__"] != after["__version__"]
    assert before["GENERATOR_VERSION"] == after["GENERATOR_VERSION"]


def test_sources_name_each_text_with_the_digest_of_the_copy_it_carries(
        main: Callable[..., CliRun], seeds: Path, tmp_path: Path) -> None:
    found = generated(main, seeds, tmp_path / "out")
    sources, texts = found["SOURCES"], found["TEXTS"]
    assert isinstance(sources, dict) and isinstance(texts, dict)
    assert len(sources) == 7 and "data/registry/cl.xml" in sources  # the registry XML the run leaned on, too
    for cited, digest in sources.items():
        carried = tmp_path / "out" / "cl_d3d_sharing" / "specs" / texts[cited]
        assert hashlib.sha256(carried.read_bytes()).hexdigest() == digest


def test_the_generator_says_its_version(main: Callable[..., CliRun], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main("--version")
    assert ended.value.code == 0
    assert capsys.readouterr().out.strip() == f"cl-d3d-sharing-generator {__version__}"
