"""One extension as the IR describes it: the output of `merge`, the input of `crosscheck` and `ir`.

Texts keep parameter references as `<name>` here; the IR writer turns them
into plain words. Every element points at the place in the specs it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from generator.diagnostics import Diagnostic, Location


@dataclass
class Param:
    name: str
    type: str
    description: str | None = None
    description_source: Location | None = None
    recovered_from: Location | None = None


@dataclass
class Corroboration:
    """Another source stating the same error condition, perhaps damaged."""

    source: Location
    condition: str
    recovered_from: Location | None = None  # where its lost error code came from


Predicate = dict[str, Any]  # a check's AST, as the IR writes it (see generator/conditions.py)


@dataclass(frozen=True)
class Clause:
    """One clause of an error condition and who can tell whether it holds.

    `host`: the arguments alone; `state`: what the package saw of earlier calls;
    `driver`: only the implementation. `predicate` is set for host and state.
    """

    text: str
    kind: Literal["host", "state", "driver"]
    reason: str
    predicate: Predicate | None = None


@dataclass(frozen=True)
class Effect:
    """What a successful call changes in the state the package tracks, and the sentence that says so."""

    kind: Literal["acquire", "release", "wrap"]
    params: tuple[tuple[str, str], ...]  # role -> parameter name: ("objects", <the array>), ("resource", ...)
    source: Location


@dataclass
class ErrorCondition:
    code: str
    condition: str
    source: Location
    origin: Literal["list", "token", "copy"]
    also_in: list[Corroboration] = field(default_factory=list)
    recovered_from: Location | None = None  # where what its source lost came from
    recovered: str | None = None  # what that was: "parameter names", "error code"
    copied_from: Location | None = None
    check: list[Clause] = field(default_factory=list)


@dataclass
class Function:
    name: str
    return_type: str
    params: list[Param]
    source: Location
    core: bool = False
    errors: list[ErrorCondition] = field(default_factory=list)
    declared_at: list[Location] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)


@dataclass
class TokenGroup:
    name: str
    kind: Literal["accepted", "returned", "error"]
    functions: tuple[str, ...]
    parameter: str | None
    c_type: str | None
    when: str | None
    sentence: str
    source: Location
    recovered_from: Location | None = None

    @property
    def key(self) -> str:
        """How tokens refer to the group until it is named: the place of its sentence."""
        return f"{self.source.path}:{self.source.pos.line}:{self.source.pos.column}"


@dataclass
class Token:
    name: str
    value: int
    group: str | None
    source: Location
    literal: str = ""


@dataclass
class TypeInfo:
    name: str
    kind: Literal["enum", "typedef", "interface", "platform"]
    c_type: str | None
    source: Location
    defined: bool = True


@dataclass
class Table:
    name: str
    columns: list[str]
    header: list[str] | None
    rows: list[list[str]]
    row_sources: list[Location]
    source: Location


@dataclass
class Source:
    path: str
    format: str


@dataclass
class Extension:
    name: str
    vendor: str
    revision: str | None
    metadata: dict[str, str]
    sources: list[Source]
    types: list[TypeInfo] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    groups: list[TokenGroup] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def function(self, name: str) -> Function | None:
        return next((f for f in self.functions if f.name == name), None)

    def token(self, name: str) -> Token | None:
        return next((t for t in self.tokens if t.name == name), None)

    def group(self, name: str) -> TokenGroup | None:
        return next((g for g in self.groups if g.name == name), None)
