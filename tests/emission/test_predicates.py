"""The check ASTs of generator/analysis/conditions.py compiled to the Python expressions a generated wrapper runs."""

from __future__ import annotations

import re
from typing import Any

import cffi
import pytest

from generator.base.predicates import from_notation as P
from generator.emission.predicates import PredicateError, Scope, compile_host, compile_state, token_names

#: The values of core OpenCL's memory flags, and two tokens of an extension's group.
VALUES = {"CL_MEM_READ_WRITE": 1, "CL_MEM_WRITE_ONLY": 2, "CL_MEM_READ_ONLY": 4,
          "CL_D3D10_DEVICE_KHR": 0x4010, "CL_D3D10_DXGI_ADAPTER_KHR": 0x4011}
PARAMS = frozenset({"context", "flags", "resource", "subresource", "num_objects", "mem_objects", "num_entries",
                    "devices", "num_devices", "event_wait_list", "num_events_in_wait_list", "d3d_device_source"})
SCOPE = Scope(VALUES, {"mem_objects": "num_objects", "devices": "num_entries"}, PARAMS)

FLAGS_ALLOWED = [0, "CL_MEM_READ_ONLY", "CL_MEM_WRITE_ONLY", "CL_MEM_READ_WRITE"]
ZERO_BUT_LIST = {"all": [{"compare": ["num_objects", "==", 0]}, {"not": {"null": "mem_objects"}}]}
COUNT_BUT_NULL = {"all": [{"compare": ["num_objects", ">", 0]}, {"null": "mem_objects"}]}
BOTH_NULL = {"all": [{"null": "num_devices"}, {"null": "devices"}]}
BAD_FLAGS = {"not": {"member": "flags", "of": FLAGS_ALLOWED}}

ffi = cffi.FFI()


# -- the expression of each node kind ------------------------------------------


@pytest.mark.parametrize(("predicate", "expected"), [
    ({"null": "devices"}, "not c_devices"),
    ({"not": {"null": "devices"}}, "c_devices"),
    ({"compare": ["num_entries", "==", 0]}, "c_num_entries == 0"),
    ({"compare": ["num_objects", ">", 0]}, "c_num_objects > 0"),
    ({"compare": ["num_objects", "<", 3]}, "c_num_objects < 3"),
    ({"compare": ["num_objects", ">=", 2]}, "c_num_objects >= 2"),
    ({"compare": ["num_objects", "<=", 7]}, "c_num_objects <= 7"),
    ({"member": "flags", "of": FLAGS_ALLOWED}, "c_flags in {0, 1, 2, 4}"),
    (BAD_FLAGS, "c_flags not in {0, 1, 2, 4}"),
    ({"not": {"member": "d3d_device_source", "of": ["CL_D3D10_DEVICE_KHR", "CL_D3D10_DXGI_ADAPTER_KHR"]}},
     "c_d3d_device_source not in {16400, 16401}"),
    ({"member": "flags", "of": ["CL_MEM_READ_ONLY", 4, 4]}, "c_flags in {4}"),
    (ZERO_BUT_LIST, "(c_num_objects == 0 and c_mem_objects)"),
    (COUNT_BUT_NULL, "(c_num_objects > 0 and not c_mem_objects)"),
    (BOTH_NULL, "(not c_num_devices and not c_devices)"),
    ({"not": {"compare": ["num_objects", "==", 0]}}, "not c_num_objects == 0"),
    ({"not": BOTH_NULL}, "not (not c_num_devices and not c_devices)"),
    ({"all": [ZERO_BUT_LIST, {"null": "event_wait_list"}]},
     "((c_num_objects == 0 and c_mem_objects) and not c_event_wait_list)"),
])
def test_host_expression(predicate: dict[str, Any], expected: str) -> None:
    assert compile_host(P(predicate), SCOPE) == expected


def test_state_expressions() -> None:
    assert compile_state(P({"acquired": "mem_objects"}), SCOPE) == "_state.acquired(k_mem_objects)"
    assert compile_state(P({"released": "mem_objects"}), SCOPE) == "_state.released(k_mem_objects)"
    assert compile_state(P({"wrapped": {"scope": "context", "resource": "resource"}}), SCOPE) == \
        "_state.wrapped(_library.address(c_context), _library.address(c_resource), None)"
    assert compile_state(P({"wrapped": {"scope": "context", "resource": "resource", "subresource": "subresource"}}),
                         SCOPE) == \
        "_state.wrapped(_library.address(c_context), _library.address(c_resource), c_subresource)"


def test_no_spec_text_reaches_the_expression() -> None:
    """Token names become their values: the expression holds only `c_` names, operators and ints."""
    code = compile_host(P({"not": {"member": "d3d_device_source", "of": ["CL_D3D10_DEVICE_KHR"]}}), SCOPE)
    assert "CL_" not in code
    assert code == "c_d3d_device_source not in {16400}"


# -- what the host expressions mean --------------------------------------------


def host_truth(predicate: dict[str, Any], **arguments: Any) -> bool:
    """The compiled expression evaluated with the converted arguments `c_<name>` and a real ffi (no builtins)."""
    code = compile_host(P(predicate), SCOPE)
    namespace = {"_NULL": ffi.NULL} | {f"c_{name}": value for name, value in arguments.items()}
    result = eval(code, {"__builtins__": {}}, namespace)
    assert isinstance(result, (bool, ffi.CData))  # a wrapper tests it with `if`: a pointer's truth is its non-NULL
    return bool(result)


def test_zero_count_with_a_list_is_the_error() -> None:
    """"<num_objects> is zero and <mem_objects> is not a NULL value"."""
    objects = ffi.new("void *[1]")
    assert host_truth(ZERO_BUT_LIST, num_objects=0, mem_objects=objects) is True
    assert host_truth(ZERO_BUT_LIST, num_objects=0, mem_objects=ffi.NULL) is False
    assert host_truth(ZERO_BUT_LIST, num_objects=1, mem_objects=objects) is False
    assert host_truth(ZERO_BUT_LIST, num_objects=1, mem_objects=ffi.NULL) is False


def test_count_with_no_list_is_the_error() -> None:
    """"<num_objects> > 0 and <mem_objects> is NULL"."""
    objects = ffi.new("void *[2]")
    assert host_truth(COUNT_BUT_NULL, num_objects=2, mem_objects=ffi.NULL) is True
    assert host_truth(COUNT_BUT_NULL, num_objects=0, mem_objects=ffi.NULL) is False
    assert host_truth(COUNT_BUT_NULL, num_objects=2, mem_objects=objects) is False


def test_both_null_is_the_error() -> None:
    """"both <num_devices> and <devices> are NULL"."""
    count = ffi.new("unsigned int *")
    devices = ffi.new("void *[1]")
    assert host_truth(BOTH_NULL, num_devices=ffi.NULL, devices=ffi.NULL) is True
    assert host_truth(BOTH_NULL, num_devices=count, devices=ffi.NULL) is False
    assert host_truth(BOTH_NULL, num_devices=ffi.NULL, devices=devices) is False


def test_a_pointer_cast_from_an_address_is_not_null() -> None:
    assert host_truth({"null": "devices"}, devices=ffi.cast("void *", 0x1000)) is False
    assert host_truth({"null": "devices"}, devices=ffi.cast("void *", 0)) is True


@pytest.mark.parametrize(("flags", "invalid"), [(0, False), (1, False), (2, False), (4, False),
                                                 (3, True), (8, True), (1 << 40, True)])
def test_flags_outside_the_allowed_values_are_the_error(flags: int, invalid: bool) -> None:
    """"values specified in <flags> are not valid": only 0 and the three flags of the description pass."""
    assert host_truth(BAD_FLAGS, flags=flags) is invalid


def test_a_test_names_its_tokens_in_the_order_of_its_values() -> None:
    """The wrapper's `{0, 1, 2, 4}` reads `{0, CL_MEM_READ_WRITE, ...}` in its comment; numbers alone need none."""
    assert token_names(P(BAD_FLAGS), SCOPE) == "{0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY}"
    assert token_names(P({"all": [{"member": "flags", "of": [2, 0]}, BAD_FLAGS]}), SCOPE).count("{") == 1


@pytest.mark.parametrize(("source", "invalid"), [(0x4010, False), (0x4011, False), (0x4012, True), (0, True)])
def test_a_value_outside_the_group_is_the_error(source: int, invalid: bool) -> None:
    predicate = {"not": {"member": "d3d_device_source", "of": ["CL_D3D10_DEVICE_KHR", "CL_D3D10_DXGI_ADAPTER_KHR"]}}
    assert host_truth(predicate, d3d_device_source=source) is invalid


@pytest.mark.parametrize(("operator", "number", "value", "holds"), [
    ("==", 0, 0, True), ("==", 0, 1, False), (">", 0, 1, True), (">", 0, 0, False),
    ("<", 3, 2, True), ("<", 3, 3, False), (">=", 2, 2, True), (">=", 2, 1, False),
    ("<=", 7, 7, True), ("<=", 7, 8, False),
])
def test_comparisons(operator: str, number: int, value: int, holds: bool) -> None:
    assert host_truth({"compare": ["num_objects", operator, number]}, num_objects=value) is holds


def test_negation_of_a_conjunction() -> None:
    devices = ffi.new("void *[1]")
    assert host_truth({"not": BOTH_NULL}, num_devices=ffi.NULL, devices=ffi.NULL) is False
    assert host_truth({"not": BOTH_NULL}, num_devices=ffi.NULL, devices=devices) is True


# -- what the state expressions ask --------------------------------------------


class FakeLibrary:
    """`_library.address` as the generated package has it, recording its arguments."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def address(self, value: Any) -> int:
        self.calls.append(("address", value))
        return int(ffi.cast("uintptr_t", value))


class FakeState:
    """A tracker that knows some acquired objects and one wrapped resource."""

    def __init__(self, acquired: set[int], known: set[int], wraps: dict[tuple[int, int, int | None], int]) -> None:
        self._acquired, self._known, self._wraps = acquired, known, wraps
        self.calls: list[tuple[Any, ...]] = []

    def acquired(self, objects: list[int]) -> int | None:
        self.calls.append(("acquired", objects))
        return next((o for o in objects if o in self._acquired), None)

    def released(self, objects: list[int]) -> int | None:
        self.calls.append(("released", objects))
        return next((o for o in objects if o in self._known and o not in self._acquired), None)

    def wrapped(self, scope: int, resource: int, subresource: int | None) -> int | None:
        self.calls.append(("wrapped", scope, resource, subresource))
        return self._wraps.get((scope, resource, subresource))


def state_result(predicate: dict[str, Any], state: FakeState, runtime: FakeLibrary, **arguments: Any) -> Any:
    """The compiled expression evaluated with the converted arguments `c_<name>` and the handles the wrapper read
    from a list (`k_<name>`, given here as `keys_<name>`)."""
    code = compile_state(P(predicate), SCOPE)
    namespace = {"ffi": ffi, "_state": state, "_library": runtime}
    for name, value in arguments.items():
        namespace[f"k_{name[5:]}" if name.startswith("keys_") else f"c_{name}"] = value
    return eval(code, {"__builtins__": {}}, namespace)


def test_state_checks_on_a_list_name_the_handles_the_wrapper_read() -> None:
    """The handles come from the wrapper, which reads the first <count> of them once (`state_keys` says which
    list; tests/package/test_state.py checks that the count limits them in the generated wrappers)."""
    from generator.emission.predicates import state_keys

    assert state_keys(P({"acquired": "mem_objects"})) == state_keys(P({"released": "mem_objects"})) == "mem_objects"
    assert state_keys(P({"wrapped": {"scope": "context", "resource": "resource"}})) is None


def test_acquired_asks_the_tracker_about_the_handles() -> None:
    state, runtime = FakeState({0x20}, {0x10, 0x20}, {}), FakeLibrary()
    assert state_result({"acquired": "mem_objects"}, state, runtime, keys_mem_objects=[0x10, 0x20]) == 0x20
    assert state.calls == [("acquired", [0x10, 0x20])]
    assert state_result({"acquired": "mem_objects"}, state, runtime, keys_mem_objects=[0x10]) is None
    assert runtime.calls == []


def test_released_asks_the_tracker_about_the_handles() -> None:
    state, runtime = FakeState({0x20}, {0x10, 0x20}, {}), FakeLibrary()
    assert state_result({"released": "mem_objects"}, state, runtime, keys_mem_objects=[0x20, 0x10]) == 0x10
    assert state.calls == [("released", [0x20, 0x10])]
    assert state_result({"released": "mem_objects"}, state, runtime, keys_mem_objects=[]) is None
    assert state.calls[-1] == ("released", [])


def test_wrapped_asks_with_addresses_and_the_subresource() -> None:
    context, resource = ffi.cast("void *", 0x1000), ffi.cast("void *", 0x2000)
    state = FakeState(set(), set(), {(0x1000, 0x2000, 3): 0x99, (0x1000, 0x2000, None): 0x98})
    runtime = FakeLibrary()
    with_sub = {"wrapped": {"scope": "context", "resource": "resource", "subresource": "subresource"}}
    assert state_result(with_sub, state, runtime, context=context, resource=resource, subresource=3) == 0x99
    assert state.calls == [("wrapped", 0x1000, 0x2000, 3)]
    assert runtime.calls == [("address", context), ("address", resource)]
    assert state_result(with_sub, state, runtime, context=context, resource=resource, subresource=4) is None
    whole = {"wrapped": {"scope": "context", "resource": "resource"}}
    assert state_result(whole, state, runtime, context=context, resource=resource) == 0x98
    assert state.calls[-1] == ("wrapped", 0x1000, 0x2000, None)


# -- what cannot become code ---------------------------------------------------


@pytest.mark.parametrize(("predicate", "message"), [
    ({"member": "flags", "of": ["CL_NO_SUCH_TOKEN"]}, "'CL_NO_SUCH_TOKEN' has no known value"),
    ({"not": {"member": "flags", "of": [0, "CL_MEM_READ_ONLY", "CL_NO_SUCH_TOKEN"]}}, "CL_NO_SUCH_TOKEN"),
    ({"member": "flags", "of": [True]}, "True has no known value"),
    ({"member": "flags", "of": [1.5]}, "1.5 has no known value"),
    ({"null": "no_such_param"}, "<no_such_param> is not a parameter"),
    ({"compare": ["no_such_param", "==", 0]}, "<no_such_param> is not a parameter"),
    ({"member": "no_such_param", "of": [0]}, "<no_such_param> is not a parameter"),
    ({"all": [{"null": "devices"}, {"null": "no_such_param"}]}, "<no_such_param> is not a parameter"),
    ({"compare": ["num_objects", ">", "0"]}, "cannot compare with '>' '0'"),
    ({"compare": ["num_objects", "<", 1.5]}, "cannot compare with '<' 1.5"),
    ({"compare": ["num_objects", "==", True]}, "cannot compare with '==' True"),
    ({"compare": ["num_objects", "!=", 0]}, "cannot compare with '!=' 0"),
    ({"acquired": "mem_objects"}, "'acquired' is not a host predicate"),
    ({"not": {"wrapped": {"scope": "context", "resource": "resource"}}}, "'wrapped' is not a host predicate"),
])
def test_host_predicate_errors(predicate: dict[str, Any], message: str) -> None:
    with pytest.raises(PredicateError, match=re.escape(message)):
        compile_host(P(predicate), SCOPE)


@pytest.mark.parametrize(("predicate", "message"), [
    ({"acquired": "event_wait_list"}, "<event_wait_list> is a list with no parameter that gives its length"),
    ({"released": "no_such_param"}, "<no_such_param> is a list with no parameter"),
    ({"wrapped": {"scope": "context", "resource": "no_such_param"}}, "<no_such_param> is not a parameter"),
    ({"wrapped": {"scope": "context", "resource": "resource", "subresource": "nope"}}, "<nope> is not a parameter"),
    ({"null": "devices"}, "'null' is not a state predicate"),
])
def test_state_predicate_errors(predicate: dict[str, Any], message: str) -> None:
    with pytest.raises(PredicateError, match=re.escape(message)):
        compile_state(P(predicate), SCOPE)


def test_a_count_that_is_not_a_parameter() -> None:
    scope = Scope(VALUES, {"mem_objects": "no_such_count"}, PARAMS)
    with pytest.raises(PredicateError, match="<no_such_count> is not a parameter"):
        compile_state(P({"acquired": "mem_objects"}), scope)


def test_a_parameter_that_is_no_identifier() -> None:
    """Even a declared parameter must be a plain identifier before it is written into code."""
    scope = Scope(VALUES, {}, PARAMS | {"bad name", "x)or(1"})
    for name in ("bad name", "x)or(1"):
        with pytest.raises(PredicateError, match="is not a parameter"):
            compile_host(P({"null": name}), scope)
