"""Hostile arguments to the generated functions, from a table of wrong values by kind of parameter: each is
refused with an error naming the parameter, none crashes, none reaches the driver.

The Direct3D functions do not exist on Linux: every test installs stand-ins (`StandIns`: `ffi.callback`s of
the generated function-pointer types, in the module's lookup cache for POCL's platform) that record whether
they were reached. Handles and memory objects are POCL's real ones. What a table cannot say is in
test_hostile_calls.py, released PyOpenCL objects in test_released_objects.py.
"""

from __future__ import annotations

import operator
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
    EndlessSequence,
    Handles,
    HugeSequence,
    StandIns,
    api,
    arguments,
    extension_module,
    official,
)
from tests.support import load_truth


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
    Case("a sequence without end", EndlessSequence(), ValueError, "that yields more items than its len() says (1)"),
    Case("a sequence of 2**40 items", HugeSequence(), ValueError,
         "is a HugeSequence of 1099511627776 items, more than the 1048576 read from a sequence"),
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
               "queue": "CL_INVALID_COMMAND_QUEUE"}
#: The C parameter a Pythonic parameter named as PyOpenCL names it fills (errors name the C parameter).
C_PARAM = {"queue": "command_queue"}
#: Each Pythonic function (by its name pattern), its arguments and their kinds.
PYTHONIC: dict[str, list[tuple[str, list[Case]]]] = {
    "get_device_ids_from_{api}": [("platform", HANDLE), ("d3d_device_source", INTEGER), ("d3d_object", POINTER),
                                  ("d3d_device_set", INTEGER)],
    "create_from_{api}_buffer": [("context", HANDLE), ("flags", INTEGER), ("resource", POINTER)],
    **{f"create_from_{{api}}_{kind}": [("context", HANDLE), ("flags", INTEGER), ("resource", POINTER),
                                       ("subresource", INTEGER)] for kind in ("texture2d", "texture3d")},
    **{name: [("queue", HANDLE), ("mem_objects", HANDLE_LIST), ("wait_for", WAIT_FOR)]
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


def good_arguments(module: Any, function: str, handles: Handles) -> dict[str, Any]:
    """A valid call of the Pythonic `function`: what `arguments` gives its C function (the acquire's for
    `acquired`), the memory objects as cffi handles, no events to wait for."""
    acquire = f"enqueue_acquire_{api(module.EXTENSION)}_objects"
    c_function = official(module.EXTENSION, module.C_NAMES[acquire if function == "acquired" else function])
    values = arguments(module, c_function, handles, mem_objects=[core_ffi.cast("cl_mem", m) for m in handles.mems])
    pattern = function.replace(api(module.EXTENSION), "{api}")
    return {name: values.get(C_PARAM.get(name, name)) for name, _ in PYTHONIC[pattern]}


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
    reached = StandIns(module, handles, writes=False).install().reached
    given = good_arguments(module, function, handles)
    given[param] = resolve(case.value, given[param], handles, core_ffi)
    with pytest.raises(expected_error(param, case)) as caught:
        if function == "acquired":
            with module.acquired(**given):
                pass
        else:
            getattr(module, function)(**given)
    message = str(caught.value)
    named = f"argument '{C_PARAM.get(param, param)}" + ("'" if case.label == "None" else "")
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
        reached = StandIns(module, handles, writes=False).install().reached
        for pattern in PYTHONIC:
            function = pattern.format(api=api(extension))
            given = good_arguments(module, function, handles)
            if function == "acquired":
                with module.acquired(**given):
                    pass
            else:
                getattr(module, function)(**given)
            module._state.clear()
        c_names = [module.C_NAMES[pattern.format(api=api(extension))] for pattern in PYTHONIC if pattern != "acquired"]
        assert reached == c_names + c_names[-2:]  # device ids: one call (no devices); acquired: acquire, release


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
