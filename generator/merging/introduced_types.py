"""The types of one extension: those its texts declare, and those its prototypes, typedefs and tables use beyond
core OpenCL, each said where from (`merge` asks for them once the extension's functions and tables are merged).
"""

from __future__ import annotations

from generator.base.diagnostics import Location, Sink
from generator.base.errors import Gather, InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type, parts
from generator.extraction.facts import DeclaredType, SourceFacts
from generator.frontends.registry_xml import Registry
from generator.ir.model import Extension, TypeInfo
from generator.merging import from_registry, typedef_chains, undefined_types


def introduced_types(
    extension: Extension, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink,
    registry: Registry | None = None,
) -> tuple[TypeInfo, ...]:
    """Every type the extension's texts declare, and those its prototypes, typedefs and tables use beyond core
    OpenCL: COM and platform types, the registry's definitions of the others, and what stays undefined."""
    typedefs = _typedefs(extension, sources, sink)
    uses: dict[str, Location] = {}
    by_value: set[str] = set()  # the types a value of which is passed or returned, not only a pointer to it
    for name, declared in typedefs.items():
        uses.setdefault(name, declared.where)
        for c_type in [part for t in [declared.typedef.c_type, *(m.type for m in declared.typedef.members)]
                       for part in parts(t.partition(" [")[0])]:
            if not knowledge.c_language.is_builtin(base_type(c_type)):
                uses.setdefault(base_type(c_type), declared.where)
                if "*" not in c_type:
                    by_value.add(base_type(c_type))
    for function in extension.functions:
        if function.foreign or function.return_type is None:
            continue
        for c_type in [function.return_type, *(p.type for p in function.params)]:
            for part in parts(c_type):
                uses.setdefault(base_type(part), function.source)
                if "*" not in part:
                    by_value.add(base_type(part))
    for table in extension.tables:
        if "type" in table.columns:
            column = table.columns.index("type")
            for row, where in zip(table.rows, table.row_sources, strict=True):
                if row[column]:
                    uses.setdefault(base_type(row[column]), where)
    used = typedef_chains.with_parts(uses, typedefs, knowledge.c_language)
    asked: set[str] = set()
    while registry is not None:  # a registry typedef may use another type only the registry defines
        wanted = {name: where for name, where in used.items()
                  if name not in typedefs and name not in asked and not _known(name, knowledge)}
        asked.update(wanted)
        taken = {name: found for name, where in wanted.items()
                 if (found := from_registry.typedef(name, registry, where, extension, sink)) is not None}
        if not taken:
            break
        typedefs.update(taken)
        for found in taken.values():
            for member in found.typedef.members:
                if not knowledge.c_language.is_builtin(base_type(member.type)):
                    uses.setdefault(base_type(member.type), found.where)
        used = typedef_chains.with_parts(uses, typedefs, knowledge.c_language)
    result: list[TypeInfo] = []
    for name, where in used.items():
        if name in typedefs:
            result.append(_declared_type(typedefs[name]))
        elif name in knowledge.platform_types:
            result.append(TypeInfo(name, "platform", knowledge.platform_types[name], where))
        elif knowledge.is_interface(name):
            result.append(TypeInfo(name, "interface", None, where))
        elif not knowledge.is_known_type(name):
            result.extend(undefined_types.undefined(extension, name, where, knowledge, sink, name in by_value))
    unique = {t.name: t for t in reversed(result)}  # a platform type named by two casts is declared once
    return tuple(sorted(unique.values(), key=lambda t: t.name))


def _typedefs(extension: Extension, sources: list[SourceFacts], sink: Sink) -> dict[str, DeclaredType]:
    """Each type the texts declare, as first declared (`typedef struct _x x;` completed by a later `typedef struct
    _x {...} x;` takes its members). Another declaration that differs is an input error in the same text (C
    refuses it too) and a warning in another text, whose declaration is not used."""
    found: dict[str, DeclaredType] = {}
    errors = Gather()
    for source in sources:
        for declared in source.types:
            first = found.setdefault(declared.typedef.name, declared)
            if first is declared or _typedef_said(first) == _typedef_said(declared):
                continue
            if first.typedef.c_type == declared.typedef.c_type and None in (first.typedef.record,
                                                                           declared.typedef.record):
                if first.typedef.record is None:  # the first only named the tagged type: this one completes it
                    found[declared.typedef.name] = declared
                continue
            said = (f"type {declared.typedef.name} is declared here as `{_typedef_said(declared)}` but at "
                    f"{first.where.precise()} as `{_typedef_said(first)}`")
            if first.where.path == declared.where.path:
                errors.add(InputError(declared.where.path, declared.where.pos, f"{said}: which one the text means, "
                                      "it does not tell"))
            else:
                sink.warning(declared.where, Kind.TYPE_CONFLICT, f"{said}, which is used", extension=extension.name,
                             related=(first.where,))
    errors.check()
    return found


def _typedef_said(declared: DeclaredType) -> str:
    typedef = declared.typedef
    inside = "; ".join(f"{m.type} {m.name}" for m in typedef.members) or ", ".join(
        f"{e.name}{f' = {e.literal}' if e.literal else ''}" for e in typedef.enumerators)
    return f"{typedef.c_type} {{ {inside} }}" if typedef.record else typedef.c_type


def _known(name: str, knowledge: Knowledge) -> bool:
    return name in knowledge.platform_types or knowledge.is_interface(name) or knowledge.is_known_type(name)


def _declared_type(declared: DeclaredType) -> TypeInfo:
    """A typedef of the text; a struct or union with its members; an enum as `int`, the type C gives an enum
    whose values an int holds (C17 6.7.2.2; its enumerators are the text's tokens)."""
    typedef = declared.typedef
    if typedef.record == "enum":
        return TypeInfo(typedef.name, "enum", "int", declared.where)
    members = tuple((str(m.name), m.type) for m in typedef.members)
    return TypeInfo(typedef.name, "typedef", typedef.c_type, declared.where, members=members)
