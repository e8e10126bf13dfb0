"""The generated package as the templates see it (`package_model`), made from the IR.

Reads only the typed IR (`ir.model`) and the declared knowledge of `data/`; every name it hands to a template
has passed `naming.identifier`. This module makes the package and each extension's module; `functions`,
`c_types`, `pythonic` and `mappings` make their parts.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Mapping
from dataclasses import replace

from generator import __version__
from generator.base import naming, shipped_registry
from generator.base.diagnostics import Location
from generator.base.errors import Gather, InputError
from generator.base.knowledge import Knowledge, PackageConfig
from generator.base.source import Pos
from generator.emission import cdef_checks
from generator.emission.c_types import model_core_types, model_types, token_values
from generator.emission.facades import Facade, enums_module, model_facades
from generator.emission.functions import model_fast_paths, model_function
from generator.emission.interop import model_context_constructor, model_core_properties, model_info_queries
from generator.emission.mappings import model_mappings
from generator.emission.package_model import (
    Constant,
    CoreFunction,
    EnumModel,
    ErrorClass,
    ExtensionModule,
    FunctionModel,
    MappingModule,
    Member,
    Package,
    SpecText,
)
from generator.emission.pythonic import model_context_manager, model_pythonic, pyopencl_class
from generator.emission.pythonic_model import ContextManager, EnumHint, PythonicFunction
from generator.ir.model import Extension, Token, TokenGroup
from generator.ir.values import type_map


def model_package(irs: list[Extension], knowledge: Knowledge, config: PackageConfig,
                  texts: Mapping[str, str], api: str = "") -> Package:
    """The whole package: one module per extension, the facades, errors, the core declarations, mappings, and
    the texts (`texts`: each text read, by the path the IR cites it by) they were made from. `api`: a digest
    of the IR, the local part of the package's version (`0.1.0+1a2b3c4d5e6f`), so that packages made from
    other texts or by another generator never share a version, and the same inputs always give the same."""
    irs = sorted((_valued(ir) for ir in irs), key=lambda ir: ir.name)
    errors = Gather()
    modelled = []
    for ir in irs:
        with errors.attempt():
            modelled.append(model_extension(ir, knowledge, config))
    errors.check()
    extensions = tuple(modelled)
    _check_unique_modules(extensions)
    extensions, facades = model_facades(extensions, config)
    mappings = model_mappings(irs, extensions, knowledge, config)
    _check_module_names(extensions, facades, mappings)
    return Package(
        config=config,
        version=f"{__version__}+{api}" if api else __version__,
        generator_version=__version__,
        platform_class=pyopencl_class(config.core_types["platform"], config),
        context_properties=model_core_properties(knowledge, config),
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
        texts=model_texts(irs, texts),
    )


def model_texts(irs: list[Extension], texts: Mapping[str, str]) -> tuple[SpecText, ...]:
    """Every text the IR cites, placed under `specs/` as it lay under the folder they were read from; the
    project's copy of the registry XML (`data/...`) as it lies under data/."""
    cited = sorted({s.path for ir in irs for s in ir.sources} | {ir.registry for ir in irs if ir.registry})
    for path in cited:
        if path not in texts:
            raise InputError(path, None, "the IR cites this text but the run did not read it; the package "
                             "carries every text it cites")
    shipped = {ir.registry for ir in irs if ir.registry and shipped_registry.named(ir.registry)}
    read = [path for path in cited if path not in shipped]
    folder = posixpath.commonpath([posixpath.dirname(path) for path in read]) if read else ""
    placed = {path: posixpath.relpath(path, folder or ".") for path in read}
    for path in sorted(shipped):
        placed[path] = path.removeprefix(shipped_registry.FOLDER)
        for other in read:  # one path, or a file where the other needs a folder
            if placed[other] == placed[path] or f"{placed[path]}/".startswith(f"{placed[other]}/") \
                    or placed[other].startswith(f"{placed[path]}/"):
                raise InputError(other, Pos(1, 1), f"the package carries this text at specs/{placed[other]}, "
                                 f"where it would carry the project's registry XML ({path}) at "
                                 f"specs/{placed[path]}; rename the text, or give a registry XML among the texts")
    return tuple(SpecText(path, placed[path], texts[path],
                          hashlib.sha256(texts[path].encode("utf-8", "surrogateescape")).hexdigest())
                 for path in cited)


def _callback_type(knowledge: Knowledge, function: str) -> str:
    """The function-pointer parameter type of a core function (its callback's C type)."""
    return next(t for _, t in knowledge.core_functions[function].params if "( * )" in t)


def module_name(extension: str, config: PackageConfig) -> str:
    """The extension string less what `data/package.yaml` takes off (CONTRACTS.md); itself when that does not fit."""
    match = config.module.match(extension)
    return match["module"] if match else extension


def _valued(ir: Extension) -> Extension:
    """The IR without the tokens the text gives no value: no constant or enum member can be made of them (the
    IR's diagnostics say so, and the docs list them)."""
    return replace(ir, tokens=tuple(t for t in ir.tokens if t.value is not None))


def model_extension(ir: Extension, knowledge: Knowledge, config: PackageConfig) -> ExtensionModule:
    """One extension's module: its types for the cdef, enums, constants and functions."""
    name = ir.name
    module = naming.identifier(module_name(name, config), _first_source(ir), "module of extension")
    values = token_values(ir, knowledge)
    types = type_map(ir, knowledge)
    enums, constants = model_enums(ir, config)
    error_group = knowledge.error_group
    own = ir.own_functions
    functions = tuple(model_function(function, types, values, knowledge, config) for function in own)
    handles = {name for name in knowledge.core_types if knowledge.is_handle(name)}
    pythonic = [_enum_hints(p, ir, enums) for model, data in zip(functions, own, strict=True)
                if (p := model_pythonic(model, data, ir.vendor, handles, config)) is not None]
    effects = {f.name: {e.kind for e in f.effects} for f in own}
    declared = model_types(ir.types, knowledge)
    cdef_checks.check(ir, functions, declared, knowledge)
    context_manager = model_context_manager(pythonic, effects, config)
    context = model_context_constructor(ir, values, config, model_core_properties(knowledge, config))
    queries = model_info_queries(ir, values, config, knowledge)
    added: list[tuple[str, Location | None, str]] = [(q.name, q.source, "info query") for q in queries]
    if context is not None:
        added.append((context.name, context.source, "context constructor"))
    _check_names(ir, functions, pythonic, context_manager, enums, config, added)
    ctype_names, int_ranges = model_fast_paths(functions, pythonic)
    return ExtensionModule(
        module=module,
        extension=name,
        vendor=ir.vendor,
        revision=ir.revision,
        sources=tuple(source.path for source in ir.sources),
        types=declared,
        enums=enums,
        constants=constants,
        functions=functions,
        error_names=tuple(t.name for t in ir.tokens if t.group == error_group),
        pythonic=tuple(pythonic),
        context_manager=context_manager,
        ctype_names=ctype_names,
        int_ranges=int_ranges,
        context=context,
        queries=queries,
    )


def _enum_hints(function: PythonicFunction, ir: Extension, enums: tuple[EnumModel, ...]) -> PythonicFunction:
    """`function` with its inputs that take a token group's values annotated `Enum | Literal[values]`: the group
    the text says the function accepts in that parameter, of that parameter's C type."""
    by_group = {e.source: e for e in enums}
    hints = []
    for argument in function.arguments:
        if argument.role != "pass":
            continue
        group = next((g for g in ir.token_groups if g.kind == "accepted" and function.c_function in g.functions
                      and g.parameter == argument.c_name and g.c_type == argument.param.c_type), None)
        enum = by_group.get(group.source) if group is not None else None
        if enum is not None and enum.members:
            hints.append(EnumHint(argument.python_name, enum.class_name, tuple(m.value for m in enum.members)))
    return replace(function, hints=tuple(hints)) if hints else function


def _check_names(ir: Extension, functions: tuple[FunctionModel, ...], pythonic: list[PythonicFunction],
                 context_manager: ContextManager | None, enums: tuple[EnumModel, ...], config: PackageConfig,
                 added: list[tuple[str, Location | None, str]]) -> None:
    """One extension module's names: each spec name once, none of the template's own; parameters hide nothing
    their wrapper uses."""
    space = naming.Namespace(naming.MODULE_NAMES, module_level=True)
    claims: list[tuple[str, Location | None, str]] = [(f.name, f.source, "function") for f in functions]
    claims += [(p.name, p.source, "Python function") for p in pythonic]
    if context_manager is not None:
        claims.append((context_manager.name, _first_source(ir), "context manager"))
    claims += [(e.class_name, e.source, "token group class") for e in enums] + added
    claims += [(t.name, t.source, "token") for t in ir.tokens]
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


def model_enums(ir: Extension, config: PackageConfig) -> tuple[tuple[EnumModel, ...], tuple[Constant, ...]]:
    """One IntEnum per token group in the IR's order, and every token as a module constant under its C name.

    Two groups whose names make one class name are one class, with the members of both (never a group left out)."""
    suffix = f"_{ir.vendor}"
    valued = [(t, t.value) for t in ir.tokens if t.value is not None]
    members_of: dict[str | None, list[tuple[Token, int]]] = {}  # each group's tokens in order, sorted out once
    for token, value in valued:
        members_of.setdefault(token.group, []).append((token, value))
    classes: dict[str, tuple[TokenGroup, list[tuple[Token, int]]]] = {}
    for group in ir.token_groups:
        tokens = members_of.get(group.name, [])
        if tokens:
            class_name = naming.identifier(
                naming.class_name(group.name, config.acronyms), group.source, "token group")
            classes.setdefault(class_name, (group, []))[1].extend(tokens)
    enums: list[EnumModel] = []
    placed: dict[str, tuple[str, str]] = {}
    for class_name, (group, tokens) in classes.items():
        short = [naming.member_name(t.name, config.constant_prefix, suffix) for t, _ in tokens]
        if len(set(short)) != len(short):  # not unique without prefix and suffix: keep the C names
            short = [t.name for t, _ in tokens]
        members = tuple(
            Member(naming.identifier(s, t.source, "token"), t.name, value, t.source)
            for s, (t, value) in zip(short, tokens, strict=True)
        )
        placed.update({m.c_name: (class_name, m.name) for m in members})
        enums.append(EnumModel(class_name, group.sentence.rstrip(":"), group.source, members))
    constants = tuple(
        Constant(naming.identifier(t.name, t.source, "token"), value, *placed.get(t.name, (None, None)))
        for t, value in valued
    )
    return tuple(enums), constants


def model_errors(irs: list[Extension], knowledge: Knowledge, config: PackageConfig) -> tuple[ErrorClass, ...]:
    """One exception class per error code: core OpenCL's (but success), then each extension's."""
    found: dict[str, ErrorClass] = {}
    acronyms = config.acronyms | {ir.vendor for ir in irs}
    space = naming.Namespace(naming.ERRORS_MODULE_NAMES, module_level=True)
    kinds = config.pythonic.pyopencl_errors
    memory = {int(knowledge.core_constants[name]["value"]) for name in kinds.memory_codes}
    logic_at_most = int(knowledge.core_constants[kinds.logic_at_most]["value"])

    def add(c_name: str, value: int, extension: str | None, source: Location | None) -> None:
        naming.identifier(c_name, source, "error code")
        short = naming.member_name(c_name, config.constant_prefix, "")
        class_name = naming.class_name(short, acronyms) + "Error"
        known = found.get(c_name)
        if known and known.value != value:
            raise naming.error_at(source, f"{c_name} is {value} here but {known.value} in {known.extension}")
        if known is None:
            space.claim(class_name, source, f"exception class of {c_name}")
        pyopencl = kinds.memory if value in memory else kinds.logic if value <= logic_at_most else kinds.runtime
        found.setdefault(c_name, ErrorClass(class_name, c_name, value, extension, pyopencl))

    for c_name, entry in sorted(knowledge.core_constants.items(), key=lambda kv: (-int(kv[1]["value"]), kv[0])):
        if entry.get("group") == knowledge.error_group and int(entry["value"]) != 0:
            add(c_name, int(entry["value"]), None, None)
    for ir in irs:
        for token in ir.tokens:
            if token.group == knowledge.error_group and token.value is not None:
                add(token.name, token.value, ir.name, token.source)
    return tuple(found.values())


def model_core_functions(knowledge: Knowledge, config: PackageConfig) -> tuple[CoreFunction, ...]:
    """The core entry points of `data/package.yaml`, with their prototypes from `data/opencl_core.json`."""
    functions = []
    for role, name in config.core_functions.items():
        core = knowledge.core_functions[name]
        functions.append(CoreFunction(role, name, core.return_type, core.params))
    return tuple(functions)


def _first_source(ir: Extension) -> Location | None:
    return ir.functions[0].source if ir.functions else None


def _check_module_names(extensions: tuple[ExtensionModule, ...], facades: tuple[Facade, ...],
                        mappings: tuple[MappingModule, ...]) -> None:
    """No module named from a spec may take the file of another, or of the package's own modules."""
    space = naming.Namespace(naming.PACKAGE_MODULES)
    for extension in extensions:
        source = Location(extension.sources[0], Pos(1, 1)) if extension.sources else None
        space.claim(extension.module, source, f"module of {extension.extension}")
        space.claim(f"_{extension.module}_ffi", source, f"cffi module of {extension.extension}")
    for facade in facades:
        space.claim(facade.module, Location(facade.variants[0].sources[0], Pos(1, 1)), "facade module")
        space.claim(enums_module(facade.module), None, f"enums shared by the variants of {facade.module}")
    for mapping in mappings:
        space.claim(mapping.module, None, "table module")


def _check_unique_modules(extensions: tuple[ExtensionModule, ...]) -> None:
    seen: dict[str, str] = {}
    for extension in extensions:
        if extension.module in seen:
            raise InputError("<specs>", None, f"{extension.extension} and {seen[extension.module]} "
                             f"would both be module {extension.module}")
        seen[extension.module] = extension.extension
