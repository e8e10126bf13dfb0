"""Hostile addresses everywhere the package reads, writes or passes on memory a caller gave: run in a child
interpreter by `test_addresses.py`, so that a crash kills the child, not pytest. One line per scenario, printed
before the next one starts: `module|scenario|outcome|stand-ins reached|message`.

    python address_program.py MODE [SCENARIO]

MODE `pocl`: POCL through ocl-icd, with PyOpenCL's objects; `off`: the same with CL_D3D_SHARING_CHECKS=0 (the
caller sets it); `sandboxed`: the same in a seccomp sandbox that refuses process_vm_readv/writev (`sandbox`);
`nothing` and `other`: CL_D3D_SHARING_OPENCL_LIBRARY names no file, or a library that is not OpenCL; `empty`: the
loader finds no driver (OCL_ICD_VENDORS an empty folder); in the last three only what needs no platform runs.
With SCENARIO, that one alone.

The Direct3D functions do not exist on Linux: in the POCL modes stand-ins (`ffi.callback`s of the generated
function-pointer types, in each module's lookup cache for POCL's platform) take their place. They write where a
driver writes (the event, the devices and their count), so that an out-parameter nobody may write crashes here
as it would in a driver. Memory with holes is made with mmap, munmap and mprotect.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
import tempfile
from collections.abc import Callable
from types import ModuleType
from typing import Any

import cl_d3d_sharing as package
from cl_d3d_sharing import EXTENSIONS, d3d10, d3d11, formats

PAGE = mmap.PAGESIZE
WORD = ctypes.sizeof(ctypes.c_void_p)
#: A Direct3D resource: only its address is ever used (by the package and by the stand-ins).
RESOURCE = 0xD3D0
#: Nothing is mapped at the first pages of a process.
UNMAPPED = 0x1234
#: The most items the package proves at an address given as a number (its pages are touched, its handles read).
MOST = 1 << 20
#: An extension module's error code for a refused context (any: the stand-in's answer).
INVALID_VALUE = -30

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_libc.prctl.restype = ctypes.c_int


def pages(count: int) -> int:
    """`count` fresh anonymous pages, readable and writable (never freed: their addresses must stay unreused)."""
    made = _libc.mmap(None, count * PAGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                      -1, 0)
    assert made not in (None, ctypes.c_void_p(-1).value), ctypes.get_errno()
    return int(made)


def write(where: int, words: list[int]) -> int:
    for i, word in enumerate(words):
        ctypes.c_uint64.from_address(where + i * WORD).value = word
    return where


def broken(kind: str, words: list[int]) -> tuple[int, int]:
    """An array of `words` handles whose extent crosses a page no one may read, and its count: `hole`, an
    unmapped page between two mapped ones (the first and the last word readable); `protected`, the same page
    mapped PROT_NONE; `end`, the array running past the end of its mapping."""
    base = pages(3)
    start = base + PAGE - WORD  # the last word of the first page
    if kind == "end":
        assert _libc.munmap(base + PAGE, 2 * PAGE) == 0
        count = 2
    else:
        middle = _libc.munmap(base + PAGE, PAGE) if kind == "hole" else _libc.mprotect(base + PAGE, PAGE, 0)
        assert middle == 0
        count = PAGE // WORD + 2  # the last word is the first of the third page
        write(base + 2 * PAGE, words[-1:])
    write(start, words[:1])
    return start, count


def past_the_end() -> int:
    """A page of a file's mapping past the file's end: SIGBUS when touched, though /proc/self/maps says rw."""
    handle, name = tempfile.mkstemp()
    os.write(handle, bytes(WORD))
    made = _libc.mmap(None, 2 * PAGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, handle, 0)
    os.unlink(name)
    return int(made) + PAGE


def kernel_pages() -> list[int]:
    """The kernel's [vvar] pages: /proc/self/maps says r, and some of them are SIGBUS when read."""
    with open("/proc/self/maps") as maps:
        spans = [line.split()[0].split("-") for line in maps if "[vvar" in line]
    return [page for low, high in spans for page in range(int(low, 16), int(high, 16), PAGE)]


def each_page_as(call: Callable[[int], Any], pages: list[int]) -> list[str]:
    """Why `call` refused each page (every page must be refused)."""
    reasons = set()
    for page in pages:
        try:
            call(page)
        except ValueError as error:
            reasons.add(str(error).rsplit(": ", 1)[-1])
        else:
            reasons.add("taken")
    return sorted(reasons)


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def sandbox() -> None:
    """A real sandbox, as Docker's default seccomp profile is one: process_vm_readv and process_vm_writev refused
    with EPERM by a filter the kernel enforces (on this thread and the threads it starts), so that the package
    asks /proc/self/maps and /proc/self/mem instead. x86-64's numbers: the test runs only there."""
    load, equal, give = 0x20, 0x15, 0x06  # BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K
    allow, refuse = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    rules = [(load, 0, 0, 4), (equal, 1, 0, 0xC000003E), (give, 0, 0, allow),  # another architecture: allowed
             (load, 0, 0, 0), (equal, 2, 0, 310), (equal, 1, 0, 311), (give, 0, 0, allow), (give, 0, 0, refuse)]
    instructions = (_Instruction * len(rules))(*(_Instruction(*rule) for rule in rules))
    program = _Program(len(rules), instructions)
    prctl = _libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    assert prctl(38, 1, None, 0, 0) == 0, ctypes.get_errno()  # PR_SET_NO_NEW_PRIVS
    assert prctl(22, 2, ctypes.addressof(program), 0, 0) == 0, ctypes.get_errno()  # PR_SET_SECCOMP, FILTER


def read_only(words: list[int]) -> int:
    where = write(pages(1), words)
    assert _libc.mprotect(where, PAGE, mmap.PROT_READ) == 0
    return where


class LookAlike:
    """What another wrapper library may offer: an int_ptr, and no PyOpenCL class."""

    def __init__(self, address: int) -> None:
        self.int_ptr = address


class AsParameter:
    """ctypes' protocol, as comtypes' objects offer it."""

    def __init__(self, address: int) -> None:
        self._as_parameter_ = address


class RaisingClass:
    """`isinstance` asks an object for its `__class__` when its type does not match."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise ZeroDivisionError("no class")


class Untellable:
    """A flag whose truth cannot be told."""

    def __bool__(self) -> bool:
        raise ZeroDivisionError("no truth")


class World:
    """One extension module and what its calls take: POCL's objects (PyOpenCL's, and their addresses) in the POCL
    modes; stand-ins for its Direct3D functions that record their names in `reached`."""

    def __init__(self, module: ModuleType, pocl: bool) -> None:
        self.module, self.ffi = module, module.ffi
        self.api = module.EXTENSION.split("_")[2]
        self.reached: list[str] = []
        self.kept: list[Any] = []
        if not pocl:
            return
        import pyopencl as cl

        self.cl = cl
        self.platform = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
        self.device = self.platform.get_devices()[0]
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context)
        self.buffers = [cl.Buffer(self.context, cl.mem_flags.READ_WRITE, 64) for _ in range(2)]
        self.event = cl.UserEvent(self.context)
        opencl = ctypes.CDLL(package.library_path())
        self.retain_event, self.retain_mem = opencl.clRetainEvent, opencl.clRetainMemObject
        self.retain_event.argtypes = self.retain_mem.argtypes = [ctypes.c_void_p]
        platform = self.ffi.cast("cl_platform_id", self.platform.int_ptr)
        for name in module.C_NAMES.values():
            callback = self.ffi.callback(f"{name}_fn", self.stand_in(name))
            self.kept.append(callback)
            module._binding.install(platform, name, callback)

    def stand_in(self, name: str) -> Callable[..., Any]:
        ffi = self.ffi

        def body(*args: Any) -> Any:
            self.reached.append(name)
            kind = ffi.typeof(f"{name}_fn").result.kind
            if "GetDeviceIDs" in name:  # (platform, source, object, set, num_entries, devices, num_devices)
                if args[5] != ffi.NULL and args[4]:
                    args[5][0] = ffi.cast("cl_device_id", self.device.int_ptr)
                if args[6] != ffi.NULL:
                    args[6][0] = 1
                return 0
            if kind == "pointer":  # create: refused, as a driver refuses (errcode_ret is the package's own)
                args[-1][0] = INVALID_VALUE
                return ffi.NULL
            if args[-1] != ffi.NULL:  # acquire, release: the event handed back, the caller's to release
                self.retain_event(self.event.int_ptr)
                args[-1][0] = ffi.cast("cl_event", self.event.int_ptr)
            return 0

        return body

    def c(self, pythonic: str) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(self.module, self.module.C_NAMES[pythonic.format(api=self.api)])
        return found

    def py(self, pythonic: str) -> Callable[..., Any]:
        found: Callable[..., Any] = getattr(self.module, pythonic.format(api=self.api))
        return found


CREATE, ACQUIRE, RELEASE, DEVICES = ("create_from_{api}_buffer", "enqueue_acquire_{api}_objects",
                                     "enqueue_release_{api}_objects", "get_device_ids_from_{api}")


def facade(world: World) -> ModuleType:
    return d3d10 if world.api == "d3d10" else d3d11


def nowhere(world: World, pocl: bool) -> dict[str, Callable[[], Any]]:
    """What runs with any library or none: addresses nothing may read, platforms that are none. The context and
    queue beside them are POCL's, or, with no OpenCL, cffi handles of made-up addresses (trusted as C: never read,
    since the call is refused before its lookup)."""
    w, ffi = world, world.ffi
    if pocl:
        context, queue = ffi.cast("cl_context", w.context.int_ptr), ffi.cast("cl_command_queue", w.queue.int_ptr)
    else:
        context, queue = ffi.cast("cl_context", 0x10), ffi.cast("cl_command_queue", 0x10)
    readable = write(pages(1), [0x4141_4141_4141_4141])
    return {
        "platforms": lambda: len(package.platforms()),
        "supported: a cffi handle of no platform": lambda: w.module.supported(ffi.cast("cl_platform_id", 0x10)),
        "context: an unmapped address": lambda: w.c(CREATE)(UNMAPPED, 0, RESOURCE, None),
        "context: an unmapped address (Pythonic)": lambda: w.py(CREATE)(UNMAPPED, 0, RESOURCE),
        "context: readable memory that is no object": lambda: w.c(CREATE)(readable, 0, RESOURCE, None),
        "context: a look-alike's unmapped int_ptr": lambda: w.c(CREATE)(LookAlike(UNMAPPED), 0, RESOURCE, None),
        "context: a ctypes pointer to nothing": lambda: w.c(CREATE)(ctypes.c_void_p(UNMAPPED), 0, RESOURCE, None),
        "context: an _as_parameter_ to nothing": lambda: w.c(CREATE)(AsParameter(UNMAPPED), 0, RESOURCE, None),
        "mem_objects: an unmapped page inside": lambda: w.c(ACQUIRE)(queue, *reversed(broken("hole", [0, 0])), 0,
                                                                      None, None),
        "mem_objects: a PROT_NONE page inside": lambda: w.c(ACQUIRE)(queue, *reversed(broken("protected", [0, 0])),
                                                                      0, None, None),
        "mem_objects: past the mapping's end": lambda: w.c(ACQUIRE)(queue, *reversed(broken("end", [0, 0])), 0,
                                                                     None, None),
        "errcode_ret: unmapped, a refused call": lambda: w.c(CREATE)(context, 3, RESOURCE, UNMAPPED),
        "errcode_ret: read-only, a refused call": lambda: w.c(CREATE)(context, 3, RESOURCE, read_only([0])),
        "supported: None": lambda: w.module.supported(None),
        "supported: a float": lambda: w.module.supported(3.5),
        "supported: a str": lambda: w.module.supported("x"),
        "supported: an unmapped address": lambda: w.module.supported(UNMAPPED),
        "variant: None": lambda: facade(w).variant(None),
        "variant: a float": lambda: facade(w).variant(3.5),
        "platform_name: None": lambda: package.platform_name(None),
        "platform_name: an unmapped address": lambda: package.platform_name(UNMAPPED),
        "release_mem_object: an unmapped address": lambda: package.release_mem_object(UNMAPPED),
        "formats: an address for the extension": lambda: formats.dxgi_to_cl(28, UNMAPPED),
        "device_name: a cffi handle of an unmapped address": lambda: package.device_name(
            ffi.cast("cl_device_id", UNMAPPED)),
        "release_mem_object: a cffi handle of an unmapped address": lambda: package.release_mem_object(
            ffi.cast("cl_mem", UNMAPPED)),
        "address: an object whose __class__ raises": lambda: package.address(RaisingClass()),  # type: ignore[arg-type]
        "context: a file's mapping past its end": lambda: w.c(CREATE)(past_the_end(), 0, RESOURCE, None),
        "mem_objects: a file's mapping past its end": lambda: w.c(ACQUIRE)(queue, 1, past_the_end(), 0, None, None),
        "errcode_ret: a file's mapping past its end": lambda: w.c(CREATE)(context, 3, RESOURCE, past_the_end()),
        "context: each of the kernel's [vvar] pages": lambda: each_page_as(
            lambda page: w.c(CREATE)(page, 0, RESOURCE, None), kernel_pages()),
    }


def on_pocl(world: World) -> dict[str, Callable[[], Any]]:
    """The POCL modes: live objects of the wrong kind given by address, out-parameters nobody may write, lists
    holding what is no object, and the good calls beside them."""
    w, ffi, module = world, world.ffi, world.module
    platform, device, context, queue = (o.int_ptr for o in (w.platform, w.device, w.context, w.queue))
    mems = [b.int_ptr for b in w.buffers]
    source = next(iter(module.D3DDeviceSource))
    every = next(m for m in module.D3DDeviceSet if "ALL" in m.name)
    queries = [name for name in dir(module) if name.startswith(("mem_d3d", "image_d3d", "context_d3d"))]

    def unmapped_query(name: str) -> Callable[[], Any]:
        return lambda: getattr(module, name)(UNMAPPED)

    def in_acquired(objects: list[Any]) -> None:
        with module.acquired(w.queue, objects):
            pass

    def watched_buffer_as_queue() -> Any:
        w.py(ACQUIRE)(w.queue, [w.buffers[0]])  # the package watches it now: a memory object until destroyed
        w.py(RELEASE)(w.queue, [w.buffers[0]])
        return w.c(ACQUIRE)(mems[0], 0, None, 0, None, None)

    def live_by_address() -> Any:
        room = pages(1)
        w.c(ACQUIRE)(queue, 2, write(pages(1), mems), 1, write(pages(1), [w.event.int_ptr]), room)
        w.c(RELEASE)(queue, 2, write(pages(1), mems), 0, None, None)  # NVIDIA's `cl_mem *` takes no list
        assert ctypes.c_uint64.from_address(room).value == w.event.int_ptr  # the stand-in wrote the event there
        count, devices = pages(1), pages(1)
        w.c(DEVICES)(platform, source, RESOURCE, every, 1, devices, count)
        return ctypes.c_uint32.from_address(count).value, ctypes.c_uint64.from_address(devices).value == device

    def errcode_written() -> Any:
        room = pages(1)
        try:
            w.c(CREATE)(context, 3, RESOURCE, room)  # READ_WRITE | WRITE_ONLY: refused (by the check, or the stand-in)
        except module._errors.CLError as error:
            return error.name, ctypes.c_int32.from_address(room).value
        return None

    def released_elsewhere(owner: str) -> Any:
        """A live buffer whose reference PyOpenCL, or a handle the package releases when collected, owns; kept
        alive to the end (a second release of it crashed then, or when the handle was collected)."""
        buffer = w.cl.Buffer(w.context, w.cl.mem_flags.READ_WRITE, 64)
        w.kept.append(buffer)
        if owner == "pyopencl":
            return package.release_mem_object(buffer)
        w.retain_mem(buffer.int_ptr)  # the reference the handle owns, as a Pythonic function's result owns its own
        handle = package._lifetime.adopt(ffi.cast("cl_mem", buffer.int_ptr), "cl_mem")
        w.kept.append(handle)
        return package.release_mem_object(handle)

    return {
        "devices: more than are proved, at a mapping that holds them": lambda: w.c(DEVICES)(
            platform, source, RESOURCE, every, MOST + 1, pages(-(-(MOST + 1) * WORD // PAGE)), None),
        "mem_objects: more than are proved, at a mapping that holds them": lambda: w.c(ACQUIRE)(
            queue, MOST + 1, pages(-(-(MOST + 1) * WORD // PAGE)), 0, None, None),
        "release_mem_object: a PyOpenCL buffer": lambda: released_elsewhere("pyopencl"),
        "release_mem_object: a handle released when collected": lambda: released_elsewhere("collected"),
        "platforms: an as_pyopencl whose truth raises": lambda: package.platforms(  # type: ignore[call-overload]
            as_pyopencl=Untellable()),
        "context: a platform's address": lambda: w.c(CREATE)(platform, 0, RESOURCE, None),
        "queue: a device's address": lambda: w.c(ACQUIRE)(device, 0, None, 0, None, None),
        "queue: a watched buffer's address": watched_buffer_as_queue,
        "platform: an unmapped address": lambda: w.c(DEVICES)(UNMAPPED, source, RESOURCE, every, 0, None,
                                                              ffi.new("cl_uint *")),
        "platform: a context's address": lambda: w.c(DEVICES)(context, source, RESOURCE, every, 0, None,
                                                              ffi.new("cl_uint *")),
        "devices: a context's address": lambda: module.create_context([context]),
        "devices: an unmapped address": lambda: module.create_context([UNMAPPED]),
        "mem_objects: an unmapped address (Pythonic)": lambda: w.py(ACQUIRE)(w.queue, [UNMAPPED]),
        "mem_objects: an unmapped address (acquired)": lambda: in_acquired([UNMAPPED]),
        "wait_for: an unmapped address": lambda: w.py(ACQUIRE)(w.queue, [w.buffers[0]], wait_for=[UNMAPPED]),
        "mem_objects: an unmapped page inside, live buffers": lambda: w.c(ACQUIRE)(
            queue, *reversed(broken("hole", mems)), 0, None, None),
        "mem_objects of a release: an unmapped page inside": lambda: w.c(RELEASE)(  # NVIDIA's is a `cl_mem *`
            queue, *reversed(broken("hole", mems)), 0, None, None),
        "mem_objects: readable, holding an unmapped address": lambda: w.c(ACQUIRE)(
            queue, 1, write(pages(1), [UNMAPPED]), 0, None, None),
        "event_wait_list: a PROT_NONE page inside": lambda: w.c(ACQUIRE)(
            queue, 1, [w.buffers[0]], *reversed(broken("protected", [w.event.int_ptr] * 2)), None),
        "event: read-only": lambda: w.c(ACQUIRE)(queue, 1, [w.buffers[1]], 0, None, read_only([0])),
        "num_devices: unmapped": lambda: w.c(DEVICES)(platform, source, RESOURCE, every, 0, None, UNMAPPED),
        "devices: read-only": lambda: w.c(DEVICES)(platform, source, RESOURCE, every, 1, read_only([0]), None),
        "devices: past the mapping's end": lambda: w.c(DEVICES)(platform, source, RESOURCE, every,
                                                                *reversed(broken("end", [0, 0])), None),
        **{f"{name}: an unmapped address": unmapped_query(name) for name in queries},
        "supported: a context's address": lambda: w.module.supported(context),
        "variant: an unmapped address": lambda: facade(w).variant(UNMAPPED),
        "device_name: a context's address": lambda: package.device_name(context),
        "devices of: a NULL platform": lambda: package.devices(0),
        "device_name: NULL": lambda: package.device_name(ffi.NULL),
        "release_mem_object: NULL": lambda: package.release_mem_object(ffi.NULL),
        "good: supported by a platform's address": lambda: w.module.supported(platform),
        "good: live objects by address": live_by_address,
        "good: a refused call writes its errcode_ret": errcode_written,
    }


def run(mode: str, only: str | None = None) -> None:
    pocl = mode in ("pocl", "off", "sandboxed")
    if mode == "sandboxed":
        sandbox()
    for module in (__import__(f"cl_d3d_sharing.{name}", fromlist=["EXTENSION"]) for name in EXTENSIONS.values()):
        world = World(module, pocl)
        scenarios = {**nowhere(world, pocl), **(on_pocl(world) if pocl else {})}
        for scenario, call in scenarios.items():
            if only is not None and scenario != only:
                continue
            world.reached.clear()
            try:
                answer = call()
                outcome, message = "ok", "" if answer is None else repr(answer)
            except Exception as error:
                outcome, message = type(error).__name__, " ".join(str(error).split())
            if pocl:
                module._state.clear()
            print(module.__name__, scenario, outcome, ",".join(world.reached), message, sep="|", flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
