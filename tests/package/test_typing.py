"""Programs using the package, checked by mypy and by pyright, both strict, as a user's program is: the README's
program passes both as written, and every misuse below is reported by both, on its own line and nowhere else.

The package is read as an installed one is (`support.type_errors`). The Direct3D objects are ctypes pointers, what
a Windows program holds (comtypes' interface pointers are ctypes pointers too); nothing runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest

from tests.support import ROOT, type_errors

#: Stand-ins for the Direct3D objects of the README's program (a Windows program has them from Direct3D).
DIRECT3D = """\
import ctypes

d3d_device = ctypes.c_void_p(1)
texture = ctypes.c_void_p(2)
buffer = ctypes.c_void_p(3)
"""

#: A correct program, then one misuse per line, each marked; a type checker must report each and nothing else.
MISUSES = DIRECT3D + """
import pyopencl

import cl_d3d_sharing as cl
from cl_d3d_sharing import d3d11, khr_d3d11

platform = cl.platforms()[0]
khr = d3d11.variant(platform)
devices = khr.get_device_ids_from_d3d11(platform, khr.D3DDeviceSource.D3D11_DEVICE, d3d_device,
                                        khr.D3DDeviceSet.ALL_DEVICES_FOR_D3D11, as_pyopencl=True)
context = khr.create_context(devices, context_d3d11_device=d3d_device, as_pyopencl=True)
queue = pyopencl.CommandQueue(context)
memory = khr.create_from_d3d11_buffer(context, 0, buffer, as_pyopencl=True)
ready: bool = d3d11.supported(platform) and khr_d3d11.supported(platform)
both: list[d3d11.Variant] = d3d11.variants(platform)
source: khr_d3d11.D3DDeviceSource = khr.D3DDeviceSource.D3D11_DEVICE
every = khr.D3DDeviceSet.ALL_DEVICES_FOR_D3D11
synchronised = khr_d3d11.create_context(devices, properties={cl.CL_CONTEXT_INTEROP_USER_SYNC: True})
kept: dict[int, int] = cl.context_properties(synchronised)

khr.create_from_d3d11_buffer("context", 0, buffer)  # MISUSE a string for the context
khr.create_from_d3d11_buffer(context, "READ_WRITE", buffer)  # MISUSE a string for the flags
khr.create_from_d3d11_buffer(context, 0, "buffer")  # MISUSE a string for the resource
khr.create_from_d3d11_texture2d(context, 0, texture, 0.5)  # MISUSE a float for the subresource
khr.enqueue_acquire_d3d11_objects(queue, "memory")  # MISUSE a string for the memory objects
khr.enqueue_acquire_d3d11_objects(queue, [1.5])  # MISUSE a float in the memory objects
khr.enqueue_acquire_d3d11_objects(queue, [memory], wait_for=["event"])  # MISUSE a string in the wait list
khr.enqueue_acquire_d3d11_objects(queue, [memory], waitfor=[])  # MISUSE a misspelt keyword
khr.get_device_ids_from_d3d11(platform, every, d3d_device, every)  # MISUSE a set where the source goes
khr.get_device_ids_from_d3d11(platform, 16411, d3d_device, 16412)  # MISUSE a set's value where the source goes
khr.create_context(devices, context_d3d11_device="device")  # MISUSE a string for the Direct3D device
khr.create_context("devices")  # MISUSE a string for the devices
khr.create_context(devices, properties={cl.CL_CONTEXT_INTEROP_USER_SYNC: "yes"})  # MISUSE a string for a bool
khr.create_context(devices, properties=[cl.CL_CONTEXT_INTEROP_USER_SYNC])  # MISUSE a list for the properties
khr.acquired(queue, "memory")  # MISUSE a string for the context manager's memory objects
khr.enqueue_acquire_d3d11_object(queue, [memory])  # MISUSE a misspelt function
khr.CL_D3D11_DEVICE_KHR  # MISUSE a vendor's own token through the protocol
khr_d3d11.create_from_d3d11_buffer("context", 0, buffer)  # MISUSE a string for the context, through the module
khr_d3d11.enqueue_acquire_d3d11_objects(queue, [1.5])  # MISUSE a float in the memory objects, through the module
khr_d3d11.get_device_ids_from_d3d11(platform, every, d3d_device, every)  # MISUSE a swapped enum, through the module
khr_d3d11.clCreateFromD3D11BufferKHR("context", 0, buffer, None)  # MISUSE a string for the context, C-named
khr_d3d11.clEnqueueAcquireD3D11ObjectsKHR(queue, 1, [1.5], 0, None, None)  # MISUSE a float in an array, C-named
listed: list[d3d11.Variant] = d3d11.supported(platform)  # MISUSE supported() is a bool, as in the modules
context.devices_list  # MISUSE as_pyopencl=True gives PyOpenCL's Context, which has no such attribute
cl.address("handle")  # MISUSE a string for a cffi handle
"""


def readme_program() -> str:
    """The README's program (its first Python block), after the Direct3D objects it takes from the reader."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## Using the generated package$.*?^```python\n(.*?)^```$", text, re.M | re.S)
    assert found is not None, "README.md has no Python block under 'Using the generated package'"
    return DIRECT3D + found[1]


def marked(text: str) -> set[int]:
    return {number for number, line in enumerate(text.splitlines(), 1) if "# MISUSE" in line}


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_the_readme_program_passes_as_written(tmp_path: Path, checker: Literal["mypy", "pyright"]) -> None:
    program = tmp_path / "readme_program.py"
    program.write_text(readme_program())
    assert type_errors(checker, program) == set()


@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_every_misuse_is_reported_and_nothing_else(tmp_path: Path, checker: Literal["mypy", "pyright"]) -> None:
    program = tmp_path / "misuses.py"
    program.write_text(MISUSES)
    reported = type_errors(checker, program)
    lines = MISUSES.splitlines()
    missed = [lines[n - 1] for n in sorted(marked(MISUSES) - reported)]
    wrongly = [lines[n - 1] for n in sorted(reported - marked(MISUSES))]
    assert not missed and not wrongly, f"not reported: {missed}; reported on a correct line: {wrongly}"

