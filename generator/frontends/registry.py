"""Front-end for the classic Khronos registry plain text (`grammar/registry.lark`)."""

from __future__ import annotations

import re
from bisect import bisect_right

from lark import Token, Tree

from generator.base import grammars, phrases
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.frontends.common import (
    DECLARATION_START,
    TOKEN_LINE,
    Format,
    cell,
    code_blocks,
    collapse,
    lost_line_breaks,
    lost_parameter_names,
    token_definitions,
)
from generator.frontends.document import Block, Document, Heading, ListItem, Paragraph, Row, Table

FORMAT = "registry"

#: Titles of the Khronos extension template: the short fields first, then the sections.
FIELD_TITLES = ("Name Strings?", "Contact", "Contributors", "Status", "Version", "Number", "Dependencies")
SECTION_TITLES = ("Overview", "Issues", "New Procedures and Functions", "New Tokens", "New Types", "Revision History")
_TITLE_LINE = re.compile(rf"^({'|'.join(FIELD_TITLES + SECTION_TITLES)})[ \t]*$", re.M)


def _marks(text: str) -> int:
    """The template's titles on lines of their own; none in a text whose lines were collapsed into one."""
    return 0 if lost_line_breaks(text) else len(_TITLE_LINE.findall(text))


DETECTION = Format(FORMAT, 2, _marks, "template section titles alone on their lines")

#: The marker of a list item (and the quotation mark it may open): `*`, `-`, `•`, `1.`, `2)`.
_MARKER = re.compile(r'^"?\s*+(?:[*\-\u2022]|[0-9]{1,3}[.)])\s')

#: The sections of the template that hold the extension's fields: names, people, dates, never C, though a
#: contributor written `Jane Doe (Acme)` looks like a prototype.
_FIELD_KINDS = ("name", "version", "field")

#: How far (in columns) a cell may start left of its column's underline.
_COLUMN_SLACK = 2


@frozen
class Line:
    kind: str  # the grammar's terminal: TEXT, BULLET, UNDERLINE
    text: str  # without the line end
    number: int


def parse(spec: SpecFile) -> Document:
    text = spec.text if spec.text.endswith("\n") else spec.text + "\n"
    tree = grammars.parse("registry", text + "\n", spec)
    blocks: list[Block] = []
    nodes = [node for node in tree.children if isinstance(node, Tree)]
    fields = False  # under a heading of the template's fields (Contributors, Contact ...): no code there
    at = 0
    while at < len(nodes):
        node = nodes[at]
        lines = _lines(node)
        at += 1
        if node.data == "heading":
            title = collapse(lines[0].text)
            blocks.append(Heading(title, 1, Pos(lines[0].number, 1)))
            fields = phrases.section_kind(title) in _FIELD_KINDS
        elif node.data == "paragraph" and fields:
            blocks.extend(paragraph_blocks(lines, spec, code=False))
        elif node.data == "paragraph":
            open_braces = _open_braces(lines)
            while open_braces > 0 and at < len(nodes) and nodes[at].data == "paragraph":
                more = _lines(nodes[at])
                at += 1
                lines += [Line("TEXT", "", number) for number in range(lines[-1].number + 1, more[0].number)] + more
                open_braces += sum(line.text.count("{") - line.text.count("}") for line in more)
            blocks.extend(paragraph_blocks(lines, spec))
        else:
            blocks.append(ruled_table(lines[1:-1]))
    return Document(spec.path, FORMAT, tuple(blocks), lost_parameter_names(spec.text))


def _lines(node: Tree[Token]) -> list[Line]:
    return [Line(t.type, t.rstrip("\n"), t.line or 0) for t in node.children if isinstance(t, Token)]


def _open_braces(lines: list[Line]) -> int:
    """How many braces a declaration leaves open (`typedef struct {` ... `} name;` with blank lines between its
    members): the paragraphs after it belong to it until they close. 0 for anything else."""
    if not DECLARATION_START.match(lines[0].text):
        return 0
    return sum(line.text.count("{") - line.text.count("}") for line in lines)


def paragraph_blocks(lines: list[Line], spec: SpecFile, *, code: bool = True) -> list[Block]:
    """A blank-separated group of lines: a table, code (unless `code` is False), list items or prose."""
    lines = unquote(lines)
    if len(lines) > 1 and lines[1].kind in ("UNDERLINE", "RULE"):
        return [table(lines[:1], lines[1], lines[2:])]
    first = lines[0]
    indent = len(first.text) - len(first.text.lstrip())
    raw = "\n".join(line.text for line in lines)
    found = code_blocks(raw[indent:], spec, Pos(first.number, indent + 1)) if code else None
    if found is not None:
        return found
    if all(line.text.lstrip().startswith("|") for line in lines):
        return [pipe_table(lines)]
    headed = headed_tokens(lines, spec)
    if headed is not None:
        return headed
    blocks: list[Block] = []
    group: list[Line] = []
    for line in [*lines, Line("END", "", 0)]:
        if line.kind in ("BULLET", "END") and group:
            blocks.append(prose(group))
            group = []
        group.append(line)
    return blocks


def pipe_table(lines: list[Line]) -> Table:
    """A table drawn with `|` and `|---|` rules: the lines between two rules are one row, cells split at `|`."""
    rows: list[Row] = []
    cells: list[list[str]] = []
    first = lines[0]
    for line in [*lines, Line("END", "|-|", 0)]:
        inner = line.text.strip().strip("|")
        if not inner.strip("-") and "-" in inner:  # a rule: the row so far is done
            if any(any(c) for c in cells):
                column = len(first.text) - len(first.text.lstrip()) + 1
                rows.append(Row(tuple(collapse(" ".join(c)) for c in cells), Pos(first.number, column)))
            cells = []
            continue
        parts = inner.split("|")
        if not cells:
            cells, first = [[] for _ in parts], line
        for cell_words, part in zip(cells, parts, strict=False):
            cell_words.append(part)
    pos = Pos(lines[0].number, len(lines[0].text) - len(lines[0].text.lstrip()) + 1)
    return Table(None, tuple(rows), pos)


def headed_tokens(lines: list[Line], spec: SpecFile) -> list[Block] | None:
    """A sentence and the tokens it introduces, with no blank line between (`To be used by f:` + `#define`s).

    The sentence stays a paragraph (it may name the tokens' group); None unless every line after it is a token.
    """
    start = next((i for i, line in enumerate(lines) if line.kind != "BULLET" and TOKEN_LINE.match(line.text)), 0)
    if start == 0 or any(line.kind == "BULLET" for line in lines[:start]):
        return None
    tail = lines[start:]
    indent = len(tail[0].text) - len(tail[0].text.lstrip())
    tokens = token_definitions("\n".join(line.text for line in tail)[indent:], spec, Pos(tail[0].number, indent + 1))
    return [prose(lines[:start]), *tokens] if tokens is not None else None


def prose(lines: list[Line]) -> Block:
    text = collapse(" ".join(line.text for line in lines))
    pos = Pos(lines[0].number, len(lines[0].text) - len(lines[0].text.lstrip()) + 1)
    if lines[0].kind == "BULLET":
        return ListItem(_MARKER.sub("", text, count=1), pos)
    return Paragraph(text, pos)


def unquote(lines: list[Line]) -> list[Line]:
    """Drop the quotation marks around a quoted block (`"...` to `..."`)."""
    first, last = lines[0], lines[-1]
    if first.text.lstrip().startswith('"'):
        lines = [Line(first.kind, first.text.replace('"', " ", 1), first.number), *lines[1:]]
        last = lines[-1]
    if last.text.rstrip().endswith('"'):
        cut = last.text.rstrip()[:-1]
        lines = [*lines[:-1], Line(last.kind, cut, last.number)]
    return lines


def ruled_table(lines: list[Line]) -> Table:
    underline = next((i for i, line in enumerate(lines) if line.kind == "UNDERLINE"), None)
    if underline is None:
        rows = tuple(Row((collapse(line.text),), Pos(line.number)) for line in lines if line.text.strip())
        return Table(None, rows, rows[0].pos if rows else Pos(1))
    return table(lines[:underline], lines[underline], lines[underline + 1 :])


def table(header: list[Line], underline: Line, body: list[Line]) -> Table:
    """Cells are found by the columns the underline draws; a line with an empty first cell continues a row."""
    starts = [match.start() for match in re.finditer(r"-+", underline.text)]
    if underline.kind == "RULE" and header and "|" in header[0].text:  # columns drawn with `|`, not dashes
        starts = starts[:1] + [match.end() for match in re.finditer(r"\|", header[0].text)]
    head = _cells(header, starts)
    rows: list[tuple[list[list[str]], Pos]] = []
    for line in body:
        words = _assign(line.text, starts)
        if not any(words):
            continue
        if words[0] or not rows:
            rows.append((words, Pos(line.number, starts[0] + 1)))
        else:
            for cell_words, more in zip(rows[-1][0], words, strict=True):
                cell_words += more
    first = header[0].number if header else underline.number
    return Table(
        tuple(head) if header else None,
        tuple(Row(tuple(cell(" ".join(c)) for c in cells), pos) for cells, pos in rows),
        Pos(first, starts[0] + 1),
    )


def _cells(lines: list[Line], starts: list[int]) -> list[str]:
    cells: list[list[str]] = [[] for _ in starts]
    for line in lines:
        for cell_words, more in zip(cells, _assign(line.text, starts), strict=True):
            cell_words += more
    return [collapse(" ".join(words)) for words in cells]


def _assign(text: str, starts: list[int]) -> list[list[str]]:
    """Put each word of a line in the column whose underline starts nearest to its left (the first if none).

    Words are gathered in lists and joined once: a cell grown one word at a time is copied once per word.
    """
    cells: list[list[str]] = [[] for _ in starts]
    for word in re.finditer(r"[^\s|]+", text):  # a `|` between columns is not a word of either
        cells[max(0, bisect_right(starts, word.start() + _COLUMN_SLACK) - 1)].append(word.group())
    return cells
