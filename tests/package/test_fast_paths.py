"""The wrappers' fast paths agree with the general ones.

A wrapper converts the exact common cases inline (a cffi handle or pointer of the parameter's own type, a
plain int in range, None for a pointer, a `T[]` array, a list of `T` handles) and hands every other value to
`_marshal`. So each test here makes the same call twice, once with values in their exact form and once with
the same values in another form (int addresses, PyOpenCL objects, `__index__` objects, lists, tuples), and
compares what the driver function received, or the error raised.

The Direct3D functions do not exist on Linux: the driver functions are stand-ins (`StandIns` records what C
receives), installed in the module's lookup cache for POCL's platform. Handles, memory objects
and events are POCL's real ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import _binding, errors

from tests.package.standins import (
    ALL_FUNCTIONS,
    HANDLE_TYPES,
    RESOURCE,
    Handles,
    StandIns,
    address,
    arguments,
    extension_module,
    make_event,
    official,
    pyopencl,
    release,
    release_event,
)
from tests.support import load_truth


class Index:
    """An integer that is no int (numpy's integers are such): the general path takes it by `__index__`."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:  # errors quote the argument as given: the same text as the int's
        return repr(self.value)


def exact_and_other(module: Any, function: dict[str, Any], handles: Handles) -> tuple[dict[str, Any], dict[str, Any]]:
    """The arguments of a call twice: every value in the form the wrapper converts inline, and the same value
    in a form it leaves to `_marshal` (the cffi memory they share is owned by a value of one or the other)."""
    ffi = module.ffi
    exact: dict[str, Any] = {}
    other: dict[str, Any] = {}
    given = arguments(module, function, handles, arrays=True)
    for param in function["params"]:
        name, c_type, value = param["name"], param["type"], given[param["name"]]
        if c_type in HANDLE_TYPES:
            exact[name], other[name] = ffi.cast(c_type, value), address(module, value)
        elif name in ("mem_objects", "event_wait_list") and c_type.startswith("const"):
            exact[name], other[name] = value, list(value)  # a `T[]` array inline, a list by `_marshal`
        elif name == "errcode_ret":
            exact[name], other[name] = None, 0
        elif c_type.endswith("*"):
            if isinstance(value, int):  # a Direct3D object: an int address, or a pointer of its own type
                exact[name], other[name] = ffi.cast(c_type, value), value
            elif ffi.typeof(value).kind == "array":  # room for devices, NVIDIA's `cl_mem *`: a pointer inline,
                exact[name], other[name] = ffi.cast(c_type, value), value  # the array by `_marshal`
            else:  # an out-parameter: the caller's memory, or its int address
                exact[name], other[name] = value, address(module, value)
        else:
            assert isinstance(value, int)
            exact[name], other[name] = value, Index(value)
    return exact, other


@pytest.fixture
def converted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The parameters `_marshal` converted (each a value the wrappers did not take inline)."""
    from cl_d3d_sharing import _marshal

    names: list[str] = []
    for kind in ("pointer", "integer", "array"):
        real = getattr(_marshal, kind)

        def counting(ffi: Any, value: Any, *args: Any, real: Any = real, **kwargs: Any) -> Any:
            names.extend(a for a in args[:3] if isinstance(a, str) and a in CURRENT)  # not an item of an array
            return real(ffi, value, *args, **kwargs)

        monkeypatch.setattr(_marshal, kind, counting)
    return names


#: The parameter names of the function under test (how `converted` tells the parameter among the arguments).
CURRENT: set[str] = set()


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_the_exact_forms_and_the_others_reach_c_alike(
    extension: str, function: dict[str, Any], handles: Handles, converted: list[str],
) -> None:
    """Every C-named function, every parameter: what C receives does not depend on which path converted it.
    The exact forms are all taken inline (`_marshal` converts none), the others all by `_marshal`."""
    module = extension_module(extension)
    call = StandIns(module, handles)
    exact, other = exact_and_other(module, function, handles)
    CURRENT.clear()
    CURRENT.update(p["name"] for p in function["params"])
    seen = []
    # a pointer with a count (room for devices, NVIDIA's `cl_mem *`) is never taken inline: only `_marshal`
    # judges whether the memory behind it holds the count's items (one, for what `ffi.new("T *")` made)
    counted = {p["name"] for p in function["params"]
               if p["name"] in ("devices", "mem_objects") and not p["type"].startswith("const")}
    for given, by_marshal in ((exact, counted), (other, set(CURRENT))):
        converted.clear()
        call.run(function, **given)
        assert set(converted) == by_marshal
        if "errcode_ret" in call.received:  # the wrapper's own, new each call
            call.received["errcode_ret"] = call.received["errcode_ret"] != 0
        seen.append(call.received)
        module._state.clear()
        while call.made:
            release(call.made.pop())
    assert seen[0] == seen[1]


def outcome(run: Callable[[], Any]) -> tuple[str, str]:
    try:
        run()
    except (TypeError, ValueError, errors.CLError) as error:
        return type(error).__name__, str(error)
    return "ok", ""


@pytest.mark.parametrize(("value", "other"), [
    (0, Index(0)),
    (4, Index(4)),
    ((1 << 64) - 1, Index((1 << 64) - 1)),  # the highest cl_mem_flags: converted, then refused by the check
    (1 << 64, Index(1 << 64)),  # out of range: both forms go to `_marshal`, which says so
    (-1, Index(-1)),
    (True, 1),  # a bool is no int here: refused, where the int 1 passes to the flags check
])
def test_integers_at_the_edges_of_the_inline_range(
    value: Any, other: Any, handles: Handles,
) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clCreateFromD3D10BufferKHR")
    results = []
    for flags in (value, other):
        call = StandIns(module, handles)
        results.append(outcome(lambda: call.run(function, flags=flags)))  # noqa: B023 (called right here)
        for mem in call.made:
            release(mem)
            module._state.clear()
    if value is True:
        assert results[0][0] == "TypeError" and "not bool" in results[0][1]
        assert results[1] == ("ok", "")
    else:
        assert results[0] == results[1]


def test_an_open_array_shorter_than_its_count_is_refused(handles: Handles) -> None:
    """A `cl_mem[]` is converted inline only when it holds `num_objects` handles; a shorter one gets
    `_marshal`'s error, as a fixed-size array does."""
    module = extension_module("cl_khr_d3d10_sharing")
    function = official("cl_khr_d3d10_sharing", "clEnqueueAcquireD3D10ObjectsKHR")
    call = StandIns(module, handles)
    ffi = module.ffi
    with pytest.raises(ValueError, match="'mem_objects' holds 2 items but num_objects is 3"):
        call.run(function, mem_objects=ffi.new("cl_mem[]", [ffi.cast("cl_mem", m) for m in handles.mems[:2]]))
    assert call.received == {}, "nothing reached C"


# -- the Pythonic lists ------------------------------------------------------------


def test_a_list_of_exact_handles_and_its_other_forms_reach_c_alike(handles: Handles) -> None:
    """Pythonic lists: cffi handles of the element type (made into the array at once), and the same handles as
    int addresses, as a tuple, as PyOpenCL objects, or with a NULL `void *` among them (each item by `_marshal`)."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi, buffers = module.ffi, handles.mems
    waits = [make_event(handles.context), make_event(handles.context)]
    stand_ins = StandIns(module, handles, writes=False).install("clEnqueueAcquireD3D11ObjectsKHR")
    cl, null = pyopencl(), ffi.cast("void *", 0)
    forms: list[tuple[Any, Any]] = [
        ([ffi.cast("cl_mem", m) for m in buffers], [ffi.cast("cl_event", e) for e in waits]),
        (list(buffers), list(waits)),
        (tuple(ffi.cast("cl_mem", m) for m in buffers), tuple(ffi.cast("cl_event", e) for e in waits)),
        ([cl.MemoryObject.from_int_ptr(m) for m in buffers], [cl.Event.from_int_ptr(e) for e in waits]),
        (buffers[:1], [ffi.cast("cl_event", waits[0]), null]),
        (buffers[:1], [waits[0], null]),
    ]
    seen = []
    try:
        for mems, wait_for in forms:
            module.enqueue_acquire_d3d11_objects(handles.queue, mems, wait_for=wait_for)
            module._state.clear()
            seen.append((stand_ins.received["mem_objects"], stand_ins.received["event_wait_list"]))
        assert seen == [(buffers, waits)] * 4 + [(buffers[:1], [waits[0], 0])] * 2
    finally:
        for wait in waits:
            release_event(wait)


def test_a_void_pointer_in_a_list_of_handles_is_refused(handles: Handles) -> None:
    """cffi would take a `void *` for a `cl_mem` in an array: the inline path leaves such a list to `_marshal`,
    which refuses it as it refuses it from a list of int addresses."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi, buffers = module.ffi, handles.mems
    stand_ins = StandIns(module, handles, writes=False).install("clEnqueueAcquireD3D11ObjectsKHR")
    for first in (ffi.cast("cl_mem", buffers[0]), buffers[0]):
        with pytest.raises(TypeError, match=r"'mem_objects\[1\]' must be cl_mem, not void \*"):
            module.enqueue_acquire_d3d11_objects(handles.queue, [first, ffi.cast("void *", buffers[1])])
    assert stand_ins.reached == []


@pytest.mark.parametrize("extension", sorted(load_truth()))
def test_a_pythonic_call_refused_by_a_check_quotes_what_it_passed(extension: str, handles: Handles) -> None:
    """The Pythonic functions run the C function's checks on the lists they made (`_call_<name>`): a refusal
    names the C function and quotes the arguments as the Pythonic layer passed them, user values as given."""
    module = extension_module(extension)
    queue, context, buffers = handles.queue, handles.context, handles.mems
    api = extension.split("_")[2]
    acquire, create = f"enqueue_acquire_{api}_objects", f"create_from_{api}_buffer"
    stand_ins = StandIns(module, handles, writes=False).install(acquire, create)
    acquire_c, create_c = module.C_NAMES[acquire], module.C_NAMES[create]
    getattr(module, acquire)(queue, [buffers[0]])
    with pytest.raises(errors.CLError) as caught:
        getattr(module, acquire)(queue, [buffers[1], buffers[0]])
    refused = caught.value
    assert refused.checked and refused.function == acquire_c and f"(the object at {buffers[0]:#x})" in str(refused)
    listed: Any = refused.arguments["mem_objects"]
    assert [address(module, listed[i]) for i in range(len(listed))] == [buffers[1], buffers[0]]
    handle = getattr(module, create)(context, 0, RESOURCE)
    with pytest.raises(errors.CLError) as caught:
        getattr(module, create)(context, 0, RESOURCE)
    refused = caught.value
    assert refused.checked and refused.function == create_c
    assert refused.arguments == {"context": context, "resource": RESOURCE}
    del handle
    module._state.clear()
    for mem in stand_ins.made[1:]:
        release(mem)


def test_each_module_has_its_fast_path_constants() -> None:
    """The constants the wrappers compare with exist for every C type their fast paths name."""
    for extension in load_truth():
        module = extension_module(extension)
        for name in dir(module):
            if name.startswith("_type_"):
                assert type(getattr(module, name)).__name__ == "CType", name
            if name.startswith("_fn_"):
                assert isinstance(getattr(module, name), _binding.Entry), name
