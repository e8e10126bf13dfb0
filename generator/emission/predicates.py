"""A check's predicate (`base.predicates.Predicate`) as a Python expression inside a generated wrapper.

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

from collections.abc import Mapping

from generator.base import naming
from generator.base.predicates import Acquired, AllOf, Compare, IsNull, MemberOf, Not, Predicate, Released, Wrapped
from generator.base.records import frozen
from generator.emission.layout import Bracket, Node, Prefixed, call, chain, flat

#: Python's spelling of the predicate's comparison operators.
_OPERATORS = {"==": "==", ">": ">", "<": "<", ">=": ">=", "<=": "<="}


class PredicateError(Exception):
    """The predicate cannot become code here (an unknown value, a list with no length)."""


@frozen
class Scope:
    """What the compiler needs to know about the function it writes a check for."""

    values: Mapping[str, int]  # token name -> value
    counts: Mapping[str, str]  # array parameter -> the parameter that gives its length
    params: frozenset[str]


def compile_host(predicate: Predicate, scope: Scope) -> str:
    """A boolean expression: true when the condition holds."""
    return flat(host_expression(predicate, scope))


def compile_state(predicate: Predicate, scope: Scope) -> str:
    """An expression that gives the offending object's address, or None when the condition does not hold."""
    return flat(state_expression(predicate, scope))


def host_expression(predicate: Predicate, scope: Scope) -> Node:
    """`compile_host`'s expression as a layout node (`emission.layout`), which the wrapper breaks where it is long."""
    match predicate:
        case MemberOf(param, values):
            return Prefixed(f"{_param(param, scope)} in ", _values(values, scope))
        case IsNull(param):
            return f"not {_param(param, scope)}"
        case Compare(param, operator, number):
            return _compare(param, operator, number, scope)
        case Not(operand):
            return _negate(operand, scope)
        case AllOf(operands):
            nodes = [host_expression(n, scope) for n in operands]
            if not nodes:
                return "()"
            return Bracket("(", (chain(nodes[0], *(("and", node) for node in nodes[1:])),), ")", comma=False)
    raise PredicateError(f"{predicate.notation!r} is not a host predicate")


def state_expression(predicate: Predicate, scope: Scope) -> Node:
    """`compile_state`'s expression as a layout node."""
    match predicate:
        case Acquired(objects):
            return call("_state.acquired", _handles(objects, scope))
        case Released(objects):
            return call("_state.released", _handles(objects, scope))
        case Wrapped(context, resource, subresource):
            part = _param(subresource, scope) if subresource is not None else "None"
            return call("_state.wrapped", call("_library.address", _param(context, scope)),
                        call("_library.address", _param(resource, scope)), part)
    raise PredicateError(f"{predicate.notation!r} is not a state predicate")


def _negate(node: Predicate, scope: Scope) -> Node:
    match node:
        case MemberOf(param, values):
            return Prefixed(f"{_param(param, scope)} not in ", _values(values, scope))
        case IsNull(param):
            return _param(param, scope)
    return Prefixed("not ", host_expression(node, scope))


def _compare(name: str, operator: str, number: int, scope: Scope) -> str:
    if operator not in _OPERATORS or not isinstance(number, int) or isinstance(number, bool):
        raise PredicateError(f"cannot compare with {operator!r} {number!r}")
    return f"{_param(name, scope)} {_OPERATORS[operator]} {number}"


def _values(names: tuple[str | int, ...], scope: Scope) -> Bracket:
    """A set literal of ints (Python builds it once, as a constant)."""
    found: list[int] = []
    for name in names:
        if isinstance(name, int) and not isinstance(name, bool):
            found.append(name)
        elif isinstance(name, str) and name in scope.values:
            found.append(int(scope.values[name]))
        else:
            raise PredicateError(f"{name!r} has no known value")
    return Bracket("{", tuple(str(v) for v in sorted(set(found))), "}")


def token_names(predicate: Predicate, scope: Scope) -> str:
    """The tokens a host test compares with, by name, in the order of its set literals' values: the comment
    that lets a reader of the wrapper see `{0, CL_A, CL_B}` where the test says `{0, 1, 2}`."""
    sets: list[str] = []
    for names in _member_sets(predicate):
        by_value: dict[int, str] = {}
        for name in names:
            if isinstance(name, int):
                by_value.setdefault(name, str(name))
            elif naming.IDENTIFIER.match(name):
                by_value.setdefault(int(scope.values[name]), name)
        if any(not text.isdigit() for text in by_value.values()):
            sets.append("{" + ", ".join(by_value[value] for value in sorted(by_value)) + "}")
    return ", ".join(sets)


def _member_sets(predicate: Predicate) -> list[tuple[str | int, ...]]:
    match predicate:
        case MemberOf(_, values):
            return [values]
        case Not(operand):
            return _member_sets(operand)
        case AllOf(operands):
            return [found for operand in operands for found in _member_sets(operand)]
    return []


def state_keys(predicate: Predicate) -> str | None:
    """The list parameter whose handles a state predicate reads (`k_<param>`), if it reads one."""
    return predicate.objects if isinstance(predicate, Acquired | Released) else None


def _handles(name: str, scope: Scope) -> str:
    if name not in scope.counts:
        raise PredicateError(f"<{name}> is a list with no parameter that gives its length")
    _param(name, scope), _param(scope.counts[name], scope)  # both written into the wrapper's `k_<name>` line
    return f"k_{name}"


def _param(name: str, scope: Scope) -> str:
    if name not in scope.params or not naming.IDENTIFIER.match(name):
        raise PredicateError(f"<{name}> is not a parameter")
    return f"c_{name}"
