"""Where each line of the book stands among its blocks: the heading above it, the reference page and the table
around it. An extension's lines are cut out of core text; these say what frame to cut with them (the
reference page's name and its "returns" sentence, the table's header), so that the cut text reads as the
book does.
"""

from __future__ import annotations

import re

from generator.base.errors import InputError
from generator.base.records import frozen
from generator.frontends.book.preprocess import Line

_HEADING = re.compile(r"^=+[ \t]+\S")
_REFPAGE = re.compile(r"^\[open,(?:[^\]]*,)?refpage='(?P<name>[^']+)'")
_OPEN = "--"
_REF_ERROR = re.compile(r"^//[ \t]*refError\b")
_TABLE = re.compile(r"^\|={3,}[ \t]*$")
#: A list item: its bullet's stars (or dashes) give its depth.
ITEM = re.compile(r"^[ \t]*(\*+|-+)[ \t]+\S")
#: The delimiters of AsciiDoc's verbatim blocks (listing, literal, passthrough, comment): nothing inside one is
#: markup, not a `--` that would end a reference page, a `|===` or a heading.
_VERBATIM = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|/{4,})[ \t]*$")


@frozen
class Refpage:
    """A reference page: `[open,refpage='f',...]`, `--`, its lines, `--`; `errors` is the line of its
    `// refError` comment, after which the page's error list begins (-1: none)."""

    name: str
    start: int  # the `[open,refpage=...]` line
    end: int  # its closing `--` (the last line of the book when it never closes)
    errors: int


@frozen
class Table:
    start: int  # the first of the lines that introduce it (anchor, title, attributes)
    opening: int  # its `|===`
    header_end: int  # the last line of its first row (its header), before the first blank line
    end: int  # its closing `|===`


@frozen
class Blocks:
    headings: tuple[int, ...]  # per line: the heading above it (-1: none)
    refpages: tuple[Refpage | None, ...]  # per line: the page it lies in
    tables: tuple[Table | None, ...]  # per line: the table it lies in, delimiters aside
    parents: tuple[int, ...] = ()  # per line: for a sub-item (`** if ...`), the item it belongs to (-1: none)

    def refpage_named(self, name: str) -> list[Refpage]:
        return list(dict.fromkeys(p for p in self.refpages if p is not None and p.name == name))


def find(lines: tuple[Line, ...]) -> Blocks:
    """One pass over the book (after one that marks its verbatim blocks). A reference page, table or verbatim
    block that never closes is an input error: what it holds and what follows it cannot be told apart
    (Asciidoctor too reads the rest of the book into it)."""
    verbatim = _verbatim(lines)
    headings: list[int] = []
    pages: list[Refpage | None] = [None] * len(lines)
    tables: list[Table | None] = [None] * len(lines)
    heading, floor = -1, 0
    index = 0
    while index < len(lines):
        text = lines[index].text
        if verbatim[index]:
            headings.append(heading)
            index += 1
            continue
        if _HEADING.match(text):
            heading = index
        headings.append(heading)
        named = _REFPAGE.match(text)
        if named and index + 1 < len(lines) and lines[index + 1].text.rstrip() == _OPEN:
            end = next((j for j in range(index + 2, len(lines)) if lines[j].text.rstrip() == _OPEN
                        and not verbatim[j]), -1)
            if end < 0:
                raise _unclosed(lines[index], f"the reference page of {named['name']} opened here is never closed "
                                "(no `--` line ends it)")
            errors = next((j for j in range(index + 2, end) if _REF_ERROR.match(lines[j].text)), -1)
            page = Refpage(named["name"], index, end, errors)
            for j in range(index, end + 1):
                pages[j] = page
        if _TABLE.match(text):
            table = _table(lines, index, verbatim, floor)
            for j in range(table.opening + 1, table.end):
                tables[j] = table
            headings.extend([heading] * (table.end - index))
            index = floor = table.end + 1
            continue
        index += 1
    return Blocks(tuple(headings), tuple(pages), tuple(tables), _parents(lines, verbatim, pages))


def _parents(lines: tuple[Line, ...], verbatim: list[bool], pages: list[Refpage | None]) -> tuple[int, ...]:
    """For each sub-item, the nearest item before it of fewer stars, inside the same reference page and under
    the same heading: the code whose conditions the sub-items are. One pass, the items open kept as a stack
    (each sub-item looked for its item back to the heading: quadratic work for many sub-items of none)."""
    parents = [-1] * len(lines)
    open_items: list[tuple[int, int]] = []  # (depth, line), depths rising
    scope: Refpage | None = None
    for index, line in enumerate(lines):
        if verbatim[index]:
            continue
        if pages[index] is not scope or _HEADING.match(line.text):
            open_items.clear()
            scope = pages[index]
        item = ITEM.match(line.text)
        if item is None:
            continue
        depth = len(item[1])
        while open_items and open_items[-1][0] >= depth:
            open_items.pop()
        if depth > 1 and open_items:
            parents[index] = open_items[-1][1]
        open_items.append((depth, index))
    return tuple(parents)


def _verbatim(lines: tuple[Line, ...]) -> list[bool]:
    """Per line: whether it is a verbatim block's, its delimiters included."""
    marked = [False] * len(lines)
    opened: int | None = None
    for index, line in enumerate(lines):
        if opened is not None:
            marked[index] = True
            if line.text.rstrip() == lines[opened].text.rstrip():
                opened = None
        elif _VERBATIM.match(line.text):
            marked[index], opened = True, index
    if opened is not None:
        raise _unclosed(lines[opened], f"the block opened here is never closed (no `{lines[opened].text.rstrip()}` "
                        "line ends it)")
    return marked


def _unclosed(line: Line, message: str) -> InputError:
    return InputError(line.where.path, line.where.pos, message, line.text)


def _table(lines: tuple[Line, ...], opening: int, verbatim: list[bool], floor: int) -> Table:
    """The table opened at `opening`; the lines that introduce it are looked for back to `floor`, the line after
    the table before it (tables one after another, no blank line between, were each looked for back to the
    first of them)."""
    delimiter = lines[opening].text.rstrip()
    end = next((j for j in range(opening + 1, len(lines)) if lines[j].text.rstrip() == delimiter
                and not verbatim[j]), -1)
    if end < 0:
        raise _unclosed(lines[opening], f"the table opened here is never closed (no `{delimiter}` line ends it)")
    start = opening
    while start > floor and lines[start - 1].text.strip() and not _HEADING.match(lines[start - 1].text) \
            and not verbatim[start - 1]:
        start -= 1
    introduced = " ".join(line.text for line in lines[start:opening])
    first = opening + 1
    while first < end and not lines[first].text.strip():
        first += 1
    columns = _columns(introduced) or len(_CELL.split(lines[first].text)) - 1
    # Asciidoctor's header: asked for, or implied by a first line followed by a blank one
    implied = first < end and not lines[first + 1].text.strip() and "noheader" not in introduced
    if "header" not in introduced.replace("noheader", "") and not implied:
        return Table(start, opening, opening, end)
    header_end, cells = first, 0
    while header_end < end:
        cells += len(_CELL.split(lines[header_end].text)) - 1
        if cells >= columns or header_end + 1 >= end or not lines[header_end + 1].text.strip():
            break
        header_end += 1
    return Table(start, opening, header_end, end)


_CELL = re.compile(r"(?<!\\)\|")
_COLS = re.compile(r'cols="([^"]*)"')


def _columns(introduced: str) -> int:
    """How many columns a table's `cols="..."` gives (`3*` counts three), 0 when it gives none."""
    found = _COLS.search(introduced)
    if found is None:
        return 0
    count = 0
    for spec in found[1].split(","):
        times = re.match(r"^\s*(\d+)\*", spec)
        count += int(times[1]) if times else 1
    return count if found[1].strip() else 0
