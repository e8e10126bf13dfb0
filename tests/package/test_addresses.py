"""No argument, however wrong, kills the process: an address given as a number (an int, a look-alike's int_ptr, a
ctypes pointer, an `_as_parameter_`) that nothing may read, that crosses an unmapped or PROT_NONE page, that is
read-only where C writes, or that is a live OpenCL object of another kind, is a Python error naming the
argument, with the checks on or off, with POCL, with no OpenCL library, and with a library that is not OpenCL.

Each of these used to kill the process (SIGSEGV inside the package or the driver), so the calls run in a child
interpreter (`address_program.py`): a crash there fails the test by its exit code and names the scenario it
died in. The Direct3D functions do not exist on Linux: the child installs stand-ins that write where a driver
writes (the event, the devices and their count).
"""

from __future__ import annotations

import mmap
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.package import address_program
from tests.package.standins import pyopencl
from tests.support import GENERATED, missing

#: Items of an array from the last word of one page to the first word of the page after the next.
SPANNING = mmap.PAGESIZE // 8 + 2
ALIVE = "is not a live OpenCL object"
UNREADABLE = "= 0x1234 is not a live OpenCL object"
NOTHING = "nothing can be read there"

#: scenario -> (outcome, stand-ins reached, fragments of the message), in every mode.
EVERYWHERE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "context: an unmapped address": ("ValueError", "", (f"argument 'context' {UNREADABLE} (cl_context): {NOTHING}",)),
    "context: an unmapped address (Pythonic)": ("ValueError", "", (f"argument 'context' {UNREADABLE} (cl_context)",)),
    "context: a look-alike's unmapped int_ptr": (
        "ValueError", "", (f"argument 'context' is a LookAlike whose int_ptr 0x1234 {ALIVE} (cl_context): {NOTHING}",)),
    "context: a ctypes pointer to nothing": (
        "ValueError", "", (f"argument 'context' = c_void_p(0x1234) {ALIVE} (cl_context): {NOTHING}",)),
    "context: an _as_parameter_ to nothing": ("ValueError", "", (f"argument 'context' {UNREADABLE} (cl_context)",)),
    "mem_objects: an unmapped page inside": (
        "ValueError", "", ("argument 'mem_objects' = 0x",
                           f"does not hold {SPANNING} readable items (num_objects is {SPANNING})")),
    "mem_objects: a PROT_NONE page inside": (
        "ValueError", "", ("argument 'mem_objects' = 0x",
                           f"does not hold {SPANNING} readable items (num_objects is {SPANNING})")),
    "mem_objects: past the mapping's end": (
        "ValueError", "", ("argument 'mem_objects' = 0x", "does not hold 2 readable items (num_objects is 2)")),
    "errcode_ret: unmapped, a refused call": (
        "ValueError", "", ("argument 'errcode_ret' = 0x1234 does not hold 1 writable items",)),
    "errcode_ret: read-only, a refused call": (
        "ValueError", "", ("argument 'errcode_ret' = 0x", "does not hold 1 writable items")),
    "supported: None": (
        "TypeError", "", ("supported() argument 'platform' must be a handle (cl_platform_id), not None",)),
    "supported: a float": ("TypeError", "", ("supported() argument 'platform' must be a cffi pointer", "not float")),
    "supported: a str": ("TypeError", "", ("supported() argument 'platform' must be a cffi pointer", "not str")),
    "supported: an unmapped address": ("ValueError", "", (f"supported() argument 'platform' {UNREADABLE}",)),
    "variant: None": ("TypeError", "", ("variant() argument 'platform' must be a handle (cl_platform_id), not None",)),
    "variant: a float": ("TypeError", "", ("variant() argument 'platform' must be a cffi pointer", "not float")),
    "platform_name: None": ("TypeError", "", ("platform_name() argument 'platform' must be a handle",)),
    "platform_name: an unmapped address": ("ValueError", "", (f"platform_name() argument 'platform' {UNREADABLE}",)),
    "release_mem_object: an unmapped address": (
        "ValueError", "", (f"release_mem_object() argument 'mem' {UNREADABLE} (cl_mem)",)),
    "formats: an address for the extension": (  # the tables read no memory: an address is no extension
        "TypeError", "", ("table is asked for by an extension string, a module name or an extension's module (",
                          "not 4660")),
    "device_name: a cffi handle of an unmapped address": (  # the package's own questions prove cffi handles too
        "ValueError", "", (f"device_name() argument 'device' {UNREADABLE} (cl_device_id): {NOTHING}",)),
    "release_mem_object: a cffi handle of an unmapped address": (
        "ValueError", "", (f"release_mem_object() argument 'mem' {UNREADABLE} (cl_mem)",)),
    "address: an object whose __class__ raises": (
        "TypeError", "", ("address() takes a cffi handle or pointer, not RaisingClass",)),
    "context: a file's mapping past its end": (
        "ValueError", "", ("argument 'context' = 0x", f"{ALIVE} (cl_context): {NOTHING}")),
    "mem_objects: a file's mapping past its end": (
        "ValueError", "", ("argument 'mem_objects' = 0x", "does not hold 1 readable items (num_objects is 1)")),
    "errcode_ret: a file's mapping past its end": (
        "ValueError", "", ("argument 'errcode_ret' = 0x", "does not hold 1 writable items")),
    "context: each of the kernel's [vvar] pages": ("ok", "", (f"['{NOTHING}']",)),
}
#: What differs where no OpenCL library loads: `nothing` names no file, `other` names a library that is not OpenCL.
WITHOUT = {
    "platforms": ("LibraryNotFoundError", "", ("no OpenCL library could be loaded; tried",)),
    "supported: a cffi handle of no platform": ("LibraryNotFoundError", "", ("no OpenCL library could be loaded",)),
    "context: readable memory that is no object": (
        "ValueError", "", ("argument 'context' = 0x", f"{ALIVE} (cl_context): no OpenCL library is loaded")),
}
NOT_OPENCL = ("(not an OpenCL library: it has no ", "clGetPlatformIDs, clGetPlatformInfo")
#: With POCL (the checks on or off): live objects of another kind, out-parameters nobody may write, and good calls.
POCL = {
    "platforms": ("ok", "", ()),
    "supported: a cffi handle of no platform": (
        "ValueError", "", ("supported() argument 'platform' = 0x10 is none of this process's OpenCL platforms",)),
    "context: readable memory that is no object": (
        "ValueError", "", ("argument 'context' = 0x", f"{ALIVE} (cl_context): its first word is no OpenCL platform's")),
    "devices: more than are proved, at a mapping that holds them": (  # proving them wrote to each of their pages
        "ValueError", "", ("argument 'devices' = 0x", "is to hold num_entries = 1048577 items, more than the 1048576")),
    "mem_objects: more than are proved, at a mapping that holds them": (
        "ValueError", "", ("argument 'mem_objects' = 0x", "is to hold num_objects = 1048577 items, more than the")),
    "release_mem_object: a PyOpenCL buffer": (  # released twice, it crashed when PyOpenCL released it too
        "TypeError", "", ("release_mem_object() argument 'mem' is a pyopencl.Buffer, which releases its object",)),
    "release_mem_object: a handle released when collected": (
        "TypeError", "", ("release_mem_object() argument 'mem' is released when garbage-collected",)),
    "platforms: an as_pyopencl whose truth raises": (
        "TypeError", "", ("platforms() argument 'as_pyopencl' is a Untellable whose truth cannot be told",)),
    "context: a platform's address": ("ValueError", "", (f"{ALIVE} (cl_context): it is an OpenCL platform",)),
    "queue: a device's address": (
        "ValueError", "", ("argument 'command_queue' = 0x", f"{ALIVE} (cl_command_queue): it is an OpenCL device")),
    "queue: a watched buffer's address": (
        "ValueError", "acquire,release", (f"{ALIVE} (cl_command_queue): it is a memory object",)),
    "platform: an unmapped address": ("ValueError", "", (f"argument 'platform' {UNREADABLE} (cl_platform_id)",)),
    "platform: a context's address": (
        "ValueError", "", (f"{ALIVE} (cl_platform_id): it is none of this process's OpenCL platforms",)),
    "devices: a context's address": (
        "ValueError", "", ("create_context() argument 'devices[0]' = 0x",
                           f"{ALIVE} (cl_device_id): it is none of the devices this process's platforms list")),
    "devices: an unmapped address": ("ValueError", "", (f"argument 'devices[0]' {UNREADABLE} (cl_device_id)",)),
    "mem_objects: an unmapped address (Pythonic)": ("ValueError", "", (f"'mem_objects[0]' {UNREADABLE} (cl_mem)",)),
    "mem_objects: an unmapped address (acquired)": ("ValueError", "", (f"'mem_objects[0]' {UNREADABLE} (cl_mem)",)),
    "wait_for: an unmapped address": ("ValueError", "", (f"argument 'wait_for[0]' {UNREADABLE} (cl_event)",)),
    "mem_objects: an unmapped page inside, live buffers": (
        "ValueError", "", (f"does not hold {SPANNING} readable items (num_objects is {SPANNING})",)),
    "mem_objects of a release: an unmapped page inside": (
        "ValueError", "", ("argument 'mem_objects' = 0x", f"does not hold {SPANNING} readable items")),
    "mem_objects: readable, holding an unmapped address": (
        "ValueError", "", ("argument 'mem_objects[0]' = 0x1234 (read at 0x", f"{ALIVE} (cl_mem): {NOTHING}")),
    "event_wait_list: a PROT_NONE page inside": (
        "ValueError", "", ("argument 'event_wait_list' = 0x",
                           f"does not hold {SPANNING} readable items (num_events_in_wait_list is {SPANNING})")),
    "event: read-only": ("ValueError", "", ("argument 'event' = 0x", "does not hold 1 writable items")),
    "num_devices: unmapped": ("ValueError", "", ("argument 'num_devices' = 0x1234 does not hold 1 writable items",)),
    "devices: read-only": ("ValueError", "", ("argument 'devices' = 0x", "1 writable items (num_entries is 1)")),
    "devices: past the mapping's end": ("ValueError", "", ("2 writable items (num_entries is 2)",)),
    "supported: a context's address": (
        "ValueError", "", (f"{ALIVE} (cl_platform_id): it is none of this process's OpenCL platforms",)),
    "variant: an unmapped address": ("ValueError", "", (f"variant() argument 'platform' {UNREADABLE}",)),
    "device_name: a context's address": ("ValueError", "", ("device_name() argument 'device' = 0x", ALIVE)),
    "devices of: a NULL platform": (
        "ValueError", "", ("devices() argument 'platform' = 0x0 is none of this process's OpenCL platforms",)),
    "device_name: NULL": ("InvalidDeviceError", "", ("clGetDeviceInfo: CL_INVALID_DEVICE",)),
    "release_mem_object: NULL": ("InvalidMemObjectError", "", ("clReleaseMemObject: CL_INVALID_MEM_OBJECT",)),
    "good: supported by a platform's address": ("ok", "", ("False",)),
    "good: live objects by address": ("ok", "acquire,release,devices", ("(1, True)",)),
    "good: a refused call writes its errcode_ret": ("ok", "", ("('CL_INVALID_VALUE', -30)",)),
}
#: The interop queries, each in the modules that have it.
QUERIES = ("mem_d3d{n}_resource", "image_d3d{n}_subresource", "context_d3d{n}_prefer_shared_resources")


#: What differs where the library loads but its loader finds no driver.
NO_PLATFORM = {
    "platforms": ("ok", "", ("0",)),
    "supported: a cffi handle of no platform": (
        "ValueError", "", ("supported() argument 'platform' = 0x10 is none of this process's OpenCL platforms",)),
    "context: readable memory that is no object": (
        "ValueError", "", (f"{ALIVE} (cl_context): the OpenCL library lists no platform, so no OpenCL object exists",)),
}


def expected(mode: str, module: Any) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """What each scenario of `mode` gives for `module` (stand-ins by their C names)."""
    found = dict(EVERYWHERE)
    if mode in ("nothing", "other", "empty"):
        found.update(NO_PLATFORM if mode == "empty" else WITHOUT)
        if mode == "other":
            found["platforms"] = ("LibraryNotFoundError", "", NOT_OPENCL)
        return found
    found.update(POCL)
    n = module.EXTENSION.split("_")[2].removeprefix("d3d")
    for query in QUERIES:
        if hasattr(module, query.format(n=n)):
            found[f"{query.format(n=n)}: an unmapped address"] = ("ValueError", "", (f"{UNREADABLE}",))
    if mode == "off":  # no check refuses the flags: the stand-in does, having written the caller's errcode_ret
        found["good: a refused call writes its errcode_ret"] = ("ok", "create", ("('CL_INVALID_VALUE', -30)",))
    names = {"acquire": address_program.ACQUIRE, "release": address_program.RELEASE,
             "devices": address_program.DEVICES, "create": address_program.CREATE}
    api = f"d3d{n}"
    return {scenario: (outcome, ",".join(module.C_NAMES[names[r].format(api=api)] for r in reached.split(",") if r),
                       fragments) for scenario, (outcome, reached, fragments) in found.items()}


def run(mode: str, **environment: str) -> dict[str, dict[str, tuple[str, str, str]]]:
    """Every scenario of `mode` in a child interpreter: by module, scenario -> (outcome, reached, message)."""
    env = {**os.environ, "PYTHONPATH": str(GENERATED), **environment}
    for name in ("CL_D3D_SHARING_OPENCL_LIBRARY", "CL_D3D_SHARING_CHECKS", "OCL_ICD_VENDORS"):
        if name not in environment:
            env.pop(name, None)
    result = subprocess.run([sys.executable, address_program.__file__, mode], capture_output=True, text=True,
                            env=env, timeout=300, check=False)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines[-1:] == ["done"], (
        f"the child died with {result.returncode} after {lines[-1:]}:\n{result.stderr[-3000:]}")
    found: dict[str, dict[str, tuple[str, str, str]]] = {}
    for line in lines[:-1]:
        module, scenario, outcome, reached, message = line.split("|", 4)
        found.setdefault(module, {})[scenario] = (outcome, reached, message)
    return found


def check(mode: str, found: dict[str, dict[str, tuple[str, str, str]]]) -> None:
    from cl_d3d_sharing import EXTENSIONS

    assert sorted(found) == sorted(f"cl_d3d_sharing.{name}" for name in EXTENSIONS.values())
    for name, outcomes in found.items():
        module = __import__(name, fromlist=["EXTENSION"])
        wanted = expected(mode, module)
        assert outcomes.keys() == wanted.keys(), name
        for scenario, (outcome, reached, fragments) in wanted.items():
            got_outcome, got_reached, message = outcomes[scenario]
            assert (got_outcome, got_reached) == (outcome, reached), (name, scenario, message)
            for fragment in fragments:
                assert fragment in message, (name, scenario, fragment, message)


def test_no_address_kills_the_process_in_a_sandbox_that_refuses_process_vm_readv(platform: Any) -> None:
    """A seccomp filter refusing process_vm_readv and process_vm_writev, as Docker's default profile does: the
    package asks /proc/self/maps (which allow) and /proc/self/mem (which copies). The maps alone said r of a file's
    mapping past its end and of the kernel's [vvar] pages, which the package then read: SIGBUS."""
    pyopencl()
    if os.uname().machine != "x86_64":
        missing("x86-64, whose system call numbers the sandbox's filter names")
    check("sandboxed", run("sandboxed"))


@pytest.mark.parametrize("checks", ["on", "off"])
def test_no_address_kills_the_process_on_pocl(checks: str, platform: Any) -> None:
    """Every scenario on POCL, with PyOpenCL's objects beside the hostile ones, the checks on and off (off,
    the conversions are the same: what cffi does not take as it is, an int above all, is proved first)."""
    pyopencl()
    mode = "pocl" if checks == "on" else "off"
    check(mode, run(mode, **({"CL_D3D_SHARING_CHECKS": "0"} if checks == "off" else {})))


def test_no_address_kills_the_process_with_a_loader_that_finds_no_driver(platform: Any, tmp_path: Any) -> None:
    """ocl-icd loads and lists no platform (OCL_ICD_VENDORS names an empty folder): no address is an OpenCL
    object, and a readable one is refused saying so (the driver would have dispatched through its first word)."""
    check("empty", run("empty", OCL_ICD_VENDORS=str(tmp_path)))


@pytest.mark.parametrize("library", ["nothing", "other"])
def test_no_address_kills_the_process_without_opencl(library: str) -> None:
    """With CL_D3D_SHARING_OPENCL_LIBRARY naming no file, or a real library that is not OpenCL (which the
    package used to load, to fail with cffi's error at the first call): the same refusals, each naming its
    argument, and LibraryNotFoundError (naming what the library lacks) where only the library can answer."""
    other = next((path for path in ("/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1",
                                    "/usr/lib64/libz.so.1") if os.path.exists(path)), None)
    if library == "other" and other is None:
        missing("zlib's libz.so.1, a library that is not OpenCL")
    path = other if library == "other" else "/no/OpenCL/here.so"
    assert path is not None
    check(library, run(library, CL_D3D_SHARING_OPENCL_LIBRARY=path))
