"""The generated package under test, and a real OpenCL runtime (POCL through the ocl-icd loader).

The package is imported from `generated/`, as committed. Tests that need OpenCL
take the `platform`, `context` or `queue` fixtures (which mark them `pocl`): without a
runtime they skip, except under CI (`CI=true`), where a missing runtime is a failure.
What the tests share besides fixtures is in `standins.py`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.package.standins import (
    MODULES,
    Handles,
    check,
    extension_module,
    make_buffer,
    make_event,
    release,
    release_event,
)
from tests.support import missing

from cl_d3d_sharing import _library, errors  # isort: skip (standins put generated/ on the path)
from cl_d3d_sharing._core_ffi import ffi as core_ffi  # isort: skip

INSTALL_HINT = "install Debian's ocl-icd-libopencl1 and pocl-opencl-icd (CI installs them)"


def no_runtime(reason: str) -> None:
    missing(f"a real OpenCL runtime ({reason}); {INSTALL_HINT}")


@pytest.fixture(scope="session")
def platform() -> Any:
    """POCL's platform."""
    try:
        found = _library.platforms()
    except errors.LibraryNotFoundError as error:
        no_runtime(str(error))
    pocl = [p for p in found if "Portable Computing Language" in _library.platform_name(p)]
    if not pocl:
        no_runtime(f"no POCL platform among {[_library.platform_name(p) for p in found]}")
    return pocl[0]


@pytest.fixture(scope="session")
def device(platform: Any) -> Any:
    return _library.devices(platform)[0]


@pytest.fixture(scope="session")
def context(device: Any) -> Iterator[Any]:
    """A real POCL context on its first device, made with the core entry points."""
    lib = _library.library()
    error = core_ffi.new("cl_int *")
    devices = core_ffi.new("cl_device_id[]", [device])
    made = lib.clCreateContext(core_ffi.NULL, 1, devices, core_ffi.NULL, core_ffi.NULL, error)
    check(error[0], "clCreateContext")
    yield made
    check(lib.clReleaseContext(made), "clReleaseContext")


@pytest.fixture(scope="session")
def queue(context: Any, device: Any) -> Iterator[Any]:
    lib = _library.library()
    error = core_ffi.new("cl_int *")
    made = lib.clCreateCommandQueue(context, device, 0, error)
    check(error[0], "clCreateCommandQueue")
    yield made
    check(lib.clReleaseCommandQueue(made), "clReleaseCommandQueue")


@pytest.fixture
def buffers(context: Any) -> Iterator[list[int]]:
    """Three fresh real memory objects, released after the test."""
    made = [make_buffer(context) for _ in range(3)]
    yield made
    for mem in made:
        release(mem)


@pytest.fixture
def events(context: Any) -> Iterator[list[int]]:
    """Two fresh real user events, released after the test."""
    made = [make_event(context) for _ in range(2)]
    yield made
    for event in made:
        release_event(event)


@pytest.fixture
def handles(platform: Any, context: Any, queue: Any, buffers: list[int], events: list[int]) -> Handles:
    """What a call takes from POCL: its platform, context and queue, the three fresh `buffers` and two `events`."""
    return Handles(platform, context, queue, buffers, events)


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    """Each test starts with no tracked state and no stand-ins in any module."""
    yield
    for extension in MODULES:
        module = extension_module(extension)
        module._state.clear()
        module._binding.forget()
