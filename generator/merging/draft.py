"""The draft of one extension: what `merge` makes and the later stages of the front half amend.

Mutable on purpose: recovery, the cross-checks, the conditions and the tally each add to it. `ir` writes
it out, and every stage after that reads the frozen `ir.model` instead. Texts keep parameter references
as `<name>` here; the IR writer turns them into plain words. Every element points at the place in the
specs it came from.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from generator.base.diagnostics import Diagnostic, Location
from generator.base.predicates import Predicate
from generator.base.records import frozen, mutable


@mutable
class Param:
    name: str
    type: str
    description: str | None = None
    description_source: Location | None = None
    recovered_from: Location | None = None


@frozen
class Builtin:
    """A function of the kernel language the text declares (`SourceFacts.builtins`): kept, never bound."""

    name: str
    return_type: str
    params: tuple[tuple[str | None, str], ...]  # (name, type) of each, as declared
    source: Location


@mutable
class Corroboration:
    """Another source stating the same error condition, perhaps damaged."""

    source: Location
    condition: str
    recovered_from: Location | None = None  # where its lost error code came from


@frozen
class Clause:
    """One clause of an error condition and who can tell whether it holds.

    `host`: the arguments alone; `state`: what the package saw of earlier calls;
    `driver`: only the implementation. `predicate` is set for host and state.
    """

    text: str
    kind: Literal["host", "state", "driver"]
    reason: str
    predicate: Predicate | None = None


@frozen
class Effect:
    """What a successful call changes in the state the package tracks, and the sentence that says so."""

    kind: Literal["acquire", "release", "wrap"]
    params: tuple[tuple[str, str], ...]  # role -> parameter name: ("objects", <the array>), ("resource", ...)
    source: Location


@mutable
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
    damaged: str | None = None  # why the condition cannot be read as the text meant it (`analysis.damaged`)


@mutable
class Function:
    """A function of the extension, or one it adds conditions to: core OpenCL's (`core`), whose prototype
    knowledge gives, or another extension's (`external`), whose prototype the text does not give (None)."""

    name: str
    return_type: str | None
    params: list[Param]
    source: Location
    core: bool = False
    errors: list[ErrorCondition] = field(default_factory=list)
    declared_at: list[Location] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    external: bool = False
    prototype_source: Location | None = None  # where the prototype comes from when not from `source` (registry)

    @property
    def foreign(self) -> bool:
        """Not the extension's own: it only adds conditions to it, and the package does not wrap it."""
        return self.core or self.external


@mutable
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


@mutable
class Token:
    """A token; `value` is None where the text names it without giving a value (see README, "Tokens")."""

    name: str
    value: int | None
    group: str | None
    source: Location
    literal: str = ""
    value_source: Location | None = None  # where the value comes from when not from `source` (the registry XML)


@mutable
class TypeInfo:
    name: str
    kind: Literal["enum", "typedef", "interface", "platform", "opaque"]
    c_type: str | None
    source: Location
    defined: bool = True
    members: tuple[tuple[str, str], ...] = ()  # (name, canonical type) of a struct or union the text spells out


@mutable
class Table:
    name: str
    columns: list[str]
    header: list[str] | None
    rows: list[list[str]]
    row_sources: list[Location]
    source: Location


@frozen
class Count:
    read: int
    kept: int


@frozen
class Tally:
    """What was read from one source and what the IR keeps of it (`analysis.tally`)."""

    prototypes: Count
    tokens: Count
    conditions: Count


@mutable
class Source:
    path: str
    format: str
    tally: Tally | None = None  # what was read from it and what the IR keeps (`tally`)


class NameIndex:
    """The first element of a list by name, found in a dict kept up to date with the list.

    The lists of an extension are only ever appended to or replaced, and their elements keep their names,
    so the dict is extended when the list grew and rebuilt when it is another list. Looking names up by
    walking the list made every "each X that names a Y" step take time X times Y.
    """

    def __init__(self) -> None:
        self._of: list[Any] | None = None
        self._count = 0
        self._first: dict[str, Any] = {}

    def find(self, items: list[Any], name: str) -> Any:
        if items is not self._of or len(items) < self._count:
            self._of, self._count, self._first = items, 0, {}
        for item in items[self._count :]:
            self._first.setdefault(item.name, item)
        self._count = len(items)
        return self._first.get(name)


@mutable
class Extension:
    name: str
    vendor: str
    revision: str | None
    metadata: dict[str, str]
    sources: list[Source]
    registry: str | None = None  # the registry XML the texts were read beside, if any
    types: list[TypeInfo] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    builtins: list[Builtin] = field(default_factory=list)
    groups: list[TokenGroup] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _functions: NameIndex = field(default_factory=NameIndex, repr=False, compare=False)
    _tokens: NameIndex = field(default_factory=NameIndex, repr=False, compare=False)

    def function(self, name: str) -> Function | None:
        found: Function | None = self._functions.find(self.functions, name)
        return found

    def unsuffixed(self, name: str) -> Function | None:
        """The extension's own function `name` is written for without the vendor's suffix (a slip of texts)."""
        found = self.function(name + self.vendor)
        return found if found is not None and not found.foreign and self.function(name) is None else None

    def token(self, name: str) -> Token | None:
        found: Token | None = self._tokens.find(self.tokens, name)
        return found

    def group(self, name: str) -> TokenGroup | None:
        return next((g for g in self.groups if g.name == name), None)
