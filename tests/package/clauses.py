"""The host clauses of the IR and the calls that make each one true: a small interpreter of the IR's predicates,
written here independent of the generator's compiler, which the tests of the checks (on and off) share."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator
from typing import Any

from generator.base.knowledge import load
from tests.package.standins import IR, Handles, arguments

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
