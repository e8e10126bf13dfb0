"""The format-neutral document every front-end produces: a flat list of positioned blocks.

Text in blocks is normalised the same way whatever the input format: white space
collapsed, markup removed, and parameter references written `<name>` (the
registry style) wherever the source marks them.
"""

from __future__ import annotations

import re

from generator.base.c_decl import CFunction, CTypedef
from generator.base.diagnostics import Location
from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.base.source import Pos


@frozen
class Omission:
    """What a front-end read but cannot keep (an include it cannot follow), said where it stands: the run
    reports it as a warning (or a note), so that nothing the text says is left out in silence. `where`: for a
    text put together from other files, the place in them, which `pos` in the text may not stand for."""

    pos: Pos
    kind: Kind
    message: str
    where: Location | None = None
    note: bool = False


@frozen
class Heading:
    """A section title; `anchor` is the id the source gives it (AsciiDoc `[[id]]`), where it gives one."""

    title: str
    level: int
    pos: Pos
    anchor: str | None = None


@frozen
class Paragraph:
    """Prose; or, with `code`, a listing the front-end could read neither as declarations nor as tokens
    (sample code, or API text in a shape it does not know, which is reported where it declares the API)."""

    text: str
    pos: Pos
    code: bool = False


@frozen
class ListItem:
    """One bullet of a list; error conditions come as these."""

    text: str
    pos: Pos


@frozen
class Definition:
    """A term list and its description (reference pages describe parameters this way)."""

    terms: tuple[str, ...]
    text: str
    pos: Pos


@frozen
class Prototype:
    function: CFunction
    pos: Pos
    slips: tuple[Omission, ...] = ()  # evident slips of its C text, read as the text meant it


@frozen
class Typedef:
    typedef: CTypedef
    pos: Pos
    slips: tuple[Omission, ...] = ()


@frozen
class TokenDef:
    """`NAME  value` as written in a list of new tokens."""

    name: str
    literal: str
    pos: Pos


@frozen
class Row:
    cells: tuple[str, ...]
    pos: Pos


@frozen
class Table:
    header: tuple[str, ...] | None
    rows: tuple[Row, ...]
    pos: Pos


Block = Heading | Paragraph | ListItem | Definition | Prototype | Typedef | TokenDef | Table


@frozen
class Document:
    """One parsed input file.

    `lost` names what the file is known to have dropped; `marks_parameters` is
    False for formats that write parameter names as plain words; `omissions` are
    what the front-end could not keep, each to be reported. `origins`: for a text
    put together from other files (an extension cut out of a book), where each of
    its lines comes from; positions are then cited there.
    """

    path: str
    format: str
    blocks: tuple[Block, ...]
    lost: frozenset[str] = frozenset()
    marks_parameters: bool = True
    omissions: tuple[Omission, ...] = ()
    origins: tuple[Location, ...] = ()
    extension: str | None = None  # the extension the text is known to describe (a cut for `--extension`)

    @property
    def remarks(self) -> tuple[Omission, ...]:
        """Everything to report of the reading: the omissions, then each declaration's slips."""
        slips = (slip for block in self.blocks if isinstance(block, Prototype | Typedef) for slip in block.slips)
        return (*self.omissions, *slips)

    def locate(self, pos: Pos) -> Location:
        """Where the text at `pos` comes from: this file, or the line it was put together from."""
        if not self.origins or not 0 < pos.line <= len(self.origins):
            return Location(self.path, pos)
        origin = self.origins[pos.line - 1]
        return Location(origin.path, Pos(origin.pos.line, pos.column if origin.pos.column == 1 else origin.pos.column))


#: A parameter reference in block text: `<name>`.
REFERENCE = re.compile(r"<([A-Za-z_]\w*)>")


#: Values of `Document.lost`.
LOST_PARAMETER_NAMES = "parameter-names"
LOST_ERROR_CODES = "error-codes"
