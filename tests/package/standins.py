"""What the package tests share: POCL's real objects, the arguments of a call, and stand-ins for the driver.

The Direct3D sharing functions do not exist on Linux, so the tests install stand-ins (`ffi.callback`s of the
generated function-pointer types) in a module's lookup cache for POCL's platform: the one exception to testing
with real parts. Everything else a call touches is real: POCL's platform, context, queue, memory objects and
events, made here through the OpenCL library (with ctypes, for calls the package has no reason to declare).

- `arguments`: a valid call of a C-named function, which a test then changes one argument at a time;
- `install`: how a stand-in gets into the package (every stand-in here goes through it);
- `StandIns`: stand-ins that record what C received, and succeed or fail with the code a test asks for;
- `Driver`: stand-ins that keep the spec's rules for acquire, release and create, for many threads at once.

A plain module, not a test module: the tests import it (and `stress.py`, which runs in a process of its own).
"""

from __future__ import annotations

import ctypes
import functools
import inspect
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NamedTuple

import yaml

from tests.support import ROOT, generated_module, load_truth, missing

cl_d3d_sharing = generated_module()
from cl_d3d_sharing import _library  # noqa: E402

#: The extension modules, by extension string.
MODULES = {name: f"cl_d3d_sharing.{module}" for name, module in cl_d3d_sharing.EXTENSIONS.items()}
#: The committed IR of each extension, by extension string.
IR = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "generated/ir").glob("*.yaml"))}
EXTENSIONS = sorted(IR)
#: Every function, as the official headers declare it, with its extension.
ALL_FUNCTIONS = [(name, f) for name, data in sorted(load_truth().items()) for f in data["functions"]]
HANDLE_TYPES = ("cl_platform_id", "cl_context", "cl_command_queue")
#: A Direct3D object's address: never dereferenced, by the package or by the stand-ins.
RESOURCE = 0xD3D0
#: What the recording stand-ins write where a C-named function's caller gave them room.
WRITTEN_EVENT = 0xE555
WRITTEN_DEVICES = [0xDE01, 0xDE02]


# -- sequences that lie: the package reads a caller's sequence only as far as its len() says -------


class EndlessSequence(Sequence[Any]):
    """A sequence whose `__getitem__` never raises IndexError, and whose `len()` says 1: reading it until it ended
    never ended (here it ends after 100,000 items, floats, so that the code before ends too, and fails)."""

    def __len__(self) -> int:
        return 1

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int and index < 100_000:
            return 2.5
        raise IndexError(index)


class HugeSequence(Sequence[Any]):
    """A sequence that says it holds 2**40 items (a lazy one may, as `range` does): reading them all took memory
    and time without bound (here: list() asked for room for them first, a MemoryError)."""

    def __len__(self) -> int:
        return 1 << 40

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int and index < 3:
            return 2.5
        raise IndexError(index)


def extension_module(extension: str) -> ModuleType:
    return __import__(MODULES[extension], fromlist=["EXTENSION"])


def api(extension: str) -> str:
    return extension.split("_")[2]  # cl_khr_d3d11_sharing -> d3d11


def official(extension: str, name: str) -> dict[str, Any]:
    """A function as the official headers declare it (truth.yaml)."""
    return next(f for f in load_truth()[extension]["functions"] if f["name"] == name)


def token(module: Any, part: str) -> int:
    """The official value of the module's token whose name has `part` in it."""
    tokens = load_truth()[module.EXTENSION]["tokens"]
    return int(next(t["value"] for t in tokens if part in t["name"]))


def error_name(module: Any, part: str) -> str:
    """The module's error code whose name has `part` in it (`INVALID_` with `RESOURCE`: INVALID_..._RESOURCE)."""
    return str(next(name for name in module.ERROR_NAMES if all(p in name for p in part.split("*"))))


def error_code(module: Any, part: str) -> int:
    return int(getattr(module, error_name(module, part)))


def address(module: Any, pointer: Any) -> int:
    return int(module.ffi.cast("uintptr_t", pointer))


def pyopencl() -> ModuleType:
    """PyOpenCL, which the test extra installs."""
    try:
        import pyopencl as cl
    except ImportError:
        missing("PyOpenCL (the test extra installs it)")
    return cl


# -- POCL's real objects ------------------------------------------------------------------------------------


def check(code: int, what: str) -> None:
    assert code == 0, f"{what} returned {code}"


@functools.cache
def _opencl() -> ctypes.CDLL:
    """The OpenCL library through ctypes, for calls the package has no reason to declare."""
    lib = ctypes.CDLL(_library.library_path())
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
    made = _opencl().clCreateBuffer(_library.address(context), 1, size, None, ctypes.byref(error))  # READ_WRITE
    check(error.value, "clCreateBuffer")
    return int(made)


def release(mem: int) -> None:
    check(_opencl().clReleaseMemObject(mem), "clReleaseMemObject")


def make_event(context: Any) -> int:
    """A real POCL user event (its address)."""
    error = ctypes.c_int32()
    made = _opencl().clCreateUserEvent(_library.address(context), ctypes.byref(error))
    check(error.value, "clCreateUserEvent")
    return int(made)


def release_event(event: int) -> None:
    check(_opencl().clReleaseEvent(event), "clReleaseEvent")


def reference_count(mem: int) -> int:
    """A memory object's reference count, as POCL reports it (CL_MEM_REFERENCE_COUNT)."""
    count = ctypes.c_uint32()
    check(_opencl().clGetMemObjectInfo(mem, 0x1105, 4, ctypes.byref(count), None), "clGetMemObjectInfo")
    return count.value


def real_platform_extensions() -> list[str]:
    """POCL's platform extensions, asked through ctypes: not through the package under test."""
    lib = ctypes.CDLL("libOpenCL.so.1")
    count = ctypes.c_uint32()
    assert lib.clGetPlatformIDs(0, None, ctypes.byref(count)) == 0
    platforms = (ctypes.c_void_p * count.value)()
    assert lib.clGetPlatformIDs(count.value, platforms, None) == 0
    for platform in platforms:
        name = ctypes.create_string_buffer(1024)
        assert lib.clGetPlatformInfo(ctypes.c_void_p(platform), 0x0902, 1024, name, None) == 0  # CL_PLATFORM_NAME
        if b"Portable Computing Language" in name.value:
            found = ctypes.create_string_buffer(8192)
            assert lib.clGetPlatformInfo(ctypes.c_void_p(platform), 0x0904, 8192, found, None) == 0
            return found.value.decode().split()
    raise AssertionError("no POCL platform")


class Handles(NamedTuple):
    """POCL's platform, context and queue, three fresh memory objects and two fresh user events (their addresses,
    for wait lists: a made-up address where an event belongs is refused before any call): the `handles`
    fixture."""

    platform: Any
    context: Any
    queue: Any
    mems: list[int]
    events: list[int]

    def of(self, c_type: str) -> Any:
        """The handle a parameter of type `c_type` (one of HANDLE_TYPES) takes."""
        return self[HANDLE_TYPES.index(c_type)]


# -- calls and stand-ins ---------------------------------------------------------------------------------------


def arguments(
    module: Any, function: dict[str, Any], handles: Handles, arrays: bool = False, **given: Any,
) -> dict[str, Any]:
    """A valid call of a C-named function (`function` as the official headers or the IR declare it), by
    parameter: POCL's real handles, memory objects and events, made-up Direct3D objects, room for what the
    driver writes. The memory objects and events are lists, or with `arrays` C arrays (which may hold more
    items than their count says). `given` replaces the values of the parameters it names (a parameter the
    function does not have is ignored, so that one set of values serves several functions)."""
    ffi = module.ffi
    room = {"event": "cl_event *", "devices": "cl_device_id[4]", "num_devices": "cl_uint *"}
    values: dict[str, Any] = {}
    for param in function["params"]:
        name, c_type = param["name"], param["type"]
        if name in given:
            values[name] = given[name]
        elif c_type in HANDLE_TYPES:
            values[name] = handles.of(c_type)
        elif name in ("mem_objects", "event_wait_list") and (arrays or not c_type.startswith("const")):
            # asked for, or a `cl_mem *` (NVIDIA's release functions), which takes no list
            element, items = ("cl_mem", handles.mems) if name == "mem_objects" else ("cl_event", handles.events)
            values[name] = ffi.new(f"{element}[]", [ffi.cast(element, a) for a in items])
        elif name == "mem_objects":
            values[name] = list(handles.mems)
        elif name in room:
            values[name] = ffi.new(room[name])
        elif name not in ("errcode_ret", "event_wait_list") and c_type.endswith("*"):  # a Direct3D object
            values[name] = RESOURCE
        else:
            values[name] = {
                "num_objects": len(handles.mems), "num_events_in_wait_list": len(handles.events), "num_entries": 4,
                "event_wait_list": list(handles.events), "errcode_ret": None, "flags": 4, "subresource": 5,
                "d3d_device_source": token(module, "_DXGI_ADAPTER_"),
                "d3d_device_set": token(module, "_ALL_DEVICES_FOR_"),
            }[name]
    return values


def install(module: Any, platform: Any, name: str, body: Any) -> Any:
    """Put `body` in `module`'s lookup cache for `platform` as the driver's function `name` (its C name or its
    Pythonic one), with the generated function-pointer type; returns the callback."""
    c_name = module.C_NAMES.get(name, name)
    callback = module.ffi.callback(f"{c_name}_fn", body)
    module._binding.install(platform, c_name, callback)
    return callback


class StandIns:
    """Stand-ins for a module's functions that record the C arguments they receive and return `code`: on
    success, a function that makes a memory object makes a real POCL buffer. `writes` also writes made-up
    devices and an event where the caller gave room: only for C-named calls, whose caller owns them (a
    Pythonic function would release them). Without `reads`, the lists are recorded by their address, not
    read: for calls whose arguments a check would refuse (a count larger than its list, a pointer to no list),
    which the checks-off functions hand to the driver as they are."""

    def __init__(self, module: Any, handles: Handles, writes: bool = True, reads: bool = True) -> None:
        self.module, self.handles, self.writes, self.reads = module, handles, writes, reads
        self.reached: list[str] = []  # the C names of the functions called, in order
        self.received: dict[str, Any] = {}  # by parameter: ints, addresses, and lists of addresses for arrays
        self.arguments: dict[str, Any] = {}  # the Python arguments of the last `run`
        self.made: list[int] = []  # the buffers handed back, in order

    def install(self, *names: str, code: int = 0) -> StandIns:
        """Stand-ins for the functions `names` (C or Pythonic names; every function of the module by default,
        which records every call the module makes); returns `self`."""
        for name in names or tuple(self.module.C_NAMES.values()):
            c_name = self.module.C_NAMES.get(name, name)
            params = list(inspect.signature(getattr(self.module, c_name)).parameters)
            install(self.module, self.handles.platform, c_name, functools.partial(self.record, c_name, params, code))
        return self

    def run(self, function: dict[str, Any], code: int = 0, **given: Any) -> Any:
        """Install the stand-in of `function`, returning `code`, and call it with `arguments(..., **given)`."""
        self.install(function["name"], code=code)
        self.arguments = arguments(self.module, function, self.handles, **given)
        self.received = {}
        return getattr(self.module, function["name"])(*self.arguments.values())

    def record(self, name: str, params: list[str], code: int, *args: Any) -> Any:
        ffi = self.module.ffi
        self.reached.append(name)
        for param, arg in zip(params, args, strict=True):
            if self.reads and param in ("mem_objects", "event_wait_list"):  # as many as the count before it says
                self.received[param] = [address(self.module, arg[i]) for i in range(args[params.index(param) - 1])]
            else:
                self.received[param] = arg if isinstance(arg, int) else address(self.module, arg)
            if isinstance(arg, int) or arg == ffi.NULL:
                continue
            if param == "errcode_ret":
                arg[0] = code
            elif self.writes and param == "event":
                arg[0] = ffi.cast("cl_event", WRITTEN_EVENT)
            elif self.writes and param == "devices":
                for i, device in enumerate(WRITTEN_DEVICES):
                    arg[i] = ffi.cast("cl_device_id", device)
            elif self.writes and param == "num_devices":
                arg[0] = len(WRITTEN_DEVICES)
        if ffi.typeof(f"{name}_fn").result.kind != "pointer":
            return code
        if code != 0:
            return ffi.NULL
        self.made.append(make_buffer(self.handles.context))
        return ffi.cast("cl_mem", self.made[-1])


class Driver:
    """What the spec says a driver does, on real POCL buffers, under its own lock: acquiring an object that is
    acquired fails with ..._ALREADY_ACQUIRED, releasing one that is not fails with ..._NOT_ACQUIRED, making a
    second memory object from a resource fails with INVALID_..._RESOURCE, and a call on several objects is all
    or nothing; with counts of what succeeded. The lock is re-entrant: the stand-ins are Python, so the cycle
    collector can run a finalizer inside them that calls the package, and so them again (a driver in C runs no
    finalizer). The acquire of the thread named `slow_thread` sets `inside` and waits for `go`."""

    def __init__(self, module: Any, platform: Any, context: Any) -> None:
        self.module, self.ffi, self.context = module, module.ffi, context
        self.lock = threading.RLock()
        self.held: set[int] = set()
        self.acquires = self.releases = 0
        self.created: dict[int, int] = {}  # resource -> the buffer made from it
        self.slow_thread = ""
        self.inside, self.go = threading.Event(), threading.Event()
        self.already = error_code(module, "ALREADY_ACQUIRED")
        self.not_acquired = error_code(module, "NOT_ACQUIRED")
        self.invalid_resource = error_code(module, "CL_INVALID_*_RESOURCE")
        version = api(module.EXTENSION)
        for name, body in ((f"enqueue_acquire_{version}_objects", self.acquire),
                           (f"enqueue_release_{version}_objects", self.release),
                           (f"create_from_{version}_buffer", self.create)):
            install(module, platform, name, body)

    def addresses(self, count: int, mems: Any) -> set[int]:
        return {int(self.ffi.cast("uintptr_t", mems[i])) for i in range(count)}

    def acquire(self, queue: Any, count: int, mems: Any, *_: Any) -> int:
        if threading.current_thread().name == self.slow_thread:
            self.inside.set()
            self.go.wait(60)
        objects = self.addresses(count, mems)
        with self.lock:
            if objects & self.held:
                return self.already
            self.held |= objects
            self.acquires += 1
        return 0

    def release(self, queue: Any, count: int, mems: Any, *_: Any) -> int:
        objects = self.addresses(count, mems)
        with self.lock:
            if not objects <= self.held:
                return self.not_acquired
            self.held -= objects
            self.releases += 1
        return 0

    def create(self, context: Any, flags: int, resource: Any, errcode_ret: Any) -> Any:
        key = int(self.ffi.cast("uintptr_t", resource))
        with self.lock:
            if key in self.created:
                errcode_ret[0] = self.invalid_resource
                return self.ffi.NULL
            self.created[key] = make_buffer(self.context)
            errcode_ret[0] = 0
            return self.ffi.cast("cl_mem", self.created[key])
