"""The snake_case layer: counts from lengths, outputs returned, `acquired()`, PyOpenCL objects in and out.

The Direct3D functions do not exist on Linux: stand-ins (`ffi.callback`s in the
module's lookup cache) take their place and hand back real POCL objects (buffers,
user events, the real device), so ownership, garbage collection and PyOpenCL's
`from_int_ptr` are exercised on real handles.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.standins import (
    EXTENSIONS,
    RESOURCE,
    Handles,
    StandIns,
    address,
    api,
    extension_module,
    install,
    make_event,
    pyopencl,
    reference_count,
    release,
    release_event,
)

NAMES = ["get_device_ids_from_{api}", "create_from_{api}_buffer", "create_from_{api}_texture2d",
         "create_from_{api}_texture3d", "enqueue_acquire_{api}_objects", "enqueue_release_{api}_objects"]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_function_has_its_snake_case_form(extension: str) -> None:
    module = extension_module(extension)
    for pattern in NAMES:
        name = pattern.format(api=api(extension))
        assert callable(getattr(module, name)), name
        assert module.C_NAMES[name].startswith("cl")
    assert callable(module.acquired)


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("as_pyopencl", [False, True])
def test_devices_come_back_as_a_list_from_two_calls(
    extension: str, as_pyopencl: bool, platform: Any, device: Any,
) -> None:
    module = extension_module(extension)
    ffi = module.ffi
    calls: list[tuple[int, int]] = []

    def stand_in(plat: Any, source: int, obj: Any, device_set: int, entries: int, devices: Any, count: Any) -> int:
        calls.append((entries, address(module, devices)))
        if devices != ffi.NULL:
            devices[0] = ffi.cast("cl_device_id", address(module, device))
        if count != ffi.NULL:
            count[0] = 1
        return 0

    name = f"get_device_ids_from_{api(extension)}"
    install(module, platform, name, stand_in)
    source, device_set = next(iter(module.D3DDeviceSource)), next(iter(module.D3DDeviceSet))
    if as_pyopencl:
        pyopencl()
    found = getattr(module, name)(platform, source, RESOURCE, device_set, as_pyopencl=as_pyopencl)
    assert len(found) == 1 and [entries for entries, _ in calls] == [0, 1]
    assert calls[0][1] == 0 and calls[1][1] != 0  # NULL list to size it, then the caller's list
    if as_pyopencl:
        assert isinstance(found[0], pyopencl().Device) and found[0].int_ptr == address(module, device)
    else:
        assert address(module, found[0]) == address(module, device)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_no_device_is_an_empty_list_after_one_call(extension: str, handles: Handles) -> None:
    module = extension_module(extension)
    name = f"get_device_ids_from_{api(extension)}"
    stand_ins = StandIns(module, handles, writes=False).install(name)  # the count stays 0: no device
    found = getattr(module, name)(handles.platform, next(iter(module.D3DDeviceSource)), RESOURCE,
                                  next(iter(module.D3DDeviceSet)))
    assert found == [] and stand_ins.reached == [module.C_NAMES[name]] and stand_ins.received["num_entries"] == 0


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("kind", ["buffer", "texture2d", "texture3d"])
def test_a_created_object_is_owned_and_released_when_collected(extension: str, kind: str, handles: Handles) -> None:
    module = extension_module(extension)
    name = f"create_from_{api(extension)}_{kind}"
    created = StandIns(module, handles, writes=False).install(name).made
    args = (handles.context, 0, RESOURCE) + ((2,) if kind != "buffer" else ())
    made = getattr(module, name)(*args)
    assert address(module, made) == created[0] and reference_count(created[0]) == 1
    assert list(module._state.snapshot()["wraps"].values()) == [created[0]]
    del made
    gc.collect()  # the cffi handle's finaliser releases it; OpenCL's destructor callback then clears the state
    assert module._state.snapshot()["wraps"] == {}


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_created_object_as_pyopencl_owns_it(extension: str, handles: Handles) -> None:
    cl = pyopencl()
    module = extension_module(extension)
    name = f"create_from_{api(extension)}_buffer"
    created = StandIns(module, handles, writes=False).install(name).made
    made = getattr(module, name)(handles.context, 0, RESOURCE, as_pyopencl=True)
    assert isinstance(made, cl.MemoryObject) and made.int_ptr == created[0]
    assert reference_count(created[0]) == 1  # PyOpenCL took the caller's reference, not one more
    made.release()
    assert module._state.snapshot()["wraps"] == {}


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("as_pyopencl", [False, True])
def test_acquire_takes_lists_and_wait_for_and_returns_its_event(
    extension: str, as_pyopencl: bool, platform: Any, context: Any, queue: Any, buffers: list[int],
) -> None:
    module = extension_module(extension)
    ffi = module.ffi
    waits = [make_event(context), make_event(context)]
    seen: dict[str, Any] = {}

    def stand_in(q: Any, count: int, mems: Any, waiting: int, wait_list: Any, event: Any) -> int:
        seen.update(count=count, mems=[address(module, mems[i]) for i in range(count)], waiting=waiting,
                    wait_list=[address(module, wait_list[i]) for i in range(waiting)])
        seen["event"] = make_event(context)
        event[0] = ffi.cast("cl_event", seen["event"])
        return 0

    name = f"enqueue_acquire_{api(extension)}_objects"
    install(module, platform, name, stand_in)
    if as_pyopencl:
        pyopencl()
    event = getattr(module, name)(queue, buffers, wait_for=waits, as_pyopencl=as_pyopencl)
    assert seen["count"] == 3 and seen["mems"] == buffers and seen["waiting"] == 2 and seen["wait_list"] == waits
    if as_pyopencl:
        assert isinstance(event, pyopencl().Event) and event.int_ptr == seen["event"]
    else:
        assert address(module, event) == seen["event"]
    assert module._state.snapshot()["acquired"] == set(buffers)
    for wait in waits:
        release_event(wait)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_acquired_releases_even_when_the_body_raises(
    extension: str, platform: Any, context: Any, queue: Any, buffers: list[int],
) -> None:
    module = extension_module(extension)
    order: list[str] = []

    def stand_in(step: str) -> Callable[..., int]:
        def body(q: Any, count: int, mems: Any, waiting: int, wait_list: Any, event: Any) -> int:
            order.append(step)
            event[0] = module.ffi.cast("cl_event", make_event(context))
            return 0
        return body

    for step in ("acquire", "release"):
        name = f"enqueue_{step}_{api(extension)}_objects"
        install(module, platform, name, stand_in(step))
    with pytest.raises(ZeroDivisionError), module.acquired(queue, buffers) as event:
        assert event is not None and order == ["acquire"]
        assert module._state.snapshot()["acquired"] == set(buffers)
        1 / 0  # noqa: B018 - the body fails
    assert order == ["acquire", "release"]
    assert module._state.snapshot()["acquired"] == set()
    install(module, platform, f"enqueue_release_{api(extension)}_objects", lambda *args: -5)  # OUT_OF_RESOURCES
    with pytest.raises(ZeroDivisionError) as caught, module.acquired(queue, buffers):
        1 / 0  # noqa: B018 - the body fails, then its release
    assert isinstance(caught.value.release_error, errors.CLError)  # type: ignore[attr-defined]
    assert "releasing on leaving acquired() failed too" in caught.value.__notes__[0]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_the_pythonic_functions_run_the_same_checks(extension: str, handles: Handles) -> None:
    module = extension_module(extension)
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]) as caught:
        getattr(module, f"create_from_{api(extension)}_buffer")(handles.context, 3, RESOURCE)
    assert caught.value.checked
    name = f"enqueue_acquire_{api(extension)}_objects"
    # they write no event: NULL comes back as None
    StandIns(module, handles, writes=False).install(name, f"enqueue_release_{api(extension)}_objects")
    with pytest.raises(errors.CLError) as again, module.acquired(handles.queue, handles.mems[:1]) as event:
        assert event is None
        getattr(module, name)(handles.queue, handles.mems[:1])
    assert again.value.checked and again.value.clause is not None and "acquired" in again.value.clause


class ComObject:
    """What a COM wrapper offers ctypes: `_as_parameter_`, the interface pointer."""

    def __init__(self, address: int) -> None:
        self._as_parameter_ = ctypes.c_void_p(address)


@pytest.mark.parametrize("form", ["int", "cffi", "c_void_p", "ctypes pointer", "COM object"])
def test_a_resource_in_every_form(form: str, handles: Handles) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    target = ctypes.c_int(7)
    where = ctypes.addressof(target)
    resource = {
        "int": where,
        "cffi": module.ffi.cast("void *", where),
        "c_void_p": ctypes.c_void_p(where),
        "ctypes pointer": ctypes.pointer(target),
        "COM object": ComObject(where),
    }[form]
    stand_ins = StandIns(module, handles, writes=False).install("clCreateFromD3D11BufferKHR")
    made = module.create_from_d3d11_buffer(handles.context, 0, resource)
    assert stand_ins.reached == ["clCreateFromD3D11BufferKHR"] and stand_ins.received["resource"] == where
    release(address(module, made))
    module.ffi.gc(made, None)  # released by hand above


def test_pyopencl_objects_are_handles(handles: Handles) -> None:
    cl = pyopencl()
    module = extension_module("cl_nv_d3d11_sharing")
    pocl = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
    assert pocl.int_ptr == address(module, handles.platform), "PyOpenCL and the package see one POCL"
    context = cl.Context(pocl.get_devices()[:1])
    queue = cl.CommandQueue(context)
    memory = [cl.Buffer(context, cl.mem_flags.READ_WRITE, 64) for _ in range(2)]
    stand_ins = StandIns(module, handles, writes=False).install("clEnqueueReleaseD3D11ObjectsNV")
    module.enqueue_release_d3d11_objects(queue, memory)
    assert stand_ins.reached == ["clEnqueueReleaseD3D11ObjectsNV"]
    assert [stand_ins.received["command_queue"], *stand_ins.received["mem_objects"]] == [
        queue.int_ptr, *(m.int_ptr for m in memory)]


@pytest.mark.parametrize("bad", ["abc", 3.5, [object()], {1: 2}])
def test_a_wrong_wait_list_is_a_type_error_naming_it(bad: Any, queue: Any, buffers: list[int]) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    with pytest.raises(TypeError, match="wait_for"):
        module.enqueue_acquire_d3d10_objects(queue, buffers, wait_for=bad)
