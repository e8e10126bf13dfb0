"""Hostile calls a table of wrong values (test_hostile_arguments.py) cannot express: an argument whose repr,
truth or metaclass misbehaves, a list that changes inside `acquired`, memory shorter than its count; and the
C arrays a wrapper builds, which live for the whole call.

The Direct3D functions do not exist on Linux: the tests install stand-ins (`StandIns` and `install`), on
POCL's real handles, memory objects and events.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import errors
from cl_d3d_sharing._core_ffi import ffi as core_ffi

from tests.package.standins import (
    EXTENSIONS,
    RESOURCE,
    EndlessSequence,
    Handles,
    HugeSequence,
    StandIns,
    api,
    extension_module,
    install,
    make_event,
    release_event,
)
from tests.support import load_truth

# -- objects whose repr, truth or metaclass misbehave ------------------------------


class BadRepr:
    """Takes `__index__` as `value`; its `__repr__` raises (the checks quote the arguments they refuse)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        raise ValueError("no repr")


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_refused_argument_whose_repr_raises_is_quoted_as_what_it_is(extension: str, handles: Handles) -> None:
    """A check quotes the arguments it refuses; an object whose `__repr__` raises is described instead, and
    the spec's error comes out (it was the `__repr__`'s ValueError)."""
    module = extension_module(extension)
    reached = StandIns(module, handles, writes=False).install().reached
    create = getattr(module, f"create_from_{api(extension)}_buffer")
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]) as caught:
        create(handles.context, BadRepr(3), RESOURCE)  # READ_WRITE | WRITE_ONLY: not valid flags
    assert "flags=<BadRepr object; its __repr__ raised ValueError>" in str(caught.value)
    assert reached == []


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_an_as_pyopencl_whose_truth_raises_is_refused_before_the_call(extension: str, handles: Handles) -> None:
    """Its truth was asked only after the driver had made the object, which then leaked."""

    class NoTruth:
        def __bool__(self) -> bool:
            raise RuntimeError("neither")

    module = extension_module(extension)
    reached = StandIns(module, handles, writes=False).install().reached
    create = getattr(module, f"create_from_{api(extension)}_buffer")
    with pytest.raises(TypeError, match=r"argument 'as_pyopencl' is a NoTruth whose truth cannot be told") as caught:
        create(handles.context, 0, RESOURCE, as_pyopencl=NoTruth())
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert reached == []


class HashlessMeta(type):
    """A class whose metaclass will not hash or compare it: a set of types asked it to."""

    def __hash__(cls) -> int:
        raise RuntimeError("no hash")

    def __eq__(cls, other: object) -> bool:
        raise RuntimeError("no comparison")


class Hashless(metaclass=HashlessMeta):
    pass


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_an_object_whose_metaclass_misbehaves_is_refused_by_name(extension: str, handles: Handles) -> None:
    module = extension_module(extension)
    reached = StandIns(module, handles, writes=False).install().reached
    create = getattr(module, f"create_from_{api(extension)}_buffer")
    with pytest.raises(TypeError, match=r"argument 'context' must be None, a cffi pointer .*not Hashless"):
        create(Hashless(), 0, RESOURCE)
    acquire = getattr(module, f"enqueue_acquire_{api(extension)}_objects")
    with pytest.raises(TypeError, match=r"argument 'mem_objects\[0\]' must be a cffi pointer .*not Hashless"):
        acquire(handles.queue, [Hashless()])
    assert reached == []


# -- sequences that lie about their length -------------------------------------------


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize(("sequence", "says"), [
    (EndlessSequence(), "that yields more items than its len() says (1)"),
    (HugeSequence(), "of 1099511627776 items, more than the 1048576 read"),
], ids=["endless", "2**40 items"])
def test_a_sequence_is_read_only_as_far_as_its_length_says_everywhere(
    extension: str, sequence: Any, says: str, handles: Handles,
) -> None:
    """Where the table of hostile arguments does not reach: the context constructor's devices, `acquired`, and the
    versions bound with the checks off (which hand cffi what it takes, and convert the rest as with them on). A
    sequence without end was read for ever (memory growing all the while); one that says it is huge, at once a
    MemoryError from inside the package."""
    module = extension_module(extension)
    reached = StandIns(module, handles, writes=False).install().reached
    n = api(extension)
    acquire, release = (module.C_NAMES[f"enqueue_{verb}_{n}_objects"] for verb in ("acquire", "release"))
    calls: dict[str, Callable[[], Any]] = {
        "create_context": lambda: module.create_context(sequence),
        "acquired": lambda: module.acquired(handles.queue, sequence).__enter__(),
        "acquire, checks off": lambda: getattr(module, "_unchecked_" + acquire)(handles.queue, 1, sequence, 0, None,
                                                                               None),
        "release's wait list, checks off": lambda: getattr(module, "_unchecked_" + release)(handles.queue, 0, None, 1,
                                                                                           sequence, None),
        "Pythonic acquire, checks off": lambda: getattr(module, f"_unchecked_enqueue_acquire_{n}_objects")(
            handles.queue, sequence),
        "Pythonic wait list, checks off": lambda: getattr(module, f"_unchecked_enqueue_release_{n}_objects")(
            handles.queue, [], wait_for=sequence),
    }
    for name, make in calls.items():
        with pytest.raises(ValueError) as caught:
            make()
        assert says in str(caught.value), (name, str(caught.value))
    assert reached == []


# -- a list that changes inside `acquired` ----------------------------------------


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("change", ["emptied", "another object added"])
def test_acquired_releases_what_it_acquired_whatever_the_list_becomes(
    extension: str, change: str, handles: Handles,
) -> None:
    """The release used the caller's list as it was at the end of the block: emptied, nothing was released
    (and the object stayed acquired); grown, the release was refused as not acquired."""
    module = extension_module(extension)
    reached = StandIns(module, handles, writes=False).install().reached
    first, second = (core_ffi.cast("cl_mem", m) for m in handles.mems[:2])
    objects = [first]
    with module.acquired(handles.queue, objects):
        objects.clear() if change == "emptied" else objects.append(second)
    assert module._state.snapshot()["acquired"] == set()
    assert len(reached) == 2


# -- memory whose extent is known, or that cannot be read -----------------------------

COUNTED = [(extension, function, param["name"])
           for extension, data in sorted(load_truth().items()) for function in data["functions"]
           for param in function["params"] if param["name"] in ("devices", "mem_objects", "event_wait_list")]


@pytest.mark.parametrize(("extension", "function", "param"), COUNTED,
                         ids=[f"{f['name']}-{p}" for _, f, p in COUNTED])
@pytest.mark.parametrize("form", ["one item of ffi.new", "an address nothing is mapped at"])
def test_memory_shorter_than_its_count_is_refused(
    extension: str, function: dict[str, Any], param: str, form: str, handles: Handles,
) -> None:
    """`ffi.new("T *")` makes one item, which the inline path took for any count (a heap overflow when the
    driver wrote four devices there); an int address the package reads for its state checks must be readable
    (reading 0x8 crashed the process before the extension was even looked up). Both never reach C."""
    module = extension_module(extension)
    call = StandIns(module, handles)
    c_type = next(p["type"] for p in function["params"] if p["name"] == param)
    element = c_type.removeprefix("const ").removesuffix(" *")
    with pytest.raises(ValueError) as caught:
        call.run(function, **{param: module.ffi.new(f"{element} *") if form == "one item of ffi.new" else 8})
    says = "holds 1 items but " if form == "one item of ffi.new" else "= 0x8 does not hold "
    assert f"argument '{param}'" in str(caught.value) and says in str(caught.value), str(caught.value)
    assert call.received == {}, "nothing reached C"


# -- the C arrays a wrapper builds live for the whole call ---------------------------

GARBAGE = 0xDEAD_BEEF_0BAD_F00D
OUT_OF_RESOURCES = -5


def churn(ffi: Any) -> list[Any]:
    """Collect garbage, then allocate many fresh cffi blocks of the small sizes the wrapper's arrays have,
    filled with a pattern: a block freed too early would now hold it (or something else)."""
    gc.collect()
    return [ffi.new("uintptr_t[]", [GARBAGE] * size) for size in range(1, 9) for _ in range(500)]


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("layer", ["pythonic", "c"])
def test_the_arrays_passed_to_the_driver_live_for_the_whole_call(
    extension: str, layer: str, platform: Any, context: Any, queue: Any, buffers: list[int],
) -> None:
    """Python lists go in; the wrapper makes the C arrays. The stand-in collects garbage and allocates
    thousands of fresh blocks before it reads the arrays: they must still hold exactly the real POCL
    buffers and user events given. The stand-in then fails the call, so that arrays freed too early
    fail this test instead of sending garbage addresses to the tracker (a crash)."""
    module = extension_module(extension)
    ffi = module.ffi
    waits = [make_event(context), make_event(context)]
    seen: dict[str, list[int]] = {}
    kept: list[Any] = []

    def stand_in(q: Any, count: int, mems: Any, waiting: int, wait_list: Any, event: Any) -> int:
        kept.append(churn(ffi))
        seen["mem_objects"] = [int(ffi.cast("uintptr_t", mems[i])) for i in range(count)]
        seen["event_wait_list"] = [int(ffi.cast("uintptr_t", wait_list[i])) for i in range(waiting)]
        return OUT_OF_RESOURCES  # a failed call records nothing: a regression's garbage never reaches the tracker

    name = f"enqueue_acquire_{api(extension)}_objects"
    c_name = module.C_NAMES[name]
    install(module, platform, name, stand_in)
    try:
        with pytest.raises(errors.BY_NAME["CL_OUT_OF_RESOURCES"]):
            if layer == "pythonic":
                getattr(module, name)(queue, list(buffers), wait_for=list(waits))
            else:
                getattr(module, c_name)(queue, len(buffers), list(buffers), len(waits), list(waits), None)
    finally:
        for wait in waits:
            release_event(wait)
    assert kept and len(kept[0]) == 4000  # the churn ran inside the call
    assert seen == {"mem_objects": buffers, "event_wait_list": waits}
