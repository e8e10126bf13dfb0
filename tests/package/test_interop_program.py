"""The interop program of `interop_program.py`, run on POCL and checked with `mypy --strict`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.package import interop_program
from tests.package.standins import extension_module, install
from tests.support import GENERATED


def test_the_program_runs_on_pocl_through_the_package_alone(platform: Any) -> None:
    kept: list[Any] = []  # the stand-ins' callbacks live as long as the program runs

    def prepare(module: ModuleType) -> None:
        """The Direct3D acquire and release do not exist on Linux: stand-ins that succeed."""
        for name in ("enqueue_acquire_d3d11_objects", "enqueue_release_d3d11_objects"):
            kept.append(install(module, platform, name, lambda *args: 0))

    module = extension_module("cl_khr_d3d11_sharing")
    try:
        said = interop_program.run(prepare, d3d_device=0x1000)
    finally:
        module._binding.forget()
        module._state.clear()
    assert said == ["refused: cl_khr_d3d11_sharing", "clGetMemObjectInfo: CL_INVALID_VALUE",
                    "acquired, event NoneType", "clEnqueueReleaseD3D11ObjectsKHR: released twice, checked True"]


def test_the_program_passes_mypy_strict(tmp_path: Path) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path),
         str(Path(interop_program.__file__))],
        capture_output=True, text=True, check=False, env={"MYPYPATH": str(GENERATED), "PATH": ""}, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout
