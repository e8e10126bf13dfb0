"""An interop program as a user writes it, through the package alone (no ctypes, no raw cffi calls): run on
POCL by `test_interop_program.py`, which also checks it with `mypy --strict`.

POCL has no Direct3D, so the program meets the package's `ExtensionNotSupportedError` where it asks for a
Direct3D context, goes on with PyOpenCL's own context, and the acquire and release reach the stand-in
driver functions the caller's `prepare` installs (the one thing a real program does not do)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pyopencl as cl
from cl_d3d_sharing import errors, khr_d3d11, platforms


def run(prepare: Callable[[ModuleType], None], d3d_device: int) -> list[str]:
    """What happened, step by step."""
    said: list[str] = []
    platform = next(p for p in platforms(as_pyopencl=True) if "Portable Computing Language" in p.name)
    devices = platform.get_devices()
    try:
        context = khr_d3d11.create_context(devices, context_d3d11_device=d3d_device, as_pyopencl=True)
    except errors.ExtensionNotSupportedError as refused:
        said.append(f"refused: {refused.extension}")
        context = cl.Context(devices)
    queue = cl.CommandQueue(context)
    buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE, 64)
    try:
        khr_d3d11.mem_d3d11_resource(buffer)
    except errors.CLError as error:
        said.append(f"{error.routine}: {error.name}")
    prepare(khr_d3d11)
    with khr_d3d11.acquired(queue, [buffer]) as event:
        said.append(f"acquired, event {type(event).__name__}")
    try:
        khr_d3d11.enqueue_release_d3d11_objects(queue, [buffer])
    except cl.Error as error:  # the package's errors are PyOpenCL's too
        said.append(f"{error.routine}: released twice, checked {isinstance(error, errors.CLError)}")
    return said
