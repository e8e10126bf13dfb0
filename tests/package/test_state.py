"""Every state clause of the four extensions fires its check, and a neighbouring call passes.

State comes from earlier successful calls, and the Direct3D functions do not
exist on Linux: the earlier calls go to stand-ins (`ffi.callback`s installed in
the module's lookup cache) that succeed or fail as the test says, and hand back
real POCL buffers where a function creates a memory object. Then the stand-ins
are dropped, so a call that passes every check reaches POCL's
`ExtensionNotSupportedError`, and one that fails a check raises before any lookup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.conftest import extension_module, make_buffer, release
from tests.package.test_checks import IR

RESOURCE = 0xD3D0


def state_clauses() -> Iterator[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    for name, ir in IR.items():
        for function in ir["functions"]:
            for error in function["errors"]:
                for clause in error.get("check", ()):
                    if clause["class"] == "state":
                        yield name, function, error, clause


STATE = list(state_clauses())


class Scene:
    """One extension's functions by the effect the IR gives them, called with stand-ins or for real."""

    def __init__(self, extension: str, platform: Any, context: Any, queue: Any) -> None:
        self.module = extension_module(extension)
        self.functions = IR[extension]["functions"]
        self.platform, self.context, self.queue = platform, context, queue
        self.made: list[int] = []

    def with_effect(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.functions if any(e["kind"] == kind for e in f.get("effects", ()))]

    def stand_in(self, function: dict[str, Any], code: int = 0) -> None:
        ffi = self.module.ffi

        def succeed_or_fail(*args: Any) -> Any:
            if function["return_type"] == "cl_int":
                return code
            if args[-1] != ffi.NULL:
                args[-1][0] = code
            if code != 0:
                return ffi.NULL
            self.made.append(make_buffer(self.context))
            return ffi.cast("cl_mem", self.made[-1])

        callback = ffi.callback(f"{function['name']}_fn", succeed_or_fail)
        self.module._binding.install(self.platform, function["name"], callback)

    def enqueue(self, function: dict[str, Any], mems: list[int], count: int | None = None) -> Any:
        """Call an acquire or release function on `mems` (a C array: NVIDIA's release takes `cl_mem *`), the
        first `count` of them (all by default)."""
        ffi = self.module.ffi
        names = [p["name"] for p in function["params"]]
        objects = names.index("mem_objects")
        args: list[Any] = []
        for i, param in enumerate(function["params"]):
            if param["type"] == "cl_command_queue":
                args.append(self.queue)
            elif i == objects:
                args.append(ffi.new("cl_mem[]", [ffi.cast("cl_mem", m) for m in mems]))
            elif i == objects - 1:
                args.append(len(mems) if count is None else count)
            else:
                args.append(None if param["type"].endswith("*") else 0)
        return getattr(self.module, function["name"])(*args)

    def create(self, function: dict[str, Any], resource: int = RESOURCE, subresource: int = 0) -> Any:
        args: list[Any] = []
        for param in function["params"]:
            if param["type"] == "cl_context":
                args.append(self.context)
            elif param["name"] == "resource":
                args.append(resource)
            elif param["name"] == "subresource":
                args.append(subresource)
            elif param["type"].endswith("*"):
                args.append(None)
            else:
                args.append(0)
        return getattr(self.module, function["name"])(*args)

    def drop_stand_ins(self) -> None:
        self.module._binding.forget()


@pytest.fixture
def scene(request: pytest.FixtureRequest, platform: Any, context: Any, queue: Any) -> Iterator[Scene]:
    made = Scene(request.param, platform, context, queue)
    yield made
    made.module._state.clear()
    for mem in made.made:
        release(mem)


def fires(function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any],
          caught: pytest.ExceptionInfo[errors.CLError]) -> None:
    raised = caught.value
    assert type(raised) is errors.BY_NAME[error["code"]] and raised.checked
    clauses = [c for e in function["errors"] for c in e.get("check", ())]
    same = {c["clause"] for c in clauses if c.get("predicate") == clause["predicate"]}
    assert raised.clause in same and repr(raised.clause) in str(raised)
    assert (error["condition"], error["source"]) in [(c.text, c.source) for c in raised.conditions]
    assert "(the object at 0x" in str(raised)


@pytest.mark.parametrize(
    ("scene", "function", "error", "clause"), STATE, indirect=["scene"],
    ids=[f"{f['name']}:{c['clause'][:40]}" for _, f, _, c in STATE],
)
def test_a_state_clause_fires_and_its_neighbour_passes(
    scene: Scene, function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any], buffers: list[int],
) -> None:
    kind = next(iter(clause["predicate"]))
    (acquire,), (release_,) = scene.with_effect("acquire"), scene.with_effect("release")
    first, other = buffers[0], buffers[1]
    if kind == "acquired":
        scene.stand_in(acquire)
        scene.enqueue(acquire, [first])
        scene.drop_stand_ins()
        with pytest.raises(errors.CLError) as caught:
            scene.enqueue(function, [other, first])
        fires(function, error, clause, caught)
        assert caught.value.arguments  # the list as passed
        with pytest.raises(errors.ExtensionNotSupportedError):
            scene.enqueue(function, [other])
    elif kind == "released":
        scene.stand_in(acquire)
        scene.stand_in(release_)
        scene.enqueue(acquire, [first, other])
        scene.enqueue(release_, [first])
        scene.drop_stand_ins()
        with pytest.raises(errors.CLError) as caught:
            scene.enqueue(function, [other, first])
        fires(function, error, clause, caught)
        with pytest.raises(errors.ExtensionNotSupportedError):
            scene.enqueue(function, [other])
    else:
        assert kind == "wrapped"
        scene.stand_in(function)
        scene.create(function, subresource=2)
        scene.drop_stand_ins()
        with pytest.raises(errors.CLError) as caught:
            scene.create(function, subresource=2)
        fires(function, error, clause, caught)
        neighbour = {"resource": RESOURCE + 0x10} if "subresource" not in clause["predicate"]["wrapped"] \
            else {"subresource": 3}
        with pytest.raises(errors.ExtensionNotSupportedError):
            scene.create(function, **neighbour)


@pytest.mark.parametrize("scene", sorted(IR), indirect=True)
def test_only_the_counted_handles_are_checked_and_recorded(scene: Scene, buffers: list[int]) -> None:
    """A C array may hold more handles than its count says: the wrapper reads the first <count>, as C does, for
    its checks and its records alike."""
    (acquire,), (release_,) = scene.with_effect("acquire"), scene.with_effect("release")
    scene.stand_in(acquire)
    scene.stand_in(release_)
    scene.enqueue(acquire, [buffers[0]])
    scene.enqueue(acquire, [buffers[1], buffers[0]], count=1)  # the acquired buffers[0] is past the count
    assert scene.module._state.snapshot()["acquired"] == {buffers[0], buffers[1]}
    with pytest.raises(errors.CLError) as caught:
        scene.enqueue(acquire, [buffers[2], buffers[1]], count=2)
    assert caught.value.checked and f"(the object at {buffers[1]:#x})" in str(caught.value)
    scene.enqueue(acquire, [buffers[2]])
    scene.enqueue(release_, [buffers[2]])
    scene.enqueue(release_, [buffers[0], buffers[2]], count=1)  # the released buffers[2] is past the count
    assert scene.module._state.snapshot()["acquired"] == {buffers[1]}
    with pytest.raises(errors.CLError) as caught:
        scene.enqueue(release_, [buffers[1], buffers[2]], count=2)
    assert caught.value.checked and f"(the object at {buffers[2]:#x})" in str(caught.value)


def test_every_extension_has_its_state_clauses() -> None:
    kinds = {(name, next(iter(c["predicate"]))) for name, _, _, c in STATE}
    assert kinds == {(name, kind) for name in IR for kind in ("acquired", "released", "wrapped")}


EXTENSIONS = sorted(IR)


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_objects_the_package_never_saw_are_left_to_the_driver(scene: Scene, buffers: list[int]) -> None:
    (release_,) = scene.with_effect("release")
    with pytest.raises(errors.ExtensionNotSupportedError):
        scene.enqueue(release_, buffers)


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_a_failed_acquire_or_release_changes_nothing(scene: Scene, buffers: list[int]) -> None:
    (acquire,), (release_,) = scene.with_effect("acquire"), scene.with_effect("release")
    scene.stand_in(acquire, code=-5)  # CL_OUT_OF_RESOURCES
    with pytest.raises(errors.CLError) as caught:
        scene.enqueue(acquire, buffers[:1])
    assert not caught.value.checked
    assert scene.module._state.snapshot()["acquired"] == set()
    scene.stand_in(acquire)
    scene.enqueue(acquire, buffers[:1])
    scene.stand_in(release_, code=-5)
    with pytest.raises(errors.CLError):
        scene.enqueue(release_, buffers[:1])
    assert scene.module._state.snapshot()["acquired"] == {buffers[0]}


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_a_failed_create_wraps_nothing(scene: Scene) -> None:
    for function in scene.with_effect("wrap"):
        scene.stand_in(function, code=-5)
        with pytest.raises(errors.CLError) as caught:
            scene.create(function)
        assert not caught.value.checked
    assert scene.module._state.snapshot()["wraps"] == {}


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_a_destroyed_memory_object_is_forgotten(scene: Scene) -> None:
    """OpenCL's destructor callback (real, from POCL) drops what was tracked about the object."""
    function = scene.with_effect("wrap")[0]
    scene.stand_in(function)
    made = scene.create(function)
    assert scene.module._state.snapshot()["wraps"]
    release(scene.made.pop())
    assert scene.module._state.snapshot() == {"acquired": set(), "known": set(), "wraps": {}}
    scene.drop_stand_ins()
    with pytest.raises(errors.ExtensionNotSupportedError):
        scene.create(function)
    assert made is not None


def test_transit_checks_calls_and_records_as_the_long_form_would(buffers: list[int]) -> None:
    """`Tracker.transit` on its own, with a Python stand-in for the driver (a release of objects partly
    acquired and partly never seen passes, and records both; a refused or failed call records nothing)."""
    from cl_d3d_sharing import _state
    from cl_d3d_sharing._core_ffi import ffi

    tracker = _state.Tracker()
    seen, answer = [], [0]

    def driver(*args: Any) -> int:
        seen.append(args)
        return answer[0]

    first, second = (ffi.cast("cl_mem", m) for m in buffers[:2])
    assert tracker.transit("acquire", [first], driver, "acquire") == 0
    assert tracker.transit("release", [first, second], driver, "release") == 0
    assert seen == [("acquire",), ("release",)]
    assert tracker.snapshot()["acquired"] == set() and tracker.snapshot()["known"] == set(buffers[:2])
    with pytest.raises(_state.Refused) as refused:
        tracker.transit("release", [second], driver, "again")
    assert refused.value.found == buffers[1] and len(seen) == 2
    answer[0] = -5
    assert tracker.transit("acquire", [first, second], driver, "fails") == -5
    assert tracker.snapshot()["acquired"] == set()
    answer[0] = 0
    tracker.transit("acquire", [second], driver)
    with pytest.raises(_state.Refused) as refused:
        tracker.transit("acquire", [first, second], driver)
    assert refused.value.found == buffers[1]
    assert tracker._calls == {}, "every call let go"
    tracker.clear()
