"""Front-end for reference (man) pages as text (`grammar/refpage.lark`).

Two damaged kinds reach us: pages from a man-page site, whose section titles
are gone but whose paragraphs are intact, and pages scraped from HTML, where
every line may be broken anywhere and blank lines are gone. A paragraph of many
lines is taken to be of the second kind and cut into sentences at line ends.
"""

from __future__ import annotations

import re

from lark import Token, Tree

from generator.base import grammars
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.frontends.common import Format, collapse, declarations, looks_like_declaration
from generator.frontends.document import LOST_ERROR_CODES, Block, Definition, Document, ListItem, Paragraph

FORMAT = "refpage"

_MAN_MARKS = re.compile(r"^[ \t]*•|\b\w+\(\d\w*\)|^\w+ - \S", re.M)
_LONE_IDENTIFIER = re.compile(r"^[a-z]+(_[a-z0-9]+)+$", re.M)
_SUCCESS_SENTENCE = re.compile(r"\bif the function (is )?executed successfully")


def _marks(text: str) -> int:
    """Marks both kinds of damaged page keep: bullets, `name(3)` references, parameter names alone on their
    lines, and the return-value sentence, worth three."""
    marks = len(_MAN_MARKS.findall(text)) + len(_LONE_IDENTIFIER.findall(text))
    return marks + 3 * bool(_SUCCESS_SENTENCE.search(text))


DETECTION = Format(FORMAT, 3, _marks,
                   "man-page bullets and references, parameter names on their own lines, a return-value sentence")

#: A paragraph longer than this (in lines) has had its line breaks scattered.
_BROKEN_PARAGRAPH = 10
_MAN_REFERENCE = re.compile(r"\b(\w+)\(\d\w*\)")
_TERM_LINE = re.compile(r"^\s*+(?:,\s*+)?([a-z][a-z0-9_]*+)\s*+$")  # possessive: a run of blanks is read once
_TERMS = re.compile(r"^[a-z][a-z0-9_]*(\s*,\s*[a-z][a-z0-9_]*)*$")
_CODE_FIRST = re.compile(r"^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b")


@frozen
class Line:
    text: str
    number: int


def parse(spec: SpecFile) -> Document:
    text = spec.text if spec.text.endswith("\n") else spec.text + "\n"
    tree = grammars.parse("refpage", text, spec)
    blocks: list[Block] = []
    pending_terms: tuple[tuple[str, ...], Pos] | None = None
    for node in tree.children:
        assert isinstance(node, Tree)
        if node.data == "list":
            pending_terms = None
            blocks.extend(_item(item) for item in node.children if isinstance(item, Tree))
            continue
        lines = [Line(str(t).rstrip("\n"), t.line or 0) for t in node.children if isinstance(t, Token)]
        if len(lines) > _BROKEN_PARAGRAPH:
            blocks.extend(broken_paragraph(lines))
            continue
        joined = join(lines)
        pos = Pos(lines[0].number, 1)
        if pending_terms:
            blocks.append(Definition(pending_terms[0], joined, pending_terms[1]))
            pending_terms = None
        elif _TERMS.match(joined):
            pending_terms = (tuple(t.strip() for t in joined.split(",")), pos)
        elif looks_like_declaration(joined):
            raw = "\n".join(line.text for line in lines)
            blocks.extend(declarations(raw, spec, pos))
        else:
            blocks.append(Paragraph(joined, pos))
    lost = frozenset({LOST_ERROR_CODES}) if any(_lost_code(b) for b in blocks) else frozenset()
    return Document(spec.path, FORMAT, tuple(blocks), lost, marks_parameters=False)


def _item(item: Tree[Token]) -> ListItem:
    lines = [Line(str(t).rstrip("\n"), t.line or 0) for t in item.children if isinstance(t, Token)]
    return ListItem(join(lines).lstrip("•").strip(), Pos(lines[0].number, 1))


def _lost_code(block: Block) -> bool:
    return isinstance(block, ListItem) and not _CODE_FIRST.match(block.text)


def broken_paragraph(lines: list[Line]) -> list[Block]:
    """Cut a paragraph whose line breaks fall anywhere into definitions, sentences and list items.

    A line holding only a parameter name, followed by a line starting with a
    capital, introduces a definition; a sentence ends at a line ending in a full
    stop; after a sentence ending in a colon, each sentence is a list item.
    """
    blocks: list[Block] = []
    terms: list[str] = []
    sentence: list[Line] = []
    in_list = False
    term_pos = Pos(lines[0].number, 1)
    for index, line in enumerate(lines):
        term = _TERM_LINE.match(line.text)
        following = lines[index + 1].text.lstrip() if index + 1 < len(lines) else ""
        if term and not sentence and (following[:1].isupper() or _TERM_LINE.match(following)):
            if not terms:
                term_pos = Pos(line.number, 1)
            terms.append(term.group(1))
            continue
        sentence.append(line)
        if not line.text.rstrip().endswith((".", ":")):
            continue
        text = join(sentence)
        pos = Pos(sentence[0].number, 1)
        if terms:
            blocks.append(Definition(tuple(terms), text, term_pos))
            terms = []
        elif in_list:
            blocks.append(ListItem(text, pos))
        else:
            blocks.append(Paragraph(text, pos))
            in_list = text.endswith(":")
        sentence = []
    if sentence:
        blocks.append((ListItem if in_list else Paragraph)(join(sentence), Pos(sentence[0].number, 1)))
    return blocks


def join(lines: list[Line]) -> str:
    """One line of text from broken lines: no space before punctuation, `<name >` mended."""
    text = collapse(" ".join(line.text for line in lines))
    text = _MAN_REFERENCE.sub(r"\1", text)
    text = re.sub(r"<\s*(\w+)\s*>", r"<\1>", text)
    return re.sub(r"\s+([.,;:])", r"\1", text)
