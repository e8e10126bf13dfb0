"""Call overhead of the generated wrappers, against the same call made with cffi alone.

The Direct3D functions do not exist on Linux, so the function every call reaches
is a stand-in: a no-op C function with the extension's own prototype
(`CL/cl.h` types), built here with the system C compiler and installed as the
function pointer the module looks up for the platform. Everything else is real:
POCL's platform, queue, buffers and user events, and the module's checks and
state tracking. Acquire and release alternate, so that every call passes the
state checks; times are per call, medians of repeated runs.

Besides the three rows the targets are about, one row is for information: a checked
function with no tracked state (`clGetDeviceIDsFromD3D10KHR`, against a no-op with its
prototype), whose overhead is the conversions, checks and lookup alone; the
acquire/release row's overhead beyond it is the state tracking's.
"""

from __future__ import annotations

import ctypes
import gc
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.package.standins import make_buffer, make_event
from tests.support import generated_module

#: The extension measured: KHR's D3D10 sharing (acquire and release share one prototype).
MODULE = "khr_d3d10"
ACQUIRE, RELEASE = "clEnqueueAcquireD3D10ObjectsKHR", "clEnqueueReleaseD3D10ObjectsKHR"
PY_ACQUIRE, PY_RELEASE = "enqueue_acquire_d3d10_objects", "enqueue_release_d3d10_objects"
#: A checked function with no effect on the tracked state (its checks are host checks): the informational row
#: that tells the state tracking's share of the acquire/release rows.
DEVICES = "clGetDeviceIDsFromD3D10KHR"

NO_OP = """
#include <CL/cl.h>
CL_API_ENTRY cl_int CL_API_CALL no_op(cl_command_queue command_queue, cl_uint num_objects,
                                      const cl_mem *mem_objects, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue; (void)num_objects; (void)mem_objects;
    (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
    return CL_SUCCESS;
}

/* clGetDeviceIDsFromD3D10KHR's prototype (its two enumeration types are cl_uint). */
CL_API_ENTRY cl_int CL_API_CALL no_devices(cl_platform_id platform, cl_uint d3d_device_source, void *d3d_object,
                                           cl_uint d3d_device_set, cl_uint num_entries, cl_device_id *devices,
                                           cl_uint *num_devices) {
    (void)platform; (void)d3d_device_source; (void)d3d_object; (void)d3d_device_set; (void)num_entries;
    (void)devices; (void)num_devices;
    return CL_SUCCESS;
}
"""


@dataclass(frozen=True)
class Row:
    what: str
    wrapper_us: float
    raw_us: float
    target: str
    met: bool


def build_no_op(folder: Path, name: str = "no_op") -> int:
    """Compile the no-ops and load them (once per folder); the address of `name`."""
    source, library = folder / "no_op.c", folder / "no_op.so"
    if not library.exists():
        source.write_text(NO_OP)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-DCL_TARGET_OPENCL_VERSION=300", "-o", str(library),
                        str(source)], check=True)
    loaded = ctypes.CDLL(str(library))
    _keep.append(loaded)
    address = ctypes.cast(getattr(loaded, name), ctypes.c_void_p).value
    assert address
    return address


_keep: list[Any] = []


def per_call(pair: Callable[[], None], calls_per_pair: int = 2, repeats: int = 9, seconds: float = 0.2) -> float:
    """Median microseconds per call of `pair` (run in loops long enough to time), the collector off."""
    loops = 1
    while True:
        started = time.perf_counter()
        for _ in range(loops):
            pair()
        if time.perf_counter() - started > seconds / 10:
            break
        loops *= 2
    results = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            started = time.perf_counter()
            for _ in range(loops):
                pair()
            results.append((time.perf_counter() - started) / loops / calls_per_pair * 1e6)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(results)


class Opencl:
    """POCL's platform, a context and queue on its first device, buffers and user events."""

    def __init__(self) -> None:
        self.runtime = generated_module("_library")
        ffi = generated_module("_core_ffi").ffi
        self.ffi = ffi
        found = [p for p in self.runtime.platforms() if "Portable Computing Language" in self.runtime.platform_name(p)]
        if not found:
            raise SystemExit("bench: no POCL platform; install Debian's pocl-opencl-icd and ocl-icd-libopencl1")
        self.platform = found[0]
        device = self.runtime.devices(self.platform)[0]
        lib = self.runtime.library()
        error = ffi.new("cl_int *")
        self.context = lib.clCreateContext(ffi.NULL, 1, ffi.new("cl_device_id[]", [device]), ffi.NULL, ffi.NULL,
                                           error)
        assert error[0] == 0
        self.queue = lib.clCreateCommandQueue(self.context, device, 0, error)
        assert error[0] == 0
        self.lib = lib

    def buffers(self, count: int) -> list[int]:
        """Real POCL buffers (their addresses), as a Direct3D wrap would hand back."""
        return [make_buffer(self.context) for _ in range(count)]

    def events(self, count: int) -> list[int]:
        return [make_event(self.context) for _ in range(count)]


def measure(folder: Path) -> list[Row]:
    """The three comparisons of the issue: C-named wrapper, Pythonic with 1 and with 8 objects."""
    module = generated_module(MODULE)
    ffi = module.ffi
    cl = Opencl()
    no_op_address = build_no_op(folder)
    raw_acquire = ffi.cast(f"{ACQUIRE}_fn", no_op_address)
    raw_release = ffi.cast(f"{RELEASE}_fn", no_op_address)
    for name, function in ((ACQUIRE, raw_acquire), (RELEASE, raw_release)):
        module._binding.install(cl.platform, name, function)
    queue = ffi.cast("cl_command_queue", cl.queue)
    rows = []

    one = ffi.new("cl_mem[]", [ffi.cast("cl_mem", m) for m in cl.buffers(1)])
    wrapped_acquire, wrapped_release = getattr(module, ACQUIRE), getattr(module, RELEASE)

    def raw_pair() -> None:
        raw_acquire(queue, 1, one, 0, ffi.NULL, ffi.NULL)
        raw_release(queue, 1, one, 0, ffi.NULL, ffi.NULL)

    def checked_pair() -> None:
        wrapped_acquire(queue, 1, one, 0, None, None)
        wrapped_release(queue, 1, one, 0, None, None)

    raw, checked = per_call(raw_pair), per_call(checked_pair)
    rows.append(Row(f"{ACQUIRE} / {RELEASE}, 1 object (C-named, checked)", checked, raw,
                    "within 1 µs of raw", checked - raw <= 1.0))
    rows.append(pyopencl_row(cl, one[0], wrapped_acquire, wrapped_release, queue))

    raw_devices = ffi.cast(f"{DEVICES}_fn", build_no_op(folder, "no_devices"))
    module._binding.install(cl.platform, DEVICES, raw_devices)
    platform = ffi.cast("cl_platform_id", cl.platform)
    source, device_set = int(module.CL_D3D10_DEVICE_KHR), int(module.CL_PREFERRED_DEVICES_FOR_D3D10_KHR)
    found = ffi.new("cl_uint *")
    wrapped_devices = getattr(module, DEVICES)

    def raw_devices_pair() -> None:
        raw_devices(platform, source, ffi.NULL, device_set, 0, ffi.NULL, found)
        raw_devices(platform, source, ffi.NULL, device_set, 0, ffi.NULL, found)

    def checked_devices_pair() -> None:
        wrapped_devices(platform, source, None, device_set, 0, None, found)
        wrapped_devices(platform, source, None, device_set, 0, None, found)

    raw, checked = per_call(raw_devices_pair), per_call(checked_devices_pair)
    rows.append(Row(f"{DEVICES}, no tracked state (C-named, checked)", checked, raw, "(no target)", True))

    events = [ffi.cast("cl_event", e) for e in cl.events(2)]
    py_acquire, py_release = getattr(module, PY_ACQUIRE), getattr(module, PY_RELEASE)
    for count in (1, 8):
        mems = [ffi.cast("cl_mem", m) for m in cl.buffers(count)]

        def raw_lists(mems: list[Any] = mems) -> None:
            """What a cffi user writes for the same lists: arrays made, the event handed back."""
            for function in (raw_acquire, raw_release):
                out = ffi.new("cl_event *")
                function(queue, len(mems), ffi.new("cl_mem[]", mems), len(events), ffi.new("cl_event[]", events),
                         out)

        def pythonic(mems: list[Any] = mems) -> None:
            py_acquire(queue, mems, wait_for=events)
            py_release(queue, mems, wait_for=events)

        raw, wrapped = per_call(raw_lists), per_call(pythonic)
        target = "within 3x raw" if count == 8 else "(no target)"
        rows.append(Row(f"{PY_ACQUIRE} / {PY_RELEASE}, {count} object{'s' if count > 1 else ''} + 2 events "
                        "(Pythonic)", wrapped, raw, target, wrapped <= 3 * raw if count == 8 else True))
    module._binding.forget()
    module._state.clear()
    return rows


def pyopencl_row(cl: Opencl, mem: Any, acquire: Callable[..., None], release: Callable[..., None],
                 queue: Any) -> Row:
    """The C-named pair with a PyOpenCL queue and a list of one PyOpenCL buffer, against the same call with a cffi
    queue and a list of one cffi handle: what PyOpenCL objects cost beyond cffi handles."""
    import pyopencl

    ffi = cl.ffi
    own_queue = pyopencl.CommandQueue.from_int_ptr(int(ffi.cast("uintptr_t", queue)), retain=True)
    buffer = pyopencl.Buffer.from_int_ptr(int(ffi.cast("uintptr_t", mem)), retain=True)
    handles, objects = [mem], [buffer]

    def with_cffi() -> None:
        acquire(queue, 1, handles, 0, None, None)
        release(queue, 1, handles, 0, None, None)

    def with_pyopencl() -> None:
        acquire(own_queue, 1, objects, 0, None, None)
        release(own_queue, 1, objects, 0, None, None)

    cffi_us, pyopencl_us = per_call(with_cffi), per_call(with_pyopencl)
    return Row(f"{ACQUIRE} / {RELEASE}, PyOpenCL queue and [buffer] vs cffi handles (C-named)", pyopencl_us,
               cffi_us, "within 1.3x cffi handles", pyopencl_us <= 1.3 * cffi_us)


def table(rows: list[Row]) -> str:
    width = max(len(r.what) for r in rows)
    lines = [f"{'call':<{width}}  {'wrapper':>9}  {'raw cffi':>9}  {'ratio':>6}  target"]
    for r in rows:
        verdict = "" if r.target.startswith("(") else ("  met" if r.met else "  MISSED")
        lines.append(f"{r.what:<{width}}  {r.wrapper_us:7.2f} µs  {r.raw_us:7.2f} µs  {r.wrapper_us / r.raw_us:5.1f}x"
                     f"  {r.target}{verdict}")
    return "\n".join(lines)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        print(table(measure(Path(folder))))
