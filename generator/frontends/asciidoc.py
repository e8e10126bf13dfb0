"""Front-end for the AsciiDoc sources of the Khronos specifications (`grammar/asciidoc.lark`)."""

from __future__ import annotations

import re

from lark import Token, Tree

from generator import grammars
from generator.document import Block, Document, Heading, ListItem, Paragraph, Row, Table
from generator.frontends.common import code_blocks, collapse
from generator.source import Pos, SpecFile

FORMAT = "asciidoc"

_INDEX_TERM = "indexterm:["
_PARAMETER = re.compile(r"(?<![\w<])__?([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)__?(?![\w])")
_EMPHASIS = re.compile(r"(?<![\w<])_([^_\s][^_]*?)_(?![\w])")
_STRONG = re.compile(r"(?<![\w*])\*([^*\s](?:[^*]*[^*\s])?)\*(?![\w*])")
_COLUMNS = re.compile(r'cols="([^"]*)"')


def parse(spec: SpecFile) -> Document:
    text = spec.text if spec.text.endswith("\n") else spec.text + "\n"
    tree = grammars.parse("asciidoc", text, spec)
    blocks: list[Block] = []
    attributes = ""
    for node in tree.children:
        if isinstance(node, Token):  # ATTRIBUTES: they apply to the next block
            attributes = str(node).strip()
            continue
        blocks.extend(_blocks(node, attributes, spec))
        attributes = ""
    return Document(spec.path, FORMAT, tuple(blocks))


def _blocks(node: Tree[Token], attributes: str, spec: SpecFile) -> list[Block]:
    lines = [token for token in node.scan_values(lambda v: isinstance(v, Token))]
    pos = Pos(node.meta.line, 1)
    if node.data == "title":
        marks, _, title = str(lines[0]).strip().partition(" ")
        return [Heading(inline(title), len(marks) - 1, pos)]
    if node.data == "paragraph":
        return [Paragraph(inline(" ".join(lines)), pos)]
    if node.data == "list":
        return [
            ListItem(inline(re.sub(r"^\s*(\*+|\.+|-)\s+", "", " ".join(_tokens(item)))), Pos(item.meta.line, 1))
            for item in node.children
            if isinstance(item, Tree)
        ]
    if node.data == "listing":
        code = "".join(lines)
        origin = Pos(node.meta.line + 1, 1)
        found = code_blocks(code, spec, origin, source=attributes.startswith("[source"))
        return found or ([Paragraph(collapse(code), origin)] if code.strip() else [])
    return [table(lines, attributes, Pos(node.meta.line, 1), spec)]


def _tokens(tree: Tree[Token]) -> list[str]:
    return [str(token) for token in tree.children if isinstance(token, Token)]


def table(lines: list[Token], attributes: str, pos: Pos, spec: SpecFile) -> Table:
    """Cells start at a `|`; they are dealt into rows by the column count of `cols=`."""
    pieces: list[tuple[list[str], int]] = []  # each cell's lines, joined once at the end
    for token in lines:
        parts = re.split(r"(?:^|(?<=\s))\|", str(token))
        if pieces and (len(parts) == 1 or parts[0].strip()):
            pieces[-1][0].append(parts[0])
        pieces.extend(([part], token.line or pos.line) for part in parts[1:])
    cells = [(" ".join(texts), line) for texts, line in pieces]
    columns = _column_count(attributes) or max(1, len(re.findall(r"(?:^|(?<=\s))\|", str(lines[0])))) if lines else 1
    if len(cells) % columns:
        raise spec.error(pos, f"this table has {len(cells)} cells, which do not fill rows of {columns} columns")
    rows = [cells[i : i + columns] for i in range(0, len(cells), columns)]
    header: tuple[str, ...] | None = None
    if rows and ("header" in attributes or _implicit_header(lines)):
        header = tuple(inline(text) for text, _ in rows.pop(0))
    return Table(
        header,
        tuple(
            Row(tuple(inline(text) for text, _ in row), Pos(row[0][1], 1))
            for row in rows
            if any(text.strip() for text, _ in row)
        ),
        pos,
    )


def _column_count(attributes: str) -> int | None:
    match = _COLUMNS.search(attributes)
    return len(match.group(1).split(",")) if match else None


def _implicit_header(lines: list[Token]) -> bool:
    return len(lines) > 1 and str(lines[0]).count("|") > 1 and not str(lines[1]).strip()


def inline(text: str) -> str:
    """Plain text from AsciiDoc inline markup; parameters (`_name_`) become `<name>`."""
    text = _without_index_terms(text)
    text = _resolve_references(text)
    text = text.replace('"`', '"').replace('`"', '"').replace("`", "")
    text = _PARAMETER.sub(r"<\1>", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = _STRONG.sub(r"\1", text)
    return collapse(text)


def _without_index_terms(text: str) -> str:
    """`indexterm:[...]` removed up to its first `]`; one left open stays, as does all that follows.

    Found with `str.find` rather than a pattern: a pattern tried at each of many open terms would look for
    the `]` from each of them.
    """
    out: list[str] = []
    done = 0
    at = text.find(_INDEX_TERM)
    while at != -1:
        close = text.find("]", at + len(_INDEX_TERM))
        if close == -1:
            break
        out.append(text[done:at])
        done = close + 1
        at = text.find(_INDEX_TERM, done)
    out.append(text[done:])
    return "".join(out)


def _resolve_references(text: str) -> str:
    """`<<id,label>>` becomes its label and `<<id>>` its id, in one pass.

    A reference runs from `<<` to the first `>` after it, which must be doubled; a comma before that `>`
    starts the label. The next comma and the next `>` are remembered between the `<<`s, so that many open
    `<<` cost one look each instead of a scan to the next `>` from every one of them.
    """
    out: list[str] = []
    done = 0
    comma = close = -1
    at = text.find("<<")
    while at != -1:
        if close < at + 2:
            close = text.find(">", at + 2)
            if close == -1:
                break
        if comma < at + 2:
            comma = text.find(",", at + 2)
            comma = len(text) if comma == -1 else comma
        if text.startswith(">>", close):
            out += [text[done:at], text[comma + 1 : close] if comma < close else text[at + 2 : close]]
            done = close + 2
            at = text.find("<<", done)
        else:
            at = text.find("<<", at + 1)
    out.append(text[done:])
    return "".join(out)
