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

from tests.package.standins import IR, RESOURCE, Handles, StandIns, arguments, extension_module, release
from tests.support import cited


def state_clauses() -> Iterator[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    for name, ir in IR.items():
        for function in ir["functions"]:
            for error in function["errors"]:
                for clause in error.get("check", ()):
                    if clause["class"] == "state":
                        yield name, function, error, clause


STATE = list(state_clauses())


class Scene(StandIns):
    """One extension's functions by the effect the IR gives them, called with stand-ins or, once they are
    dropped, for real."""

    def with_effect(self, kind: str) -> list[dict[str, Any]]:
        functions = IR[self.module.EXTENSION]["functions"]
        return [f for f in functions if any(e["kind"] == kind for e in f.get("effects", ()))]

    def enqueue(self, function: dict[str, Any], mems: list[int], count: int | None = None) -> Any:
        """Call an acquire or release function on `mems` (a C array: NVIDIA's release takes `cl_mem *`), the
        first `count` of them (all by default)."""
        ffi = self.module.ffi
        given = arguments(self.module, function, self.handles, mem_objects=ffi.new(
            "cl_mem[]", [ffi.cast("cl_mem", m) for m in mems]), num_objects=len(mems) if count is None else count,
            num_events_in_wait_list=0, event_wait_list=None, event=None)
        return getattr(self.module, function["name"])(*given.values())

    def create(self, function: dict[str, Any], resource: int = RESOURCE, subresource: int = 0) -> Any:
        given = arguments(self.module, function, self.handles, flags=0, resource=resource, subresource=subresource)
        return getattr(self.module, function["name"])(*given.values())


@pytest.fixture
def scene(request: pytest.FixtureRequest, handles: Handles) -> Iterator[Scene]:
    made = Scene(extension_module(request.param), handles)
    yield made
    made.module._state.clear()
    for mem in made.made:
        release(mem)


def fires(function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any],
          caught: pytest.ExceptionInfo[errors.CLError]) -> None:
    raised = caught.value
    assert type(raised) is errors.raised(errors.BY_NAME[error["code"]]) and raised.checked
    clauses = [c for e in function["errors"] for c in e.get("check", ())]
    same = {c["clause"] for c in clauses if c.get("predicate") == clause["predicate"]}
    assert raised.clause in same and repr(raised.clause) in str(raised)
    assert (error["condition"], cited(error)) in [(c.text, c.source) for c in raised.conditions]
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
        scene.install(acquire["name"])
        scene.enqueue(acquire, [first])
        scene.module._binding.forget()
        with pytest.raises(errors.CLError) as caught:
            scene.enqueue(function, [other, first])
        fires(function, error, clause, caught)
        assert caught.value.arguments  # the list as passed
        with pytest.raises(errors.ExtensionNotSupportedError):
            scene.enqueue(function, [other])
    elif kind == "released":
        scene.install(acquire["name"], release_["name"])
        scene.enqueue(acquire, [first, other])
        scene.enqueue(release_, [first])
        scene.module._binding.forget()
        with pytest.raises(errors.CLError) as caught:
            scene.enqueue(function, [other, first])
        fires(function, error, clause, caught)
        with pytest.raises(errors.ExtensionNotSupportedError):
            scene.enqueue(function, [other])
    else:
        assert kind == "wrapped"
        scene.install(function["name"])
        scene.create(function, subresource=2)
        scene.module._binding.forget()
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
    scene.install(acquire["name"], release_["name"])
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
def test_the_drivers_refusal_outranks_what_the_tracker_recorded(scene: Scene, buffers: list[int]) -> None:
    """A release the driver answers with "not acquired" (something outside the package released them) leaves
    the tracker refusing nothing: it forgets those objects, and the next acquire reaches the driver."""
    (acquire,), (release_,) = scene.with_effect("acquire"), scene.with_effect("release")
    scene.install(acquire["name"], code=-5)  # CL_OUT_OF_RESOURCES
    with pytest.raises(errors.CLError) as caught:
        scene.enqueue(acquire, buffers[:1])
    assert not caught.value.checked and scene.module._state.snapshot()["acquired"] == set()
    scene.install(acquire["name"])
    scene.enqueue(acquire, buffers[:1])
    code = next(e["code"] for e in release_["errors"] for c in e.get("check", ())
                if "released" in c.get("predicate", ""))
    scene.install(release_["name"], code=getattr(scene.module, code))
    with pytest.raises(errors.BY_NAME[code]) as caught:
        scene.enqueue(release_, buffers[:1])
    assert not caught.value.checked and scene.module._state.snapshot()["acquired"] == set()
    scene.enqueue(acquire, buffers[:1])  # the driver takes it: so does the package
    assert scene.module._state.snapshot()["acquired"] == {buffers[0]}


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_a_failed_create_wraps_nothing(scene: Scene) -> None:
    for function in scene.with_effect("wrap"):
        scene.install(function["name"], code=-5)
        with pytest.raises(errors.CLError) as caught:
            scene.create(function)
        assert not caught.value.checked
    assert scene.module._state.snapshot()["wraps"] == {}


@pytest.mark.parametrize("scene", EXTENSIONS, indirect=True)
def test_a_destroyed_memory_object_is_forgotten(scene: Scene) -> None:
    """OpenCL's destructor callback (real, from POCL) drops what was tracked about the object."""
    function = scene.with_effect("wrap")[0]
    scene.install(function["name"])
    made = scene.create(function)
    assert scene.module._state.snapshot()["wraps"]
    release(scene.made.pop())
    assert scene.module._state.snapshot() == {"acquired": set(), "known": set(), "wraps": {}}
    scene.module._binding.forget()
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
    refused = tracker.transit("release", [second], driver, "again")
    assert isinstance(refused, _state.Refused) and refused.found == buffers[1] and len(seen) == 2
    answer[0] = -5
    assert tracker.transit("acquire", [first, second], driver, "fails") == -5
    assert tracker.snapshot()["acquired"] == set()
    answer[0] = 0
    tracker.transit("acquire", [second], driver)
    refused = tracker.transit("acquire", [first, second], driver)
    assert isinstance(refused, _state.Refused) and refused.found == buffers[1]
    assert tracker._calls == {}, "every call let go"
    tracker.clear()
