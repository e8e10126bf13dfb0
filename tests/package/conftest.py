"""The generated package under test, and a real OpenCL runtime (POCL through the ocl-icd loader).

The package is imported from `generated/`, as committed. Tests that need OpenCL
take the `platform`, `context` or `queue` fixtures: without a runtime they skip,
except under CI (`CI=true`), where a missing runtime is a failure.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import ROOT

GENERATED = ROOT / "generated"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))

import cl_d3d_sharing  # noqa: E402
from cl_d3d_sharing import _runtime, errors  # noqa: E402
from cl_d3d_sharing._core_ffi import ffi as core_ffi  # noqa: E402

#: The extension modules, by extension string.
MODULES = {name: f"cl_d3d_sharing.{module}" for name, module in cl_d3d_sharing.EXTENSIONS.items()}
INSTALL_HINT = "install Debian's ocl-icd-libopencl1 and pocl-opencl-icd (CI installs them)"


def extension_module(extension: str) -> ModuleType:
    return __import__(MODULES[extension], fromlist=["EXTENSION"])


def missing(component: str) -> None:
    """Skip for want of a component, or fail under CI, which must have it installed."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must install {component}")
    pytest.skip(f"{component} is missing; .ci/run installs it")


def no_runtime(reason: str) -> None:
    missing(f"a real OpenCL runtime ({reason}); {INSTALL_HINT}")


@pytest.fixture(scope="session")
def platform() -> Any:
    """POCL's platform."""
    try:
        found = _runtime.platforms()
    except errors.LibraryNotFoundError as error:
        no_runtime(str(error))
    pocl = [p for p in found if "Portable Computing Language" in _runtime.platform_name(p)]
    if not pocl:
        no_runtime(f"no POCL platform among {[_runtime.platform_name(p) for p in found]}")
    return pocl[0]


@pytest.fixture(scope="session")
def device(platform: Any) -> Any:
    return _runtime.devices(platform)[0]


def check(code: int, what: str) -> None:
    assert code == 0, f"{what} returned {code}"


@pytest.fixture(scope="session")
def context(device: Any) -> Iterator[Any]:
    """A real POCL context on its first device, made with the core entry points."""
    lib = _runtime.library()
    error = core_ffi.new("cl_int *")
    devices = core_ffi.new("cl_device_id[]", [device])
    made = lib.clCreateContext(core_ffi.NULL, 1, devices, core_ffi.NULL, core_ffi.NULL, error)
    check(error[0], "clCreateContext")
    yield made
    check(lib.clReleaseContext(made), "clReleaseContext")


@pytest.fixture(scope="session")
def queue(context: Any, device: Any) -> Iterator[Any]:
    lib = _runtime.library()
    error = core_ffi.new("cl_int *")
    made = lib.clCreateCommandQueue(context, device, 0, error)
    check(error[0], "clCreateCommandQueue")
    yield made
    check(lib.clReleaseCommandQueue(made), "clReleaseCommandQueue")
