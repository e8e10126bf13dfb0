"""The three Pythons: generation on this interpreter writes generated/ to the byte, and the metadata says which
Pythons are tested. Part of the quick suite (Makefile QUICK), so it runs on every Python of 3.11-3.13."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from generator.writing import ownership
from tests.support import GENERATED, ROOT, SPECS


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its relative path, but the byproducts of using the package in place."""
    found = {path.relative_to(folder).as_posix(): path for path in folder.rglob("*") if path.is_file()}
    return {name: path.read_bytes() for name, path in found.items() if not ownership.byproduct(name)}


def test_generation_writes_the_committed_output_to_the_byte(tmp_path: Path) -> None:
    """What `generate` writes on this Python is generated/ as committed, every file, to the byte, but the
    manifest's first line: the hash of the inputs names the Python and the libraries it ran with, so that a run
    elsewhere regenerates rather than trusting output it did not make (README, "The same output on every
    Python")."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(SPECS), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    written, committed = files_of(out), files_of(GENERATED)
    assert sorted(written) == sorted(committed)
    manifest = ownership.NAME
    first, _, rest = written.pop(manifest).partition(b"\n")
    assert re.fullmatch(rb"inputs [0-9a-f]{64}", first), first
    assert rest == committed.pop(manifest).partition(b"\n")[2]
    assert [name for name in written if written[name] != committed[name]] == []


def makefile_pythons() -> list[str]:
    """The Pythons the Makefile runs the suites on (PYTHONS)."""
    found = re.search(r"^PYTHONS := (.+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert found, "the Makefile names no PYTHONS"
    return found[1].split()


def said(classifiers: list[str]) -> list[str]:
    """The Python versions a list of classifiers names (`Programming Language :: Python :: 3.x`)."""
    return [found[1] for c in classifiers if (found := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", c))]


def test_the_metadata_says_which_pythons_are_tested() -> None:
    """The generator's and the generated package's requires-python and classifiers name exactly the Pythons the
    Makefile tests: the oldest as the least required, each by a classifier, and Python 3 only."""
    versions = makefile_pythons()
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split(".")))) and len(versions) >= 2
    least = f">={versions[0]}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    package = yaml.safe_load((ROOT / "data" / "package.yaml").read_text(encoding="utf-8"))["package"]
    built = tomllib.loads((GENERATED / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for where, requires, classifiers in [("pyproject.toml", project["requires-python"], project["classifiers"]),
                                         ("data/package.yaml", package["requires_python"], package["classifiers"]),
                                         ("generated/pyproject.toml", built["requires-python"], built["classifiers"])]:
        assert (requires, said(classifiers)) == (least, versions), where
        assert "Programming Language :: Python :: 3 :: Only" in classifiers, where


def test_make_runs_the_quick_suite_on_a_python_whose_venv_is_not_made_yet(tmp_path: Path) -> None:
    """`make quick-3.12` on a fresh clone makes .venv-3.12 and runs the suite there (`make -n`: what it would do).
    With a pattern rule, make took `quick-%` for `quick-run-3.12` and reported "no Python run-3.12"."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for version in ("3.12", "3.13"):
        done = subprocess.run(["make", "-n", "-f", str(ROOT / "Makefile"), f"quick-run-{version}",
                               f"QUICK_PYTHON=python{version}"], cwd=tmp_path, capture_output=True, text=True,
                              timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert f".venv-{version}/bin/python -m pytest -q tests/base" in done.stdout, done.stdout
