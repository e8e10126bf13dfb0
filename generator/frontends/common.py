"""Helpers every front-end shares: classifying code-like text, normalising white space."""

from __future__ import annotations

import re

from generator import c_decl
from generator.document import LOST_PARAMETER_NAMES, REFERENCE, Block, Prototype, TokenDef, Typedef
from generator.source import Pos, SpecFile

#: `NAME  value`, one token definition per line.
TOKEN_LINE = re.compile(r"^[ \t]*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]+(-?(?:0[xX][0-9A-Fa-f]+|\d+))[ \t]*$")
#: The start of a C declaration: `type name(` or `typedef`.
DECLARATION_START = re.compile(r"^\s*(typedef\s|(const\s+)?[A-Za-z_]\w*(\s*\*)*\s+\**\s*[A-Za-z_]\w*\s*\()")


def lost_parameter_names(text: str) -> frozenset[str]:
    """A registry text that marks no parameter anywhere has lost its `<name>`s."""
    return frozenset() if REFERENCE.search(text) else frozenset({LOST_PARAMETER_NAMES})


def collapse(text: str) -> str:
    return " ".join(text.split())


def cell(text: str) -> str:
    """A table cell's text: white space collapsed, and the quotation mark that closed a quoted table dropped."""
    text = collapse(text)
    return text[:-1] if text.endswith('"') and text.count('"') % 2 else text


def token_definitions(text: str, origin: Pos) -> list[Block] | None:
    """The TokenDef blocks of `text` when every non-blank line is `NAME value`, else None."""
    blocks: list[Block] = []
    for number, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        match = TOKEN_LINE.match(line)
        if not match:
            return None
        column = match.start(1) + 1 + (origin.column - 1 if number == 0 else 0)
        blocks.append(TokenDef(match.group(1), match.group(2), Pos(origin.line + number, column)))
    return blocks or None


def looks_like_declaration(text: str) -> bool:
    return bool(DECLARATION_START.match(text)) and text.rstrip().endswith((")", ";"))


def declarations(text: str, spec: SpecFile, origin: Pos) -> list[Block]:
    """Prototype and Typedef blocks for the C declarations in `text` (errors point into `spec`)."""
    blocks: list[Block] = []
    for declaration in c_decl.parse(text, spec, origin):
        if isinstance(declaration, c_decl.CFunction):
            blocks.append(Prototype(declaration, declaration.pos))
        else:
            blocks.append(Typedef(declaration, declaration.pos))
    return blocks


def code_blocks(text: str, spec: SpecFile, origin: Pos) -> list[Block] | None:
    """Token definitions or declarations in a piece of code-like text, or None if it is neither."""
    tokens = token_definitions(text, origin)
    if tokens is not None:
        return tokens
    if looks_like_declaration(text):
        return declarations(text, spec, origin)
    return None
