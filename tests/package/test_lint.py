"""The generated package as ruff reads it with the project's settings, as `make lint` does: no line over 120
columns, imports and `__all__` in the order ruff wants, nothing unused. The generator lays the code out so
(`emission/layout.py`); nothing is excluded or ignored for it. A package of other texts passes mypy too, as
`make lint` checks the committed one with it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests.support import GENERATED, CliRun, Violation, generate_texts, lint, typecheck

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
#: The corpus' texts that are refused, as its truth says (a typedef without a name; `cl context` as a type).
REFUSED = ("cl_amd_bus_addressable_memory.registry.txt", "cl_khr_terminate_context.adoc2017.txt")


def test_the_committed_package_passes_ruff() -> None:
    assert lint(GENERATED) == []


def test_a_line_over_the_length_fails_the_check(tmp_path: Path) -> None:
    """The check above can fail: a copy of the package with one line of 121 columns fails it there, and nowhere
    else."""
    copy = tmp_path / "generated"
    shutil.copytree(GENERATED / "cl_d3d_sharing", copy / "cl_d3d_sharing",
                    ignore=shutil.ignore_patterns("__pycache__"))
    module = copy / "cl_d3d_sharing" / "errors.py"
    lines = module.read_text(encoding="utf-8").splitlines()
    long = f"LONG = {'x' * 112!r}"
    assert len(long) == 121
    module.write_text("\n".join([*lines, long, ""]), encoding="utf-8")
    assert lint(copy) == [Violation("cl_d3d_sharing/errors.py", len(lines) + 1, "E501")]


def test_a_package_from_the_corpus_texts_passes_ruff_and_mypy_too(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """Not only the seeds' layout: the corpus' texts of every form in one run (functions that return nothing,
    whose result no line may name; functions no handle leads to a platform, whose Pythonic layer takes
    `platform` as their C-named one does; extensions of no function; other extensions' types, long names), as
    `make lint` checks the committed package."""
    texts = {path.name: path.read_text(encoding="utf-8") for path in sorted(CORPUS.glob("cl_*"))
             if path.is_file() and path.name not in REFUSED}
    assert generate_texts(tmp_path, main, texts).status == 0
    out = tmp_path / "out"
    extensions = {name.partition(".")[0] for name in texts}  # a text in two forms is one extension
    assert len(list((out / "ir").glob("*.yaml"))) == len(extensions) > 20
    assert lint(out) == []
    assert "platform=platform" in (out / "cl_d3d_sharing" / "cl_intel_accelerator.py").read_text(encoding="utf-8")
    page = (out / "docs" / "cl_intel_accelerator" / "clRetainAcceleratorINTEL.md").read_text(encoding="utf-8")
    assert "`cl_intel_accelerator.retain_accelerator(accelerator, *, platform) -> None`" in page
    assert typecheck(out) == ""
