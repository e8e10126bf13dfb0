"""Stage 8: the generated package as the templates see it, made from the IR.

Reads only IR dictionaries (what `ir.to_dict` returns and `OUT/ir/*.yaml` holds)
and the declared knowledge of `data/`; every name it hands to a template has
passed `naming.identifier`. Each `model_*` function says what it returns.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import cffi

from generator import __version__
from generator.base import naming
from generator.base.c_decl import base_type
from generator.base.errors import Gather, InputError
from generator.base.knowledge import Knowledge, PackageConfig
from generator.base.source import Pos
from generator.emission import cdef_checks
from generator.emission.predicates import PredicateError, Scope, compile_host, compile_state, state_keys
from generator.emission.pythonic import ContextManager, PythonicFunction, model_context_manager, model_pythonic

ParamKind = Literal["handle", "integer", "array", "pointer", "error_out", "value"]
ResultKind = Literal["status", "handle", "none", "value"]

#: C integer types cffi knows, by the name a type chain ends in.
_INTEGER_TYPES = {
    "char", "short", "int", "long", "unsigned int", "size_t", "intptr_t", "uintptr_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
}
#: Sizes and signedness of those types, as the C compiler of this machine has them.
_C = cffi.FFI()


@dataclass(frozen=True)
class Condition:
    text: str
    source: str
    classes: tuple[str, ...] = ()  # how each of its clauses is checked: host / state / driver

    @property
    def checked(self) -> Literal["all", "part", "none"]:
        """Whether the package checks it before the call: every clause, some, or none."""
        found = [c != "driver" for c in self.classes]
        return "all" if found and all(found) else "part" if any(found) else "none"


@dataclass(frozen=True)
class ErrorCase:
    """The conditions under which a function returns one error code."""

    name: str
    value: int
    conditions: tuple[Condition, ...]


@dataclass(frozen=True)
class ParamModel:
    name: str
    c_type: str
    kind: ParamKind
    element: str | None  # element type of an array parameter
    description: str | None
    exact: bool = False  # a pointer that must point to its own type (not any pointer)
    handle_elements: bool = False  # an array of handles (not of integers)
    count: str | None = None  # the parameter that gives this array's length

    @property
    def declaration(self) -> str:
        return declaration(self.c_type, self.name)

    @property
    def hint(self) -> str:
        """The annotation of the Python parameter (aliases of the generated `_marshal`)."""
        return {"integer": "int", "array": "Array", "value": "object"}.get(self.kind, "Pointer")


@dataclass(frozen=True)
class CheckModel:
    """A test in the wrapper: `test` holds when the call must fail.

    One test may stand for several clauses that say the same thing (a token's
    sentence and the error list often do); the error quotes them all.
    """

    kind: Literal["host", "state"]
    test: str  # a Python expression over the converted arguments (generator/emission/predicates.py)
    code: str
    value: int
    clauses: tuple[str, ...]
    conditions: tuple[Condition, ...]  # the whole condition each clause is part of
    params: tuple[str, ...]  # the parameters the clauses speak of, for the message
    keys: str | None = None  # the list parameter whose handles a state test reads (`k_<param>`)
    question: str | None = None  # a state test's predicate: acquired / released / wrapped


@dataclass(frozen=True)
class EffectModel:
    """What a successful call records: `objects` acquired or released, or the result wrapping a resource."""

    kind: Literal["acquire", "release", "wrap"]
    objects: str | None = None  # the array parameter
    count: str | None = None  # its length parameter
    scope: str | None = None
    resource: str | None = None
    subresource: str | None = None


@dataclass(frozen=True)
class FunctionModel:
    name: str
    pointer_type: str
    return_type: str
    result: ResultKind
    params: tuple[ParamModel, ...]
    anchor: str | None  # the parameter that leads to the platform
    anchor_kind: str | None  # platform / device / context / queue
    error_param: str | None  # the out-parameter that receives the error code
    errors: tuple[ErrorCase, ...]
    source: str
    checks: tuple[CheckModel, ...] = ()  # host checks, then state checks, each in spec order
    effects: tuple[EffectModel, ...] = ()
    #: The lists whose handles the state checks and effects read, with their length parameters: the wrapper
    #: reads each once into `k_<list>`.
    keys: tuple[tuple[str, str], ...] = ()

    @property
    def returns_hint(self) -> str:
        return "None" if self.result in ("status", "none") else "CData"

    @property
    def transition(self) -> EffectModel | None:
        """The effect of a call that `Tracker.transit` runs in one step (the wrapper's short form): a call
        returning a status, whose one state check asks what its one effect's objects must not be."""
        state = [c for c in self.checks if c.kind == "state"]
        if self.result != "status" or len(self.effects) != 1 or len(state) != 1:
            return None
        effect, (check,) = self.effects[0], state
        fits = _TRANSIT_QUESTIONS.get(effect.kind) == check.question and check.keys == effect.objects
        return effect if fits else None


#: The effects `Tracker.transit` records, with the state check it makes before each.
_TRANSIT_QUESTIONS = {"acquire": "acquired", "release": "released"}


@dataclass(frozen=True)
class Member:
    name: str
    c_name: str
    value: int
    source: str | None = None


@dataclass(frozen=True)
class EnumModel:
    class_name: str
    doc: str
    source: str | None
    members: tuple[Member, ...]
    c_prefix: str = ""  # what the C names have before the member names


@dataclass(frozen=True)
class Constant:
    c_name: str
    value: int
    enum: str | None  # the class holding it, if any
    member: str | None


@dataclass(frozen=True)
class TypeDecl:
    """One line of a cdef: `typedef <c_type> <name>;`, an opaque struct, or a struct with its members."""

    name: str
    c_type: str | None  # None: an opaque struct
    members: tuple[tuple[str, str], ...] = ()  # (name, type) of a struct or union the text spells out

    @property
    def declaration(self) -> str:
        """The C typedef, without its `;`."""
        if self.c_type is None:
            return f"typedef struct {self.name} {self.name}"
        if self.members:
            body = " ".join(f"{declaration(c_type, name)};" for name, c_type in self.members)
            return f"typedef {self.c_type} {{ {body} }} {self.name}"
        if "(" in self.c_type or "[" in self.c_type:  # a function pointer, an array: the name goes inside
            return f"typedef {declaration(self.c_type, self.name)}"
        return f"typedef {self.c_type} {self.name}"


@dataclass(frozen=True)
class ExtensionModule:
    module: str
    extension: str
    vendor: str
    revision: str | None
    sources: tuple[str, ...]
    types: tuple[TypeDecl, ...]
    enums: tuple[EnumModel, ...]
    constants: tuple[Constant, ...]
    functions: tuple[FunctionModel, ...]
    error_names: tuple[str, ...]  # the error codes it defines, by C name
    pythonic: tuple[PythonicFunction, ...] = ()
    context_manager: ContextManager | None = None
    #: The C types the wrappers' fast paths compare with, by the spelling the templates use, and the name of
    #: the module constant holding each (`_type_...`); the integer types' ranges (`_min_...`, `_max_...`).
    ctype_names: dict[str, str] = field(default_factory=dict)
    int_ranges: dict[str, tuple[str, str]] = field(default_factory=dict)

    @cached_property
    def by_name(self) -> dict[str, FunctionModel]:
        """The functions by C name, for the Pythonic layer's templates (a search of the list per function
        made the module's rendering take time in the square of its functions)."""
        found: dict[str, FunctionModel] = {}
        for function in self.functions:
            found.setdefault(function.name, function)
        return found

    @cached_property
    def inner(self) -> frozenset[str]:
        """The C functions the Pythonic layer calls with converted arguments (`_call_<name>`): those of its
        one-call functions that have a handle to find the platform by."""
        called = {python.c_function for python in self.pythonic if not python.two_calls}
        return frozenset(f.name for f in self.functions if f.anchor and f.name in called)


@dataclass(frozen=True)
class Facade:
    module: str
    variants: tuple[ExtensionModule, ...]  # in the order they are tried


@dataclass(frozen=True)
class ErrorClass:
    class_name: str
    c_name: str
    value: int
    extension: str | None  # None for core OpenCL's codes


@dataclass(frozen=True)
class CoreFunction:
    role: str
    name: str
    return_type: str
    params: tuple[tuple[str, str], ...]

    @property
    def declaration(self) -> str:
        return f"{self.return_type} {self.name}({', '.join(declaration(t, n) for n, t in self.params)})"


@dataclass(frozen=True)
class Mapping:
    """One extension's mapping table: key member -> members of the other columns."""

    extension: str
    module: str
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    source: str


@dataclass(frozen=True)
class MappingModule:
    """A module of lookups over mapping tables (all columns enumerations), e.g. the format tables."""

    module: str
    key: str  # key column, as the tables name it
    columns: tuple[str, ...]  # the other columns
    forward: str  # function name key -> row
    reverse: str  # function name row -> keys
    row_class: str
    key_enum: EnumModel
    column_enums: tuple[EnumModel, ...]
    tables: tuple[Mapping, ...]


@dataclass(frozen=True)
class Package:
    config: PackageConfig
    version: str
    extensions: tuple[ExtensionModule, ...]
    facades: tuple[Facade, ...]
    errors: tuple[ErrorClass, ...]
    core_types: tuple[TypeDecl, ...]
    core_functions: tuple[CoreFunction, ...]
    core_constants: dict[str, int]  # role -> value
    mappings: tuple[MappingModule, ...]
    calling_convention: str
    destructor_callback: str  # the C type of the callback OpenCL calls when it destroys a memory object


def declaration(c_type: str, name: str) -> str:
    """A C declarator: `cl_uint num`, `void ( * pfn)(int)`, `cl_uint sizes[4]`."""
    if "( * )" in c_type:
        return c_type.replace("( * )", f"( * {name})", 1)
    if " [" in c_type:
        element, _, sizes = c_type.partition(" [")
        return f"{declaration(element, name)}[{sizes.replace(' [', '[')}"
    return f"{c_type} {name}" if not c_type.endswith("*") else f"{c_type}{name}"


def model_package(irs: list[dict[str, Any]], knowledge: Knowledge, config: PackageConfig) -> Package:
    """The whole package: one module per extension, the facades, errors, the core declarations, mappings."""
    irs = sorted((_valued(ir) for ir in irs), key=lambda ir: ir["name"])
    errors = Gather()
    modelled = []
    for ir in irs:
        with errors.attempt():
            modelled.append(model_extension(ir, knowledge, config))
    errors.check()
    extensions = tuple(modelled)
    _check_unique_modules(extensions)
    facades = model_facades(extensions, config)
    mappings = model_mappings(irs, extensions, knowledge, config)
    _check_module_names(extensions, facades, mappings)
    return Package(
        config=config,
        version=__version__,
        extensions=extensions,
        facades=facades,
        errors=model_errors(irs, knowledge, config),
        core_types=model_core_types(knowledge),
        core_functions=model_core_functions(knowledge, config),
        core_constants={role: int(knowledge.core_constants[name]["value"])
                        for role, name in config.core_constants.items()},
        mappings=mappings,
        calling_convention=config.calling_convention,
        destructor_callback=_callback_type(knowledge, config.core_functions["mem_destructor"]),
    )


def _callback_type(knowledge: Knowledge, function: str) -> str:
    """The function-pointer parameter type of a core function (its callback's C type)."""
    return next(t for _, t in knowledge.core_functions[function].params if "( * )" in t)


def module_name(extension: str, config: PackageConfig) -> str:
    """The extension string less what `data/package.yaml` takes off (CONTRACTS.md); itself when that does not fit."""
    match = config.module.match(extension)
    return match["module"] if match else extension


def _valued(ir: dict[str, Any]) -> dict[str, Any]:
    """The IR without the tokens the text gives no value: no constant or enum member can be made of them (the
    IR's diagnostics say so, and the docs list them)."""
    return {**ir, "tokens": [t for t in ir["tokens"] if t["value"] is not None]}


def model_extension(ir: dict[str, Any], knowledge: Knowledge, config: PackageConfig) -> ExtensionModule:
    """One extension's module: its types for the cdef, enums, constants and functions."""
    name = ir["name"]
    module = naming.identifier(module_name(name, config), _first_source(ir), "module of extension")
    values = _token_values(ir, knowledge)
    types = _type_map(ir, knowledge)
    check_token_values(ir, types, knowledge)
    enums, constants = model_enums(ir, config)
    error_group = knowledge.error_group
    own = [f for f in ir["functions"] if not f.get("core") and not f.get("external")]
    functions = tuple(model_function(function, types, values, knowledge, config) for function in own)
    handles = {name for name in knowledge.core_types if knowledge.is_handle(name)}
    pythonic = [p for model, data in zip(functions, own, strict=True)
                if (p := model_pythonic(model, data, ir["vendor"], handles, config)) is not None]
    effects = {f["name"]: {e["kind"] for e in f.get("effects", ())} for f in own}
    declared = model_types(ir, knowledge)
    cdef_checks.check(ir, functions, declared, knowledge)
    context_manager = model_context_manager(pythonic, effects, config)
    _check_names(ir, functions, pythonic, context_manager, enums, config)
    ctype_names, int_ranges = model_fast_paths(functions, pythonic)
    return ExtensionModule(
        module=module,
        extension=name,
        vendor=ir["vendor"],
        revision=ir["revision"],
        sources=tuple(source["path"] for source in ir["sources"]),
        types=declared,
        enums=enums,
        constants=constants,
        functions=functions,
        error_names=tuple(t["name"] for t in ir["tokens"] if t["group"] == error_group),
        pythonic=tuple(pythonic),
        context_manager=context_manager,
        ctype_names=ctype_names,
        int_ranges=int_ranges,
    )


def model_fast_paths(
    functions: Iterable[FunctionModel], pythonic: Iterable[PythonicFunction],
) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """The C types the wrappers compare arguments with, resolved once per module: each spelling the templates
    use (a parameter's type, an array's `T *` and `T[]`, a Pythonic list's `T` and `T[]`, an out-parameter's
    `T *`) with the name of its constant; each integer parameter type with the names of its bounds."""
    spellings: list[str] = []
    integers: list[str] = []
    for function in functions:
        for param in function.params:
            if param.kind == "integer":
                integers.append(param.c_type)
            elif param.kind == "array":
                spellings += [f"{param.element} *", f"{param.element}[]"]
            elif param.kind in ("handle", "pointer", "error_out"):
                spellings.append(param.c_type)
    for python in pythonic:
        for argument in python.arguments:
            if argument.role in ("sequence", "wait_list"):
                spellings += [str(argument.element), f"{argument.element}[]"]
            elif argument.role in ("out_handle", "out_count"):
                spellings.append(f"{argument.element} *")
            elif argument.role == "out_list":
                spellings.append(f"{argument.element}[]")
    taken: set[str] = set()
    names = {spelling: _fast_name("_type_", spelling, taken) for spelling in dict.fromkeys(spellings)}
    ranges = {c_type: (_fast_name("_min_", c_type, taken), _fast_name("_max_", c_type, taken))
              for c_type in dict.fromkeys(integers)}
    return names, ranges


#: The words of a C type's spelling: names, `*` and `[]`.
_TYPE_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\*|\[\]")


def _fast_name(prefix: str, spelling: str, taken: set[str]) -> str:
    """`cl_mem *` -> `_type_cl_mem_ptr`, `cl_mem[]` -> `_type_cl_mem_array`; unique within the module."""
    words = [{"*": "ptr", "[]": "array"}.get(w, w) for w in _TYPE_WORDS.findall(spelling)]
    name = prefix + "_".join(words)
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name}_{n}", n + 1
    taken.add(unique)
    return naming.identifier(unique, None, "type constant")


def _check_names(ir: dict[str, Any], functions: tuple[FunctionModel, ...], pythonic: list[PythonicFunction],
                 context_manager: ContextManager | None, enums: tuple[EnumModel, ...], config: PackageConfig) -> None:
    """One extension module's names: each spec name once, none of the template's own; parameters hide nothing
    their wrapper uses."""
    space = naming.Namespace(naming.MODULE_NAMES, module_level=True)
    claims: list[tuple[str, str | None, str]] = [(f.name, f.source, "function") for f in functions]
    claims += [(p.name, p.source, "Python function") for p in pythonic]
    if context_manager is not None:
        claims.append((context_manager.name, _first_source(ir), "context manager"))
    claims += [(e.class_name, e.source, "token group class") for e in enums]
    claims += [(t["name"], t["source"], "token") for t in ir["tokens"]]
    errors = Gather()
    for name, source, what in claims:
        with errors.attempt():
            space.claim(name, source, what)
    used = frozenset({f.name for f in functions} | {p.name for p in pythonic}
                     | {config.pythonic.wait_list_keyword, naming.PYOPENCL_KEYWORD})
    with_platform = used | {naming.PLATFORM_KEYWORD}  # `platform` is added where no handle leads to one
    for function in functions:
        with errors.attempt():
            naming.check_parameters([p.name for p in function.params], function.source,
                                    with_platform if function.anchor is None else used)
    errors.check()


#: The IR's kinds of type C knows only by name (`typedef struct T T;`): COM interfaces, and the types a text
#: uses only behind a pointer without defining them.
_OPAQUE_KINDS = ("interface", "opaque")


def model_types(ir: dict[str, Any], knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """The extension's own types for its cdef: opaque interfaces first, then typedefs in dependency order."""
    declared: list[TypeDecl] = []
    for info in ir["types"]:
        if info["name"] in knowledge.core_types:
            continue
        naming.identifier(info["name"], info["source"], "type")
        if info["kind"] in _OPAQUE_KINDS:
            declared.append(TypeDecl(info["name"], None))
        elif info["c_type"]:
            members = tuple((m["name"], m["type"]) for m in info.get("members", ()))
            declared.append(TypeDecl(info["name"], info["c_type"], members))
    # structs last: their members may be any of the others
    return _dependency_order(sorted(declared, key=lambda t: (t.c_type is not None, bool(t.members), t.name)))


def _dependency_order(declared: list[TypeDecl]) -> tuple[TypeDecl, ...]:
    """`declared` in its order, except that each type comes after the one it is made of (a loop, which merge
    refuses, ends where it closes; a long chain costs no recursion)."""
    by_name = {t.name: t for t in declared}
    ordered: dict[str, TypeDecl] = {}
    for decl in declared:
        chain: dict[str, TypeDecl] = {}
        link: TypeDecl | None = decl
        while link is not None and link.name not in ordered and link.name not in chain:
            chain[link.name] = link
            link = by_name.get(base_type(link.c_type)) if link.c_type else None
        ordered.update(reversed(chain.items()))
    return tuple(ordered.values())


def model_enums(ir: dict[str, Any], config: PackageConfig) -> tuple[tuple[EnumModel, ...], tuple[Constant, ...]]:
    """One IntEnum per token group in the IR's order, and every token as a module constant under its C name."""
    suffix = f"_{ir['vendor']}"
    enums: list[EnumModel] = []
    placed: dict[str, tuple[str, str]] = {}
    taken_classes: set[str] = set()
    members_of: dict[str, list[dict[str, Any]]] = {}  # each group's tokens in order, sorted out once
    for token in ir["tokens"]:
        members_of.setdefault(token["group"], []).append(token)
    for group in ir["token_groups"]:
        tokens = members_of.get(group["name"], [])
        if not tokens:
            continue
        class_name = naming.identifier(
            naming.class_name(group["name"], config.acronyms), group["source"], "token group")
        if class_name in taken_classes:
            continue
        taken_classes.add(class_name)
        short = [naming.member_name(t["name"], config.constant_prefix, suffix) for t in tokens]
        if len(set(short)) != len(short):  # not unique without prefix and suffix: keep the C names
            short = [t["name"] for t in tokens]
        members = tuple(
            Member(naming.identifier(s, t["source"], "token"), t["name"], t["value"], t["source"])
            for s, t in zip(short, tokens, strict=True)
        )
        placed.update({m.c_name: (class_name, m.name) for m in members})
        enums.append(EnumModel(class_name, group["sentence"].rstrip(":"), group["source"], members))
    constants = tuple(
        Constant(naming.identifier(t["name"], t["source"], "token"), t["value"], *placed.get(t["name"], (None, None)))
        for t in ir["tokens"]
    )
    return tuple(enums), constants


def model_function(
    function: dict[str, Any], types: dict[str, str | None], values: dict[str, int], knowledge: Knowledge,
    config: PackageConfig,
) -> FunctionModel:
    """A function with each parameter classified by how Python values become C arguments.

    `types` maps each type name to what it is defined as (None: opaque or a handle).
    """
    name = naming.identifier(function["name"], function["source"], "function")
    returns = function["return_type"]
    error_type = knowledge.error_type
    params = []
    error_param = None
    for param in function["params"]:
        naming.identifier(param["name"], function["source"], "parameter")
        kind, element = _param_kind(param["type"], types, knowledge)
        if param["type"] == f"{error_type} *" and returns != error_type and error_param is None:
            kind, error_param = "error_out", param["name"]
        base = base_type(param["type"])
        exact = kind in ("handle", "pointer", "error_out") and (
            knowledge.is_handle(base) or _resolves_to_integer(base, types))
        params.append(ParamModel(param["name"], param["type"], kind, element, param.get("description"), exact,
                                 element is not None and knowledge.is_handle(element)))
    if config.count_before_array:
        params = _link_counts(params, config.core_types["count"])
    anchor = next((p for p in params if p.c_type in config.handles), None)
    counts = {p.name: p.count for p in params if p.count}
    checks = model_checks(function, Scope(values, counts, frozenset(p.name for p in params)))
    effects = tuple(model_effect(effect, counts) for effect in function.get("effects", ()))
    read = [c.keys for c in checks if c.keys] + [e.objects for e in effects if e.objects]
    return FunctionModel(
        name=name,
        pointer_type=naming.identifier(config.function_pointer_type.format(function=name), function["source"]),
        return_type=returns,
        result=_result_kind(returns, types, knowledge),
        params=tuple(params),
        anchor=anchor.name if anchor else None,
        anchor_kind=config.handles[anchor.c_type] if anchor else None,
        error_param=error_param,
        errors=model_error_cases(function, values),
        source=function["source"],
        checks=checks,
        effects=effects,
        keys=tuple((name, counts[name]) for name in dict.fromkeys(read)),
    )


def model_checks(function: dict[str, Any], scope: Scope) -> tuple[CheckModel, ...]:
    """Every host clause of the function's conditions compiled to a test, then every state clause."""
    checks: dict[tuple[str, str, str], CheckModel] = {}
    for error in function["errors"]:
        for clause in error.get("check", ()):
            if clause["class"] == "driver" or error["code"] not in scope.values:
                continue
            compile_ = compile_host if clause["class"] == "host" else compile_state
            try:
                test = compile_(clause["predicate"], scope)
            except PredicateError as failed:
                path, line = naming.split_source(error["source"])
                raise InputError(path, Pos(line, 1) if line else None,
                                 f"{function['name']}: cannot check {clause['clause']!r}: {failed}") from None
            key = (clause["class"], test, error["code"])
            condition = Condition(error["condition"], error["source"])
            same = checks.get(key)
            if same is None:
                state = clause["class"] == "state"
                checks[key] = CheckModel(clause["class"], test, error["code"], scope.values[error["code"]],
                                         (clause["clause"],), (condition,), _mentioned(clause["predicate"]),
                                         state_keys(clause["predicate"]) if state else None,
                                         next(iter(clause["predicate"])) if state else None)
            elif clause["clause"] not in same.clauses:
                checks[key] = replace(same, clauses=(*same.clauses, clause["clause"]),
                                      conditions=(*same.conditions, condition))
    return tuple(sorted(checks.values(), key=lambda c: c.kind != "host"))  # stable: spec order within each


def _mentioned(predicate: Any) -> tuple[str, ...]:
    """The parameter names a predicate reads, in order of mention."""
    names: list[str] = []

    def walk(node: Any, key: str | None = None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if key != "of" and not (key == "compare" and i > 0):
                    walk(item, key)
        elif isinstance(node, str) and key != "of" and node not in names:
            names.append(node)

    walk(predicate)
    return tuple(names)


def model_effect(effect: dict[str, Any], counts: dict[str, str]) -> EffectModel:
    """An IR effect with the length parameter of its objects."""
    objects = effect.get("objects")
    if objects and objects not in counts:
        path, line = naming.split_source(effect["source"])
        raise InputError(path, Pos(line, 1) if line else None,
                         f"<{objects}> is a list with no parameter that gives its length")
    return EffectModel(effect["kind"], objects, counts.get(objects) if objects else None,
                       effect.get("scope"), effect.get("resource"), effect.get("subresource"))


def _link_counts(params: list[ParamModel], count_type: str) -> list[ParamModel]:
    """Each pointer parameter right after a parameter of the count type is an array of that length."""
    linked = list(params)
    for i in range(1, len(params)):
        before, param = params[i - 1], params[i]
        if before.c_type == count_type and (param.kind == "array" or (param.kind == "pointer" and param.exact)):
            linked[i] = replace(param, count=before.name)
    return linked


def model_error_cases(function: dict[str, Any], values: dict[str, int]) -> tuple[ErrorCase, ...]:
    """The function's error codes in spec order, each with all its conditions; codes with no known value left out."""
    cases: dict[str, list[Condition]] = {}
    for error in function["errors"]:
        if error["code"] in values and naming.IDENTIFIER.match(error["code"]):
            classes = tuple(clause["class"] for clause in error.get("check", ()))
            cases.setdefault(error["code"], []).append(Condition(error["condition"], error["source"], classes))
    return tuple(ErrorCase(code, values[code], tuple(conditions)) for code, conditions in cases.items())


def model_facades(extensions: Iterable[ExtensionModule], config: PackageConfig) -> tuple[Facade, ...]:
    """Variants of one extension by different vendors, grouped under the module name without the vendor."""
    groups: dict[str, list[ExtensionModule]] = {}
    for extension in extensions:
        prefix = f"{extension.vendor.lower()}_"
        if extension.module.startswith(prefix):
            groups.setdefault(extension.module[len(prefix):], []).append(extension)
    taken = {e.module for e in extensions}
    preference = {vendor: i for i, vendor in enumerate(config.vendor_preference)}

    def order(e: ExtensionModule) -> tuple[int, str]:
        return preference.get(e.vendor, len(preference)), e.vendor

    return tuple(
        Facade(name, tuple(sorted(variants, key=order)))
        for name, variants in sorted(groups.items())
        if name not in taken and naming.IDENTIFIER.match(name) and not keyword.iskeyword(name)
    )


def model_errors(irs: list[dict[str, Any]], knowledge: Knowledge, config: PackageConfig) -> tuple[ErrorClass, ...]:
    """One exception class per error code: core OpenCL's (but success), then each extension's."""
    found: dict[str, ErrorClass] = {}
    acronyms = config.acronyms | {ir["vendor"] for ir in irs}
    space = naming.Namespace(naming.ERRORS_MODULE_NAMES, module_level=True)

    def add(c_name: str, value: int, extension: str | None, source: str | None) -> None:
        naming.identifier(c_name, source, "error code")
        short = naming.member_name(c_name, config.constant_prefix, "")
        class_name = naming.class_name(short, acronyms) + "Error"
        known = found.get(c_name)
        if known and known.value != value:
            path, line = naming.split_source(source)
            raise InputError(path, Pos(line, 1) if line else None,
                             f"{c_name} is {value} here but {known.value} in {known.extension}")
        if known is None:
            space.claim(class_name, source, f"exception class of {c_name}")
        found.setdefault(c_name, ErrorClass(class_name, c_name, value, extension))

    for c_name, entry in sorted(knowledge.core_constants.items(), key=lambda kv: (-int(kv[1]["value"]), kv[0])):
        if entry.get("group") == knowledge.error_group and int(entry["value"]) != 0:
            add(c_name, int(entry["value"]), None, None)
    for ir in irs:
        for token in ir["tokens"]:
            if token["group"] == knowledge.error_group:
                add(token["name"], token["value"], ir["name"], token["source"])
    return tuple(found.values())


def model_core_types(knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """Every core OpenCL type, each after the types it is made of."""
    return _dependency_order([TypeDecl(name, str(knowledge.core_types[name]["c_type"]))
                              for name in sorted(knowledge.core_types)])


def model_core_functions(knowledge: Knowledge, config: PackageConfig) -> tuple[CoreFunction, ...]:
    """The core entry points of `data/package.yaml`, with their prototypes from `data/opencl_core.json`."""
    functions = []
    for role, name in config.core_functions.items():
        core = knowledge.core_functions[name]
        functions.append(CoreFunction(role, name, core.return_type, core.params))
    return tuple(functions)


def model_mappings(
    irs: list[dict[str, Any]], extensions: tuple[ExtensionModule, ...], knowledge: Knowledge, config: PackageConfig
) -> tuple[MappingModule, ...]:
    """Tables whose every column is an enumeration of another API or of core OpenCL, gathered by key column.

    The module is named after the key column's last word (`formats` for a key column `..._format`), its
    functions after the prefixes of the enumerations (`<key prefix>_to_<column prefix>` and back).
    """
    modules: dict[tuple[str, tuple[str, ...]], list[tuple[dict[str, Any], ExtensionModule]]] = {}
    for ir, extension in zip(irs, extensions, strict=True):
        for table in ir["tables"]:
            enums = [_column_enum(column, knowledge) for column in table["columns"]]
            if len(enums) < 2 or any(e is None for e in enums) or enums[0] not in knowledge.external_enums:
                continue
            modules.setdefault((table["columns"][0], tuple(table["columns"][1:])), []).append((table, extension))
    result = []
    for (key, columns), tables in sorted(modules.items()):
        key_enum_name = _column_enum(key, knowledge)
        column_enum_names = [_column_enum(c, knowledge) for c in columns]
        assert key_enum_name is not None and None not in column_enum_names
        key_enum = _known_enum(key_enum_name, knowledge, config)
        column_enums = tuple(_known_enum(str(e), knowledge, config) for e in column_enum_names)
        key_prefix = _prefix(key_enum)
        column_prefix = _prefix(column_enums[0])
        last = key.rsplit("_", 1)[-1]
        result.append(MappingModule(
            module=naming.identifier(f"{last}s", tables[0][0]["source"], "mapping module"),
            key=key,
            columns=columns,
            forward=f"{key_prefix}_to_{column_prefix}",
            reverse=f"{column_prefix}_to_{key_prefix}",
            row_class=naming.class_name(f"{column_prefix}_{last}", config.acronyms),
            key_enum=key_enum,
            column_enums=column_enums,
            tables=tuple(
                Mapping(extension.extension, extension.module,
                        tuple((_member(row[0], key_enum, where), tuple(_member(cell, e, where) for cell, e in
                                                                       zip(row[1:], column_enums, strict=True)))
                              for row, where in zip(table["rows"], table["row_sources"], strict=True)),
                        table["source"])
                for table, extension in tables
            ),
        ))
    return tuple(result)


def _column_enum(column: str, knowledge: Knowledge) -> str | None:
    """The enumeration a table column names: an external enum (`other_format`) or a core group (`channel_order`)."""
    candidates = [*knowledge.external_enums, *knowledge.core_groups]
    return next((g for g in candidates if knowledge.group_key(g) == column), None)


def _known_enum(enum: str, knowledge: Knowledge, config: PackageConfig) -> EnumModel:
    if enum in knowledge.external_enums:
        members = knowledge.external_enums[enum]
        prefix = f"{enum}_"
        return EnumModel(naming.class_name(enum.lower(), config.acronyms), enum, None, tuple(
            Member(naming.member_name(c_name, prefix, ""), c_name, value) for c_name, value in members.items()), prefix)
    constants = sorted(((c, int(e["value"])) for c, e in knowledge.core_constants.items() if e.get("group") == enum),
                       key=lambda cv: (cv[1], cv[0]))
    return EnumModel(naming.class_name(knowledge.without_api_prefix(enum), config.acronyms), enum, None, tuple(
        Member(naming.member_name(c, config.constant_prefix, ""), c, v) for c, v in constants), config.constant_prefix)


def _prefix(enum: EnumModel) -> str:
    """The first word its C names share, lower-cased (`CL_RGBA` -> `cl`)."""
    return enum.members[0].c_name.split("_", 1)[0].lower()


def _member(c_name: str, enum: EnumModel, source: str) -> str:
    found = next((m.name for m in enum.members if m.c_name == c_name), None)
    if found is None:
        path, line = naming.split_source(source)
        raise InputError(path, Pos(line, 1) if line else None, f"{c_name!r} is not a value of {enum.doc}")
    return found


#: The widest C integer constant: any token outside it cannot be written in C at all.
_ANY_TOKEN = (-(1 << 63), (1 << 64) - 1)


def integer_range(c_type: str, types: dict[str, str | None]) -> tuple[int, int] | None:
    """The values a C integer type holds (through its typedefs), or None when it is no integer type."""
    c_type = _underlying(c_type, types)
    if c_type not in _INTEGER_TYPES:
        return None
    bits = 8 * _C.sizeof(c_type)
    if int(_C.cast(c_type, -1)) < 0:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def check_token_values(ir: dict[str, Any], types: dict[str, str | None], knowledge: Knowledge) -> None:
    """Every token fits the C type of its group (error codes: the error type); any other, 64 bits.

    A value the generated constants and checks could not hold is an input error at the token.
    """
    group_types = {g["name"]: knowledge.error_type if g["kind"] == "error" else g["c_type"] for g in ir["token_groups"]}
    for token in ir["tokens"]:
        c_type = group_types.get(token["group"])
        low, high = (c_type and integer_range(c_type, types)) or _ANY_TOKEN
        if not low <= token["value"] <= high:
            path, line = naming.split_source(token["source"])
            raise InputError(path, Pos(line or 1, 1), f"{token['name']} = {token['value']} does not fit "
                             f"{c_type or 'a 64-bit C integer'} ({low}..{high})")


def _token_values(ir: dict[str, Any], knowledge: Knowledge) -> dict[str, int]:
    values = {name: int(entry["value"]) for name, entry in knowledge.core_constants.items()}
    values.update({t["name"]: t["value"] for t in ir["tokens"]})
    return values


def _type_map(ir: dict[str, Any], knowledge: Knowledge) -> dict[str, str | None]:
    """Type name -> what it is defined as (None: opaque or a handle)."""
    types: dict[str, str | None] = {}
    for name, entry in knowledge.core_types.items():
        types[name] = None if entry["kind"] == "handle" else str(entry["c_type"])
    for info in ir["types"]:
        types.setdefault(info["name"], None if info["kind"] in _OPAQUE_KINDS else info["c_type"])
    return types


def _underlying(c_type: str, types: dict[str, str | None]) -> str:
    """The type at the end of `c_type`'s typedef chain, however long (a loop, which merge refuses, ends too)."""
    seen = {c_type}
    while c_type in types and types[c_type] is not None and str(types[c_type]) not in seen:
        c_type = str(types[c_type])
        seen.add(c_type)
    return c_type


def _resolves_to_integer(c_type: str, types: dict[str, str | None]) -> bool:
    return _underlying(c_type, types) in _INTEGER_TYPES


def _param_kind(c_type: str, types: dict[str, str | None], knowledge: Knowledge) -> tuple[ParamKind, str | None]:
    base = base_type(c_type)
    pointers = c_type.count("*")
    if pointers == 0:
        if knowledge.is_handle(base):
            return "handle", None
        return ("integer", None) if _resolves_to_integer(base, types) else ("value", None)
    typed = knowledge.is_handle(base) or _resolves_to_integer(base, types)
    if pointers == 1 and c_type.startswith("const ") and base not in ("void", "char") and typed:
        return "array", base
    return "pointer", None


def _result_kind(c_type: str, types: dict[str, str | None], knowledge: Knowledge) -> ResultKind:
    if c_type == knowledge.error_type:
        return "status"
    if c_type == "void":
        return "none"
    return "handle" if knowledge.is_handle(c_type) else "value"


def _first_source(ir: dict[str, Any]) -> str | None:
    return ir["functions"][0]["source"] if ir["functions"] else None


def _check_module_names(extensions: tuple[ExtensionModule, ...], facades: tuple[Facade, ...],
                        mappings: tuple[MappingModule, ...]) -> None:
    """No module named from a spec may take the file of another, or of the package's own modules."""
    space = naming.Namespace(naming.PACKAGE_MODULES)
    for extension in extensions:
        source = f"{extension.sources[0]}:1" if extension.sources else None
        space.claim(extension.module, source, f"module of {extension.extension}")
        space.claim(f"_{extension.module}_ffi", source, f"cffi module of {extension.extension}")
    for facade in facades:
        space.claim(facade.module, f"{facade.variants[0].sources[0]}:1", "facade module")
    for mapping in mappings:
        space.claim(mapping.module, None, "table module")


def _check_unique_modules(extensions: tuple[ExtensionModule, ...]) -> None:
    seen: dict[str, str] = {}
    for extension in extensions:
        if extension.module in seen:
            raise InputError("<specs>", None, f"{extension.extension} and {seen[extension.module]} "
                             f"would both be module {extension.module}")
        seen[extension.module] = extension.extension
