"""The package both ways: with its checks on (the default) and off (`CL_D3D_SHARING_CHECKS=0`, read at import).

With the checks off, each module binds its `_unchecked_` versions under the public names. In this process the
checks are on, so both versions are called side by side here on the same stand-ins (the Direct3D functions do
not exist on Linux: stand-in function pointers take their place, and record what reaches them); child
interpreters show which version the switch binds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.clauses import HOST, Arguments, call
from tests.package.standins import (
    ALL_FUNCTIONS,
    MODULES,
    Driver,
    Handles,
    StandIns,
    arguments,
    extension_module,
    pyopencl,
)
from tests.support import GENERATED

SWITCH = "CL_D3D_SHARING_CHECKS"


def unchecked(module: Any, name: str) -> Callable[..., Any]:
    function: Callable[..., Any] = getattr(module, "_unchecked_" + name)
    return function


@pytest.mark.parametrize(
    ("extension", "function", "error", "clause"), HOST,
    ids=[f"{f['name']}:{c['clause'][:50]}" for _, f, _, c in HOST],
)
def test_a_call_a_host_check_refuses_reaches_the_driver_with_the_checks_off(
    extension: str, function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any], handles: Handles,
) -> None:
    module = extension_module(extension)
    firing = Arguments(module, function, handles).firing(clause)
    reached = StandIns(module, handles, writes=False, reads=False).install(function["name"]).reached
    with pytest.raises(errors.BY_NAME[error["code"]]):
        call(module, function, firing)
    assert reached == []
    unchecked(module, function["name"])(*(firing[p["name"]] for p in function["params"]))
    assert reached == [function["name"]]


@pytest.mark.parametrize("extension", sorted(MODULES))
def test_a_state_check_is_left_to_the_driver_with_the_checks_off(extension: str, handles: Handles) -> None:
    """Releasing twice: refused before the call with the checks on, by the driver (the same class) with them off."""
    module = extension_module(extension)
    driver = Driver(module, handles.platform, handles.context)
    version = module.C_NAMES
    acquire = next(f for p, f in version.items() if p.startswith("enqueue_acquire"))
    release = next(f for p, f in version.items() if p.startswith("enqueue_release"))
    mems = module.ffi.new("cl_mem[]", [module.ffi.cast("cl_mem", a) for a in handles.mems])
    getattr(module, acquire)(handles.queue, 3, mems, 0, None, None)
    getattr(module, release)(handles.queue, 3, mems, 0, None, None)
    with pytest.raises(errors.CLError) as refused:
        getattr(module, release)(handles.queue, 3, mems, 0, None, None)
    assert refused.value.checked and driver.releases == 1
    with pytest.raises(type(refused.value)) as answered:
        unchecked(module, release)(handles.queue, 3, mems, 0, None, None)
    assert not answered.value.checked and answered.value.code == refused.value.code
    assert module._state.snapshot()["acquired"] == set()


@pytest.mark.parametrize("arrays", [False, True], ids=["lists", "cffi arrays"])
@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_both_versions_hand_the_driver_the_same_arguments(
    extension: str, function: dict[str, Any], arrays: bool, handles: Handles,
) -> None:
    module = extension_module(extension)
    stand = StandIns(module, handles, writes=False).install(function["name"])
    given = arguments(module, function, handles, arrays=arrays)
    getattr(module, function["name"])(*given.values())
    checked = dict(stand.received)
    module._state.clear()
    stand.received = {}
    unchecked(module, function["name"])(*given.values())
    # each call gives the driver a cell of its own for the error code (copied to the caller's, if any)
    assert (checked.pop("errcode_ret", 1) != 0) == (stand.received.pop("errcode_ret", 1) != 0)
    assert stand.received == checked and stand.reached == [function["name"]] * 2


@pytest.mark.parametrize("extension", sorted(MODULES))
def test_a_call_is_taken_or_refused_alike_on_its_first_call_and_later(extension: str, handles: Handles) -> None:
    """The anchor is converted as with the checks on (a `void *` queue is refused, however many calls went
    before); the other arguments are what cffi takes, as C takes them (a `void *` array is taken)."""
    module = extension_module(extension)
    ffi = module.ffi
    name = next(f for p, f in module.C_NAMES.items() if p.startswith("enqueue_acquire"))
    reached = StandIns(module, handles, writes=False, reads=False).install(name).reached
    untyped = ffi.cast("void *", ffi.new("cl_mem[]", [ffi.cast("cl_mem", handles.mems[0])]))
    untyped_queue = ffi.cast("void *", handles.queue)
    for _ in range(3):
        unchecked(module, name)(handles.queue, 1, untyped, 0, None, None)
        with pytest.raises(TypeError, match="'command_queue' must be cl_command_queue"):
            unchecked(module, name)(untyped_queue, 1, untyped, 0, None, None)
    assert reached == [name] * 3


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_a_value_of_the_wrong_kind_is_the_same_type_error_both_ways(
    extension: str, function: dict[str, Any], handles: Handles,
) -> None:
    module = extension_module(extension)
    StandIns(module, handles).install(function["name"])
    param = next(p["name"] for p in function["params"] if not p["type"].endswith("*"))
    given = arguments(module, function, handles)
    given[param] = "3"
    messages = []
    for version in (getattr(module, function["name"]), unchecked(module, function["name"])):
        with pytest.raises(TypeError) as raised:
            version(*given.values())
        messages.append(str(raised.value))
    assert messages[0] == messages[1] and repr(param) in messages[0]


@pytest.mark.parametrize("extension", sorted(MODULES))
def test_the_pythonic_lists_both_ways(extension: str, handles: Handles) -> None:
    """cffi handles, PyOpenCL objects and int addresses give the driver the same array; a None item is the same
    TypeError naming the item."""
    cl = pyopencl()
    module = extension_module(extension)
    ffi = module.ffi
    name = next(p for p in module.C_NAMES if p.startswith("enqueue_acquire"))
    stand = StandIns(module, handles, writes=False).install(name)
    queue = cl.CommandQueue.from_int_ptr(int(ffi.cast("uintptr_t", handles.queue)), retain=True)
    buffers = [cl.Buffer.from_int_ptr(a, retain=True) for a in handles.mems]
    for mems in ([ffi.cast("cl_mem", a) for a in handles.mems], buffers, list(handles.mems), tuple(buffers)):
        for version in (getattr(module, name), unchecked(module, name)):
            stand.received = {}
            version(queue, mems)
            assert stand.received["mem_objects"] == handles.mems
            module._state.clear()
    for version in (getattr(module, name), unchecked(module, name)):
        with pytest.raises(TypeError, match=r"'mem_objects\[1\]'"):
            version(queue, [buffers[0], None])
    assert stand.reached == [module.C_NAMES[name]] * 8


def run_python(code: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != SWITCH}
    env |= {"PYTHONPATH": str(GENERATED), **environment}
    return subprocess.run([sys.executable, "-W", "always", "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, check=False)


BOUND = """
    import cl_d3d_sharing, cl_d3d_sharing._library as library
    modules = [__import__("cl_d3d_sharing." + name, fromlist=["x"]) for name in cl_d3d_sharing.EXTENSIONS.values()]
    print(library.CHECKS)
    for module in modules:
        for name in [*module.C_NAMES.values(), *module.C_NAMES]:
            function = getattr(module, name)
            plain = getattr(module, "_unchecked_" + name, None)
            assert function.__name__ == name and function.__doc__, name
            print(f"{module.EXTENSION}.{name}", "unchecked" if function is plain else "checked")
"""


@pytest.mark.parametrize(("value", "on"), [(None, True), ("0", False), ("off", False), (" No ", False),
                                           ("1", True), ("yes", True), ("", True)])
def test_the_switch_binds_one_version_at_import(value: str | None, on: bool) -> None:
    done = run_python(BOUND, **({SWITCH: value} if value is not None else {}))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == str(on) and done.stderr == ""
    bound = dict(line.split() for line in lines[1:] if line)
    assert len(bound) == sum(len(extension_module(e).C_NAMES) * 2 for e in MODULES)
    if on:
        assert set(bound.values()) == {"checked"}
    else:
        # every C function, and the Pythonic functions that make their own arrays; the others call the C ones
        assert {n for n, v in bound.items() if v == "checked"} == {
            f"{e}.{n}" for e in MODULES for n in extension_module(e).C_NAMES
            if not hasattr(extension_module(e), "_unchecked_" + n)}
        assert all(v == "unchecked" for n, v in bound.items() if n.split(".")[1].startswith("cl"))


def test_a_value_that_is_not_a_switch_keeps_the_checks_on_and_says_so() -> None:
    done = run_python(BOUND, **{SWITCH: "of"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("True\n") and "unchecked" not in done.stdout
    assert f"{SWITCH}='of' is none of 0, off, false, no (off) and 1, on, true, yes (on): the checks stay on" \
        in done.stderr


def test_a_program_with_the_checks_off_runs_on_pocl(platform: Any) -> None:
    """A whole acquire/release round through the Pythonic layer with the checks off, on POCL's real queue and
    buffer (the Direct3D functions are stand-ins that succeed), and a refusal left to the driver."""
    done = run_python("""
        import pyopencl as cl
        import cl_d3d_sharing.khr_d3d11 as khr
        platform = next(p for p in cl.get_platforms() if "Portable" in p.name)
        context = cl.Context(platform.get_devices()[:1])
        queue = cl.CommandQueue(context)
        buffer = cl.Buffer(context, cl.mem_flags.READ_WRITE, 64)
        handle = khr.ffi.cast("cl_platform_id", platform.int_ptr)
        calls = []
        def succeed(*args):
            calls.append(len(args))
            return 0
        for name in ("clEnqueueAcquireD3D11ObjectsKHR", "clEnqueueReleaseD3D11ObjectsKHR"):
            kept = khr.ffi.callback(name + "_fn", succeed)
            calls.append(kept)
            khr._binding.install(handle, name, kept)
        khr.enqueue_acquire_d3d11_objects(queue, [buffer])
        khr.enqueue_release_d3d11_objects(queue, [buffer])
        khr.enqueue_release_d3d11_objects(queue, [buffer])  # twice: no check says so
        try:
            khr.clEnqueueAcquireD3D11ObjectsKHR(queue, 1, None, 0, None, None)
        except Exception as error:
            print(type(error).__name__)
        print(sum(1 for c in calls if c == 6), khr._state.snapshot())
    """, **{SWITCH: "0"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["4 {'acquired': set(), 'known': set(), 'wraps': {}}", ""]
