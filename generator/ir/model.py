"""The IR, one extension typed and frozen, declared here once: what the front half makes and every later stage reads.

Each record is also its YAML form, in field order (`ir.codec`, with the metadata of the fields), and the
schema is checked against it (`tests/ir/test_codec.py`). The front half (`merging`, `analysis`) builds these
very records, each stage making new ones (`dataclasses.replace`, new tuples) where it adds to what an earlier
one made. `ir.read.from_dict` makes them from the YAML (the files `generate` writes and `diff` reads back) and
`ir.read.record` from the front half's, through the same dictionaries: the package and the docs are a function
of the IR file alone. Every place is a `Location`; a check's predicate is a tree of the small classes of
`base.predicates`.

Texts (the fields marked `plain`: conditions, descriptions, sentences, table rows) hold parameter references
as `<name>` in the front half's records, the pipeline's result, and as plain words in records read from an IR
(`ir.read`): `ir.files.to_dict` makes them words when it writes the first, and leaves the second as they are.
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from typing import Any, Literal

from generator.base.diagnostics import Diagnostic, Location
from generator.base.predicates import Predicate, from_notation
from generator.base.records import frozen
from generator.ir.codec import at_column, if_empty, if_false, if_none, ir, place, precise_place


@frozen
class Clause:
    """One clause of an error condition and who can tell whether it holds (`analysis.conditions`).

    `host`: the arguments alone; `state`: what the package saw of earlier calls; `driver`: only the
    implementation. `predicate` is set for host and state. E.g. text "count is 0", kind "host",
    predicate `{compare: [count, ==, 0]}`.
    """

    text: str = field(metadata=ir(key="clause", plain=True))
    kind: Literal["host", "state", "driver"] = field(metadata=ir(key="class"))
    reason: str = field(metadata=ir(plain=True))  # why the kind: "the arguments alone tell"
    predicate: Predicate | None = field(default=None, metadata=ir(omit=if_none,
                                           convert=(lambda p: p.to_notation(), from_notation)))


@frozen
class Corroboration:
    """Another source stating the same error condition (a reference page beside the extension text)."""

    source: Location = field(metadata=ir(column="column"))
    condition: str = field(metadata=ir(plain=True))
    # where its lost error code came from
    recovered_from: Location | None = field(default=None, metadata=ir(omit=if_none))


@frozen
class Effect:
    """What a successful call changes in the state the package tracks (`analysis.conditions`): `objects`
    acquired or released (an array parameter), or the memory object it returns wrapping `resource` (and
    `subresource`) in the context `scope`; `source` is the sentence that says so."""

    kind: Literal["acquire", "release", "wrap"]
    source: Location = field(metadata=ir(column="column"))
    objects: str | None = field(default=None, metadata=ir(omit=if_none))
    scope: str | None = field(default=None, metadata=ir(omit=if_none))
    resource: str | None = field(default=None, metadata=ir(omit=if_none))
    subresource: str | None = field(default=None, metadata=ir(omit=if_none))


@frozen
class Builtin:
    """A function of the kernel language (OpenCL C) the text declares (`SourceFacts.builtins`): it runs on the
    device; nothing binds it. `params` are (name, type) as declared, a name None where the text gives none."""

    name: str
    return_type: str
    params: tuple[tuple[str | None, str], ...] = field(metadata=ir(pairs=("name", "type")))
    source: Location


@frozen
class TypeInfo:
    """A type the extension names (`merging.merge`): "enum", "typedef" (with its `c_type`), "interface"
    (a COM interface), "platform" (a Windows type), "opaque"; `defined` False where no source defines it."""

    name: str
    kind: Literal["enum", "typedef", "interface", "platform", "opaque"]
    c_type: str | None
    source: Location
    defined: bool = True
    members: tuple[tuple[str, str], ...] = field(default=(), metadata=ir(omit=if_empty, pairs=("name", "type")))


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


@frozen
class Source:
    """A text that contributed: "specs/cl_acme_widget_sharing.txt", format "asciidoc"."""

    path: str
    format: str
    tally: Tally | None = field(default=None, metadata=ir(omit=if_none))


def _no_prototype(value: Any, owner: Any) -> bool:
    return owner.return_type is None


def _one_at_most(value: Any, owner: Any) -> bool:
    return len(value) <= 1


@frozen
class Param:
    """A parameter, its description (a sentence of the text) and where that was found."""

    name: str
    type: str
    description: str | None = field(default=None, metadata=ir(omit=if_none, plain=True))
    description_source: Location | None = field(default=None, metadata=ir(omit=if_none, column="description_column"))
    # a sibling's, when the text lost it
    recovered_from: Location | None = field(default=None, metadata=ir(omit=if_none))


@frozen
class ErrorCondition:
    """An error code and the condition the text gives it: `origin` "list" (an error list), "token" (a token's
    own sentence) or "copy" (taken from a function the text says behaves the same)."""

    code: str
    condition: str = field(metadata=ir(plain=True))
    source: Location = field(metadata=ir(column="column"))
    origin: Literal["list", "token", "copy"]
    # where what its source lost came from
    recovered_from: Location | None = field(default=None, metadata=ir(omit=if_none))
    # what that was: "parameter names", "error code"
    recovered: str | None = field(default=None, metadata=ir(omit=if_none))
    copied_from: Location | None = field(default=None, metadata=ir(omit=if_none))
    damaged: str | None = field(default=None, metadata=ir(omit=if_none, plain=True))  # why it is not read: no check
    check: tuple[Clause, ...] = field(default=(), metadata=ir(omit=if_empty))
    also_in: tuple[Corroboration, ...] = field(default=(), metadata=ir(omit=if_empty))


@frozen
class Function:
    """A function of the extension, or core OpenCL's or another extension's that it adds conditions to
    (`core`, `external`: `foreign`); an external one has no prototype (`return_type` None)."""

    name: str
    return_type: str | None = field(metadata=ir(omit=if_none))
    params: tuple[Param, ...] = field(metadata=ir(omit=_no_prototype))
    source: Location = field(metadata=ir(column="column"))
    core: bool = field(default=False, metadata=ir(omit=if_false))
    external: bool = field(default=False, metadata=ir(omit=if_false))
    # the registry's, when not the text's
    prototype_source: Location | None = field(default=None, metadata=ir(omit=if_none))
    errors: tuple[ErrorCondition, ...] = ()
    effects: tuple[Effect, ...] = field(default=(), metadata=ir(omit=if_empty))
    declared_at: tuple[Location, ...] = field(default=(), metadata=ir(omit=_one_at_most, column="declared_columns"))

    @property
    def foreign(self) -> bool:
        """Not the extension's own: it only adds conditions to it, and the package does not wrap it."""
        return self.core or self.external


@frozen
class TokenGroup:
    """Tokens a sentence introduces together: "accepted" by `parameter` of `functions`, "returned" by them
    (`when` a query's name is given), or "error" codes; `name` is made from the type or the parameter."""

    name: str
    kind: Literal["accepted", "returned", "error"]
    functions: tuple[str, ...]
    parameter: str | None
    c_type: str | None
    when: str | None
    sentence: str = field(metadata=ir(plain=True))
    source: Location = field(metadata=ir(column="column"))
    recovered_from: Location | None = field(default=None, metadata=ir(omit=if_none))


@frozen
class Token:
    """A token; `value` None where the text names it without giving one."""

    name: str
    value: int | None
    group: str | None
    source: Location = field(metadata=ir(column="column"))
    # the registry's, when not the text's
    value_source: Location | None = field(default=None, metadata=ir(omit=if_none))


@frozen
class Table:
    """A table of the text (a format mapping, say): rows in the text's order, each row's
    place in `row_sources`."""

    name: str
    columns: tuple[str, ...]
    header: tuple[str, ...] | None
    rows: tuple[tuple[str, ...], ...] = field(metadata=ir(plain=True))
    row_sources: tuple[Location, ...] = field(metadata=ir(column="row_columns"))
    source: Location = field(metadata=ir(column="column"))


def _own_first(function: Function) -> tuple[Any, ...]:
    """The extension's functions in spec order, then the foreign ones by name, the core ones first."""
    return (1, function.external, function.name) if function.foreign else (0,)


def _diagnostic(diagnostic: Diagnostic) -> dict[str, Any]:
    entry = {"severity": diagnostic.severity, "kind": str(diagnostic.kind), "message": diagnostic.message,
             "source": str(diagnostic.where)}
    column = diagnostic.where.kept_column
    return entry | ({"column": column} if column is not None else {}) | (
        {"related": [r.precise() for r in diagnostic.related]} if diagnostic.related else {})


def _read_diagnostic(data: dict[str, Any]) -> Diagnostic:
    where = place(data["source"])
    if "column" in data:
        where = at_column(where, data["column"])
    return Diagnostic(where, data["severity"], data["kind"], data["message"],
                      related=tuple(precise_place(r) for r in data.get("related", ())))


@frozen
class Extension:
    """One extension as every later stage reads it: written to `OUT/ir/<name>.yaml` in this order."""

    name: str  # the extension string, "cl_acme_widget_sharing"
    vendor: str  # "ACME"
    revision: str | None
    metadata: dict[str, str]  # the text's header fields: "Contact", "Status"
    sources: tuple[Source, ...]
    registry: str | None = field(default=None, metadata=ir(omit=if_none))  # the registry XML the texts were read beside
    types: tuple[TypeInfo, ...] = ()
    functions: tuple[Function, ...] = field(default=(), metadata=ir(order=_own_first))
    builtins: tuple[Builtin, ...] = field(default=(), metadata=ir(omit=if_empty))
    token_groups: tuple[TokenGroup, ...] = ()
    tokens: tuple[Token, ...] = ()
    tables: tuple[Table, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), metadata=ir(order=lambda d: d,
                                                   convert=(_diagnostic, _read_diagnostic)))

    def function(self, name: str) -> Function | None:
        """The first function named `name`."""
        return self._functions.get(name)

    def token(self, name: str) -> Token | None:
        """The first token named `name`."""
        return self._tokens.get(name)

    # The indexes, built on first use (looking names up by walking the tuples made every "each X that names a Y"
    # step take time X times Y); a record made anew by `dataclasses.replace` builds its own.
    @cached_property
    def _functions(self) -> dict[str, Function]:
        found: dict[str, Function] = {}
        for function in self.functions:
            found.setdefault(function.name, function)
        return found

    @cached_property
    def _tokens(self) -> dict[str, Token]:
        found: dict[str, Token] = {}
        for token in self.tokens:
            found.setdefault(token.name, token)
        return found

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
