"""Stage 8, beside the package: the reference pages as the templates see them.

Reads only IR dictionaries and the package model (for the Python names), like
`package.py` reads only IR. The pages: `index.md` (the extensions side by side),
one page per extension (`<module>/index.md`) and one per function
(`<module>/<function>.md`). Guides written by hand (`docs/*.md`, read by
`knowledge.read_guides`) are copied as they are. Each `model_*` function says
what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

from generator.emission.package import ExtensionModule, FunctionModel, Package, declaration
from generator.emission.pythonic import PythonicFunction
from generator.ir.files import value_text

DifferenceKind = Literal["missing", "value", "params", "errors"]


@dataclass(frozen=True)
class ClauseRow:
    """One clause of a condition and how the package treats it."""

    text: str
    kind: str  # host / state / driver
    reason: str


@dataclass(frozen=True)
class ErrorRow:
    code: str
    condition: str
    source: str
    clauses: tuple[ClauseRow, ...]


@dataclass(frozen=True)
class ParamRow:
    name: str
    c_type: str
    description: str | None
    source: str | None
    role: str | None  # how the Pythonic function fills it (`pythonic.Role`); None without one


@dataclass(frozen=True)
class EffectRow:
    kind: str  # acquire / release / wrap
    objects: str | None
    scope: str | None
    resource: str | None
    subresource: str | None
    source: str


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class TokenRow:
    name: str
    value: int | None  # None: the text gives none, and the package has no constant for it
    source: str
    python: str  # where the generated module holds it

    @property
    def hex(self) -> str:
        return value_text(self.value)


@dataclass(frozen=True)
class TokenGroup:
    name: str
    kind: str | None  # accepted / returned / error, as the IR classes it
    sentence: str | None  # the spec's sentence that introduces the group
    source: str | None
    functions: tuple[str, ...]
    parameter: str | None
    tokens: tuple[TokenRow, ...]


@dataclass(frozen=True)
class Table:
    name: str
    header: tuple[str, ...] | None  # the spec's own column titles, when it gives them
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # each as long as `columns`
    row_sources: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    kind: str | None
    message: str
    source: str


@dataclass(frozen=True)
class RegistryFact:
    """A fact the texts leave out, taken from the registry XML: what it is, of what, and the registry's line."""

    what: str  # "token value", "prototype", "type definition"
    name: str
    source: str


@dataclass(frozen=True)
class Finding:
    """A difference between the prose and the registry XML (a `registry-*` diagnostic), with both places."""

    kind: str
    message: str
    prose: str
    registry: str


@dataclass(frozen=True)
class TypeRow:
    name: str
    kind: str
    c_type: str | None
    source: str


@dataclass(frozen=True)
class Link:
    text: str
    path: str


@dataclass(frozen=True)
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
    registry_facts: tuple[RegistryFact, ...] = ()
    registry_findings: tuple[Finding, ...] = ()

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


@dataclass(frozen=True)
class Cell:
    text: str
    path: str | None = None


@dataclass(frozen=True)
class MatrixRow:
    key: str  # the name without its vendor's mark
    cells: tuple[Cell | None, ...]  # one per extension of the family; None where it lacks it


@dataclass(frozen=True)
class Difference:
    subject: str
    kind: DifferenceKind
    details: tuple[tuple[str, str], ...]  # (extension, what it has)


@dataclass(frozen=True)
class Family:
    """Extensions that are one extension by different vendors (the package's facades), or one alone."""

    name: str
    extensions: tuple[ExtensionPage, ...]
    functions: tuple[MatrixRow, ...]
    tokens: tuple[MatrixRow, ...]
    differences: tuple[Difference, ...]


@dataclass(frozen=True)
class Guide:
    """A page written by hand in `docs/`."""

    title: str
    path: str
    text: str


@dataclass(frozen=True)
class Docs:
    package: str
    version: str
    extensions: tuple[ExtensionPage, ...]
    families: tuple[Family, ...]
    guides: tuple[Guide, ...]


def model_docs(irs: list[dict[str, Any]], package: Package, guides: tuple[Guide, ...] = ()) -> Docs:
    """Every page: extensions in the package's order, families after its facades, then lone extensions."""
    by_name = {ir["name"]: ir for ir in irs}
    extensions = tuple(model_extension_page(by_name[module.extension], module, package)
                       for module in package.extensions)
    pages = {page.name: page for page in extensions}
    grouped: list[tuple[str, tuple[ExtensionPage, ...]]] = [
        (facade.module, tuple(pages[v.extension] for v in facade.variants)) for facade in package.facades]
    placed = {page.name for _, members in grouped for page in members}
    grouped += [(page.module, (page,)) for page in extensions if page.name not in placed]
    return Docs(
        package=package.config.name,
        version=package.version,
        extensions=extensions,
        families=tuple(model_family(name, members) for name, members in grouped),
        guides=guides,
    )


def model_extension_page(ir: dict[str, Any], module: ExtensionModule, package: Package) -> ExtensionPage:
    """One extension: its facts in the IR's order, each function with its page."""
    checked = {f.name: f for f in module.functions}
    pythonic = {f.c_function: f for f in module.pythonic}
    keyword = package.config.pythonic.wait_list_keyword
    functions = tuple(
        model_function_page(f, module, checked.get(f["name"]), pythonic.get(f["name"]), keyword)
        for f in ir["functions"]
    )
    return ExtensionPage(
        name=ir["name"],
        path=f"{module.module}/index.md",
        vendor=ir["vendor"],
        revision=ir["revision"],
        module=module.module,
        metadata=tuple((str(k), str(v)) for k, v in (ir.get("metadata") or {}).items()),
        sources=tuple((s["path"], s["format"]) for s in ir["sources"]),
        types=tuple(TypeRow(t["name"], t["kind"], t.get("c_type"), t["source"]) for t in ir["types"]),
        functions=functions,
        groups=model_token_groups(ir, module),
        tables=tuple(model_table(t) for t in ir["tables"]),
        diagnostics=tuple(Diagnostic(d["severity"], d.get("kind"), d["message"], d["source"])
                          for d in ir["diagnostics"]),
        context_manager=module.context_manager.name if module.context_manager else None,
        registry=ir.get("registry"),
        registry_facts=model_registry_facts(ir),
        registry_findings=tuple(Finding(d["kind"], d["message"], d["source"], (d.get("related") or ["—"])[0])
                                for d in ir["diagnostics"] if str(d.get("kind")).startswith("registry-")),
    )


def model_registry_facts(ir: dict[str, Any]) -> tuple[RegistryFact, ...]:
    """What came from the registry: values and prototypes say so (`value_source`, `prototype_source`); a type
    came from it when its source is the registry's file, which no text of the extension is."""
    registry = ir.get("registry")
    if registry is None:
        return ()
    facts = [RegistryFact("type definition", t["name"], t["source"]) for t in ir["types"]
             if str(t["source"]).rsplit(":", 1)[0] == registry]
    facts += [RegistryFact("prototype", f["name"], f["prototype_source"]) for f in ir["functions"]
              if "prototype_source" in f]
    facts += [RegistryFact("token value", t["name"], t["value_source"]) for t in ir["tokens"] if "value_source" in t]
    return tuple(facts)


def model_function_page(
    function: dict[str, Any], module: ExtensionModule, checked: FunctionModel | None,
    pythonic: PythonicFunction | None, keyword: str,
) -> FunctionPage:
    """A function's page: prototype, Python signatures, parameters, errors by clause, effects."""
    roles = {a.c_name: a.role for a in pythonic.arguments} if pythonic else {}
    params = tuple(
        ParamRow(p["name"], p["type"], p.get("description"), p.get("description_source"), roles.get(p["name"]))
        for p in function.get("params", ())
    )
    return FunctionPage(
        name=function["name"],
        path=f"{module.module}/{function['name']}.md",
        extension=module.extension,
        module=module.module,
        core=bool(function.get("core")),
        external=bool(function.get("external")),
        prototype=prototype(function["return_type"], function["name"], [(p.name, p.c_type) for p in params])
        if "return_type" in function else None,
        checked=checked_signature(module.module, checked) if checked else None,
        pythonic=pythonic_signature(module.module, pythonic, keyword) if pythonic else None,
        params=params,
        errors=tuple(
            ErrorRow(e["code"], e["condition"], e["source"],
                     tuple(ClauseRow(c["clause"], c["class"], c["reason"]) for c in e.get("check", ())))
            for e in function["errors"]
        ),
        effects=tuple(
            EffectRow(e["kind"], e.get("objects"), e.get("scope"), e.get("resource"), e.get("subresource"),
                      e["source"])
            for e in function.get("effects", ())
        ),
        source=function["source"],
        declared_at=tuple(function.get("declared_at", ())),
    )


def prototype(return_type: str, name: str, params: list[tuple[str, str]]) -> str:
    """The C prototype, one parameter a line."""
    if not params:
        return f"{return_type} {name}(void);"
    lines = ",\n".join(f"    {declaration(c_type, param)}" for param, c_type in params)
    return f"{return_type} {name}(\n{lines});"


def checked_signature(module: str, function: FunctionModel) -> str:
    """`module.name(param: Hint, ...) -> Hint`, as the generated C-named function is declared."""
    params = [f"{p.name}: {p.hint}" for p in function.params]
    if not function.anchor:
        params += ["*", "platform: Pointer"]
    return f"{module}.{function.name}({', '.join(params)}) -> {function.returns_hint}"


def pythonic_signature(module: str, function: PythonicFunction, keyword: str) -> str:
    """`module.name(inputs, *, wait_for=None, as_pyopencl=False) -> Hint`, as generated."""
    params = list(function.inputs)
    keywords = ([f"{keyword}=None"] if function.wait_list else []) + (
        ["as_pyopencl=False"] if function.returns_handles else [])
    if keywords:
        params += ["*", *keywords]
    return f"{module}.{function.name}({', '.join(params)}) -> {function.returns_hint}"


def model_token_groups(ir: dict[str, Any], module: ExtensionModule) -> tuple[TokenGroup, ...]:
    """The tokens as the spec groups them, in its order; tokens of no declared group last."""
    python = {c.c_name: f"{module.module}.{c.enum}.{c.member}" if c.enum else f"{module.module}.{c.c_name}"
              for c in module.constants}

    def rows(tokens: Iterable[dict[str, Any]]) -> tuple[TokenRow, ...]:
        return tuple(TokenRow(t["name"], t["value"], t["source"], python.get(t["name"], t["name"])) for t in tokens)

    declared = {g["name"] for g in ir["token_groups"]}
    members: dict[str, list[dict[str, Any]]] = {}  # the tokens of each group, in order, sorted out once
    for token in ir["tokens"]:
        members.setdefault(token["group"], []).append(token)
    groups = [
        TokenGroup(g["name"], g.get("kind"), g.get("sentence"), g.get("source"), tuple(g.get("functions") or ()),
                   g.get("parameter"), rows(members.get(g["name"], ())))
        for g in ir["token_groups"]
    ]
    for name in dict.fromkeys(t["group"] for t in ir["tokens"] if t["group"] not in declared):
        groups.append(TokenGroup(name, None, None, None, (), None, rows(members[name])))
    return tuple(groups)


def model_table(table: dict[str, Any]) -> Table:
    """A table with every row as long as its columns (short rows padded, long ones keep their extra cells)."""
    columns = tuple(table["columns"])
    width = max([len(columns), *(len(r) for r in table["rows"])])
    columns += tuple(f"({i + 1})" for i in range(len(columns), width))
    return Table(
        name=table["name"],
        header=tuple(table["header"]) if table.get("header") else None,
        columns=columns,
        rows=tuple(tuple(str(cell) for cell in row) + ("",) * (width - len(row)) for row in table["rows"]),
        row_sources=tuple(table.get("row_sources") or ()),
        source=table["source"],
    )


def model_family(name: str, extensions: tuple[ExtensionPage, ...]) -> Family:
    """The extensions of a family side by side: functions and tokens matched by name without the vendor's mark."""
    functions: dict[str, list[Cell | None]] = {}
    params: dict[str, dict[str, str]] = {}
    codes: dict[str, dict[str, str]] = {}
    tokens: dict[str, list[Cell | None]] = {}
    for i, page in enumerate(extensions):
        for function in page.functions:
            key = _place(functions, neutral(function.name, page.vendor), function.name, i, len(extensions))
            functions[key][i] = Cell(function.name, function.path)
            params.setdefault(key, {})[page.name] = ", ".join(
                f"{neutral(p.c_type, page.vendor.lower())} {p.name}" for p in function.params)
            codes.setdefault(key, {})[page.name] = ", ".join(
                sorted({neutral(e.code, page.vendor) for e in function.errors}))
        for group in page.groups:
            for token in group.tokens:
                key = _place(tokens, neutral(token.name, page.vendor), token.name, i, len(extensions))
                tokens[key][i] = Cell(f"{token.name} = {token.hex}", page.path)
    differences = [*_missing(functions, extensions), *_missing(tokens, extensions)]
    differences += [Difference(key, "value", _details(cells, extensions)) for key, cells in tokens.items()
                    if None not in cells and len({c.text.rsplit(" = ", 1)[1] for c in cells if c}) > 1]
    compared: tuple[tuple[DifferenceKind, dict[str, dict[str, str]]], ...] = (("params", params), ("errors", codes))
    for kind, found in compared:
        differences += [Difference(key, kind, tuple(sorted(per.items()))) for key, per in found.items()
                        if len(per) > 1 and len(set(per.values())) > 1]
    return Family(
        name=name,
        extensions=extensions,
        functions=tuple(MatrixRow(key, tuple(cells)) for key, cells in functions.items()),
        tokens=tuple(MatrixRow(key, tuple(cells)) for key, cells in tokens.items()),
        differences=tuple(differences),
    )


def _place(rows: dict[str, list[Cell | None]], key: str, name: str, column: int, width: int) -> str:
    """The row for `name`: its vendor-neutral key, unless another name of its extension took that row first."""
    candidates = chain((key, name), (f"{name} ({n})" for n in range(2, len(rows) + 3)))  # made only as needed
    key = next(k for k in candidates if k not in rows or rows[k][column] is None)
    rows.setdefault(key, [None] * width)
    return key


def _missing(rows: dict[str, list[Cell | None]], extensions: tuple[ExtensionPage, ...]) -> list[Difference]:
    return [Difference(key, "missing", _details(cells, extensions)) for key, cells in rows.items() if None in cells]


def _details(cells: list[Cell | None], extensions: tuple[ExtensionPage, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((page.name, cell.text if cell else "") for page, cell in zip(extensions, cells, strict=True))


def neutral(name: str, vendor: str) -> str:
    """A name without its vendor's mark at the end (`..._KHR`, `...KHR`), to match it across vendors."""
    for mark in (f"_{vendor}", vendor):
        for end in ("", " *"):
            if name.endswith(mark + end) and len(name) > len(mark + end):
                return name[: -len(mark + end)] + end
    return name


def model_guides(pages: dict[str, str]) -> tuple[Guide, ...]:
    """Hand-written pages (file name -> text), titled by their first `# ` line, in name order."""
    guides = []
    for name, text in sorted(pages.items()):
        headings = (line[2:].strip() for line in text.splitlines() if line.startswith("# "))
        title = next(headings, name.removesuffix(".md"))
        guides.append(Guide(title, name, text))
    return tuple(guides)
