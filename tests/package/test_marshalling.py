"""What each generated function hands to C, checked with stand-in function pointers.

The Direct3D sharing functions do not exist on Linux, so each test installs a
stand-in (`ffi.callback` of the generated function-pointer type) in the
per-platform cache of POCL's platform and asserts the exact C arguments it
receives. Handles (platform, context, queue) and memory objects are POCL's real
ones, so the state the wrappers track after a successful call is about live objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.conftest import extension_module, make_buffer, release
from tests.support import load_truth

ALL_FUNCTIONS = [(name, f) for name, data in sorted(load_truth().items()) for f in data["functions"]]
RESOURCE = 0xD3D0
EVENTS = [0xE000, 0xE100]
WRITTEN_EVENT = 0xE555
WRITTEN_DEVICES = [0xDE01, 0xDE02]


def official(extension: str, name: str) -> dict[str, Any]:
    """A function as the official headers declare it (truth.yaml)."""
    return next(f for f in load_truth()[extension]["functions"] if f["name"] == name)


def token(module: Any, part: str) -> int:
    """The official value of the module's token whose name has `part` in it."""
    tokens = load_truth()[module.EXTENSION]["tokens"]
    return int(next(t["value"] for t in tokens if part in t["name"]))


def address(module: Any, pointer: Any) -> int:
    return int(module.ffi.cast("uintptr_t", pointer))


class Call:
    """A call of one generated function: the Python arguments, and what the stand-in saw."""

    def __init__(self, module: Any, function: dict[str, Any], handles: dict[str, Any]) -> None:
        self.module = module
        self.function = function
        self.params = function["params"]
        self.mems: list[int] = handles["mems"]
        self.context = handles["cl_context"]
        self.created: int | None = None
        self.arguments: dict[str, Any] = {}
        for param in self.params:
            self.arguments[param["name"]] = self.value(param["name"], param["type"], handles)
        self.received: dict[str, Any] = {}

    def value(self, name: str, c_type: str, handles: dict[str, Any]) -> Any:
        ffi = self.module.ffi
        if c_type in handles:
            return handles[c_type]
        if name == "num_objects":
            return len(self.mems)
        if name == "num_events_in_wait_list":
            return len(EVENTS)
        if name == "num_entries":
            return 4
        if name == "mem_objects" and c_type.startswith("const"):
            return list(self.mems)
        if name == "mem_objects":  # NVIDIA's release functions take a `cl_mem *`: a C array
            return ffi.new("cl_mem[]", [ffi.cast("cl_mem", m) for m in self.mems])
        if name == "event_wait_list":
            return list(EVENTS)
        if name == "event":
            return ffi.new("cl_event *")
        if name == "devices":
            return ffi.new("cl_device_id[4]")
        if name == "num_devices":
            return ffi.new("cl_uint *")
        if name == "errcode_ret":
            return None
        if c_type.endswith("*"):  # a Direct3D object
            return RESOURCE
        return {"flags": 4, "subresource": 5, "d3d_device_source": token(self.module, "_DXGI_ADAPTER_"),
                "d3d_device_set": token(self.module, "_ALL_DEVICES_FOR_")}[name]

    def stand_in(self, returns: int) -> Callable[..., Any]:
        module = self.module

        def record(*args: Any) -> Any:
            ffi = module.ffi
            for param, arg in zip(self.params, args, strict=True):
                name = param["name"]
                if name == "mem_objects":
                    self.received[name] = [address(module, arg[i]) for i in range(args[1])]
                elif name == "event_wait_list":
                    self.received[name] = [address(module, arg[i]) for i in range(args[3])]
                elif isinstance(arg, int):
                    self.received[name] = arg
                else:
                    self.received[name] = address(module, arg)
                if name == "event" and arg != ffi.NULL:
                    arg[0] = ffi.cast("cl_event", WRITTEN_EVENT)
                if name == "devices" and arg != ffi.NULL:
                    for i, device in enumerate(WRITTEN_DEVICES):
                        arg[i] = ffi.cast("cl_device_id", device)
                if name == "num_devices" and arg != ffi.NULL:
                    arg[0] = len(WRITTEN_DEVICES)
                if name == "errcode_ret" and arg != ffi.NULL:
                    arg[0] = returns
            if self.function["return"] == "cl_int":
                return returns
            if returns != 0:
                return ffi.NULL
            self.created = make_buffer(self.context)
            return ffi.cast("cl_mem", self.created)

        return record

    def run(self, platform: Any, returns: int = 0) -> Any:
        module = self.module
        pointer_type = f"{self.function['name']}_fn"
        callback = module.ffi.callback(pointer_type, self.stand_in(returns))
        module._binding.install(platform, self.function["name"], callback)
        return getattr(module, self.function["name"])(*self.arguments.values())


@pytest.fixture
def handles(platform: Any, context: Any, queue: Any, buffers: list[int]) -> dict[str, Any]:
    return {"cl_platform_id": platform, "cl_context": context, "cl_command_queue": queue, "mems": buffers}


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_the_exact_c_arguments(
    extension: str, function: dict[str, Any], handles: dict[str, Any], platform: Any
) -> None:
    module = extension_module(extension)
    call = Call(module, function, handles)
    result = call.run(platform)
    for param in function["params"]:
        name, given = param["name"], call.arguments[param["name"]]
        got = call.received[name]
        if param["type"] in handles:
            assert got == address(module, given), name
        elif name in ("mem_objects", "event_wait_list"):
            assert got == (call.mems if name == "mem_objects" else EVENTS), name
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
        assert call.created is not None and address(module, result) == call.created
        release(call.created)
    else:
        assert result is None


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_an_error_code_raises_its_class_with_the_specs_conditions(
    extension: str, function: dict[str, Any], handles: dict[str, Any], platform: Any
) -> None:
    module = extension_module(extension)
    code = function["errors"][-1]
    cls = errors.BY_NAME[code]
    with pytest.raises(cls) as caught:
        Call(module, function, handles).run(platform, returns=cls.code)
    error = caught.value
    assert (error.code, error.name, error.function) == (cls.code, code, function["name"])
    assert error.conditions, "the spec gives a condition for every code it lists"
    assert error.conditions == module.conditions(function["name"], cls.code)
    assert all(c.source.startswith("specs/") for c in error.conditions)
    assert error.condition is not None and error.condition in str(error)


def test_nulls_and_empty_sequences(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clEnqueueAcquireD3D11ObjectsKHR")
    call = Call(module, function, handles)
    call.arguments.update(num_objects=0, mem_objects=[], num_events_in_wait_list=0, event_wait_list=None, event=None)
    call.stand_in(0)
    seen: dict[str, int] = {}

    def record(queue: Any, count: int, mems: Any, waits: int, wait_list: Any, event: Any) -> int:
        seen.update(count=count, mems=address(module, mems), waits=waits, wait_list=address(module, wait_list),
                    event=address(module, event))
        return 0

    module._binding.install(platform, function["name"], module.ffi.callback(f"{function['name']}_fn", record))
    module.clEnqueueAcquireD3D11ObjectsKHR(*call.arguments.values())
    assert seen == {"count": 0, "mems": 0, "waits": 0, "wait_list": 0, "event": 0}


def test_a_callers_errcode_ret_receives_the_code_too(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    call = Call(module, function, handles)
    mine = module.ffi.new("cl_int *")
    call.arguments["errcode_ret"] = mine
    with pytest.raises(errors.BY_NAME["CL_INVALID_D3D11_RESOURCE_KHR"]) as caught:
        call.run(platform, returns=-1007)
    assert mine[0] == -1007
    assert "resource is not a Direct3D 11 buffer" in str(caught.value)


def test_a_code_the_extension_does_not_define_is_still_an_error(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_nv_d3d10_sharing")
    function = load_truth()["cl_nv_d3d10_sharing"]["functions"][0]
    with pytest.raises(errors.CLError) as caught:
        Call(module, function, handles).run(platform, returns=-987654)
    assert type(caught.value) is errors.CLError
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
    name: str, value: Any, exception: type[Exception], message: str, handles: dict[str, Any], platform: Any
) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    call = Call(module, function, handles)
    call.arguments[name] = value
    with pytest.raises(exception, match=message.replace("(", r"\(")):
        call.run(platform)
    assert call.received == {}, "nothing reached C"


def test_array_elements_are_checked_one_by_one(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = Call(module, function, handles)
    call.arguments["mem_objects"] = [0x1000, "two", 0x3000]
    with pytest.raises(TypeError, match=r"argument 'mem_objects\[1\]'"):
        call.run(platform)
    call.arguments["mem_objects"] = "abc"
    with pytest.raises(TypeError, match="must be a sequence or a pointer"):
        call.run(platform)


def test_a_typed_out_pointer_must_have_its_type(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = load_truth()["cl_khr_d3d11_sharing"]["functions"][0]
    call = Call(module, function, handles)
    call.arguments["num_devices"] = module.ffi.new("double *")
    with pytest.raises(TypeError, match=r"'num_devices' must be cl_uint \*, not double \*"):
        call.run(platform)


def test_objects_with_an_int_ptr_are_handles(handles: dict[str, Any], platform: Any, context: Any) -> None:
    class PyOpenCLLike:
        int_ptr = int(extension_module("cl_khr_d3d11_sharing").ffi.cast("uintptr_t", context))

    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    call = Call(module, function, handles)
    call.arguments["context"] = PyOpenCLLike()
    call.run(platform)
    assert call.received["context"] == PyOpenCLLike.int_ptr


@pytest.mark.parametrize("null", [None, 0, "ffi.NULL"])
def test_a_null_errcode_ret_still_reports_and_returns(null: Any, handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = official("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    call = Call(module, function, handles)
    call.arguments["errcode_ret"] = module.ffi.NULL if null == "ffi.NULL" else null
    assert address(module, call.run(platform)) == call.created
    release(call.created)
    with pytest.raises(errors.InvalidValueError):
        call.run(platform, returns=-30)


@pytest.mark.parametrize(("name", "value", "message"), [
    ("mem_objects", [0x1000, 0x2000], "'mem_objects' has 2 items but num_objects is 3"),
    ("event_wait_list", [0xE000], "'event_wait_list' has 1 items but num_events_in_wait_list is 2"),
    ("mem_objects", "ffi:cl_mem[2]", "'mem_objects' holds 2 items but num_objects is 3"),
    ("event", "ffi:char[8]", "'event' must be cl_event \\*, not char\\[8\\]"),
])
def test_a_count_must_match_its_array(name: str, value: Any, message: str, handles: dict[str, Any],
                                      platform: Any) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = Call(module, function, handles)
    call.arguments[name] = module.ffi.new(value[4:]) if isinstance(value, str) else value
    with pytest.raises((ValueError, TypeError), match=message):
        call.run(platform)
    assert call.received == {}, "nothing reached C"


def test_an_out_array_must_have_room_for_its_count(handles: dict[str, Any], platform: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    function = load_truth()["cl_khr_d3d11_sharing"]["functions"][0]
    call = Call(module, function, handles)
    call.arguments["devices"] = module.ffi.new("cl_device_id[1]")
    with pytest.raises(ValueError, match="'devices' holds 1 items but num_entries is 4"):
        call.run(platform)


def test_a_handle_of_another_type_is_refused_in_an_array(handles: dict[str, Any], platform: Any,
                                                         queue: Any) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = Call(module, function, handles)
    call.arguments["mem_objects"] = [0x1000, queue, 0x3000]
    with pytest.raises(TypeError, match=r"'mem_objects\[1\]' must be cl_mem"):
        call.run(platform)


def test_integers_may_be_any_index_type(handles: dict[str, Any], platform: Any) -> None:
    class NumpyLike:
        def __index__(self) -> int:
            return 4

    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    call = Call(module, function, handles)
    call.arguments["flags"] = NumpyLike()
    call.run(platform)
    assert call.received["flags"] == 4


def test_lookups_from_eight_threads_agree(platform: Any, context: Any) -> None:
    from concurrent.futures import ThreadPoolExecutor

    module = extension_module("cl_khr_d3d11_sharing")
    module._binding.forget()
    callback = module.ffi.callback("clCreateFromD3D11BufferKHR_fn", lambda *args: module.ffi.NULL)
    module._binding.install(platform, "clCreateFromD3D11BufferKHR", callback)
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
