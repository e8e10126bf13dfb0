"""Tables in one canonical shape, whatever their layout in the text.

The same table is drawn differently by each format (four columns with a
default column here, three with the default inside the description there; a
channel order and type in two columns, or as a pair in one). Columns are
therefore named by what their cells are: a group of tokens (`channel_order`),
C types (`type`), literal values (`default`) or prose (`description`). A table
is named after the group its first column holds (`mem_info`); one whose every
column holds tokens is a mapping (`<format>_mapping`).

A table keyed by tokens holds one row per key. Two unlike rows for one key in one table are an input error
(the text contradicts itself, as one text giving a token two values does); in two tables of one name (from two
texts, or twice in one) a warning, the first row used and the other left out; a row given twice alike, a note.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from generator.base import phrases
from generator.base.diagnostics import Sink
from generator.base.errors import Gather, InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type, canonical_type_text
from generator.extraction.facts import SourceFacts, TableFact
from generator.ir.model import Extension, Table

_VALUE = re.compile(r"^(NULL|-?\d+|0[xX][0-9A-Fa-f]+|true|false)$", re.I)
_TYPE_WORDS = re.compile(r"^(const\s+)?[A-Za-z_]\w*(\s*\*)*$")
#: The kinds of column that hold no tokens: a key column is none of them, nor may its header pass for one.
_KINDS = frozenset({"type", "default", "description"})


def merge(extension: Extension, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink) -> tuple[Table, ...]:
    """Canonical tables of all sources; a table several sources give is merged row by row."""
    result: dict[str, Table] = {}
    numbered: dict[str, int] = {}
    used = parameter_types(extension)
    errors = Gather()
    for source in sources:
        for fact in source.tables:
            table = canonical(fact, extension, knowledge, used)
            if table is None:
                sink.note(fact.where, Kind.EMPTY_TABLE, "this table has no rows", extension=extension.name)
                continue
            _say_what_is_not_read(fact, table, extension, knowledge, sink)
            if all(token_group(row[0], extension, knowledge) for row in table.rows):
                with errors.attempt():
                    table = _one_row_per_key(table, extension.name, sink)
            same = result.get(table.name)
            if same is None:
                result[table.name] = table
            elif same.columns == table.columns:
                result[table.name] = _combine(same, table, extension.name, sink)
            else:
                sink.warning(table.source, Kind.TABLE_CONFLICT, f"table {table.name} has the columns "
                             f"{list(table.columns)} here but {list(same.columns)} at {same.source.precise()}; they "
                             "are kept apart", extension=extension.name, related=(same.source,))
                table = replace(table, name=_free_name(table.name, result, numbered))
                result[table.name] = table
    errors.check()
    return tuple(result.values())


def _say_what_is_not_read(fact: TableFact, table: Table, extension: Extension, knowledge: Knowledge,
                          sink: Sink) -> None:
    """What of a table is read otherwise than most of it says, or not at all, each a warning: a row without a first
    cell is no row (it has no key); a column whose cells are tokens of one group but for a few (a misspelt or
    lower-case name, a footnote mark, another separator between a pair) is read as prose, which makes a table of
    formats no lookup the package has, and its keys unchecked for duplicates."""
    for row in fact.rows:
        if row.cells and not row.cells[0] and any(row.cells[1:]):
            sink.warning(row.where, Kind.TABLE_ROW_UNREAD, f"this row of table {table.name} has no first cell "
                         f"(its key), so it is not kept: {' | '.join(row.cells)}", extension=extension.name)
    read_as = set(table.columns)
    for index, column in enumerate(table.columns):
        cells = [row[index] for row in table.rows if index < len(row) and row[index]]
        groups = [_cell_group(cell, extension, knowledge) for cell in cells]
        counted = Counter(group for group in groups if group)
        if not counted:
            continue
        group, most = counted.most_common(1)[0]
        if group in read_as or most == len(cells) or 3 * most < 2 * len(cells):
            continue
        odd = [cell for cell, found in zip(cells, groups, strict=True) if found != group]
        shown = ", ".join(f"`{cell[:60]}`" for cell in odd[:3]) + (" and more" if len(odd) > 3 else "")
        sink.warning(table.source, Kind.TABLE_COLUMN_UNREAD, f"table {table.name}: column {index + 1} holds {group} "
                     f"in {most} of its {len(cells)} cells, but not {shown}: it is read as {column}, not as "
                     f"{group}, so the table is no lookup of {group} (the package has none for it) and its rows "
                     "are not compared for duplicates", extension=extension.name)


def _cell_group(cell: str, extension: Extension, knowledge: Knowledge) -> str | None:
    """The group of the token a cell holds, or of each of the tokens it lists (`CL_RGBA, CL_FLOAT`)."""
    parts = [part.strip() for part in cell.split(",")]
    groups = [group for part in parts if (group := token_group(part, extension, knowledge))]
    return ", ".join(groups) if len(groups) == len(parts) else None


def _one_row_per_key(table: Table, extension: str, sink: Sink) -> Table:
    """The table without a row given twice alike (a note); two unlike rows for one key are an input error at the
    second."""
    first: dict[str, int] = {}
    keep: list[int] = []
    for index, row in enumerate(table.rows):
        at = first.setdefault(row[0], index)
        if at == index:
            keep.append(index)
            continue
        where, known = table.row_sources[index], table.row_sources[at]
        if row != table.rows[at]:
            raise InputError(where.path, where.pos, f"table {table.name}: row {row[0]} reads {list(row)} here "
                             f"but {list(table.rows[at])} at {known.precise()}, in the same table: which one holds, "
                             "the text does not tell")
        sink.note(where, Kind.TABLE_DUPLICATE, f"table {table.name}: row {row[0]} is given again here, as at "
                  f"{known.precise()}; it is kept once", extension=extension, related=(known,))
    if len(keep) < len(table.rows):
        return replace(table, rows=tuple(table.rows[i] for i in keep),
                       row_sources=tuple(table.row_sources[i] for i in keep))
    return table


def _free_name(name: str, taken: dict[str, Table], last: dict[str, int]) -> str:
    """`name_2`, `name_3`, ...: the first free one, counting on from the last given for `name` (names are
    only ever added, so the ones below it stay taken)."""
    number = last.get(name, 1) + 1
    while f"{name}_{number}" in taken:
        number += 1
    last[name] = number
    return f"{name}_{number}"


def _combine(into: Table, table: Table, extension: str, sink: Sink) -> Table:
    """`into` with the rows of `table` whose keys it has not (those it has are compared)."""
    keys = {row[0]: (row, where) for row, where in zip(into.rows, into.row_sources, strict=True)}
    rows, row_sources = list(into.rows), list(into.row_sources)
    for row, where in zip(table.rows, table.row_sources, strict=True):
        if row[0] not in keys:
            rows.append(row)
            row_sources.append(where)
            continue
        known, known_where = keys[row[0]]
        if row != known:
            sink.warning(where, Kind.TABLE_CONFLICT, f"table {into.name}: row {row[0]} reads {list(row)} here but "
                         f"{list(known)} at {known_where.precise()}, which is used; this row is left out",
                         extension=extension, related=(known_where,))
    return replace(into, rows=tuple(rows), row_sources=tuple(row_sources))


def parameter_types(extension: Extension) -> frozenset[str]:
    """The base types of every parameter: a type a table may name without defining it."""
    return frozenset(base_type(p.type) for f in extension.functions for p in f.params)


def canonical(
    fact: TableFact, extension: Extension, knowledge: Knowledge, used: frozenset[str] | None = None
) -> Table | None:
    used = parameter_types(extension) if used is None else used
    rows = [list(row.cells) for row in fact.rows if row.cells and row.cells[0]]
    if not rows:
        return None
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    header = list(fact.header) if fact.header else None
    rows, header = _split_pairs(rows, header, extension, knowledge)
    kinds = [_column_kind([row[i] for row in rows], extension, knowledge, used) for i in range(len(rows[0]))]
    rows = [[canonical_type_text(cell) if kind == "type" else cell for cell, kind in zip(row, kinds, strict=True)]
            for row in rows]
    key = kinds[0] if kinds[0] not in _KINDS else None
    key = key or _header_name(header, extension, knowledge) or "table"
    columns = [key, *kinds[1:]]
    if "default" not in columns and "description" in columns:
        defaults = _defaults_in_descriptions(rows, columns.index("description"))
        if defaults:
            at = columns.index("description")
            columns.insert(at, "default")
            rows = [[*row[:at], value, *row[at:]] for row, value in zip(rows, defaults, strict=True)]
    columns = _unique(columns)
    mapping = len(columns) > 1 and all(c not in _KINDS for c in kinds)
    return Table(
        name=f"{key}_mapping" if mapping else key,
        columns=tuple(columns),
        header=tuple(header) if header is not None else None,
        rows=tuple(tuple(row) for row in rows),
        row_sources=tuple(row.where for row in fact.rows if row.cells and row.cells[0]),
        source=fact.where,
    )


def token_group(name: str, extension: Extension, knowledge: Knowledge) -> str | None:
    """The group a token or constant belongs to: the extension's own, core OpenCL's, or an external enum's."""
    token = extension.token(name)
    if token is not None:
        return token.group
    return knowledge.constant_group_key(name)


def _column_kind(cells: list[str], extension: Extension, knowledge: Knowledge, used: frozenset[str]) -> str:
    filled = [c for c in cells if c]
    groups = {token_group(c, extension, knowledge) for c in filled}
    if len(groups) == 1 and None not in groups:
        return str(groups.pop())
    counts = Counter(g for g in (token_group(c, extension, knowledge) for c in filled) if g)
    if filled and all(_VALUE.match(c) for c in filled):
        return "default"
    if filled and all(_is_type(c, knowledge, used) for c in filled):
        return "type"
    if counts and all(knowledge.is_constant_name(c) or token_group(c, extension, knowledge) for c in filled):
        return max(sorted(counts), key=lambda group: counts[group])  # most cells; ties by name
    return "description"


def _is_type(cell: str, knowledge: Knowledge, used: frozenset[str]) -> bool:
    if not _TYPE_WORDS.match(cell.replace("*", " * ").strip()):
        return False
    base = base_type(canonical_type_text(cell))
    return knowledge.is_known_type(base) or base in used


def _split_pairs(
    rows: list[list[str]], header: list[str] | None, extension: Extension, knowledge: Knowledge
) -> tuple[list[list[str]], list[str] | None]:
    """A column whose every cell is `TOKEN, TOKEN` becomes two columns (the first column never does).

    The rows and the header are built once, column by column: splitting them in place would copy every
    row once per column split.
    """
    split_rows: list[list[str]] = [row[:1] for row in rows]
    headings: dict[int, list[str]] = {}
    for index in range(1, len(rows[0])):
        parts = [[p.strip() for p in row[index].split(",")] for row in rows]
        counts = {len(p) for p in parts}
        if len(counts) == 1 and (n := counts.pop()) > 1 and all(
            token_group(p, extension, knowledge) for cell in parts for p in cell
        ):
            for row, cell in zip(split_rows, parts, strict=True):
                row += cell
            if header:
                inner = re.search(r"\(([^)]*)\)", header[index])
                names = [s.strip() for s in inner.group(1).split(",")] if inner else []
                headings[index] = names if len(names) == n else [header[index]] * n
        else:
            for row, whole in zip(split_rows, rows, strict=True):
                row.append(whole[index])
    if header and headings:
        header = [name for index, cell in enumerate(header) for name in headings.get(index, [cell])]
    return split_rows, header


def _header_name(header: list[str] | None, extension: Extension, knowledge: Knowledge) -> str | None:
    """`cl_image_info` -> `image_info`, `cl_widget_source_khr` -> `widget_source`."""
    if not header or not header[0].split():
        return None
    word = knowledge.without_api_prefix(header[0].split()[0].lower())
    word = re.sub(r"\W+", "_", word.removesuffix("_" + extension.vendor.lower())).strip("_")
    # a header "Type" or "Description" over a column of tokens is no column of C types or descriptions
    return word if word and word not in _KINDS else None


def _defaults_in_descriptions(rows: list[list[str]], column: int) -> list[str] | None:
    """Values from "The default value is X." in a description column, if every row says one."""
    found = [phrases.DEFAULT_VALUE.search(row[column]) for row in rows]
    if not all(found):
        return None
    return [match["value"] for match in found if match]


def _unique(columns: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    result = []
    for column in columns:
        seen[column] += 1
        result.append(column if seen[column] == 1 else f"{column}_{seen[column]}")
    return result

