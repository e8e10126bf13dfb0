"""The format-neutral document every front-end produces: a flat list of positioned blocks.

Text in blocks is normalised the same way whatever the input format: white space
collapsed, markup removed, and parameter references written `<name>` (the
registry style) wherever the source marks them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.c_decl import CFunction, CTypedef
from generator.source import Pos


@dataclass(frozen=True)
class Heading:
    title: str
    level: int
    pos: Pos


@dataclass(frozen=True)
class Paragraph:
    text: str
    pos: Pos


@dataclass(frozen=True)
class ListItem:
    """One bullet of a list; error conditions come as these."""

    text: str
    pos: Pos


@dataclass(frozen=True)
class Definition:
    """A term list and its description (reference pages describe parameters this way)."""

    terms: tuple[str, ...]
    text: str
    pos: Pos


@dataclass(frozen=True)
class Prototype:
    function: CFunction
    pos: Pos


@dataclass(frozen=True)
class Typedef:
    typedef: CTypedef
    pos: Pos


@dataclass(frozen=True)
class TokenDef:
    """`NAME  value` as written in a list of new tokens."""

    name: str
    literal: str
    pos: Pos


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    pos: Pos


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...] | None
    rows: tuple[Row, ...]
    pos: Pos


Block = Heading | Paragraph | ListItem | Definition | Prototype | Typedef | TokenDef | Table


@dataclass(frozen=True)
class Document:
    """One parsed input file.

    `lost` names what the file is known to have dropped; `marks_parameters` is
    False for formats that write parameter names as plain words.
    """

    path: str
    format: str
    blocks: tuple[Block, ...]
    lost: frozenset[str] = frozenset()
    marks_parameters: bool = True


#: A parameter reference in block text: `<name>`.
REFERENCE = re.compile(r"<([A-Za-z_]\w*)>")


#: Values of `Document.lost`.
LOST_PARAMETER_NAMES = "parameter-names"
LOST_ERROR_CODES = "error-codes"
