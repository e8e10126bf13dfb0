"""The IR as every later stage reads it: one extension, typed and frozen.

`ir.read.from_dict` makes it from the YAML (the files `generate` writes and `diff` reads back) and
`ir.read.record` from the front half's draft, through the same dictionaries: the package and the docs
are a function of the IR file alone. Texts are plain (parameter references are words); every place is a
`Location`; a check's predicate is a tree of the small classes of `base.predicates`, which the front half
builds too.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from generator.base.diagnostics import Diagnostic, Location
from generator.base.predicates import Predicate
from generator.base.records import frozen
from generator.merging.draft import Tally


@frozen
class Clause:
    """One clause of an error condition; `kind` says who can tell whether it holds (README, "Checks")."""

    text: str
    kind: Literal["host", "state", "driver"]
    reason: str
    predicate: Predicate | None = None


@frozen
class Corroboration:
    """Another source stating the same error condition."""

    source: Location
    condition: str
    recovered_from: Location | None = None


@frozen
class ErrorCondition:
    code: str
    condition: str
    source: Location
    origin: Literal["list", "token", "copy"]
    check: tuple[Clause, ...] = ()
    also_in: tuple[Corroboration, ...] = ()
    recovered_from: Location | None = None
    recovered: str | None = None
    copied_from: Location | None = None
    damaged: str | None = None  # why it cannot be read as the text meant it: no check, marked in the docs


@frozen
class Effect:
    """What a successful call changes in the state the package tracks: `objects` acquired or released, or the
    memory object it returns wrapping `resource` (and `subresource`) in the context `scope`."""

    kind: Literal["acquire", "release", "wrap"]
    source: Location
    objects: str | None = None
    scope: str | None = None
    resource: str | None = None
    subresource: str | None = None


@frozen
class Param:
    name: str
    type: str
    description: str | None = None
    description_source: Location | None = None
    recovered_from: Location | None = None


@frozen
class Builtin:
    """A function of the kernel language (OpenCL C) the text declares: it runs on the device; nothing binds it."""

    name: str
    return_type: str
    params: tuple[Param, ...]
    source: Location


@frozen
class Function:
    """A function of the extension, or core OpenCL's or another extension's that it adds conditions to
    (`core`, `external`: `foreign`); an external one has no prototype (`return_type` None)."""

    name: str
    return_type: str | None
    params: tuple[Param, ...]
    errors: tuple[ErrorCondition, ...]
    source: Location
    core: bool = False
    external: bool = False
    prototype_source: Location | None = None
    effects: tuple[Effect, ...] = ()
    declared_at: tuple[Location, ...] = ()

    @property
    def foreign(self) -> bool:
        return self.core or self.external


@frozen
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


@frozen
class Token:
    """A token; `value` None where the text names it without giving one."""

    name: str
    value: int | None
    group: str | None
    source: Location
    value_source: Location | None = None


@frozen
class TypeInfo:
    name: str
    kind: Literal["enum", "typedef", "interface", "platform", "opaque"]
    c_type: str | None
    source: Location | None
    defined: bool = True
    members: tuple[tuple[str, str], ...] = ()  # (name, type) of a struct or union the text spells out


@frozen
class Table:
    name: str
    columns: tuple[str, ...]
    header: tuple[str, ...] | None
    rows: tuple[tuple[str, ...], ...]
    row_sources: tuple[Location, ...]
    source: Location


@frozen
class Source:
    path: str
    format: str
    tally: Tally | None = None


@frozen
class Extension:
    name: str
    vendor: str
    revision: str | None
    metadata: dict[str, str]
    sources: tuple[Source, ...]
    types: tuple[TypeInfo, ...]
    functions: tuple[Function, ...]  # its own first, in spec order, then the foreign ones
    token_groups: tuple[TokenGroup, ...]
    tokens: tuple[Token, ...]
    tables: tuple[Table, ...]
    diagnostics: tuple[Diagnostic, ...]
    registry: str | None = None  # the registry XML the texts were read beside
    builtins: tuple[Builtin, ...] = ()  # the kernel language's functions it declares
    _by_name: dict[str, Function] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for function in self.functions:
            self._by_name.setdefault(function.name, function)

    def function(self, name: str) -> Function | None:
        return self._by_name.get(name)

    @property
    def own_functions(self) -> tuple[Function, ...]:
        """The functions the extension defines (the package wraps these)."""
        return tuple(f for f in self.functions if not f.foreign)


def value_text(value: int | None) -> str:
    """A token value as the specs write it: hexadecimal, or decimal when negative (error codes); a token the
    text names without a value has none."""
    if value is None:
        return NO_VALUE
    return f"0x{value:04X}" if value >= 0 else str(value)


#: How a token named without a value shows (the docs, `diff`).
NO_VALUE = "value not given here"
