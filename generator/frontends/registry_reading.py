"""The registry XML read with expat, event by event, with the protections `registry_xml` promises.

Expat without a document type (no entity is declared, none fetches another file), names not interned (pyexpat
keeps every tag and attribute name it met for the parser's life otherwise), a tag of too many attributes refused
before parsing, the nesting bounded, text in pieces of at most `_CHUNK` bytes. `read_whole` tells a `Reading`
each event of the file as it comes (the first reading keeps only what its index needs: `registry_scan`);
`walk` gives an element's events, for a record read again from where its element starts (`registry_xml._Index`).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from typing import NamedTuple, Protocol
from xml.parsers import expat

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile, position_of

MAX_DEPTH = 32
#: Attributes one tag may have: pyexpat makes a dictionary of them all before any handler sees the tag (a
#: tag of a million attributes took 170 MiB), so more are refused before parsing. The registry's have at most 6.
MAX_ATTRIBUTES = 256
#: What expat is given at once: a part of the file read again needs only the chunks its element spans.
_CHUNK = 16 * 1024
_FIRST_CHUNK = 256
_S = "[ \t\n]"  # XML's white space (line ends are LF by now)
#: A start tag of MAX_ATTRIBUTES attributes or more, in XML's own syntax (no `<` inside a tag, not even in a
#: value), possessive throughout: linear in the text.
_MANY_ATTRIBUTES = re.compile(rf"<[^ \t\n/<>!?][^ \t\n/<>]*+(?:{_S}++[^ \t\n=/<>\"']++{_S}*+={_S}*+"
                              rf"(?:\"[^\"<]*+\"|'[^'<]*+')){{{MAX_ATTRIBUTES}}}+")
#: No place: a table row's `parent` or `owner` when it has none (`Source.settle` keeps it).
NONE = 2**32 - 1

class Source:
    """The registry's text as expat reads it. Expat counts bytes of UTF-8; a text that is not all ASCII is read
    whole from its UTF-8 bytes, and the places found (`settle`) are then made character offsets into the text,
    which is all that is kept (the bytes would be a second copy of the file)."""

    __slots__ = ("data", "spec")

    def __init__(self, spec: SpecFile) -> None:
        self.spec = spec
        self.data: bytes | None = None if spec.text.isascii() else spec.text.encode("utf-8")

    def chunks(self, offset: int) -> Iterator[tuple[str | memoryview, bool]]:
        """The text from `offset` on, each chunk with whether it is the last: small at first (most elements read
        again are a line long), then twice as large each time up to `_CHUNK`."""
        whole: str | memoryview = self.spec.text if self.data is None else memoryview(self.data)
        size, step = len(whole), _FIRST_CHUNK
        while offset < size:
            yield whole[offset:offset + step], offset + step >= size
            offset += step
            step = min(2 * step, _CHUNK)

    def settle(self, offsets: list[array[int]]) -> None:
        """Make the byte offsets found in the UTF-8 bytes (each array in document order, `NONE` aside)
        character offsets into the text, and let the bytes go."""
        data, self.data = self.data, None
        if data is None:
            return
        for places in offsets:
            byte = char = 0
            for i, place in enumerate(places):
                if place != NONE:
                    char += len(data[byte:place].decode("utf-8"))
                    places[i], byte = char, place

    def refuse_many_attributes(self) -> None:
        found = _MANY_ATTRIBUTES.search(self.spec.text)
        if found is not None:
            raise self.spec.error(position_of(self.spec.text, found.start()), f"a tag of more than "
                                  f"{MAX_ATTRIBUTES - 1} attributes; the registry's have at most 6")


class Start(NamedTuple):
    depth: int  # 0: the element the walk began at
    tag: str
    attributes: dict[str, str]
    pos: Pos
    offset: int  # of its `<` from the start of the file: in a reading of the whole file only (`Here.offset`)


class End(NamedTuple):
    depth: int
    tag: str


class Text(NamedTuple):
    depth: int  # of the element it stands in
    data: str


Event = Start | End | Text


class Here:
    """Where the event a `Reading` is told of stands; asked only while it is told (expat's place moves on)."""

    __slots__ = ("_offset", "_parser", "_pos")

    def __init__(self, parser: expat.XMLParserType, offset: int, pos: Pos) -> None:
        self._parser, self._offset, self._pos = parser, offset, pos

    def pos(self) -> Pos:
        """In the file: expat counts from where the reading began (`pos`), so on the reading's first line its
        column is added to `pos`'s; on a later line it is the line's own (expat's columns count from 0)."""
        line, column, pos = self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber, self._pos
        return Pos(pos.line, pos.column + column) if line == 1 else Pos(pos.line + line - 1, column + 1)

    def offset(self) -> int:
        """Of the event's `<` from the start of the file, in a reading of the whole file (see `Source`)."""
        return self._offset + self._parser.CurrentByteIndex


class Reading(Protocol):
    """What is told the events of a reading (`read_whole`, `walk`), as they come: the whole file's reading keeps
    only what its index needs, without an event object each (34,000 in the shipped registry)."""

    def start(self, depth: int, tag: str, attributes: dict[str, str], here: Here) -> None: ...

    def end(self, depth: int, tag: str) -> None: ...

    def text(self, depth: int, data: str) -> None: ...


#: The parser's handlers `_read` sets, each a closure over the parser (see its end).
_HANDLERS = ("StartElementHandler", "EndElementHandler", "CharacterDataHandler", "StartDoctypeDeclHandler",
             "EntityDeclHandler", "ExternalEntityRefHandler")


class _Stop(Exception):
    """The element the reading began at has ended."""


_START = Pos(1, 1)


def read_whole(source: Source, reading: Reading) -> None:
    """Tell `reading` the events of the whole file, from its start to its end (a fault after the root element
    is one too)."""
    for _ in _read(source, reading, 0, _START, whole=True):
        pass


def _read(source: Source, reading: Reading, offset: int, pos: Pos, whole: bool) -> Iterator[None]:
    """Tell `reading` the events of the element that starts at `offset` (at `pos`), to its end; `whole`: of the
    file from its start to its end. Text comes in pieces (at most 8 KiB each). Yields after each chunk of the
    text read: a walk hands on the events of a chunk, and may be left there (the parser is let go then too)."""
    spec = source.spec
    parser = expat.ParserCreate("utf-8", intern=None)
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    here = Here(parser, offset, pos)
    depth = -1

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal depth
        depth += 1
        if depth >= MAX_DEPTH:
            raise spec.error(here.pos(), f"elements nest more than {MAX_DEPTH} deep here; the registry nests 5 deep")
        reading.start(depth, tag, attributes, here)

    def end(tag: str) -> None:
        nonlocal depth
        reading.end(depth, tag)
        depth -= 1
        if depth < 0 and not whole:
            raise _Stop

    def doctype(*_: object) -> None:
        line = parser.CurrentLineNumber
        begins = spec.text.split("\n", line)[line - 1].find("<!DOCTYPE")  # the error at the declaration's start
        raise spec.error(Pos(line, begins + 1) if begins >= 0 else here.pos(), "a document type declaration: the "
                         "registry has none, and entities are not read (they could expand without end or fetch "
                         "other files)")

    def external(*_: object) -> int:
        raise spec.error(here.pos(), "a reference to an external entity")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = lambda data: reading.text(depth, data)
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.ExternalEntityRefHandler = external
    try:
        for chunk, last in source.chunks(offset):
            try:
                parser.Parse(chunk, last)
            except _Stop:
                yield
                return
            except expat.ExpatError as error:
                line, column = error.lineno, error.offset
                at = Pos(pos.line, pos.column + column) if line == 1 else Pos(pos.line + line - 1, column + 1)
                raise InputError(spec.path, at, f"not well-formed XML: {expat.ErrorString(error.code)}") from None
            yield
    finally:  # the handlers refer to the parser: a cycle, which a run without the cycle collector never frees
        for handler in _HANDLERS:
            setattr(parser, handler, None)


class _Events:
    """A reading that keeps each event (`walk`)."""

    def __init__(self) -> None:
        self.taken: list[Event] = []

    def start(self, depth: int, tag: str, attributes: dict[str, str], here: Here) -> None:
        self.taken.append(Start(depth, tag, attributes, here.pos(), here.offset()))

    def end(self, depth: int, tag: str) -> None:
        self.taken.append(End(depth, tag))

    def text(self, depth: int, data: str) -> None:
        self.taken.append(Text(depth, data))


def walk(source: Source, offset: int = 0, pos: Pos = _START) -> Iterator[Event]:
    """The events of the element that starts at `offset` (at `pos`), to its end, for a record read again."""
    events = _Events()
    for _ in _read(source, events, offset, pos, whole=False):
        yield from events.taken
        events.taken.clear()


def attributes_at(source: Source, offset: int) -> dict[str, str]:
    """The attributes of the element that starts at `offset` (its start tag alone is read)."""
    first = next(walk(source, offset))
    assert isinstance(first, Start)
    return first.attributes
