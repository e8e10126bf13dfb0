"""The package's lookup modules: tables whose every column is an enumeration (another API's, known from
data/, or a core OpenCL group), gathered by key column, such as the format tables."""

from __future__ import annotations

from generator.base import naming
from generator.base.diagnostics import Location
from generator.base.knowledge import Knowledge, PackageConfig
from generator.emission.package_model import EnumModel, ExtensionModule, Mapping, MappingModule, Member
from generator.ir.model import Extension, Table


def model_mappings(
    irs: list[Extension], extensions: tuple[ExtensionModule, ...], knowledge: Knowledge, config: PackageConfig
) -> tuple[MappingModule, ...]:
    """Tables whose every column is an enumeration of another API or of core OpenCL, gathered by key column.

    The module is named after the key column's last word (`formats` for a key column `..._format`), its
    functions after the prefixes of the enumerations (`<key prefix>_to_<column prefix>` and back).
    """
    modules: dict[tuple[str, tuple[str, ...]], list[tuple[Table, ExtensionModule]]] = {}
    for ir, extension in zip(irs, extensions, strict=True):
        for table in ir.tables:
            enums = [_column_enum(column, knowledge) for column in table.columns]
            if len(enums) < 2 or any(e is None for e in enums) or enums[0] not in knowledge.external_enums:
                continue
            modules.setdefault((table.columns[0], tuple(table.columns[1:])), []).append((table, extension))
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
            module=naming.identifier(f"{last}s", tables[0][0].source, "mapping module"),
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
                              for row, where in zip(table.rows, table.row_sources, strict=True)),
                        table.source.cited())
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


def _member(c_name: str, enum: EnumModel, source: Location) -> str:
    found = next((m.name for m in enum.members if m.c_name == c_name), None)
    if found is None:
        raise naming.error_at(source, f"{c_name!r} is not a value of {enum.doc}")
    return found
