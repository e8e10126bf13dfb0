"""Front-end for registry text whose line breaks and `<name>`s were lost (`grammar/collapsed.lark`)."""

from __future__ import annotations

import re

from lark import Token, Tree

from generator.base import grammars
from generator.base.source import Pos, SpecFile
from generator.frontends.common import Format, cell, declarations, lost_line_breaks, lost_parameter_names
from generator.frontends.document import Block, Document, Heading, ListItem, Paragraph, Row, Table, TokenDef
from generator.frontends.registry import SECTION_TITLES

FORMAT = "registry-collapsed"

#: A section title of the registry template among the words of the one long line.
_TITLE_INLINE = re.compile(rf"(?<!\S)({'|'.join(SECTION_TITLES)})(?=\s)")


def _marks(text: str) -> int:
    """The template's section titles inside the text, counted only where its lines were collapsed into one."""
    return len(_TITLE_INLINE.findall(text)) if lost_line_breaks(text) else 0


DETECTION = Format(FORMAT, 2, _marks, "template section titles inside one line holding most of the text")

_WORD = re.compile(r"\S+")
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
            found = list(_WORD.finditer(str(definitions)))
            for name, literal in zip(found[0::2], found[1::2], strict=False):
                blocks.append(TokenDef(name.group(), literal.group(), Pos(start.line, start.column + name.start())))
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
    rows: list[tuple[list[list[str]], Token]] = []
    cells: list[list[str]] = []  # each cell's words, joined once at the end
    for word in body:
        text = str(word)
        starts_row = _ROW_KEY.match(text) and (not cells or (len(cells) == columns and _filled(cells[-1])))
        if starts_row or not rows:
            cells = [[text.strip('"')]]
            rows.append((cells, word))
        elif (text == "*" and _filled(cells[-1])) or len(cells) >= columns:
            cells[-1].append(text)
        else:
            cells.append([text])
    blocks.append(
        Table(
            None,
            tuple(Row(tuple(cell(" ".join(c)) for c in row), _pos(key)) for row, key in rows),
            _pos(tokens[rules[0]]),
        )
    )
    return blocks


def _filled(words: list[str]) -> bool:
    """Whether a cell's words make a text that is not empty."""
    return len(words) > 1 or bool(words[0])


def _paragraph(words: list[Token]) -> Paragraph:
    return Paragraph(_join(words), _pos(words[0]))


def _join(words: list[Token]) -> str:
    return " ".join(str(word) for word in words)


def _pos(token: Token) -> Pos:
    return Pos(token.line or 1, token.column or 1)
