"""The interop program of `interop_program.py`, run on POCL and checked with `mypy --strict`."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from tests.package import interop_program
from tests.package.standins import extension_module, install
from tests.support import type_errors


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
    program = tmp_path / "interop_program.py"
    program.write_text(Path(interop_program.__file__).read_text(encoding="utf-8"))
    assert type_errors("mypy", program) == set()
