"""Front-end for registry text whose line breaks and `<name>`s were lost (`grammar/collapsed.lark`)."""

from __future__ import annotations

import re

from lark import Token, Tree

from generator import grammars
from generator.document import (
    Block,
    Document,
    Heading,
    ListItem,
    Paragraph,
    Row,
    Table,
    TokenDef,
)
from generator.frontends.common import cell, declarations, lost_parameter_names
from generator.source import Pos, SpecFile

FORMAT = "registry-collapsed"

_DEFINITION = re.compile(r"(\S+)\s+(\S+)")
_ROW_KEY = re.compile(r'^"?[A-Z][A-Z0-9]*(_[A-Z0-9]+)+"?$')


def parse(spec: SpecFile) -> Document:
    tree = grammars.parse("collapsed", spec.text, spec)
    blocks: list[Block] = []
    for part in tree.children:
        assert isinstance(part, Tree)
        title, *content = part.children
        assert isinstance(title, Token)
        blocks.append(Heading(str(title), 1, _pos(title)))
        if part.data == "section":
            blocks.extend(_items(content, spec))
        else:
            blocks.append(_paragraph([t for t in content if isinstance(t, Token)]))
    return Document(spec.path, FORMAT, tuple(blocks), lost_parameter_names(spec.text))


def _items(content: list[Tree[Token] | Token], spec: SpecFile) -> list[Block]:
    blocks: list[Block] = []
    for item in content:
        if isinstance(item, Token):  # words left at the end of a section
            blocks.append(_paragraph([item]))
            continue
        words = [t for t in item.children if isinstance(t, Token) and t.type in ("WORD", "END_WORD")]
        if item.data == "sentence":
            blocks.append(_paragraph(words))
        elif item.data == "list":
            lead = [t for t in item.children if isinstance(t, Token)]
            if lead:
                blocks.append(_paragraph(lead))
            for bullet in item.children:
                if isinstance(bullet, Tree):  # open_bullet or bullet
                    text = [t for t in bullet.children if isinstance(t, Token) and t.type != "BULLET"]
                    marker = bullet.children[0]
                    assert isinstance(marker, Token)
                    blocks.append(ListItem(_join(text), _pos(text[0] if text else marker)))
        elif item.data == "tokens":
            *lead, definitions = [t for t in item.children if isinstance(t, Token)]
            if lead:
                blocks.append(_paragraph(lead))
            start = _pos(definitions)
            for match in _DEFINITION.finditer(str(definitions)):
                name, literal = match.groups()
                blocks.append(TokenDef(name, literal, Pos(start.line, start.column + match.start())))
        elif item.data == "prototype":
            *lead, prototype = [t for t in item.children if isinstance(t, Token)]
            if lead:
                blocks.append(_paragraph(lead))
            blocks.extend(declarations(str(prototype), spec, _pos(prototype)))
        else:
            blocks.extend(_table(item))
    return blocks


def _table(item: Tree[Token]) -> list[Block]:
    """Rows start at a constant-like word; each middle cell is one word, the last runs to the next row."""
    tokens = [t for t in item.children if isinstance(t, Token)]
    rules = [i for i, t in enumerate(tokens) if t.type == "RULE"]
    blocks: list[Block] = []
    if rules[0] > 0:
        blocks.append(_paragraph(tokens[: rules[0]]))
    if item.data == "ruled_table":
        underline = [i for i in rules[1:-1]]
        body = tokens[underline[-1] + 1 : rules[-1]]
    else:
        underline = rules
        body = tokens[rules[-1] + 1 :]
    columns = len(underline)
    rows: list[tuple[list[str], Token]] = []
    cells: list[str] = []
    for word in body:
        text = str(word)
        starts_row = _ROW_KEY.match(text) and (not cells or (len(cells) == columns and cells[-1]))
        if starts_row or not rows:
            cells = [text.strip('"')]
            rows.append((cells, word))
        elif text == "*" and cells[-1]:
            cells[-1] += " *"
        elif len(cells) < columns:
            cells.append(text)
        else:
            cells[-1] = f"{cells[-1]} {text}"
    blocks.append(
        Table(
            None,
            tuple(Row(tuple(cell(c) for c in row), _pos(key)) for row, key in rows),
            _pos(tokens[rules[0]]),
        )
    )
    return blocks


def _paragraph(words: list[Token]) -> Paragraph:
    return Paragraph(_join(words), _pos(words[0]))


def _join(words: list[Token]) -> str:
    return " ".join(str(word) for word in words)


def _pos(token: Token) -> Pos:
    return Pos(token.line or 1, token.column or 1)
