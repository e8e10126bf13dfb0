"""The generated package under test, and a real OpenCL runtime (POCL through the ocl-icd loader).

The package is imported from `generated/`, as committed. Tests that need OpenCL
take the `platform`, `context` or `queue` fixtures: without a runtime they skip,
except under CI (`CI=true`), where a missing runtime is a failure.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

import pytest

from tests.support import generated_module, missing

cl_d3d_sharing = generated_module()
from cl_d3d_sharing import _runtime, errors  # noqa: E402
from cl_d3d_sharing._core_ffi import ffi as core_ffi  # noqa: E402

#: The extension modules, by extension string.
MODULES = {name: f"cl_d3d_sharing.{module}" for name, module in cl_d3d_sharing.EXTENSIONS.items()}
INSTALL_HINT = "install Debian's ocl-icd-libopencl1 and pocl-opencl-icd (CI installs them)"


def extension_module(extension: str) -> ModuleType:
    return __import__(MODULES[extension], fromlist=["EXTENSION"])


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


@cache
def _opencl() -> ctypes.CDLL:
    """The same library through ctypes, for calls the package has no reason to declare."""
    lib = ctypes.CDLL(_runtime.library_path())
    lib.clCreateBuffer.restype = ctypes.c_void_p
    lib.clCreateBuffer.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p,
                                   ctypes.POINTER(ctypes.c_int32)]
    lib.clReleaseMemObject.argtypes = [ctypes.c_void_p]
    lib.clCreateUserEvent.restype = ctypes.c_void_p
    lib.clCreateUserEvent.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32)]
    lib.clReleaseEvent.argtypes = [ctypes.c_void_p]
    lib.clGetMemObjectInfo.restype = ctypes.c_int32
    lib.clGetEventInfo.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_void_p,
                                   ctypes.c_void_p]
    lib.clGetMemObjectInfo.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_void_p,
                                       ctypes.c_void_p]
    return lib


def make_buffer(context: Any, size: int = 64) -> int:
    """A real POCL buffer (its address): what a Direct3D wrap gives back, as far as tracked state can tell."""
    error = ctypes.c_int32()
    made = _opencl().clCreateBuffer(_runtime.address(context), 1, size, None, ctypes.byref(error))  # READ_WRITE
    check(error.value, "clCreateBuffer")
    return int(made)


def release(mem: int) -> None:
    check(_opencl().clReleaseMemObject(mem), "clReleaseMemObject")


def make_event(context: Any) -> int:
    """A real POCL user event (its address)."""
    error = ctypes.c_int32()
    made = _opencl().clCreateUserEvent(_runtime.address(context), ctypes.byref(error))
    check(error.value, "clCreateUserEvent")
    return int(made)


def reference_count(mem: int) -> int:
    """A memory object's reference count, as POCL reports it (CL_MEM_REFERENCE_COUNT)."""
    count = ctypes.c_uint32()
    check(_opencl().clGetMemObjectInfo(mem, 0x1105, 4, ctypes.byref(count), None), "clGetMemObjectInfo")
    return count.value


@pytest.fixture
def buffers(context: Any) -> Iterator[list[int]]:
    """Three fresh real memory objects, released after the test."""
    made = [make_buffer(context) for _ in range(3)]
    yield made
    for mem in made:
        release(mem)


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    """Each test starts with no tracked state and no stand-ins in any module."""
    yield
    for extension in MODULES:
        module = extension_module(extension)
        module._state.clear()
        module._binding.forget()
