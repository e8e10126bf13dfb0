"""What one source file says, as `extract` finds it: the input of `merge`.

Facts keep the text they came from and where it stands, because merging,
recovery and the cross-checks all need to point back at the sentence.
Parameter references in texts are written `<name>`.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from generator.base.c_decl import CFunction, CTypedef
from generator.base.diagnostics import Location
from generator.base.kinds import Kind
from generator.base.records import frozen, mutable

#: Where a prototype stands: the summary of new functions, the body that
#: describes a function, or an aside (Issues) that only discusses one.
Role = Literal["summary", "body", "aside"]


@frozen
class DeclaredFunction:
    function: CFunction
    where: Location
    role: Role


@frozen
class DeclaredBuiltin:
    """A function of the kernel language (OpenCL C) the text declares: its name is no host API function's. It
    runs on the device; nothing binds it, and it may be overloaded."""

    function: CFunction
    where: Location


@frozen
class NamedFunction:
    """A new function the summary only names, without its prototype (for that, see the registry XML)."""

    name: str
    where: Location


@frozen
class DeclaredType:
    typedef: CTypedef
    where: Location


@frozen
class TokenGroupFact:
    """The sentence in front of a token list, read as: accepted by a parameter, returned in one, or an error code."""

    sentence: str
    kind: Literal["accepted", "returned", "error"]
    functions: tuple[str, ...]
    parameter: str | None  # None where the text lost it
    when: str | None  # for "returned ... when <param_name> is TOKEN"
    where: Location
    parameter_markup_broken: bool = False
    c_type: str | None = None  # the type a list of enums is headed by (the book's New Enums: `* cl_mem_info`)


@frozen
class TokenFact:
    name: str
    literal: str
    value: int | None  # None: the list of new tokens names it without a value
    group: TokenGroupFact | None
    where: Location


@frozen
class ErrorFact:
    """One error condition: `code` (None where lost) is returned by `function` when `text` holds."""

    function: str
    code: str | None
    text: str
    where: Location
    origin: Literal["list", "token"]


@frozen
class ErrorCopy:
    """"Add to the list of errors for `target` the same new errors described above for `source`"."""

    target: str
    source: str
    where: Location


@frozen
class ParamDoc:
    function: str
    parameters: tuple[str, ...]  # empty where the text lost the subject
    text: str
    where: Location


@frozen
class TableRowFact:
    cells: tuple[str, ...]
    where: Location


@frozen
class TableFact:
    header: tuple[str, ...] | None
    rows: tuple[TableRowFact, ...]
    where: Location


@frozen
class Mention:
    """A name the text uses (`function` or `constant`), with the sentence it stands in."""

    name: str
    kind: Literal["function", "constant"]
    where: Location
    sentence: str
    described: str | None  # the function whose description (or error list) it is in, if any
    listed: bool = False  # in the text's list of new tokens


@frozen
class ReturnsClaim:
    """A return-value sentence naming `named` while describing `described`."""

    named: str
    described: str
    where: Location


@frozen
class Remark:
    """Something the text says that the facts cannot keep, and why: reported as a warning by `merge`."""

    where: Location
    kind: Kind
    message: str
    note: bool = False  # a note (the text is understood, nothing is wrong), not a warning


@mutable
class SourceFacts:
    path: str
    format: str
    extension: str | None
    extension_where: Location | None
    revision: str | None = None
    revision_where: Location | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    functions: list[DeclaredFunction] = field(default_factory=list)
    builtins: list[DeclaredBuiltin] = field(default_factory=list)
    named_functions: list[NamedFunction] = field(default_factory=list)
    types: list[DeclaredType] = field(default_factory=list)
    tokens: list[TokenFact] = field(default_factory=list)
    errors: list[ErrorFact] = field(default_factory=list)
    copies: list[ErrorCopy] = field(default_factory=list)
    param_docs: list[ParamDoc] = field(default_factory=list)
    tables: list[TableFact] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    claims: list[ReturnsClaim] = field(default_factory=list)
    remarks: list[Remark] = field(default_factory=list)
    lost: frozenset[str] = frozenset()
    unreadable: tuple[tuple[Location, str], ...] = ()  # where the text's reading put U+FFFD, and for what
    has_summary: bool = False
    subject: str | None = None  # the function a reference page describes
    #: A text put together from other files (an extension cut out of a book): the files its lines come from.
    files: tuple[str, ...] = ()

    def states_nothing(self) -> bool:
        """No prototype, function name, type, token, condition or table: nothing an IR could keep."""
        return not (self.functions or self.builtins or self.named_functions or self.types or self.tokens
                    or self.errors or self.copies or self.tables)


def primary_first(facts: SourceFacts) -> tuple[bool, str]:
    return (not facts.has_summary, facts.path)


def primary_source(sources: list[SourceFacts]) -> SourceFacts:
    """The source the IR follows: the first with a summary of new functions; the others corroborate it."""
    return sorted(sources, key=primary_first)[0]
