"""The wrappers' fast paths agree with the general ones, and the function caches follow `install` and `forget`.

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

import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cl_d3d_sharing import _runtime, errors

from tests.package.standins import (
    ALL_FUNCTIONS,
    EVENTS,
    HANDLE_TYPES,
    RESOURCE,
    Handles,
    StandIns,
    address,
    arguments,
    extension_module,
    install,
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


def exact_and_other(
    module: Any, function: dict[str, Any], handles: Handles,
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The arguments of a call twice: every value in the form the wrapper converts inline, and the same value
    in a form it leaves to `_marshal`; and the cffi memory both share (kept alive by the caller)."""
    ffi = module.ffi
    exact: dict[str, Any] = {}
    other: dict[str, Any] = {}
    keep: list[Any] = []
    given = arguments(module, function, handles)
    for param in function["params"]:
        name, c_type, value = param["name"], param["type"], given[param["name"]]
        if c_type in HANDLE_TYPES:
            exact[name], other[name] = ffi.cast(c_type, value), address(module, value)
        elif name in ("mem_objects", "event_wait_list"):
            element, items = ("cl_mem", handles.mems) if name == "mem_objects" else ("cl_event", EVENTS)
            array = ffi.new(f"{element}[]", [ffi.cast(element, a) for a in items])
            keep.append(array)
            if c_type.startswith("const"):  # an array: `T[]` inline, a list by `_marshal`
                exact[name], other[name] = array, [ffi.cast(element, array[i]) for i in range(len(array))]
            else:  # NVIDIA's release takes a `cl_mem *`: the pointer inline, a `T[]` array by `_marshal`
                exact[name], other[name] = ffi.cast(c_type, array), array
        elif name == "errcode_ret":
            exact[name], other[name] = None, 0
        elif c_type.endswith("*"):
            if isinstance(value, int):  # a Direct3D object: an int address, or a pointer of its own type
                exact[name], other[name] = ffi.cast(c_type, value), value
            elif ffi.typeof(value).kind == "array":  # room for devices: its pointer inline, the array by `_marshal`
                keep.append(value)
                exact[name], other[name] = ffi.cast(c_type, value), value
            else:  # an out-parameter: the caller's memory, or its int address
                keep.append(value)
                exact[name], other[name] = value, address(module, value)
        else:
            assert isinstance(value, int)
            exact[name], other[name] = value, Index(value)
    return exact, other, keep


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
    exact, other, keep = exact_and_other(module, function, handles)
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
    del keep  # the memory both forms point into lives until here


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


def pythonic_stand_in(module: Any, platform: Any, seen: list[tuple[list[int], list[int]]]) -> None:
    def stand_in(queue: Any, count: int, mems: Any, waiting: int, wait_list: Any, event: Any) -> int:
        seen.append(([address(module, mems[i]) for i in range(count)],
                     [address(module, wait_list[i]) for i in range(waiting)]))
        return 0

    install(module, platform, "clEnqueueAcquireD3D11ObjectsKHR", stand_in)


def test_a_list_of_exact_handles_and_its_other_forms_reach_c_alike(
    platform: Any, context: Any, queue: Any, buffers: list[int],
) -> None:
    """Pythonic lists: cffi handles of the element type (made into the array at once), and the same handles as
    int addresses, as a tuple, as PyOpenCL objects, or with a NULL `void *` among them (each item by `_marshal`)."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi = module.ffi
    waits = [make_event(context), make_event(context)]
    seen: list[tuple[list[int], list[int]]] = []
    pythonic_stand_in(module, platform, seen)
    cl = pyopencl()
    forms: list[tuple[Any, Any]] = [
        ([ffi.cast("cl_mem", m) for m in buffers], [ffi.cast("cl_event", e) for e in waits]),
        (list(buffers), list(waits)),
        (tuple(ffi.cast("cl_mem", m) for m in buffers), tuple(ffi.cast("cl_event", e) for e in waits)),
        ([cl.MemoryObject.from_int_ptr(m) for m in buffers], [cl.Event.from_int_ptr(e) for e in waits]),
    ]
    try:
        for mems, wait_for in forms:
            module.enqueue_acquire_d3d11_objects(queue, mems, wait_for=wait_for)
            module._state.clear()
        assert seen == [(buffers, waits)] * len(forms)
        seen.clear()
        null = ffi.cast("void *", 0)
        for wait_for in ([ffi.cast("cl_event", waits[0]), null], [waits[0], null]):
            module.enqueue_acquire_d3d11_objects(queue, buffers[:1], wait_for=wait_for)
            module._state.clear()
        assert seen == [(buffers[:1], [waits[0], 0])] * 2
    finally:
        for wait in waits:
            release_event(wait)


def test_a_void_pointer_in_a_list_of_handles_is_refused(platform: Any, queue: Any, buffers: list[int]) -> None:
    """cffi would take a `void *` for a `cl_mem` in an array: the inline path leaves such a list to `_marshal`,
    which refuses it as it refuses it from a list of int addresses."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi = module.ffi
    seen: list[tuple[list[int], list[int]]] = []
    pythonic_stand_in(module, platform, seen)
    for first in (ffi.cast("cl_mem", buffers[0]), buffers[0]):
        with pytest.raises(TypeError, match=r"'mem_objects\[1\]' must be cl_mem, not void \*"):
            module.enqueue_acquire_d3d11_objects(queue, [first, ffi.cast("void *", buffers[1])])
    assert seen == []


@pytest.mark.parametrize("extension", sorted(load_truth()))
def test_a_pythonic_call_refused_by_a_check_quotes_what_it_passed(extension: str, handles: Handles) -> None:
    """The Pythonic functions run the C function's checks on the lists they made (`_call_<name>`): a refusal
    names the C function and quotes the arguments as the Pythonic layer passed them, user values as given."""
    module = extension_module(extension)
    queue, context, buffers = handles.queue, handles.context, handles.mems
    api = extension.split("_")[2]
    acquire, create = f"enqueue_acquire_{api}_objects", f"create_from_{api}_buffer"
    stand_ins = StandIns(module, handles, writes=False)
    stand_ins.install(acquire, create)
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


# -- the function caches -------------------------------------------------------------


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of handle `_runtime.platform_of` was asked about: each is two or three driver queries."""
    kinds: list[str] = []
    real = _runtime.platform_of

    def counting(kind: str, handle: Any) -> Any:
        kinds.append(kind)
        return real(kind, handle)

    monkeypatch.setattr(_runtime, "platform_of", counting)
    return kinds


ACQUIRE = "clEnqueueAcquireD3D11ObjectsKHR"


def acquire_nothing(module: Any, queue: Any) -> None:
    module.clEnqueueAcquireD3D11ObjectsKHR(queue, 0, None, 0, None, None)


def reaching(reached: list[str], label: str) -> Callable[..., int]:
    """A stand-in's body that notes `label` in `reached` and succeeds."""

    def body(*args: Any) -> int:
        reached.append(label)
        return 0

    return body


def test_one_platform_the_function_is_found_once_and_install_and_forget_reset_it(
    platform: Any, queue: Any, asked: list[str],
) -> None:
    """POCL is this machine's only platform: after the first call finds the function (asking the driver which
    platform the queue is on), the next calls take it from `Entry.only` without a query; installing another
    stand-in or forgetting empties it, so the next call finds the new one, or none."""
    module = extension_module("cl_khr_d3d11_sharing")
    assert len(_runtime.platform_words()) == 1
    entry = module._fn_clEnqueueAcquireD3D11ObjectsKHR
    reached: list[str] = []
    first = install(module, platform, ACQUIRE, reaching(reached, "first"))
    assert entry.only is None
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["first"] * 3 and asked == ["queue"] and entry.only is first
    second = install(module, platform, ACQUIRE, reaching(reached, "second"))
    assert entry.only is None
    acquire_nothing(module, queue)
    acquire_nothing(module, queue)
    assert reached[3:] == ["second"] * 2 and asked == ["queue"] * 2 and entry.only is second
    module._binding.forget()
    assert entry.only is None
    with pytest.raises(errors.ExtensionNotSupportedError):
        acquire_nothing(module, queue)


def test_a_null_handle_still_gets_the_drivers_answer(platform: Any, queue: Any) -> None:
    """With the function cached, a NULL queue is still refused by the driver's query, as on the first call."""
    module = extension_module("cl_khr_d3d11_sharing")
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "it"))
    acquire_nothing(module, queue)
    with pytest.raises(errors.BY_NAME["CL_INVALID_COMMAND_QUEUE"], match="failed on argument 'command_queue'"):
        acquire_nothing(module, None)
    assert reached == ["it"]


@pytest.fixture
def two_platforms(platform: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Pretend the loader listed a second platform (a made-up address), with POCL's dispatch word or another."""

    def listed(same_word: bool) -> None:
        words = dict(_runtime.platform_words())
        pocl = words[_runtime.address(platform)]
        words[0x7E57_0000] = pocl if same_word else pocl ^ 0x10
        monkeypatch.setattr(_runtime, "_platform_words", words)

    return listed


def test_several_platforms_the_function_is_found_by_the_dispatch_word(
    platform: Any, queue: Any, asked: list[str], two_platforms: Callable[[bool], None],
) -> None:
    """With two platforms there is no single function for every handle (`Entry.only` stays empty): the calls
    after the first find it by the queue's dispatch word, which only POCL's platform has, without a query;
    `install` empties that cache too."""
    two_platforms(False)
    module = extension_module("cl_khr_d3d11_sharing")
    entry = module._fn_clEnqueueAcquireD3D11ObjectsKHR
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "first"))
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["first"] * 3 and asked == ["queue"] and entry.only is None
    install(module, platform, ACQUIRE, reaching(reached, "second"))
    acquire_nothing(module, queue)
    acquire_nothing(module, queue)
    assert reached[3:] == ["second"] * 2 and asked == ["queue"] * 2
    module._binding.forget(platform)
    with pytest.raises(errors.ExtensionNotSupportedError):
        acquire_nothing(module, queue)


def test_a_dispatch_word_two_platforms_share_is_not_cached(
    platform: Any, queue: Any, asked: list[str], two_platforms: Callable[[bool], None],
) -> None:
    """One ICD with two platforms: the word does not say which platform a handle is on, so every call asks."""
    two_platforms(True)
    module = extension_module("cl_khr_d3d11_sharing")
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "it"))
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["it"] * 3 and asked == ["queue"] * 3


def test_the_one_platforms_function_is_for_that_platform_only(platform: Any) -> None:
    """A function taking the platform itself uses `Entry.only` only when given that platform: another handle
    in the platform's place (here a made-up address with a stand-in of its own, never dereferenced) is looked
    up for itself."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi = module.ffi
    name = "clGetDeviceIDsFromD3D11KHR"
    reached: list[str] = []

    other = ffi.cast("cl_platform_id", 0x7E57_0000)
    install(module, platform, name, reaching(reached, "pocl"))
    install(module, other, name, reaching(reached, "other"))
    count = ffi.new("cl_uint *")
    source, device_set = int(module.CL_D3D11_DEVICE_KHR), int(module.CL_PREFERRED_DEVICES_FOR_D3D11_KHR)
    for handle in (platform, platform, other, platform, other):
        module.clGetDeviceIDsFromD3D11KHR(handle, source, None, device_set, 0, None, count)
    assert reached == ["pocl", "pocl", "other", "pocl", "other"]
    entry = module._fn_clGetDeviceIDsFromD3D11KHR
    assert entry.only is not None and _runtime.address(entry.platform) == _runtime.address(platform)


def test_a_platform_argument_is_never_read(platform: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A platform's dispatch word comes from the platforms the loader listed, read once: an argument that is
    no listed platform is not dereferenced by the cache (the driver is asked about it, as before)."""
    words = _runtime.platform_words()
    read: list[int] = []
    real = _runtime.dispatch_word

    def reading(handle: Any) -> int:
        read.append(_runtime.address(handle))
        return real(handle)

    monkeypatch.setattr(_runtime, "dispatch_word", reading)
    ffi = extension_module("cl_khr_d3d11_sharing").ffi
    assert _runtime.Binding._word("platform", platform) == words[_runtime.address(platform)]
    assert _runtime.Binding._word("platform", ffi.cast("cl_platform_id", 0x10)) is None
    assert _runtime.Binding._word("platform", ffi.NULL) is None
    assert read == []


# -- holding objects ------------------------------------------------------------------


@pytest.fixture(params=["gil", "locked"])
def tracker(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A fresh tracker, with the uncontended way that takes no lock (the GIL's), or with the lock every time (as
    on a free-threaded build); threads switching as often as CPython allows."""
    state = sys.modules[extension_module("cl_khr_d3d11_sharing")._state.__class__.__module__]
    monkeypatch.setattr(state, "_GIL", request.param == "gil")
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield state.Tracker()
    sys.setswitchinterval(before)


def test_no_two_threads_hold_the_same_key(tracker: Any) -> None:
    """Eight threads hold overlapping key sets (some nested) many times: inside, no key is ever held by two
    threads; every thread finishes (no deadlock, no lost wake-up); the tracker ends holding nothing."""
    inside: dict[int, int] = {}
    lock = threading.Lock()
    clashes: list[int] = []
    start = threading.Barrier(8)

    def enter(keys: list[int]) -> None:
        with lock:
            for key in set(keys):
                if inside.get(key, 0):
                    clashes.append(key)
                inside[key] = inside.get(key, 0) + 1

    def leave(keys: list[int]) -> None:
        with lock:
            for key in set(keys):
                inside[key] -= 1

    def work(t: int) -> None:
        start.wait()
        for r in range(300):
            keys = [(t + r) % 5, (t * 3 + r) % 7 + 5] if r % 3 else [t % 4]
            held = tracker.hold(keys)
            try:
                enter(keys)
                if r % 7 == 0:  # a call from inside another in the same thread: one key of its own, one contended
                    with tracker.holding([keys[0], 100 + t % 2]):
                        enter([100 + t % 2])
                        leave([100 + t % 2])
                leave(keys)
            finally:
                tracker.let_go(held)

    failed: list[BaseException] = []

    def guarded(t: int) -> None:
        try:
            work(t)
        except BaseException as error:  # reported by the main thread, which asserts there is none
            failed.append(error)

    threads = [threading.Thread(target=guarded, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "a thread never got its keys"
    assert failed == []
    assert clashes == []
    assert tracker._calls == {} and tracker._waiting == 0


def test_a_waiting_call_holds_nothing(tracker: Any) -> None:
    """All keys at once: a call waiting for one key does not keep another call from its other keys."""
    first = tracker.hold([1])
    got_two = threading.Event()
    waiting = threading.Thread(target=lambda: tracker.let_go(tracker.hold([1, 2])))
    waiting.start()
    for _ in range(10_000):
        if tracker._waiting:
            break
        threading.Event().wait(0.001)
    assert tracker._waiting == 1, "the call on 1 and 2 waits"
    def take_two() -> None:
        tracker.let_go(tracker.hold([2]))
        got_two.set()

    other = threading.Thread(target=take_two)
    other.start()
    assert got_two.wait(10), "key 2 is free while the call on 1 and 2 waits"
    assert waiting.is_alive()
    tracker.let_go(first)
    waiting.join(10)
    other.join(10)
    assert not waiting.is_alive() and tracker._calls == {}


def test_each_module_has_its_fast_path_constants() -> None:
    """The constants the wrappers compare with exist for every C type their fast paths name."""
    for extension in load_truth():
        module = extension_module(extension)
        for name in dir(module):
            if name.startswith("_type_"):
                assert type(getattr(module, name)).__name__ == "CType", name
            if name.startswith("_fn_"):
                assert isinstance(getattr(module, name), _runtime.Entry), name
