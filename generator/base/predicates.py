"""A check's predicate: a host or state clause of an error condition as a tree of small frozen classes.

`analysis.conditions` builds them into the records of `ir.model`, the IR file keeps them, `ir.read` reads them
back: one typed form from the clause to the wrapper, in this first stage because the front half makes them. The
IR file writes each as a mapping under its `notation` key; that YAML is the contract (CONTRACTS.md), so
`to_notation` and `from_notation` are each other's inverse:

    {"null": p}                      p is NULL
    {"compare": [p, op, n]}          op one of == > < >= <=
    {"member": p, "of": [v, ...]}    v a token name or an integer
    {"not": x}  {"all": [x, ...]}
    {"acquired": p}                  some object in array p is acquired
    {"released": p}                  some object in array p is known and not acquired
    {"wrapped": {"scope": c, "resource": r, "subresource": s}}  (s optional)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from generator.base.records import frozen

Operator = Literal["==", ">", "<", ">=", "<="]


@frozen
class IsNull:
    """The argument is NULL (a pointer's truth)."""

    notation: ClassVar[str] = "null"  # its key in the IR
    param: str

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: self.param}


@frozen
class Compare:
    notation: ClassVar[str] = "compare"  # its key in the IR
    param: str
    operator: Operator
    number: int

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: [self.param, self.operator, self.number]}


@frozen
class MemberOf:
    """The argument is one of `values`: token names or integers."""

    notation: ClassVar[str] = "member"  # its key in the IR
    param: str
    values: tuple[str | int, ...]

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: self.param, "of": list(self.values)}


@frozen
class Not:
    notation: ClassVar[str] = "not"  # its key in the IR
    operand: Predicate

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: self.operand.to_notation()}


@frozen
class AllOf:
    notation: ClassVar[str] = "all"  # its key in the IR
    operands: tuple[Predicate, ...]

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: [operand.to_notation() for operand in self.operands]}


@frozen
class Acquired:
    """Some object of the list `objects` is acquired."""

    notation: ClassVar[str] = "acquired"  # its key in the IR
    objects: str

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: self.objects}


@frozen
class Released:
    """Some object of the list `objects` is known and not acquired."""

    notation: ClassVar[str] = "released"  # its key in the IR
    objects: str

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: self.objects}


@frozen
class Wrapped:
    """The resource (and subresource) already has a memory object in the context `scope`."""

    notation: ClassVar[str] = "wrapped"  # its key in the IR
    scope: str
    resource: str
    subresource: str | None = None

    def roles(self) -> tuple[tuple[str, str], ...]:
        """Role -> parameter, as the function that wraps (the wrap effect) names its parameters too."""
        subresource = (("subresource", self.subresource),) if self.subresource is not None else ()
        return (("scope", self.scope), ("resource", self.resource), *subresource)

    def to_notation(self) -> dict[str, Any]:
        return {self.notation: dict(self.roles())}


Predicate = IsNull | Compare | MemberOf | Not | AllOf | Acquired | Released | Wrapped
#: The predicates a state check makes (the package's tracker answers them); the others read arguments only.
STATE_PREDICATES = (Acquired, Released, Wrapped)


def from_notation(node: Mapping[str, Any]) -> Predicate:
    """A predicate from the IR's notation; `node` has passed the IR schema (one key of the notation's)."""
    if "null" in node:
        return IsNull(node["null"])
    if "compare" in node:
        param, operator, number = node["compare"]
        return Compare(param, operator, number)
    if "member" in node:
        return MemberOf(node["member"], tuple(node["of"]))
    if "not" in node:
        return Not(from_notation(node["not"]))
    if "all" in node:
        return AllOf(tuple(from_notation(part) for part in node["all"]))
    if "acquired" in node:
        return Acquired(node["acquired"])
    if "released" in node:
        return Released(node["released"])
    wrapped = node["wrapped"]
    return Wrapped(wrapped["scope"], wrapped["resource"], wrapped.get("subresource"))
