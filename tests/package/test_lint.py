"""The generated package as ruff reads it with the project's settings, as `make lint` does: no line over 120
columns, imports and `__all__` in the order ruff wants, nothing unused. The generator lays the code out so
(`emission/layout.py`); nothing is excluded or ignored for it."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support import GENERATED, Violation, lint


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
