"""Arbitrary arguments to every checked and every Pythonic function: a clear error, never a crash.

Each function of the four extensions gets values of every kind (huge and negative
integers, bools, floats, strings, bytes, lists of anything, cffi pointers of the
wrong type, NULL) on POCL, which has none of the extensions. What may come out is
the spec's error (`CLError`, from a check), `ExtensionNotSupportedError` (every
check passed), or a `TypeError`/`ValueError` naming the parameter.

Handle parameters get POCL's real handle or None: an arbitrary integer as a
context would make the OpenCL loader itself read from that address, which no
wrapper can prevent. Integers as addresses of arrays or out-parameters are
likewise left out: C trusts an address, and so does the package.
"""

from __future__ import annotations

from typing import Any

import pytest
from cl_d3d_sharing import errors
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.package.standins import HANDLE_TYPES, IR, Handles, extension_module

ALLOWED = (errors.CLError, errors.ExtensionNotSupportedError, TypeError, ValueError)
FUNCTIONS = [(name, f) for name, ir in IR.items() for f in ir["functions"] if not f.get("core")]
ANYTHING = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=6), st.binary(max_size=6),
    st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=4), st.lists(st.text(max_size=2), max_size=3),
    st.dictionaries(st.integers(), st.integers(), max_size=2),
)
INTEGERS = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=0, max_value=0x4020))
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def strategy(c_type: str, module: Any, handles: Handles) -> st.SearchStrategy[Any]:
    ffi = module.ffi
    if c_type in HANDLE_TYPES:
        return st.sampled_from([handles.of(c_type), None])
    if c_type.endswith("*"):
        element = c_type.removeprefix("const ").removesuffix(" *")
        opaque = element == "void" or element.startswith("I")  # a Direct3D object: never dereferenced
        cdata = st.sampled_from([ffi.new("int[2]"), ffi.NULL, ffi.new("char[3]")]
                                + ([ffi.new(f"{element}[4]")] if not opaque else []))
        return st.one_of(ANYTHING, cdata, INTEGERS if opaque else st.just(0))
    return st.one_of(INTEGERS, ANYTHING)


@pytest.mark.parametrize(("extension", "function"), FUNCTIONS, ids=[f["name"] for _, f in FUNCTIONS])
def test_arbitrary_arguments_to_a_checked_function(
    extension: str, function: dict[str, Any], handles: Handles,
) -> None:
    module = extension_module(extension)
    arguments = st.tuples(*(strategy(p["type"], module, handles) for p in function["params"]))

    @SETTINGS
    @given(arguments)
    def call(values: tuple[Any, ...]) -> None:
        with pytest.raises(ALLOWED):
            getattr(module, function["name"])(*values)

    call()


@pytest.mark.parametrize(("extension", "function"), FUNCTIONS, ids=[f["name"] for _, f in FUNCTIONS])
def test_arbitrary_arguments_to_a_pythonic_function(
    extension: str, function: dict[str, Any], handles: Handles,
) -> None:
    module = extension_module(extension)
    name = next(n for n, c_name in module.C_NAMES.items() if c_name == function["name"])
    types = {p["name"]: p["type"] for p in function["params"]} | {"queue": "cl_command_queue"}  # PyOpenCL's name
    inputs = [p for p in module.__dict__[name].__code__.co_varnames[: module.__dict__[name].__code__.co_argcount]]
    arguments = st.tuples(*(strategy(types[p], module, handles) for p in inputs))
    wait_for = st.one_of(st.none(), ANYTHING)

    @SETTINGS
    @given(arguments, wait_for)
    def call(values: tuple[Any, ...], waits: Any) -> None:
        keywords = {"wait_for": waits} if "wait_for" in module.__dict__[name].__code__.co_varnames else {}
        with pytest.raises(ALLOWED):
            getattr(module, name)(*values, **keywords)

    call()
