"""A table module's code as lines (`MappingCode`), made from its model for `mapping.py.j2`: its `__all__`, its
tables and the row its reverse lookup compares with, each laid out within the line length (`emission.layout`).
"""

from __future__ import annotations

from generator.base.records import frozen
from generator.emission.layout import STEP, Bracket, Prefixed, Text, call, statement
from generator.emission.module_code import assigned
from generator.emission.package_model import MappingModule
from generator.emission.render import py
from generator.emission.signatures import Lines
from generator.emission.sorting import dunder_all


@frozen
class MappingCode:
    public: Lines  # `__all__`
    tables: Lines  # TABLES: extension -> key -> row
    sources: Lines  # SOURCES: extension -> where its table is
    modules: Lines  # _MODULES: module name -> extension
    wanted: Lines  # the reverse lookup's row of the values asked for


def mapping_code(mapping: MappingModule) -> MappingCode:
    """The code of one table module."""
    key, row, enums = mapping.key_enum.class_name, mapping.row_class, mapping.column_enums
    names = [key, *(enum.class_name for enum in enums), row, "TABLES", "SOURCES", "table", mapping.forward,
             mapping.reverse]
    tables = Bracket("{", tuple(
        Prefixed(f"{py(table.extension)}: ", Bracket("{", tuple(
            Prefixed(f"{key}.{member}: ", call(row, *(f"{enum.class_name}.{cell}" for cell, enum in
                                                     zip(cells, enums, strict=True))))
            for member, cells in table.rows), "}", broken=True))
        for table in mapping.tables), "}", broken=True)
    wanted = call(row, *(call("_member", enum.class_name, column, py(column))
                         for column, enum in zip(mapping.columns, enums, strict=True)))
    return MappingCode(
        public=assigned("__all__", Bracket("[", tuple(Text(name) for name in dunder_all(names)), "]", broken=True)),
        tables=assigned(f"TABLES: Final[dict[str, dict[{key}, {row}]]]", tables),
        sources=assigned("SOURCES: Final", Bracket("{", tuple(Prefixed(f"{py(t.extension)}: ", Text(t.source))
                                                               for t in mapping.tables), "}", broken=True)),
        modules=assigned("_MODULES: Final", Bracket("{", tuple(Prefixed(f"{py(t.module)}: ", Text(t.extension))
                                                                for t in mapping.tables), "}", broken=True)),
        wanted=tuple(statement(Prefixed("wanted = ", wanted), STEP)),
    )
