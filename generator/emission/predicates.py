"""A check's predicate (the IR's `check:` AST) as a Python expression inside a generated wrapper.

The expression reads the wrapper's converted arguments (`c_<param>`), so a check
sees exactly what the C function would; it is true (host) or not None (state:
the offending object) when the spec's condition holds, that is, when the call
must fail. A state check on a list reads the handles the wrapper read from it
once (`k_<param>`, the first `<count>` items; `state_keys` says which), and a
NULL test is the pointer's truth (a cffi pointer is false when NULL; an array never is), which is
cheaper than comparing with `_NULL`. Every name in it is a checked identifier and every value an int, so
nothing from a spec text reaches the code as text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.base import naming

#: Python's spelling of the predicate's comparison operators.
_OPERATORS = {"==": "==", ">": ">", "<": "<", ">=": ">=", "<=": "<="}


class PredicateError(Exception):
    """The predicate cannot become code here (an unknown value, a list with no length)."""


@dataclass(frozen=True)
class Scope:
    """What the compiler needs to know about the function it writes a check for."""

    values: Mapping[str, int]  # token name -> value
    counts: Mapping[str, str]  # array parameter -> the parameter that gives its length
    params: frozenset[str]


def compile_host(predicate: dict[str, Any], scope: Scope) -> str:
    """A boolean expression: true when the condition holds."""
    return _host(predicate, scope)


def compile_state(predicate: dict[str, Any], scope: Scope) -> str:
    """An expression that gives the offending object's address, or None when the condition does not hold."""
    ((kind, operand),) = predicate.items()
    if kind in ("acquired", "released"):
        return f"_state.{kind}({_handles(operand, scope)})"
    if kind == "wrapped":
        subresource = _param(operand["subresource"], scope) if "subresource" in operand else "None"
        return (f"_state.wrapped(_runtime.address({_param(operand['scope'], scope)}), "
                f"_runtime.address({_param(operand['resource'], scope)}), {subresource})")
    raise PredicateError(f"{kind!r} is not a state predicate")


def _host(node: dict[str, Any], scope: Scope) -> str:
    if len(node) == 2 and "member" in node:
        return f"{_param(node['member'], scope)} in {_values(node['of'], scope)}"
    ((kind, operand),) = node.items()
    compilers: dict[str, Callable[[Any, Scope], str]] = {
        "null": lambda p, s: f"not {_param(p, s)}",
        "compare": _compare,
        "not": lambda n, s: _negate(n, s),
        "all": lambda ns, s: "(" + " and ".join(_host(n, s) for n in ns) + ")",
    }
    if kind not in compilers:
        raise PredicateError(f"{kind!r} is not a host predicate")
    return compilers[kind](operand, scope)


def _negate(node: dict[str, Any], scope: Scope) -> str:
    if len(node) == 2 and "member" in node:
        return f"{_param(node['member'], scope)} not in {_values(node['of'], scope)}"
    if set(node) == {"null"}:
        return _param(node["null"], scope)
    return f"not {_host(node, scope)}"


def _compare(operand: list[Any], scope: Scope) -> str:
    name, operator, number = operand
    if operator not in _OPERATORS or not isinstance(number, int) or isinstance(number, bool):
        raise PredicateError(f"cannot compare with {operator!r} {number!r}")
    return f"{_param(name, scope)} {_OPERATORS[operator]} {number}"


def _values(names: list[str | int], scope: Scope) -> str:
    """A set literal of ints (Python builds it once, as a constant)."""
    found: list[int] = []
    for name in names:
        if isinstance(name, int) and not isinstance(name, bool):
            found.append(name)
        elif isinstance(name, str) and name in scope.values:
            found.append(int(scope.values[name]))
        else:
            raise PredicateError(f"{name!r} has no known value")
    return "{" + ", ".join(str(v) for v in sorted(set(found))) + "}"


def state_keys(predicate: dict[str, Any]) -> str | None:
    """The list parameter whose handles a state predicate reads (`k_<param>`), if it reads one."""
    ((kind, operand),) = predicate.items()
    return operand if kind in ("acquired", "released") and isinstance(operand, str) else None


def _handles(name: str, scope: Scope) -> str:
    if name not in scope.counts:
        raise PredicateError(f"<{name}> is a list with no parameter that gives its length")
    _param(name, scope), _param(scope.counts[name], scope)  # both written into the wrapper's `k_<name>` line
    return f"k_{name}"


def _param(name: str, scope: Scope) -> str:
    if name not in scope.params or not naming.IDENTIFIER.match(name):
        raise PredicateError(f"<{name}> is not a parameter")
    return f"c_{name}"
