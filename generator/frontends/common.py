"""Helpers every front-end shares: the shape of a format's detection marks, classifying code-like text,
normalising white space."""

from __future__ import annotations

import re
from collections.abc import Callable

from generator.base import c_decl, integers
from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.frontends.document import (
    LOST_PARAMETER_NAMES,
    REFERENCE,
    Block,
    Omission,
    Paragraph,
    Prototype,
    TokenDef,
    Typedef,
)

#: A token's value as token lists and headers write it: `0x40B6`, `-1059`, `4u`, or a bit, `(1 << 10)`,
#: also with the number cast as headers do: `((cl_bitfield)1 << 31)`, `(((cl_bitfield)1) << 31)`.
_CAST = r"\([ \t]*[A-Za-z_]\w*+[ \t]*\)[ \t]*"
_BASE = rf"(?:(?:{_CAST})?\d+[uUlL]*|\([ \t]*{_CAST}\d+[uUlL]*[ \t]*\))"
_VALUE = rf"(-?(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*|\([ \t]*{_BASE}[ \t]*<<[ \t]*\d+[ \t]*\))"
#: A token's name: upper case parts, of which any but the first may hold lower case (`CL_X_16x16_ACME`).
_TOKEN_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9][A-Za-z0-9]*)+"
#: `NAME  value` or `#define NAME value`, one token definition per line.
TOKEN_LINE = re.compile(rf"^[ \t]*(?:#[ \t]*define[ \t]+)?({_TOKEN_NAME})[ \t]+{_VALUE}[ \t]*$")
#: A line shaped like a token definition, whatever its name: `name  value`. The name ends in a character
#: that is not a blank, so that a run of blanks is scanned once, not once from each of its positions.
_TOKEN_SHAPED = re.compile(rf"^[ \t]*(\S(?:.*[^ \t])?)[ \t]+{_VALUE}[ \t]*$")
#: The start of a C declaration: `type name(` or `typedef`. The name may hold any character, so that a
#: damaged one reaches the C grammar, which says where it goes wrong, instead of passing for prose.
#: Between type and name, one possessive run of blanks and stars holding a blank: never split two ways.
DECLARATION_START = re.compile(r"^\s*+(typedef\s|(const\s+)?[A-Za-z_]\w*+\**+\s[\s*]*+[^\s(),;*]++\s*+\()")

#: A text whose longest line holds more than this share of it has lost its line breaks.
_COLLAPSED_SHARE = 0.5


@frozen
class Format:
    """How `detect` recognises one format: each front end states its own marks beside the parse they lead to,
    so that a format's reader and what tells it apart change together."""

    name: str
    minimum: int  # fewer marks than this and the format does not fit at all
    marks: Callable[[str], int]
    what: str  # the marks in words, for the error that names what was looked for


def lost_line_breaks(text: str) -> bool:
    """One line holds most of `text`: its line breaks were lost (a long line among many others is no sign)."""
    return max((len(line) for line in text.split("\n")), default=0) > _COLLAPSED_SHARE * len(text)


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


#: A function's body after its parameters: a definition in sample code, never a declaration of the API.
_BODY = re.compile(r"\)\s*\{")


def looks_like_declaration(text: str, *, source: bool = False) -> bool:
    """`type name(` or `typedef` first, and no function body; prose ends each prototype with `)` or `;`
    (source code, `source`, may end with a comment). A typedef is always one: a damaged one is an error where
    it goes wrong, never prose."""
    start = DECLARATION_START.match(text)
    if not start or _BODY.search(text):
        return False
    return source or bool(start.group(1).startswith("typedef")) or text.rstrip().endswith((")", ";"))


def declarations(text: str, spec: SpecFile, origin: Pos) -> list[Block]:
    """Prototype and Typedef blocks for the C declarations in `text` (errors point into `spec`); an enum's
    enumerators are token definitions too, each after its typedef."""
    blocks: list[Block] = []
    found: list[c_decl.Slip] = []
    parsed = c_decl.parse(text, spec, origin, found)
    for index, declaration in enumerate(parsed):
        ends = parsed[index + 1].pos if index + 1 < len(parsed) else None
        slips = tuple(Omission(s.pos, Kind.DECLARATION_SLIP, s.message) for s in found
                      if (s.pos >= declaration.pos or index == 0) and (ends is None or s.pos < ends))
        if isinstance(declaration, c_decl.CFunction):
            blocks.append(Prototype(declaration, declaration.pos, slips))
        else:
            blocks.append(Typedef(declaration, declaration.pos, slips))
            blocks.extend(enumerator_tokens(declaration, spec))
    return blocks


def enumerator_tokens(typedef: c_decl.CTypedef, spec: SpecFile) -> list[Block]:
    """`A = 1, B, C` as TokenDefs 1, 2, 3: an enumerator without a value is one more than the one before it,
    the first 0 (C17 6.7.2.2)."""
    blocks: list[Block] = []
    last: int | None = -1
    for enumerator in typedef.enumerators:
        literal = enumerator.literal
        if literal is None:
            if last is None:
                raise spec.error(enumerator.pos, f"{enumerator.name} has no value, and the one before it has none "
                                 "that can be counted on from")
            literal = str(last + 1)
        try:
            last = integers.value(literal)
        except integers.LiteralError:
            last = None  # the token's own reading says what is wrong with it
        blocks.append(TokenDef(enumerator.name, literal, enumerator.pos))
    return blocks


#: `#define NAME value` (a trailing comment is no part of the value).
_DEFINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^/\s](?:[^/\n]*[^/\s])?)")


def without_directives(text: str, origin: Pos) -> tuple[str, list[Block]]:
    """`text` with its preprocessor lines blanked (line numbers stay), and what they define.

    A `#define NAME value` of an integer value is a token definition; one of another value (an expression, a
    name) stays a paragraph of its own for the prose readers; other directives (`#ifdef`, `#include`) state no
    fact of the API.
    """
    lines = text.split("\n")
    blocks: list[Block] = []
    for number, line in enumerate(lines):
        if not line.lstrip().startswith("#"):
            continue
        lines[number] = ""
        define = _DEFINE.match(line)
        if define is None:
            continue
        column = define.start(1) + 1 + (origin.column - 1 if number == 0 else 0)
        pos = Pos(origin.line + number, column)
        name, literal = define.group(1), define.group(2).strip()
        try:
            integers.value(literal)
        except integers.LiteralError:
            blocks.append(Paragraph(f"{name} {literal}", pos))
            continue
        blocks.append(TokenDef(name, literal, pos))
    return "\n".join(lines), blocks


def without_comments(text: str) -> str:
    """`text` from its first line that is not blank or a `//` comment, so that a comment heading a block of
    declarations does not hide them."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("//")), 0)
    return "\n".join(lines[first:])


def code_blocks(text: str, spec: SpecFile, origin: Pos, *, source: bool = False) -> list[Block] | None:
    """Token definitions or declarations in a piece of code-like text, or None if it is neither.

    `source`: the text is marked as code (AsciiDoc `[source]`). A block may mix `#define` lines with
    declarations; one that starts like a declaration is read as C (and is an error where it is not C), but for
    sample code, whose functions have bodies.
    """
    tokens = token_definitions(text, spec, origin)
    if tokens is not None:
        return tokens
    code, defined = without_directives(text, origin)
    if c_decl.is_blank(code):
        return defined or None
    if looks_like_declaration(without_comments(code), source=source):
        return sorted([*defined, *declarations(code, spec, origin)], key=lambda block: block.pos)
    return None
