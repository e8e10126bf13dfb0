"""The reference pages as the templates print them: an index of the extensions side by side, a page per
extension and per function, and the guides written by hand. `docs.model_docs` makes them from the IR and the
package model; places are `path:line` strings, as the pages show them.
"""

from __future__ import annotations

from typing import Literal

from generator.base.records import frozen
from generator.ir.model import value_text

DifferenceKind = Literal["missing", "value", "params", "errors"]


@frozen
class ClauseRow:
    """One clause of a condition and how the package treats it."""

    text: str
    kind: str  # host / state / driver
    reason: str


@frozen
class ErrorRow:
    code: str
    condition: str
    source: str
    clauses: tuple[ClauseRow, ...]
    exception: str  # the class a caller catches: `errors.<Class>`
    damaged: str | None = None  # why it cannot be read as the text meant it (the IR's `damaged`)


@frozen
class ParamRow:
    name: str
    c_type: str
    description: str | None
    source: str | None
    role: str | None  # how the Pythonic function fills it (`pythonic.Role`); None without one


@frozen
class EffectRow:
    kind: str  # acquire / release / wrap
    objects: str | None
    scope: str | None
    resource: str | None
    subresource: str | None
    source: str


@frozen
class FunctionPage:
    name: str
    path: str  # relative to the docs root
    extension: str
    module: str
    core: bool  # a core OpenCL function the extension adds error conditions to
    external: bool  # another extension's function it adds error conditions to
    prototype: str | None  # None: no source gives it (an external function)
    checked: str | None  # the Python signature of the C-named function (None: core)
    pythonic: str | None  # the Python signature of the snake_case function
    params: tuple[ParamRow, ...]
    errors: tuple[ErrorRow, ...]
    effects: tuple[EffectRow, ...]
    source: str
    declared_at: tuple[str, ...]
    python_name: str | None = None  # the snake_case function's name

    @property
    def nav_title(self) -> str:
        """Its entry in the site's navigation: the Pythonic name first, the C name after it, which shows where a
        label too long for the sidebar is cut at the left (no parenthesis at its end: see `extra.css`)."""
        return f"{self.python_name} · {self.name}" if self.python_name else self.name


@frozen
class TokenRow:
    name: str
    value: int | None  # None: the text gives none, and the package has no constant for it
    source: str
    python: str  # where the generated module holds it

    @property
    def hex(self) -> str:
        return value_text(self.value)


@frozen
class TokenGroup:
    name: str | None  # None: the tokens of no group
    kind: str | None  # accepted / returned / error, as the IR classes it
    sentence: str | None  # the spec's sentence that introduces the group
    source: str | None
    functions: tuple[str, ...]
    parameter: str | None
    tokens: tuple[TokenRow, ...]


@frozen
class Table:
    name: str
    header: tuple[str, ...] | None  # the spec's own column titles, when it gives them
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # each as long as `columns`
    row_sources: tuple[str, ...]
    source: str


@frozen
class Diagnostic:
    severity: str
    kind: str | None
    message: str
    source: str
    meaning: str | None = None  # the kind's, from the catalogue (`base/kinds.py`); None for a kind it lacks


@frozen
class KindRow:
    """A kind of diagnostic and what it means, for the page that lists them all."""

    name: str
    meaning: str


@frozen
class RegistryFact:
    """A fact the texts leave out, taken from the registry XML: what it is, of what, and the registry's line."""

    what: str  # "token value", "prototype", "type definition"
    name: str
    source: str


@frozen
class Finding:
    """A difference between the prose and the registry XML (a `registry-*` diagnostic), with both places."""

    kind: str
    message: str
    prose: str
    registry: str


@frozen
class TypeRow:
    name: str
    kind: str
    c_type: str | None
    source: str | None


@frozen
class Link:
    text: str
    path: str


@frozen
class BuiltinRow:
    """A kernel-language function the text declares, as its page lists it: the declaration and where it stands."""

    declaration: str
    source: str


@frozen
class ExtensionPage:
    name: str
    path: str
    vendor: str
    revision: str | None
    module: str
    metadata: tuple[tuple[str, str], ...]
    sources: tuple[tuple[str, str], ...]  # (path, format)
    types: tuple[TypeRow, ...]
    functions: tuple[FunctionPage, ...]  # its own, then the core and external functions it adds conditions to
    groups: tuple[TokenGroup, ...]
    tables: tuple[Table, ...]
    diagnostics: tuple[Diagnostic, ...]
    context_manager: str | None
    registry: str | None = None
    registry_shipped: bool = False  # the generator's copy, read since no registry XML was among the texts
    registry_lacks: bool = False  # the registry has no entry for the extension
    registry_facts: tuple[RegistryFact, ...] = ()
    registry_findings: tuple[Finding, ...] = ()
    builtins: tuple[BuiltinRow, ...] = ()

    @property
    def own_functions(self) -> tuple[FunctionPage, ...]:
        return tuple(f for f in self.functions if not f.core and not f.external)

    @property
    def core_functions(self) -> tuple[FunctionPage, ...]:
        return tuple(f for f in self.functions if f.core)

    @property
    def external_functions(self) -> tuple[FunctionPage, ...]:
        return tuple(f for f in self.functions if f.external)

    def clauses(self, kind: str) -> int:
        return sum(1 for f in self.functions for e in f.errors for c in e.clauses if c.kind == kind)

    @property
    def conditions(self) -> int:
        return sum(len(f.errors) for f in self.functions)

    @property
    def tokens(self) -> int:
        return sum(len(g.tokens) for g in self.groups)


@frozen
class Cell:
    text: str
    path: str | None = None


@frozen
class MatrixRow:
    key: str  # the name without its vendor's mark
    cells: tuple[Cell | None, ...]  # one per extension of the family; None where it lacks it


@frozen
class Difference:
    subject: str
    kind: DifferenceKind
    details: tuple[tuple[str, str], ...]  # (extension, what it has)


@frozen
class Family:
    """Extensions that are one extension by different vendors (the package's facades), or one alone."""

    name: str
    extensions: tuple[ExtensionPage, ...]
    functions: tuple[MatrixRow, ...]
    tokens: tuple[MatrixRow, ...]
    differences: tuple[Difference, ...]


@frozen
class Guide:
    """A page written by hand in `docs/`."""

    title: str
    path: str
    text: str


@frozen
class ApiPage:
    """The reference of one module of the package, rendered by mkdocstrings from the module's own docstrings."""

    module: str  # dotted: `<package>.errors`
    title: str  # in the navigation: `errors`
    path: str


@frozen
class Docs:
    package: str
    version: str
    extensions: tuple[ExtensionPage, ...]
    families: tuple[Family, ...]
    guides: tuple[Guide, ...]
    api: tuple[ApiPage, ...] = ()
    kinds: tuple[KindRow, ...] = ()
    #: The page listing the kinds of diagnostic; each extension's diagnostics link there.
    kinds_page: str = "diagnostics.md"
    #: Where the site's own style sheet is: code and paths wrap only where they have a break, never mid-word.
    stylesheet: str = "stylesheets/extra.css"
    #: The folder of mkdocstrings' templates the site replaces (beside mkdocs.yml): docstrings shown as plain text.
    templates: str = "docs_templates"
