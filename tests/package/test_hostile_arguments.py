"""Hostile arguments to the generated functions: each is refused with an error naming the parameter, none
crashes, none reaches the driver; the C arrays a wrapper builds live for the whole call.

The Direct3D functions do not exist on Linux: every test installs stand-ins (`ffi.callback`s of the
generated function-pointer types, put in the module's lookup cache for POCL's platform) that record
whether they were reached. Handles, memory objects and events are POCL's real ones.

A released PyOpenCL object used to crash the process inside the driver (PyOpenCL still reports the freed
address), so those cases run in a child interpreter: a crash there fails the test by its exit code
instead of killing pytest.
"""

from __future__ import annotations

import gc
import operator
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from cl_d3d_sharing import errors
from cl_d3d_sharing._core_ffi import ffi as core_ffi

from tests.package.standins import (
    EXTENSIONS,
    HANDLE_TYPES,
    MODULES,
    RESOURCE,
    Handles,
    StandIns,
    api,
    arguments,
    extension_module,
    install,
    make_event,
    pyopencl,
    release_event,
)
from tests.support import GENERATED, load_truth

# -- released PyOpenCL objects, in a child interpreter ----------------------------

#: Runs each scenario on one extension module and prints `scenario|exception or ok|stand-ins reached|message`.
CHILD = textwrap.dedent('''
    import sys
    import pyopencl as cl

    module = __import__(sys.argv[1], fromlist=["EXTENSION"])
    api = sys.argv[2]
    ffi = module.ffi
    pocl = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
    context = cl.Context(pocl.get_devices()[:1])
    queue = cl.CommandQueue(context)
    platform = ffi.cast("cl_platform_id", pocl.int_ptr)
    reached, seen = [], []
    acquire, release = f"enqueue_acquire_{api}_objects", f"enqueue_release_{api}_objects"


    def stand_in(name):
        def body(q, count, mems, waiting, wait_list, event):
            reached.append(name)
            seen.extend(int(ffi.cast("uintptr_t", mems[i])) for i in range(count))
            return 0
        c_name = module.C_NAMES[name]
        module._binding.install(platform, c_name, ffi.callback(c_name + "_fn", body))


    stand_in(acquire)
    stand_in(release)


    class LookAlike:
        """What another wrapper library may offer: an int_ptr, and no PyOpenCL class."""
        def __init__(self, address):
            self.int_ptr = address


    def live():
        return cl.Buffer(context, cl.mem_flags.READ_WRITE, 64)


    def released():
        made = live()
        made.release()
        return made


    def watched_then_released():
        made = live()
        getattr(module, acquire)(queue, [made])
        getattr(module, release)(queue, [made])  # the tracker watches it now: the probe is skipped until...
        made.release()  # ... OpenCL's destructor callback says it is gone
        getattr(module, acquire)(queue, [made])


    def live_objects():
        made = [live(), live()]
        getattr(module, acquire)(queue, made)
        assert seen == [m.int_ptr for m in made], (seen, made)
        assert module._state.snapshot()["acquired"] == {m.int_ptr for m in made}
        getattr(module, release)(queue, made)


    def run_acquired():
        with module.acquired(queue, [released()]):
            pass


    keep = live()
    scenarios = {
        "c function": lambda: getattr(module, module.C_NAMES[acquire])(queue, 1, [released()], 0, None, None),
        "pythonic": lambda: getattr(module, acquire)(queue, [keep, released()]),
        "release": lambda: getattr(module, release)(queue, [released()]),
        "acquired": run_acquired,
        "wait_for": lambda: getattr(module, acquire)(queue, [keep], wait_for=[LookAlike(released().int_ptr)]),
        "look-alike context": lambda: getattr(module, f"create_from_{api}_buffer")(
            LookAlike(released().int_ptr), 0, 0xD3D0),
        "buffer as context": lambda: getattr(module, f"create_from_{api}_buffer")(released(), 0, 0xD3D0),
        "watched, then released": watched_then_released,
        "live": live_objects,
    }
    for scenario, call in scenarios.items():
        reached.clear()
        seen.clear()
        try:
            call()
            outcome, message = "ok", ""
        except Exception as error:
            outcome, message = type(error).__name__, str(error).replace("\\n", " ")
        print(scenario, outcome, ",".join(reached), message, sep="|", flush=True)
''')

RELEASED = "is a Buffer whose OpenCL object was released"
#: scenario -> (outcome, stand-ins reached, what the message says)
EXPECTED = {
    "c function": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "pythonic": ("ValueError", "", f"argument 'mem_objects[1]' {RELEASED}"),
    "release": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "acquired": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "wait_for": ("ValueError", "", "argument 'wait_for[0]' is a LookAlike whose OpenCL object was released"),
    "look-alike context": ("ValueError", "", "argument 'context' is a LookAlike whose OpenCL object was released"),
    "buffer as context": ("TypeError", "", "argument 'context' must be a Context (cl_context), not Buffer"),
    "watched, then released": ("ValueError", "acquire,release", f"argument 'mem_objects[0]' {RELEASED}"),
    "live": ("ok", "acquire,release", ""),
}


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_released_pyopencl_object_is_refused_not_a_crash(extension: str, platform: Any) -> None:
    """Released PyOpenCL buffers (and look-alikes holding a freed address) in every handle position of the
    C-named and the Pythonic functions raise an error naming the parameter before any stand-in is reached;
    live ones still pass. Runs in a child interpreter: a regression here is a segfault."""
    pyopencl()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(GENERATED), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", CHILD, MODULES[extension], api(extension)],
                            capture_output=True, text=True, env=env, timeout=120, check=False)
    assert result.returncode == 0, f"the child died with {result.returncode}:\n{result.stdout}\n{result.stderr}"
    outcomes = {}
    for line in result.stdout.splitlines():
        scenario, outcome, reached, message = line.split("|", 3)
        outcomes[scenario] = (outcome, reached, message)
    assert outcomes.keys() == EXPECTED.keys()
    for scenario, (outcome, reached, fragment) in EXPECTED.items():
        got_outcome, got_reached, message = outcomes[scenario]
        expected_reached = reached.replace("acquire", f"enqueue_acquire_{api(extension)}_objects") \
            .replace("release", f"enqueue_release_{api(extension)}_objects")
        assert (got_outcome, got_reached) == (outcome, expected_reached), (scenario, message)
        assert fragment in message, scenario


# -- a table of hostile arguments ---------------------------------------------------


class Ref(NamedTuple):
    """A real handle of the test (`platform`, `context`, `queue`, `buffer`), where a case wants one."""

    name: str


class Item(NamedTuple):
    """A good list with its item 1 (0 for a list of one) replaced by `value`."""

    value: Any


class Case(NamedTuple):
    label: str
    value: Any
    error: type[Exception]
    says: str  # a fragment of the message, after the parameter's quoted name


# -- objects whose hooks misbehave: each must come out as the error naming the parameter ------------


class RaisingIndex:
    def __index__(self) -> int:
        raise KeyError("boom")


class RecursingIndex:
    def __index__(self) -> int:
        return operator.index(self)


class LyingInt(int):
    """An int subclass that says it is within every range (2**70 reached the driver as 0)."""

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return False

    def __gt__(self, other: object) -> bool:
        return False


class RaisingClass:
    """`isinstance` asks an object for its `__class__` when its type does not match."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise ZeroDivisionError("no class")


class RaisingIntPtr:
    @property
    def int_ptr(self) -> int:
        raise ZeroDivisionError("no address")


class RaisingAsParameter:
    @property
    def _as_parameter_(self) -> object:
        raise OSError("no parameter")


class EndlessAsParameter:
    @property
    def _as_parameter_(self) -> object:
        return EndlessAsParameter()


class RaisingList(list[Any]):
    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("no items")


class BadRepr:
    """Takes `__index__` as `value`; its `__repr__` raises (the checks quote the arguments they refuse)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        raise ValueError("no repr")


#: Hooks that misbehave, for every parameter that reads them.
HOSTILE_INTEGER = [
    Case("__index__ raises", RaisingIndex(), TypeError, "whose __index__ raised KeyError: 'boom'"),
    Case("__index__ recurses", RecursingIndex(), TypeError, "whose __index__ raised RecursionError"),
    Case("int subclass lying about its size", LyingInt(1 << 70), ValueError, "= 1180591620717411303424 is out of"),
    Case("__class__ raising, never asked", RaisingClass(), TypeError, "must be an int"),
]
HOSTILE_POINTER = [
    Case("int_ptr raises", RaisingIntPtr(), TypeError, "whose int_ptr raised ZeroDivisionError: no address"),
    Case("_as_parameter_ raises", RaisingAsParameter(), TypeError, "whose _as_parameter_ raised OSError"),
    Case("_as_parameter_ without end", EndlessAsParameter(), TypeError, "its _as_parameter_ leads on more than"),
    Case("__class__ raising, never asked", RaisingClass(), TypeError, "not RaisingClass"),
    Case("int subclass lying about its size", LyingInt(1 << 70), ValueError, "is not an address"),
]
HOSTILE_LIST = [
    Case("__iter__ raises", RaisingList([1]), TypeError, "whose items cannot be read (RuntimeError: no items)"),
    Case("__class__ raising, never asked", RaisingClass(), TypeError, "not RaisingClass"),
    Case("int_ptr item raises", Item(RaisingIntPtr()), TypeError, "whose int_ptr raised ZeroDivisionError"),
    Case("_as_parameter_ item raises", Item(RaisingAsParameter()), TypeError, "whose _as_parameter_ raised OSError"),
    Case("lying int item", Item(LyingInt(1 << 70)), ValueError, "is not an address"),
]


INTEGER = [
    Case("str", "4", TypeError, "must be an int"),
    Case("float", 4.0, TypeError, "must be an int"),
    Case("bytes", b"4", TypeError, "not bytes"),
    Case("dict", {}, TypeError, "not dict"),
    Case("None", None, TypeError, "not NoneType"),
    Case("bool", True, TypeError, "not bool"),
    Case("negative", -1, ValueError, "= -1 is out of range"),
    Case("2**64", 1 << 64, ValueError, "is out of range"),
    Case("2**200", 1 << 200, ValueError, "is out of range"),
    Case("2**20000", 1 << 20000, ValueError, "= a 20001-bit integer is out of range"),
    *HOSTILE_INTEGER,
]
POINTER = [
    Case("str", "0xD3D0", TypeError, "must be None, a cffi pointer or an int address"),
    Case("bytes", b"\0" * 8, TypeError, "not bytes"),
    Case("float", 1.5, TypeError, "not float"),
    Case("dict", {}, TypeError, "not dict"),
    Case("list", [RESOURCE], TypeError, "not list"),
    Case("bool", True, TypeError, "not bool"),
    Case("negative", -1, ValueError, "= -1 is not an address"),
    Case("2**64", 1 << 64, ValueError, "is not an address"),
    Case("2**200", 1 << 200, ValueError, "is not an address"),
    *HOSTILE_POINTER,
]
#: For a handle, None is a CLError from the lookup's query (its class depends on the handle's type).
HANDLE = [
    Case("None", None, Exception, "failed on argument"),
    Case("str", "abc", TypeError, "must be None, a cffi pointer or an int address"),
    Case("bytes", b"abc", TypeError, "not bytes"),
    Case("float", 2.5, TypeError, "not float"),
    Case("dict", {}, TypeError, "not dict"),
    Case("list", [Ref("context")], TypeError, "not list"),
    Case("bool", False, TypeError, "not bool"),
    Case("negative", -1, ValueError, "= -1 is not an address"),
    Case("2**64", 1 << 64, ValueError, "is not an address"),
    Case("2**200", 1 << 200, ValueError, "is not an address"),
    Case("a memory object", Ref("buffer"), TypeError, "not struct _cl_mem *"),
    *HOSTILE_POINTER,
]
#: A list of handles in the Pythonic functions (the C functions' arrays are in C_ARRAY).
HANDLE_LIST = [
    Case("str", "abc", TypeError, "must be a sequence of handles"),
    Case("bytes", b"abc", TypeError, "must be a sequence of handles"),
    Case("int", 7, TypeError, "must be a sequence of handles"),
    Case("float", 2.5, TypeError, "must be a sequence of handles"),
    Case("dict", {1: 2}, TypeError, "must be a sequence of handles"),
    Case("set", {Ref("buffer")}, TypeError, "must be a sequence of handles"),
    Case("one handle", Ref("buffer"), TypeError, "must be a sequence of handles"),
    Case("str item", Item("x"), TypeError, "must be a cffi pointer or an int address"),
    Case("bytes item", Item(b"x"), TypeError, "not bytes"),
    Case("float item", Item(2.5), TypeError, "not float"),
    Case("None item", Item(None), TypeError, "must be a handle"),
    Case("bool item", Item(True), TypeError, "not bool"),
    Case("list item", Item([Ref("buffer")]), TypeError, "not list"),
    Case("negative item", Item(-1), ValueError, "= -1 is not an address"),
    Case("2**64 item", Item(1 << 64), ValueError, "is not an address"),
    Case("queue item", Item(Ref("queue")), TypeError, "not struct _cl_command_queue *"),
    *HOSTILE_LIST,
]
WAIT_FOR = [case for case in HANDLE_LIST if case.label not in ("set", "one handle", "queue item")] + [
    Case("memory object item", Item(Ref("buffer")), TypeError, "must be cl_event, not struct _cl_mem *"),
]
NONE_ERRORS = {"platform": "CL_INVALID_PLATFORM", "context": "CL_INVALID_CONTEXT",
               "command_queue": "CL_INVALID_COMMAND_QUEUE"}
#: Each Pythonic function (by its name pattern), its arguments and their kinds.
PYTHONIC: dict[str, list[tuple[str, list[Case]]]] = {
    "get_device_ids_from_{api}": [("platform", HANDLE), ("d3d_device_source", INTEGER), ("d3d_object", POINTER),
                                  ("d3d_device_set", INTEGER)],
    "create_from_{api}_buffer": [("context", HANDLE), ("flags", INTEGER), ("resource", POINTER)],
    **{f"create_from_{{api}}_{kind}": [("context", HANDLE), ("flags", INTEGER), ("resource", POINTER),
                                       ("subresource", INTEGER)] for kind in ("texture2d", "texture3d")},
    **{name: [("command_queue", HANDLE), ("mem_objects", HANDLE_LIST), ("wait_for", WAIT_FOR)]
       for name in ("enqueue_acquire_{api}_objects", "enqueue_release_{api}_objects", "acquired")},
}
PYTHONIC_CASES = [(extension, name.format(api=api(extension)), param, case)
                  for extension in EXTENSIONS for name, params in PYTHONIC.items()
                  for param, cases in params for case in cases]


def resolve(value: Any, good: Any, handles: Handles, ffi: Any) -> Any:
    """`value` with its `Ref`s made real handles (a memory object a `cl_mem` of `ffi`); an `Item` is `good` with
    one item replaced (types are compared exactly: `isinstance` would ask the hostile objects for their
    `__class__`)."""
    if type(value) is Ref:
        return {"platform": handles.platform, "context": handles.context, "queue": handles.queue,
                "buffer": ffi.cast("cl_mem", handles.mems[0])}[value.name]
    if type(value) is Item:
        items = list(good or [None])
        items[min(1, len(items) - 1)] = resolve(value.value, None, handles, ffi)
        return items
    if type(value) is list:
        return [resolve(v, None, handles, ffi) for v in value]
    if type(value) is set:
        return {resolve(v, None, handles, ffi) for v in value}
    return value


def record_every_call(module: Any, handles: Handles) -> list[str]:
    """Stand-ins for every function of the module, writing nothing a Pythonic function would release; the C
    names of those reached."""
    stand_ins = StandIns(module, handles, writes=False)
    stand_ins.install()
    return stand_ins.reached


def good_arguments(module: Any, function: str, handles: Handles) -> dict[str, Any]:
    params = dict.fromkeys(p for p, _ in PYTHONIC[function.replace(api(module.EXTENSION), "{api}")])
    values = {"platform": handles.platform, "context": handles.context, "command_queue": handles.queue,
              "d3d_device_source": next(iter(module.D3DDeviceSource)), "d3d_object": RESOURCE,
              "d3d_device_set": next(iter(module.D3DDeviceSet)), "flags": 0, "resource": RESOURCE,
              "subresource": 0, "mem_objects": [core_ffi.cast("cl_mem", m) for m in handles.mems[:2]],
              "wait_for": None}
    return {name: values[name] for name in params}


def expected_error(param: str, case: Case) -> type[Exception]:
    if case.label == "None" and param in NONE_ERRORS:
        return errors.BY_NAME[NONE_ERRORS[param]]
    return case.error


@pytest.mark.parametrize(("extension", "function", "param", "case"), PYTHONIC_CASES,
                         ids=[f"{MODULES[e].rsplit('.', 1)[1]}-{f}-{p}-{c.label}" for e, f, p, c in PYTHONIC_CASES])
def test_a_hostile_argument_to_a_pythonic_function_is_refused(
    extension: str, function: str, param: str, case: Case, handles: Handles,
) -> None:
    """Wrong types, out-of-range integers, None for a handle, bad lists: a TypeError, ValueError or the
    CLError of the invalid handle, naming the parameter; the stand-ins (every function of the module)
    are never reached and the tracked state does not change."""
    module = extension_module(extension)
    reached = record_every_call(module, handles)
    arguments = good_arguments(module, function, handles)
    arguments[param] = resolve(case.value, arguments[param], handles, core_ffi)
    with pytest.raises(expected_error(param, case)) as caught:
        if function == "acquired":
            with module.acquired(**arguments):
                pass
        else:
            getattr(module, function)(**arguments)
    message = str(caught.value)
    named = f"argument '{param}'" if case.label == "None" else f"argument '{param}"
    assert named in message and case.says in message
    assert isinstance(caught.value, (TypeError, ValueError, errors.CLError))
    assert caught.value.__cause__ is not None or not case.label.endswith(("raises", "recurses"))
    assert reached == []
    assert module._state.snapshot() == {"acquired": set(), "known": set(), "wraps": {}}


def test_the_good_arguments_do_reach_the_stand_ins(handles: Handles) -> None:
    """The table's baseline: with no argument replaced, every Pythonic function gets to its stand-in
    (so a refusal above is the hostile argument's doing)."""
    for extension in EXTENSIONS:
        module = extension_module(extension)
        reached = record_every_call(module, handles)
        for pattern in PYTHONIC:
            function = pattern.format(api=api(extension))
            arguments = good_arguments(module, function, handles)
            if function == "acquired":
                with module.acquired(**arguments):
                    pass
            else:
                getattr(module, function)(**arguments)
            module._state.clear()
        c_names = [module.C_NAMES[pattern.format(api=api(extension))] for pattern in PYTHONIC if pattern != "acquired"]
        assert reached == c_names + c_names[-2:]  # device ids: one call (no devices); acquired: acquire, release


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_refused_argument_whose_repr_raises_is_quoted_as_what_it_is(extension: str, handles: Handles) -> None:
    """A check quotes the arguments it refuses; an object whose `__repr__` raises is described instead, and
    the spec's error comes out (it was the `__repr__`'s ValueError)."""
    module = extension_module(extension)
    reached = record_every_call(module, handles)
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
    reached = record_every_call(module, handles)
    create = getattr(module, f"create_from_{api(extension)}_buffer")
    with pytest.raises(TypeError, match=r"argument 'as_pyopencl' is a NoTruth whose truth cannot be told") as caught:
        create(handles.context, 0, RESOURCE, as_pyopencl=NoTruth())
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert reached == []


# -- the C-named functions: every parameter of every function ---------------------

C_HANDLE = [case for case in HANDLE if case.label != "list"]
C_INTEGER = [case for case in INTEGER if case.label not in ("bytes", "dict")]
C_POINTER = [case for case in POINTER if case.label not in ("list", "bool", "2**200")]
#: A typed pointer (an out-parameter, NVIDIA's `cl_mem *` list) also refuses a cffi pointer to another type,
#: and a cffi array of its type too short for what C reads or writes there (cffi knows an array's length).
C_TYPED_POINTER = [*C_POINTER, Case("cffi double[8]", "ffi:double[8]", TypeError, "not double[8]"),
                   Case("empty cffi array of its type", "ffi-empty", ValueError, "holds 0 items but ")]
#: A `const T *` array.
C_ARRAY = [
    Case("str", "abc", TypeError, "must be a sequence or a pointer"),
    Case("bytes", b"abc", TypeError, "must be a sequence or a pointer"),
    Case("float", 2.5, TypeError, "not float"),
    Case("dict", {1: 2}, TypeError, "not dict"),
    Case("negative", -1, ValueError, "= -1 is not an address"),
    Case("cffi double[8]", "ffi:double[8]", TypeError, "not double[8]"),
    Case("str item", Item("x"), TypeError, "not str"),
    Case("float item", Item(2.5), TypeError, "not float"),
    Case("bool item", Item(False), TypeError, "not bool"),
    Case("negative item", Item(-1), ValueError, "= -1 is not an address"),
    Case("2**64 item", Item(1 << 64), ValueError, "is not an address"),
    Case("queue item", Item(Ref("queue")), TypeError, "not struct _cl_command_queue *"),
    Case("empty cffi array of its type", "ffi-empty", ValueError, "holds 0 items but "),
    *HOSTILE_LIST,
]
def c_kind(c_type: str) -> list[Case]:
    if c_type in HANDLE_TYPES:
        return C_HANDLE
    if c_type.startswith("const "):
        return C_ARRAY
    if c_type.endswith("*"):
        return C_TYPED_POINTER if c_type.startswith("cl_") else C_POINTER
    return C_INTEGER


C_CASES = [(extension, function, param["name"], case)
           for extension, data in sorted(load_truth().items()) for function in data["functions"]
           for param in function["params"] for case in c_kind(param["type"])]


@pytest.mark.parametrize(("extension", "function", "param", "case"), C_CASES,
                         ids=[f"{f['name']}-{p}-{c.label}" for _, f, p, c in C_CASES])
def test_a_hostile_argument_to_a_c_function_is_refused(
    extension: str, function: dict[str, Any], param: str, case: Case, handles: Handles,
) -> None:
    """Every parameter of every C-named function against the hostile values of its kind: an error naming
    the parameter, and the stand-in (`StandIns`, which records what C receives) is not reached."""
    module = extension_module(extension)
    call = StandIns(module, handles)
    value = case.value
    if type(value) is str and value.startswith("ffi:"):
        value = module.ffi.new(value[4:])
    elif type(value) is str and value == "ffi-empty":
        c_type = next(p["type"] for p in function["params"] if p["name"] == param)
        value = module.ffi.new(f"{c_type.removeprefix('const ').removesuffix(' *')}[]", 0)
    good = arguments(module, function, handles)[param]
    with pytest.raises(expected_error(param, case)) as caught:
        call.run(function, **{param: resolve(value, good, handles, module.ffi)})
    message = str(caught.value)
    where = f"argument '{param}[1]'" if type(case.value) is Item else f"argument '{param}'"
    assert where in message and case.says in message, message
    assert isinstance(caught.value, (TypeError, ValueError, errors.CLError))
    assert caught.value.__cause__ is not None or not case.label.endswith(("raises", "recurses"))
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


@pytest.mark.parametrize("extension", EXTENSIONS)
@pytest.mark.parametrize("change", ["emptied", "another object added"])
def test_acquired_releases_what_it_acquired_whatever_the_list_becomes(
    extension: str, change: str, handles: Handles,
) -> None:
    """The release used the caller's list as it was at the end of the block: emptied, nothing was released
    (and the object stayed acquired); grown, the release was refused as not acquired."""
    module = extension_module(extension)
    reached = record_every_call(module, handles)
    first, second = (core_ffi.cast("cl_mem", m) for m in handles.mems[:2])
    objects = [first]
    with module.acquired(handles.queue, objects):
        objects.clear() if change == "emptied" else objects.append(second)
    assert module._state.snapshot()["acquired"] == set()
    assert len(reached) == 2


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
    reached = record_every_call(module, handles)
    create = getattr(module, f"create_from_{api(extension)}_buffer")
    with pytest.raises(TypeError, match=r"argument 'context' must be None, a cffi pointer .*not Hashless"):
        create(Hashless(), 0, RESOURCE)
    acquire = getattr(module, f"enqueue_acquire_{api(extension)}_objects")
    with pytest.raises(TypeError, match=r"argument 'mem_objects\[0\]' must be a cffi pointer .*not Hashless"):
        acquire(handles.queue, [Hashless()])
    assert reached == []


@pytest.mark.parametrize("extension", [42, [1], 2.5, None])
def test_a_table_asked_for_by_no_name_is_a_type_error(extension: Any) -> None:
    formats = __import__("cl_d3d_sharing.formats", fromlist=["TABLES"])
    with pytest.raises(TypeError, match="an extension string, a module name or a module"):
        formats.dxgi_to_cl(28, extension)
