"""The reference pages' model (`docs_model`), made from the typed IR and the package model (for the Python names
and signatures), as `package` is made from the IR alone. The pages: `index.md` (the extensions side by side),
one page per extension (`<module>/index.md`) and one per function (`<module>/<function>.md`); guides written by
hand (`docs/*.md`, read by `knowledge.read_guides`) are copied as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from generator.base import shipped_registry
from generator.base.diagnostics import Location
from generator.base.kinds import Kind, meaning
from generator.emission.docs_model import (
    ApiPage,
    BuiltinRow,
    Cell,
    ClauseRow,
    Diagnostic,
    Difference,
    DifferenceKind,
    Docs,
    EffectRow,
    ErrorRow,
    ExtensionPage,
    Family,
    Finding,
    FunctionPage,
    Guide,
    KindRow,
    MatrixRow,
    ParamRow,
    RegistryFact,
    Table,
    TokenGroup,
    TokenRow,
    TypeRow,
)
from generator.emission.package_model import ExtensionModule, FunctionModel, Package, declaration
from generator.emission.pythonic_model import PythonicFunction
from generator.ir.model import Builtin, Extension, Function, Token
from generator.ir.model import Table as IRTable


def model_docs(irs: list[Extension], package: Package, guides: tuple[Guide, ...] = ()) -> Docs:
    """Every page: extensions in the package's order, families after its facades, then lone extensions."""
    by_name = {ir.name: ir for ir in irs}
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
        api=model_api(package),
        kinds=tuple(KindRow(kind.value, kind.meaning) for kind in sorted(Kind)),
    )


def model_api(package: Package) -> tuple[ApiPage, ...]:
    """A reference page per public module: the package, its errors, the mappings, the facades, the extensions."""
    root = package.config.name
    modules = ["errors", *(m.module for m in package.mappings), *(f.module for f in package.facades),
               *(e.module for e in package.extensions)]
    return (ApiPage(root, root, "api/index.md"),
            *(ApiPage(f"{root}.{module}", module, f"api/{module}.md") for module in modules))


def model_extension_page(ir: Extension, module: ExtensionModule, package: Package) -> ExtensionPage:
    """One extension: its facts in the IR's order, each function with its page."""
    checked = {f.name: f for f in module.functions}
    pythonic = {f.c_function: f for f in module.pythonic}
    keyword = package.config.pythonic.wait_list_keyword
    exceptions = {e.c_name: e.class_name for e in package.errors}
    functions = tuple(
        model_function_page(f, module, checked.get(f.name), pythonic.get(f.name), keyword, exceptions)
        for f in ir.functions
    )
    return ExtensionPage(
        name=ir.name,
        path=f"{module.module}/index.md",
        vendor=ir.vendor,
        revision=ir.revision,
        module=module.module,
        metadata=tuple(ir.metadata.items()),
        sources=tuple((s.path, s.format) for s in ir.sources),
        types=tuple(TypeRow(t.name, t.kind, t.c_type, _shown(t.source)) for t in ir.types),
        builtins=tuple(_builtin_row(b) for b in ir.builtins),
        functions=functions,
        groups=model_token_groups(ir, module),
        tables=tuple(model_table(t) for t in ir.tables),
        diagnostics=tuple(Diagnostic(d.severity, d.kind, d.message, d.where.cited(), meaning(d.kind))
                          for d in ir.diagnostics),
        context_manager=module.context_manager.name if module.context_manager else None,
        registry=ir.registry,
        registry_shipped=ir.registry is not None and shipped_registry.named(ir.registry),
        registry_lacks=any(d.kind == Kind.REGISTRY_NO_EXTENSION for d in ir.diagnostics),
        registry_facts=model_registry_facts(ir),
        registry_findings=tuple(
            Finding(d.kind, d.message, d.where.cited(), d.related[0].precise() if d.related else "—")
            for d in ir.diagnostics if d.kind.startswith("registry-")),
    )


def model_registry_facts(ir: Extension) -> tuple[RegistryFact, ...]:
    """What came from the registry: values and prototypes say so (`value_source`, `prototype_source`); a type
    came from it when its source is the registry's file, which no text of the extension is."""
    registry = ir.registry
    if registry is None:
        return ()
    facts = [RegistryFact("type definition", t.name, str(t.source)) for t in ir.types
             if t.source is not None and t.source.path == registry]
    facts += [RegistryFact("prototype", f.name, str(f.prototype_source)) for f in ir.functions
              if f.prototype_source is not None]
    facts += [RegistryFact("token value", t.name, str(t.value_source)) for t in ir.tokens
              if t.value_source is not None]
    return tuple(facts)


def model_function_page(
    function: Function, module: ExtensionModule, checked: FunctionModel | None,
    pythonic: PythonicFunction | None, keyword: str, exceptions: dict[str, str],
) -> FunctionPage:
    """A function's page: prototype, Python signatures, parameters, errors by clause, effects."""
    roles = {a.c_name: a.role for a in pythonic.arguments} if pythonic else {}
    params = tuple(
        ParamRow(p.name, p.type, p.description, _shown(p.description_source), roles.get(p.name))
        for p in function.params
    )
    return FunctionPage(
        name=function.name,
        path=f"{module.module}/{function.name}.md",
        extension=module.extension,
        module=module.module,
        core=function.core,
        external=function.external,
        prototype=prototype(function.return_type, function.name, [(p.name, p.c_type) for p in params])
        if function.return_type is not None else None,
        checked=checked_signature(module.module, checked) if checked else None,
        pythonic=pythonic_signature(module.module, pythonic, keyword) if pythonic else None,
        python_name=pythonic.name if pythonic else None,
        params=params,
        errors=tuple(
            ErrorRow(e.code, e.condition, e.source.cited(), tuple(ClauseRow(c.text, c.kind, c.reason) for c in e.check),
                     f"errors.{exceptions.get(e.code, 'CLError')}", e.damaged)
            for e in function.errors
        ),
        effects=tuple(
            EffectRow(e.kind, e.objects, e.scope, e.resource, e.subresource,
                      e.source.cited())
            for e in function.effects
        ),
        source=function.source.cited(),
        declared_at=tuple(w.cited() for w in function.declared_at),
    )


def _builtin_row(builtin: Builtin) -> BuiltinRow:
    params = ", ".join(declaration(c_type, name) if name else c_type for name, c_type in builtin.params) or "void"
    return BuiltinRow(f"{builtin.return_type} {builtin.name}({params})", builtin.source.cited())


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
    """`module.name(inputs, *, wait_for=None, platform, as_pyopencl=False) -> Hint`, as generated."""
    params = list(function.inputs)
    keywords = ([f"{keyword}=None"] if function.wait_list else []) + (
        ["platform"] if function.takes_platform else []) + (["as_pyopencl=False"] if function.returns_handles else [])
    if keywords:
        params += ["*", *keywords]
    return f"{module}.{function.name}({', '.join(params)}) -> {function.implementation_hint}"


def model_token_groups(ir: Extension, module: ExtensionModule) -> tuple[TokenGroup, ...]:
    """The tokens as the spec groups them, in its order; tokens of no declared group last."""
    python = {c.c_name: f"{module.module}.{c.enum}.{c.member}" if c.enum else f"{module.module}.{c.c_name}"
              for c in module.constants}

    def rows(tokens: Iterable[Token]) -> tuple[TokenRow, ...]:
        return tuple(TokenRow(t.name, t.value, t.source.cited(), python.get(t.name, t.name)) for t in tokens)

    declared = {g.name for g in ir.token_groups}
    members: dict[str | None, list[Token]] = {}  # the tokens of each group, in order, sorted out once
    for token in ir.tokens:
        members.setdefault(token.group, []).append(token)
    groups = [
        TokenGroup(g.name, g.kind, g.sentence, g.source.cited(), g.functions, g.parameter,
                   rows(members.get(g.name, ())))
        for g in ir.token_groups
    ]
    for name in dict.fromkeys(t.group for t in ir.tokens if t.group not in declared):
        groups.append(TokenGroup(name, None, None, None, (), None, rows(members[name])))
    return tuple(groups)


def model_table(table: IRTable) -> Table:
    """A table with every row as long as its columns (short rows padded, long ones keep their extra cells)."""
    columns = table.columns
    width = max([len(columns), *(len(r) for r in table.rows)])
    columns += tuple(f"({i + 1})" for i in range(len(columns), width))
    return Table(
        name=table.name,
        header=table.header or None,
        columns=columns,
        rows=tuple(tuple(str(cell) for cell in row) + ("",) * (width - len(row)) for row in table.rows),
        row_sources=tuple(w.cited() for w in table.row_sources),
        source=table.source.cited(),
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


def _shown(where: Location | None) -> str | None:
    return where.cited() if where is not None else None
