"""An extension module's code as lines (`ModuleCode`), made from its package model for `extension.py.j2`: what the
template prints between its fixed parts, each statement laid out within the line length (`emission.layout`).

The signatures come from `signatures`, which makes the facades' protocol stubs too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.base.records import frozen
from generator.emission import pythonic_code, wrapper_code
from generator.emission.interop import ContextConstructor
from generator.emission.layout import Bracket, Node, Prefixed, Text, call, statement
from generator.emission.layout import tuple_of as tuple_node
from generator.emission.package_model import Condition, ExtensionModule, FunctionModel, Package
from generator.emission.pythonic_model import PythonicFunction
from generator.emission.render import py
from generator.emission.signatures import (
    Lines,
    Param,
    context_params,
    define,
    manager_keywords,
    overloads,
    pythonic_params,
)
from generator.emission.sorting import imports
from generator.emission.wrapper_code import Scope


@frozen
class FunctionCode:
    """One function's definition: its `@overload` stubs, its signature and its body (the template puts its
    docstring between the last two)."""

    signature: Lines
    body: Lines
    overloads: tuple[Lines, ...] = ()


@frozen
class ModuleCode:
    """What `extension.py.j2` prints of a module, line by line: every statement whose length the specs decide."""

    standard: Lines  # the imports from the standard library, as ruff's isort orders them
    imports: Lines  # from the package's own modules
    pyopencl: bool  # whether an annotation names PyOpenCL's classes (imported for type checkers only)
    public: Lines  # `__all__`
    metadata: Lines  # EXTENSION, VENDOR, REVISION, SOURCES
    error_names: Lines
    c_names: Lines
    constants: Lines  # each token under its C name, with its value as the docs show it
    conditions: Lines  # `_CONDITIONS`
    checks: Lines  # `_CHECKS`
    fast_paths: Lines  # the C types, integer ranges and driver entries the wrappers compare with
    functions: dict[str, FunctionCode]  # by C name
    unchecked: dict[str, FunctionCode]  # by name, the C-named ones and the Pythonic ones that take lists
    pythonic: dict[str, FunctionCode]
    queries: dict[str, FunctionCode]  # by name
    manager: FunctionCode | None = None  # the context manager over acquire and release
    context: FunctionCode | None = None  # the context constructor


def module_code(extension: ExtensionModule, package: Package) -> ModuleCode:
    """The code of one extension's module."""
    config = package.config
    scope = Scope(extension, package.core_constants["success"], config.core_types, config.pythonic.wait_list_keyword,
                  package.core_constants["context_platform"])
    functions = {f.name: _c_function(f, f.name, scope, checked=True) for f in extension.functions}
    unchecked = {**{f.name: _c_function(f, f"_unchecked_{f.name}", scope, checked=False) for f in extension.functions},
                 **{f.name: FunctionCode(define(f"_unchecked_{f.name}", pythonic_params(f, scope.keyword),
                                                f.implementation_hint), pythonic_code.pythonic(f, scope, checked=False))
                    for f in extension.pythonic if f.takes_lists}}
    pythonic = {f.name: _pythonic(f, scope) for f in extension.pythonic}
    queries = {q.name: FunctionCode(define(q.name, [Param(q.handle, "Pointer")], q.hint, one_line=True),
                                    pythonic_code.info_query(q)) for q in extension.queries}
    manager, context = _manager(extension, scope), _context(extension.context, scope)
    defined = [*functions.values(), *unchecked.values(), *pythonic.values(), *queries.values(),
               *([manager] if manager else []), *([context] if context else [])]
    constants = tuple(line for c in extension.constants for line in (
        *assigned(f"{c.c_name}: Final", f"{c.enum}.{c.member}" if c.enum else py(c.value)), py(c.shown)))
    code = [*constants, *(line for code in defined for part in (code.signature, code.body, *code.overloads)
                          for line in part)]
    used = used_names(code) | _TEMPLATE_USES
    if any(not enum.shared for enum in extension.enums):
        used.add("IntEnum")
    pyopencl = config.pythonic.pyopencl_module in used
    if pyopencl:
        used.add("TYPE_CHECKING")
    return ModuleCode(
        standard=tuple(imports((module, name, None) for module, name in _STANDARD if name in used)),
        imports=tuple(imports(name for name in _imported(extension) if (name[2] or name[1]) in used)),
        pyopencl=pyopencl,
        public=assigned("__all__", Bracket("[", tuple(Text(n) for n in extension.public), "]", broken=True)),
        metadata=(*assigned("EXTENSION: Final", Text(extension.extension)),
                  *assigned("VENDOR: Final", Text(extension.vendor)),
                  *assigned("REVISION: Final[str | None]", py(extension.revision)),
                  *assigned("SOURCES: Final", tuple_node(Text(s) for s in extension.sources))),
        error_names=assigned("ERROR_NAMES: Final", tuple_node(Text(n) for n in extension.error_names)),
        c_names=assigned("C_NAMES: Final[dict[str, str]]", Bracket(
            "{", tuple(Prefixed(f"{py(f.name)}: ", Text(f.c_function)) for f in extension.pythonic), "}", broken=True)),
        constants=constants,
        conditions=_conditions(extension),
        checks=_checks(extension.functions),
        fast_paths=_fast_paths(extension),
        functions=functions,
        unchecked=unchecked,
        pythonic=pythonic,
        queries=queries,
        manager=manager,
        context=context,
    )


#: What an extension module may import from the standard library, (module, name): each where its code uses it
#: (the template's own code uses `Any`, `Callable` and `Final` always).
_STANDARD = (("collections.abc", "Callable"), ("collections.abc", "Iterator"), ("collections.abc", "Mapping"),
             ("collections.abc", "Sequence"), ("contextlib", "contextmanager"), ("enum", "IntEnum"),
             ("typing", "TYPE_CHECKING"), ("typing", "Any"), ("typing", "Final"), ("typing", "Literal"),
             ("typing", "overload"))
#: The names the template's own code uses in every module (its helpers, its tables' annotations).
_TEMPLATE_USES = frozenset({"Callable", "Any", "Final", "_library", "_marshal", "_errors", "Binding", "Entry", "CData",
                            "Pointer", "Tracker", "Check", "Condition", "ffi"})


def assigned(target: str, value: Node) -> Lines:
    """`target = value` at the module's level."""
    return tuple(statement(Prefixed(f"{target} = ", value), 0))


def used_names(lines: Iterable[str]) -> set[str]:
    """The names the code of `lines` may read: what it must import. A name here is a word outside every string
    literal and comment that does not follow a dot, so a C type or a token quoted in a message imports nothing;
    in an f-string every word counts. Keywords, a definition's and a parameter's names come too: imports are only
    chosen among the helpers and standard names, which the generated code never defines (an import too many
    would fail the lint test). Lexical, not `ast.parse`: the syntax tree of every module cost 80 ms a run, and
    the compile check parses the modules anyway."""
    names: set[str] = set()
    for lexeme in _LEXEMES.finditer("\n".join(lines)):
        if lexeme["name"]:
            names.add(lexeme["name"])
        elif "f" in (lexeme["prefix"] or "").lower():
            names.update(_NAMES.findall(lexeme[0][len(lexeme["prefix"]):]))
    return names


#: A comment, a string literal (its prefix, triple-quoted or not) or a name that does not follow a dot.
_LEXEMES = re.compile(r"""
    \#[^\n]*
  | (?P<prefix>[rRbBuUfF]{0,2})(?:'{3}(?:\\.|[^\\])*?'{3} | "{3}(?:\\.|[^\\])*?"{3}
                                 | '(?:\\.|[^'\\\n])*' | "(?:\\.|[^"\\\n])*")
  | (?<![\w.])(?P<name>[^\W\d]\w*)
""", re.VERBOSE | re.DOTALL)
_NAMES = re.compile(r"(?<![\w.])[^\W\d]\w*")


def _imported(extension: ExtensionModule) -> list[tuple[str, str, str | None]]:
    """What an extension module may import from the package: the helpers, its cffi module and the enums it shares
    with the other variants of its facade (each where the module uses it)."""
    fixed = [(".", "_library", None), (".", "_lifetime", None), (".", "_marshal", None), (".", "errors", "_errors"),
             ("._binding", "Binding", None), ("._binding", "Entry", None), ("._marshal", "Array", None),
             ("._marshal", "CData", None), ("._marshal", "Pointer", None), ("._state", "Refused", "_Refused"),
             ("._state", "Tracker", None), (".errors", "Check", None), (".errors", "Condition", None)]
    shared = [(f".{module}", name, None) for module, names in extension.shared_imports for name in names]
    return [*fixed, (f"._{extension.module}_ffi", "ffi", None), *shared]


def _condition(condition: Condition) -> Node:
    """A condition as `errors.Condition` holds it: the spec's sentence and where it is."""
    return call("Condition", Text(condition.text), Text(condition.source))


def _conditions(extension: ExtensionModule) -> Lines:
    """`_CONDITIONS`: function -> code -> the spec's conditions for it (each code named in a comment)."""
    table = Bracket("{", tuple(
        Prefixed(f"{py(function)}: ", Bracket("{", tuple(
            Prefixed(f"{py(case.value)}: ", Bracket("(", tuple(_condition(c) for c in case.conditions), ")",
                                                    single=True, broken=True, comment=case.name))
            for case in cases), "}", broken=True))
        for function, cases in extension.error_cases), "}", broken=True)
    return assigned("_CONDITIONS: dict[str, dict[int, tuple[Condition, ...]]]", table)


def _checks(functions: Iterable[FunctionModel]) -> Lines:
    """`_CHECKS`: each function's checks in the order it runs them: the clauses a call must not meet."""
    table = Bracket("{", tuple(
        Prefixed(f"{py(function.name)}: ", tuple_node((
            call("Check", py(check.value), tuple_node(Text(c) for c in check.clauses),
                 tuple_node(_condition(c) for c in check.conditions))
            for check in function.checks), broken=True))
        for function in functions if function.checks), "}", broken=True)
    return assigned("_CHECKS: dict[str, tuple[Check, ...]]", table)


def _fast_paths(extension: ExtensionModule) -> Lines:
    """The module's constants its wrappers compare with, resolved once at import: C types, integer types' ranges,
    each function's entry in `_binding`."""
    out = [*(line for spelling, name in extension.ctype_names.items()
             for line in assigned(name, call("ffi.typeof", py(spelling)))),
           *(line for c_type, (low, high) in extension.int_ranges.items()
             for line in assigned(f"{low}, {high}", call("_marshal.limits", "ffi", py(c_type)))),
           *(line for f in extension.functions
             for line in assigned(f"_fn_{f.name}", call("_binding.entry", py(f.name), py(f.pointer_type))))]
    return tuple(out)


def _c_function(function: FunctionModel, name: str, scope: Scope, *, checked: bool) -> FunctionCode:
    """A C-named function: the C parameters in C order (`platform` by keyword where no handle leads to one)."""
    params: list[str | Param] = [Param(p.name, p.hint) for p in function.params]
    if not function.anchor:
        params += ["*", Param("platform", "Pointer")]
    body = wrapper_code.checked(function, scope) if checked else wrapper_code.unchecked(function, scope)
    return FunctionCode(define(name, params, function.returns_hint), body)


def _pythonic(function: PythonicFunction, scope: Scope) -> FunctionCode:
    """A Pythonic function, with an `@overload` per value of its flag where it returns handles."""

    def params(flag: str) -> list[str | Param]:
        return pythonic_params(function, scope.keyword, flag=flag)

    return FunctionCode(define(function.name, params("bool = False"), function.implementation_hint),
                        pythonic_code.pythonic(function, scope), overloads(function.name, function.overloads, params))


def _manager(extension: ExtensionModule, scope: Scope) -> FunctionCode | None:
    manager = extension.context_manager
    if manager is None:
        return None
    inputs = [Param(name, hint) for name, hint in manager.acquire.input_hints]
    params = inputs + manager_keywords(manager.acquire, scope.keyword)
    return FunctionCode(define(manager.name, params, "Iterator[Any]", decorators=["@contextmanager"]),
                        pythonic_code.context_manager(manager, scope))


def _context(context: ContextConstructor | None, scope: Scope) -> FunctionCode | None:
    if context is None:
        return None
    return FunctionCode(define(context.name, context_params(context, "bool = False"),
                               f"CData | {context.pyopencl_class}"),
                        pythonic_code.context_constructor(context, scope),
                        overloads(context.name, context.overloads, lambda flag: context_params(context, flag)))
