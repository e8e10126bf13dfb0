"""The draft of one extension: what `merge` makes and the later stages of the front half amend.

Mutable on purpose: recovery, the cross-checks, the conditions and the tally each add to it. `ir` writes
it out, and every stage after that reads the frozen `ir.model` instead. The records the front half only
makes are the IR's own (`Clause`, `Effect`, `TypeInfo`...); the seven it amends are drafts of the IR's,
with the same fields in the same order (their meaning is said there; `tests/ir/test_codec.py` compares
them). Texts keep parameter references as `<name>` here; the IR writer turns them into plain words.
Every element points at the place in the specs it came from.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from generator.base.diagnostics import Diagnostic, Location
from generator.base.records import mutable
from generator.ir.model import Builtin, Clause, Corroboration, Count, Effect, Tally, TypeInfo

__all__ = ["Builtin", "Clause", "Corroboration", "Count", "Effect", "Tally", "TypeInfo"]  # the IR's own, shared


@mutable
class Param:
    name: str
    type: str
    description: str | None = None
    description_source: Location | None = None
    recovered_from: Location | None = None


@mutable
class ErrorCondition:
    code: str
    condition: str
    source: Location
    origin: Literal["list", "token", "copy"]
    recovered_from: Location | None = None
    recovered: str | None = None
    copied_from: Location | None = None
    damaged: str | None = None  # set by `analysis.damaged`
    check: list[Clause] = field(default_factory=list)  # set by `analysis.conditions`
    also_in: list[Corroboration] = field(default_factory=list)


@mutable
class Function:
    name: str
    return_type: str | None
    params: list[Param]
    source: Location
    core: bool = False
    external: bool = False
    prototype_source: Location | None = None
    errors: list[ErrorCondition] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    declared_at: list[Location] = field(default_factory=list)

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
    name: str
    value: int | None
    group: str | None
    source: Location
    value_source: Location | None = None
    literal: str = ""  # the value as the text spells it (`merge_tokens`), not kept in the IR


@mutable
class Table:
    name: str
    columns: list[str]
    header: list[str] | None
    rows: list[list[str]]
    row_sources: list[Location]
    source: Location


@mutable
class Source:
    path: str
    format: str
    tally: Tally | None = None  # set by `analysis.tally`


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
    registry: str | None = None
    types: list[TypeInfo] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    builtins: list[Builtin] = field(default_factory=list)
    token_groups: list[TokenGroup] = field(default_factory=list)
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
        return next((g for g in self.token_groups if g.name == name), None)
