"""AsciiDoc tables (`|===`): cells dealt into rows by the column count, spans and all.

A cell starts at a `|` (one written `\\|` is text); what stands right before that `|` may be the cell's
specifier: `2+|` spans two columns, `.3+|` three rows, `2*|` is the same cell twice. A spanned cell's text is
repeated in every place it covers, so that every row has one cell per column.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Token

from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.frontends.document import Row, Table

_SEPARATOR = re.compile(r"(?<!\\)\|")
#: A cell specifier: duplication, column and row span, alignments, style (a span or a duplication at least,
#: so that a word ending a cell's text is never taken for a style letter).
_SPECIFIER = re.compile(r"(?:(?P<times>\d+)\*)?(?:(?P<columns>\d+)?(?:\.(?P<rows>\d+))?\+)?[<^>]?(?:\.[<^>])?"
                        r"[adehlmsv]?")
#: The specifier of the next cell, ending a cell's text (`... 2+|`); possessive runs, each scanned once.
_TRAILING_SPECIFIER = re.compile(r"(?:^|(?<=[ \t]))(?P<spec>[\d.]++[+*][<^>.adehlmsv]*+)[ \t]*+$")
_COLUMNS = re.compile(r'cols=(?:"([^"]*)"|([^,\]\s]*))')
_COLUMN_REPEAT = re.compile(r"\s*(\d+)\*")


@frozen
class _Cell:
    texts: tuple[str, ...]
    line: int
    spec: str = ""

    @property
    def spans(self) -> tuple[int, int, int]:
        """(columns, rows, times) the cell covers."""
        match = _SPECIFIER.fullmatch(self.spec)
        if not match:
            return 1, 1, 1
        return int(match["columns"] or 1), int(match["rows"] or 1), int(match["times"] or 1)


def table(lines: list[Token], attributes: str, pos: Pos, spec: SpecFile, inline: Callable[[str], str]) -> Table:
    cells = _cells(lines, pos)
    columns = column_count(attributes) or _first_line_columns(cells)
    rows = _rows(cells, columns, pos, spec)
    header: tuple[str, ...] | None = None
    if rows and ("header" in attributes or _implicit_header(lines)):
        header = tuple(inline(text) for text, _ in rows.pop(0))
    return Table(
        header,
        tuple(Row(tuple(inline(text) for text, _ in row), Pos(row[0][1], 1))
              for row in rows if any(text.strip() for text, _ in row)),
        pos,
    )


def _cells(lines: list[Token], pos: Pos) -> list[_Cell]:
    """The cells in text order, each with its lines (joined once, at the end) and its specifier."""
    cells: list[tuple[list[str], int, str]] = []
    for token in lines:
        parts = _SEPARATOR.split(str(token))
        line = token.line or pos.line
        lead = parts[0]
        pending = ""
        if len(parts) > 1 and _TRAILING_SPECIFIER.fullmatch(lead.strip() or "-"):
            pending, lead = lead.strip(), ""
        if cells and (len(parts) == 1 or lead.strip()):
            cells[-1][0].append(lead)
        for index, part in enumerate(parts[1:], start=1):
            text = part
            following = ""
            if index < len(parts) - 1 and (trailing := _TRAILING_SPECIFIER.search(part)):
                text, following = part[: trailing.start()], trailing["spec"]
            cells.append(([text], line, pending))
            pending = following
    return [_Cell(tuple(texts), line, spec) for texts, line, spec in cells]


def _rows(cells: list[_Cell], columns: int, pos: Pos, spec: SpecFile) -> list[list[tuple[str, int]]]:
    """Deal the cells into rows of `columns`, a spanned cell into every place it covers."""
    rows: list[list[tuple[str, int]]] = []
    held: dict[tuple[int, int], tuple[str, int]] = {}  # (row, column) places taken by a cell above
    row: list[tuple[str, int] | None] = [None] * columns
    at = 0
    count = 0
    for cell in cells:
        width, height, times = cell.spans
        for _ in range(times):
            count += 1
            while at < columns and (row[at] is not None or (len(rows), at) in held):
                row[at] = row[at] or held.pop((len(rows), at))
                at += 1
            if at + width > columns:
                raise spec.error(pos, f"this table has a cell at line {cell.line} that does not fit in rows of "
                                 f"{columns} columns")
            text = (" ".join(cell.texts), cell.line)
            for column in range(at, at + width):
                row[column] = text
                for below in range(1, height):
                    held[(len(rows) + below, column)] = text
            at += width
            while at < columns and (len(rows), at) in held:
                row[at] = held.pop((len(rows), at))
                at += 1
            if at == columns:
                rows.append([place for place in row if place is not None])
                row, at = [None] * columns, 0
                while at < columns and (len(rows), at) in held:
                    row[at] = held.pop((len(rows), at))
                    at += 1
    if at or held:
        raise spec.error(pos, f"this table has {count} cells, which do not fill rows of {columns} columns")
    return rows


def _first_line_columns(cells: list[_Cell]) -> int:
    """Without `cols=`, the first line's cells make the columns, each as many as it spans."""
    first = [cell for cell in cells if cell.line == cells[0].line] if cells else []
    return max(1, sum(cell.spans[0] * cell.spans[2] for cell in first))


def column_count(attributes: str) -> int | None:
    """`cols="1,1,3"` is three columns, `cols="2*,3"` and `cols=3` too."""
    match = _COLUMNS.search(attributes)
    if not match:
        return None
    specs = (match.group(1) if match.group(1) is not None else match.group(2)).strip()
    if specs.isdigit():  # `cols=3`: a count, not a width
        return max(1, int(specs))
    return sum(int(repeat.group(1)) if (repeat := _COLUMN_REPEAT.match(part)) else 1 for part in specs.split(","))


def _implicit_header(lines: list[Token]) -> bool:
    return len(lines) > 1 and str(lines[0]).count("|") > 1 and not str(lines[1]).strip()
