"""What each generated function hands to C, checked with stand-in function pointers.

The Direct3D sharing functions do not exist on Linux, so each test installs a
stand-in (`ffi.callback` of the generated function-pointer type) in the
per-platform cache of POCL's platform and asserts the exact C arguments it
receives. Handles (platform, context, queue) and memory objects are POCL's real
ones, so the state the wrappers track after a successful call is about live objects.
"""

from __future__ import annotations

from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.standins import (
    ALL_FUNCTIONS,
    HANDLE_TYPES,
    WRITTEN_DEVICES,
    WRITTEN_EVENT,
    Handles,
    StandIns,
    address,
    arguments,
    extension_module,
    install,
    official,
    release,
)
from tests.support import load_truth


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_the_exact_c_arguments(
    extension: str, function: dict[str, Any], handles: Handles
) -> None:
    module = extension_module(extension)
    call = StandIns(module, handles)
    result = call.run(function)
    for param in function["params"]:
        name, given = param["name"], call.arguments[param["name"]]
        got = call.received[name]
        if param["type"] in HANDLE_TYPES:
            assert got == address(module, given), name
        elif name in ("mem_objects", "event_wait_list"):
            assert got == (handles.mems if name == "mem_objects" else handles.events), name
        elif name == "errcode_ret":
            assert got != 0, "a NULL errcode_ret is replaced by the wrapper's own"
        elif isinstance(given, int):
            assert got == given, name
        else:  # an out-parameter: the caller's own memory, written back
            assert got == address(module, given), name
    if "event" in call.arguments:
        assert address(module, call.arguments["event"][0]) == WRITTEN_EVENT
    if "devices" in call.arguments:
        assert [address(module, call.arguments["devices"][i]) for i in range(2)] == WRITTEN_DEVICES
        assert call.arguments["num_devices"][0] == len(WRITTEN_DEVICES)
    if function["return"] == "cl_mem":
        assert address(module, result) == call.made[-1]
        release(call.made[-1])
    else:
        assert result is None


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_an_error_code_raises_its_class_with_the_specs_conditions(
    extension: str, function: dict[str, Any], handles: Handles
) -> None:
    module = extension_module(extension)
    code = function["errors"][-1]
    cls = errors.BY_NAME[code]
    with pytest.raises(cls) as caught:
        StandIns(module, handles).run(function, code=cls.code)
    error = caught.value
    assert (error.code, error.name, error.function) == (cls.code, code, function["name"])
    assert error.conditions, "the spec gives a condition for every code it lists"
    assert error.conditions == module.conditions(function["name"], cls.code)
    assert all(c.source.startswith("specs/") for c in error.conditions)
    assert error.condition is not None and error.condition in str(error)


def test_nulls_and_empty_sequences(handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clEnqueueAcquireD3D11ObjectsKHR")
    empty = arguments(module, function, handles, num_objects=0, mem_objects=[], num_events_in_wait_list=0,
                      event_wait_list=None, event=None)
    seen: dict[str, int] = {}

    def record(queue: Any, count: int, mems: Any, waits: int, wait_list: Any, event: Any) -> int:
        seen.update(count=count, mems=address(module, mems), waits=waits, wait_list=address(module, wait_list),
                    event=address(module, event))
        return 0

    install(module, handles.platform, function["name"], record)
    module.clEnqueueAcquireD3D11ObjectsKHR(*empty.values())
    assert seen == {"count": 0, "mems": 0, "waits": 0, "wait_list": 0, "event": 0}


def test_a_callers_errcode_ret_receives_the_code_too(handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    mine = module.ffi.new("cl_int *")
    with pytest.raises(errors.BY_NAME["CL_INVALID_D3D11_RESOURCE_KHR"]) as caught:
        StandIns(module, handles).run(function, code=-1007, errcode_ret=mine)
    assert mine[0] == -1007
    assert "resource is not a Direct3D 11 buffer" in str(caught.value)


def test_a_code_the_extension_does_not_define_is_still_an_error(handles: Handles) -> None:
    module = extension_module("cl_nv_d3d10_sharing")
    function = load_truth()["cl_nv_d3d10_sharing"]["functions"][0]
    with pytest.raises(errors.CLError) as caught:
        StandIns(module, handles).run(function, code=-987654)
    assert type(caught.value) is errors.raised(errors.CLError)  # with a PyOpenCL base once PyOpenCL is imported
    assert caught.value.code == -987654 and "unknown error code" in caught.value.name


@pytest.mark.parametrize(
    ("name", "value", "exception", "message"),
    [
        ("flags", "4", TypeError, "argument 'flags' must be an int"),
        ("flags", -1, ValueError, "'flags' = -1 is out of range for cl_mem_flags"),
        ("flags", 1 << 64, ValueError, "out of range"),
        ("flags", True, TypeError, "must be an int"),
        ("resource", "0xD3D0", TypeError, "argument 'resource' must be None, a cffi pointer or an int address"),
        ("resource", -5, ValueError, "is not an address"),
        ("resource", 1.5, TypeError, "not float"),
        ("errcode_ret", 3.0, TypeError, "'errcode_ret'"),
    ],
)
def test_bad_arguments_name_the_parameter(
    name: str, value: Any, exception: type[Exception], message: str, handles: Handles
) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    call = StandIns(module, handles)
    with pytest.raises(exception, match=message.replace("(", r"\(")):
        call.run(function, **{name: value})
    assert call.received == {}, "nothing reached C"


def test_array_elements_are_checked_one_by_one(handles: Handles) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = StandIns(module, handles)
    with pytest.raises(TypeError, match=r"argument 'mem_objects\[1\]'"):
        call.run(function, mem_objects=[handles.mems[0], "two", handles.mems[2]])
    with pytest.raises(TypeError, match="must be a sequence or a pointer"):
        call.run(function, mem_objects="abc")


def test_a_typed_out_pointer_must_have_its_type(handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = load_truth()["cl_khr_d3d11_sharing"]["functions"][0]
    with pytest.raises(TypeError, match=r"'num_devices' must be cl_uint \*, not double \*"):
        StandIns(module, handles).run(function, num_devices=module.ffi.new("double *"))


def test_objects_with_an_int_ptr_are_handles(handles: Handles, context: Any) -> None:
    class PyOpenCLLike:
        int_ptr = int(extension_module("cl_khr_d3d11_sharing").ffi.cast("uintptr_t", context))

    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    call = StandIns(module, handles)
    call.run(function, context=PyOpenCLLike())
    assert call.received["context"] == PyOpenCLLike.int_ptr


@pytest.mark.parametrize("null", [None, 0, "ffi.NULL"])
def test_a_null_errcode_ret_still_reports_and_returns(null: Any, handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    call = StandIns(module, handles)
    errcode_ret = module.ffi.NULL if null == "ffi.NULL" else null
    assert address(module, call.run(function, errcode_ret=errcode_ret)) == call.made[-1]
    release(call.made[-1])
    with pytest.raises(errors.InvalidValueError):
        call.run(function, code=-30, errcode_ret=errcode_ret)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("mem_objects", [0x1000, 0x2000], "'mem_objects' has 2 items but num_objects is 3"),
    ("event_wait_list", [0xE000], "'event_wait_list' has 1 items but num_events_in_wait_list is 2"),
    ("mem_objects", "ffi:cl_mem[2]", "'mem_objects' holds 2 items but num_objects is 3"),
    ("event", "ffi:char[8]", "'event' must be cl_event \\*, not char\\[8\\]"),
])
def test_a_count_must_match_its_array(name: str, value: Any, message: str, handles: Handles) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = StandIns(module, handles)
    with pytest.raises((ValueError, TypeError), match=message):
        call.run(function, **{name: module.ffi.new(value[4:]) if isinstance(value, str) else value})
    assert call.received == {}, "nothing reached C"


def test_an_out_array_must_have_room_for_its_count(handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = load_truth()["cl_khr_d3d11_sharing"]["functions"][0]
    with pytest.raises(ValueError, match="'devices' holds 1 items but num_entries is 4"):
        StandIns(module, handles).run(function, devices=module.ffi.new("cl_device_id[1]"))


def test_a_handle_of_another_type_is_refused_in_an_array(handles: Handles, queue: Any) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    with pytest.raises(TypeError, match=r"'mem_objects\[1\]' must be cl_mem"):
        StandIns(module, handles).run(function, mem_objects=[handles.mems[0], queue, handles.mems[2]])


def test_integers_may_be_any_index_type(handles: Handles) -> None:
    class NumpyLike:
        def __index__(self) -> int:
            return 4

    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    call = StandIns(module, handles)
    call.run(function, flags=NumpyLike())
    assert call.received["flags"] == 4


def test_lookups_from_eight_threads_agree(platform: Any, context: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    module = extension_module("cl_khr_d3d11_sharing")
    module._binding.forget()
    callback = install(module, platform, "clCreateFromD3D11BufferKHR", lambda *args: module.ffi.NULL)
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(lambda _: module._binding.function(
            "context", context, "clCreateFromD3D11BufferKHR", "clCreateFromD3D11BufferKHR_fn"), range(64)))
    assert all(f is callback for f in found)
    module._binding.forget()
    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(lambda _: _lookup_outcome(module, context), range(16)))
    assert outcomes == ["ExtensionNotSupportedError"] * 16


def _lookup_outcome(module: Any, context: Any) -> str:
    try:
        module._binding.function("context", context, "clCreateFromD3D11BufferKHR", "clCreateFromD3D11BufferKHR_fn")
    except errors.Error as error:
        return type(error).__name__
    return "found"
