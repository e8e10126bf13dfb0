"""Helpers every front-end shares: classifying code-like text, normalising white space."""

from __future__ import annotations

import re

from generator import c_decl
from generator.document import LOST_PARAMETER_NAMES, REFERENCE, Block, Prototype, TokenDef, Typedef
from generator.source import Pos, SpecFile

#: A token's value as token lists and headers write it: `0x40B6`, `-1059`, `4u`, or a bit, `(1 << 10)`.
_VALUE = r"(-?(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*|\([ \t]*\d+[ \t]*<<[ \t]*\d+[ \t]*\))"
#: `NAME  value` or `#define NAME value`, one token definition per line.
TOKEN_LINE = re.compile(rf"^[ \t]*(?:#[ \t]*define[ \t]+)?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]+{_VALUE}[ \t]*$")
#: A line shaped like a token definition, whatever its name: `name  value`. The name ends in a character
#: that is not a blank, so that a run of blanks is scanned once, not once from each of its positions.
_TOKEN_SHAPED = re.compile(rf"^[ \t]*(\S(?:.*[^ \t])?)[ \t]+{_VALUE}[ \t]*$")
#: The start of a C declaration: `type name(` or `typedef`. The name may hold any character, so that a
#: damaged one reaches the C grammar, which says where it goes wrong, instead of passing for prose.
#: Between type and name, one possessive run of blanks and stars holding a blank: never split two ways.
DECLARATION_START = re.compile(r"^\s*+(typedef\s|(const\s+)?[A-Za-z_]\w*+\**+\s[\s*]*+[^\s(),;*]++\s*+\()")


def lost_parameter_names(text: str) -> frozenset[str]:
    """A registry text that marks no parameter anywhere has lost its `<name>`s."""
    return frozenset() if REFERENCE.search(text) else frozenset({LOST_PARAMETER_NAMES})


def collapse(text: str) -> str:
    return " ".join(text.split())


def cell(text: str) -> str:
    """A table cell's text: white space collapsed, and the quotation mark that closed a quoted table dropped."""
    text = collapse(text)
    return text[:-1] if text.endswith('"') and text.count('"') % 2 else text


def token_definitions(text: str, spec: SpecFile, origin: Pos) -> list[Block] | None:
    """The TokenDef blocks of `text` when every non-blank line is `NAME value`, else None.

    A block of such lines where one name is not a token name (`CL_NAME`) is an error at that
    line: read as prose, the tokens around it would be lost without a word.
    """
    blocks: list[Block] = []
    misnamed: tuple[int, re.Match[str]] | None = None
    for number, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        match = TOKEN_LINE.match(line)
        if not match:
            shaped = _TOKEN_SHAPED.match(line)
            if shaped is None:
                return None
            misnamed = misnamed or (number, shaped)
            continue
        column = match.start(1) + 1 + (origin.column - 1 if number == 0 else 0)
        blocks.append(TokenDef(match.group(1), match.group(2), Pos(origin.line + number, column)))
    if misnamed is not None and blocks:
        number, shaped = misnamed
        column = shaped.start(1) + 1 + (origin.column - 1 if number == 0 else 0)
        raise spec.error(Pos(origin.line + number, column), f"{shaped.group(1)!r} is not a token name "
                         "(capitals, digits and underscores, like the names around it)")
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
    """Token definitions or declarations in a piece of code-like text (or both), or None if it is neither."""
    tokens = token_definitions(text, spec, origin)
    if tokens is not None:
        return tokens
    if looks_like_declaration(text):
        return declarations(text, spec, origin)
    return defines_and_declarations(text, spec, origin)


def defines_and_declarations(text: str, spec: SpecFile, origin: Pos) -> list[Block] | None:
    """A header's piece: `#define NAME value` lines among declarations (`typedef ...;` then its bits), each read
    as what it is, in order; None unless the lines that are no `#define` are declarations (or nothing)."""
    lines = text.split("\n")
    defines = {i for i, line in enumerate(lines) if line.lstrip().startswith("#") and TOKEN_LINE.match(line)}
    if not defines:
        return None
    rest = "\n".join("" if i in defines else line for i, line in enumerate(lines))  # blank: lines keep their place
    if rest.strip() and not looks_like_declaration(rest):
        return None
    blocks = declarations(rest, spec, origin) if rest.strip() else []
    for i in sorted(defines):
        line_origin = Pos(origin.line + i, origin.column if i == 0 else 1)
        blocks += token_definitions(lines[i], spec, line_origin) or []
    return sorted(blocks, key=lambda block: block.pos)
