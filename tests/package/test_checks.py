"""Every host clause of the four extensions fires its check, and a neighbouring call passes.

The arguments are found from the IR's predicates by a small interpreter written
here, independent of the generator's compiler: for each clause, a call that makes
it (and no other host clause) true, and a call one argument away that makes none
true. The first must raise the clause's error class before any lookup; the second
passes every check and, on POCL, reaches `ExtensionNotSupportedError`.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cl_d3d_sharing import errors

from generator.base.knowledge import load
from tests.package.standins import IR, RESOURCE, Handles, arguments, extension_module
from tests.support import ROOT, cited

COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, ">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le,
}


def host_clauses() -> Iterator[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    for name, ir in IR.items():
        for function in ir["functions"]:
            if function.get("core"):
                continue
            for error in function["errors"]:
                for clause in error.get("check", ()):
                    if clause["class"] == "host":
                        yield name, function, error, clause


HOST = list(host_clauses())


def value_of(module: Any, name: str | int) -> int:
    if isinstance(name, int):
        return name
    core = load().core_constants.get(name)
    return int(core["value"]) if core else int(getattr(module, name))


def holds(node: dict[str, Any], args: dict[str, Any], module: Any) -> bool:
    """What the spec's sentence means, for Python arguments (None is NULL)."""
    if "member" in node:
        return args[node["member"]] in {value_of(module, v) for v in node["of"]}
    ((kind, operand),) = node.items()
    if kind == "null":
        return args[operand] is None
    if kind == "compare":
        name, op, number = operand
        return COMPARE[op](args[name], number)
    if kind == "not":
        return not holds(operand, args, module)
    if kind == "all":
        return all(holds(n, args, module) for n in operand)
    raise AssertionError(kind)


def mentioned(node: Any, key: str | None = None) -> list[str]:
    if isinstance(node, dict):
        return [n for k, v in node.items() for n in mentioned(v, k)]
    if isinstance(node, list):
        if key == "of":
            return []
        return mentioned(node[0], key) if key == "compare" else [n for item in node for n in mentioned(item, key)]
    return [node] if isinstance(node, str) else []


class Arguments:
    """A valid call of a function (`arguments`, with C arrays), and for each parameter the values its host
    predicates tell apart: the valid one first, then NULL for a pointer or 0 for an integer, and one past the
    largest allowed value for an integer the spec limits to a set."""

    def __init__(self, module: Any, function: dict[str, Any], handles: Handles) -> None:
        self.module = module
        self.clauses = [c for e in function["errors"] for c in e.get("check", ()) if c["class"] == "host"]
        self.valid = arguments(module, function, handles, arrays=True)  # an array may be longer than its count
        assert not self.true_clauses(self.valid), f"no valid call of {function['name']}"
        self.candidates = {p["name"]: [self.valid[p["name"]], None if p["type"].endswith("*") else 0]
                           for p in function["params"]}
        for clause in self.clauses:
            member = clause["predicate"].get("not", {})
            if "member" in member:
                self.candidates[member["member"]].append(max(value_of(module, v) for v in member["of"]) + 1)

    def true_clauses(self, args: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in self.clauses if holds(c["predicate"], args, self.module)]

    def variants(self, names: list[str], start: dict[str, Any]) -> Iterator[dict[str, Any]]:
        for values in itertools.product(*(self.candidates[n] for n in names)):
            yield start | dict(zip(names, values, strict=True))

    def firing(self, clause: dict[str, Any]) -> dict[str, Any]:
        """Arguments under which `clause` (or one that says the same) is the only true host clause."""
        same = [c for c in self.clauses if c["predicate"] == clause["predicate"]]
        for args in self.variants(mentioned(clause["predicate"]), self.valid):
            true = self.true_clauses(args)
            if true and all(c in same for c in true):
                return args
        raise AssertionError(f"no arguments make only {clause['clause']!r} true")

    def neighbour(self, firing: dict[str, Any], clause: dict[str, Any]) -> dict[str, Any]:
        """Arguments one parameter away from `firing` under which no host clause holds."""
        for name in mentioned(clause["predicate"]):
            for args in self.variants([name], firing):
                if not self.true_clauses(args):
                    return args
        raise AssertionError(f"no valid call is one argument away from firing {clause['clause']!r}")


def call(module: Any, function: dict[str, Any], args: dict[str, Any]) -> Any:
    return getattr(module, function["name"])(*(args[p["name"]] for p in function["params"]))


@pytest.mark.parametrize(
    ("extension", "function", "error", "clause"), HOST,
    ids=[f"{f['name']}:{c['clause'][:50]}" for _, f, _, c in HOST],
)
def test_a_host_clause_fires_and_its_neighbour_passes(
    extension: str, function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any],
    handles: Handles,
) -> None:
    module = extension_module(extension)
    arguments = Arguments(module, function, handles)
    firing = arguments.firing(clause)
    cls = errors.BY_NAME[error["code"]]
    with pytest.raises(cls) as caught:
        call(module, function, firing)
    raised = caught.value
    assert raised.checked and raised.code == cls.code and raised.function == function["name"]
    same = {c["clause"] for c in arguments.clauses if c["predicate"] == clause["predicate"]}
    assert raised.clause in same
    assert repr(raised.clause) in str(raised)
    assert (error["condition"], cited(error)) in [(c.text, c.source) for c in raised.conditions]
    assert f"[{cited(error)}]" in str(raised)
    for name in mentioned(clause["predicate"]):
        assert raised.arguments[name] is firing[name]
        assert f"{name}=" in str(raised)
    with pytest.raises(errors.ExtensionNotSupportedError):
        call(module, function, arguments.neighbour(firing, clause))


def test_every_extension_has_host_clauses() -> None:
    assert {name for name, *_ in HOST} == set(IR)
    assert len(HOST) >= 60


def test_a_callers_errcode_ret_receives_a_checked_code(context: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    mine = module.ffi.new("cl_int *")
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]):
        module.clCreateFromD3D11BufferKHR(context, 3, RESOURCE, mine)  # READ_WRITE | WRITE_ONLY: two access modes
    assert mine[0] == errors.BY_NAME["CL_INVALID_VALUE"].code


@pytest.mark.parametrize("flags", [0, 1, 2, 4])
def test_zero_and_each_single_access_mode_are_valid_flags(context: Any, flags: int) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    with pytest.raises(errors.ExtensionNotSupportedError):
        module.clCreateFromD3D11BufferKHR(context, flags, RESOURCE, None)


@pytest.mark.parametrize("flags", [3, 5, 6, 7, 8, 1 << 40])
def test_combined_or_other_flags_are_not(context: Any, flags: int) -> None:
    module = extension_module("cl_nv_d3d10_sharing")
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]) as caught:
        module.clCreateFromD3D10BufferNV(context, flags, RESOURCE, None)
    assert caught.value.clause == "values specified in flags are not valid"


def test_the_readme_shows_the_message_a_refused_call_raises(context: Any) -> None:
    """The README's last example (flags 3, a POCL context, a stand-in buffer address: the check fires before any
    lookup) prints, as its comment says, the class, the clause, the arguments and the cited condition."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    call = re.search(r"^khr\.create_from_d3d11_buffer\(context, (\d+), buffer\)", text, re.M)
    assert call is not None
    shown = re.findall(r"^# (errors\..*|  .*)$", text[call.end():text.index("```", call.end())], re.M)
    with pytest.raises(errors.CLError) as raised:
        extension_module("cl_khr_d3d11_sharing").create_from_d3d11_buffer(context, int(call[1]), RESOURCE)
    printed = f"errors.{type(raised.value).__name__}: {raised.value}"
    assert printed.split() == " ".join(shown).split()  # the README wraps its long first line
