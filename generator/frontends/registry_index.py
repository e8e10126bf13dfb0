"""The registry XML kept small: its text, and where each named element starts, read again when a name is asked.

An 8 MiB registry may hold two million elements. Built as a tree (an object, a dictionary of attributes and a
list of children and of text pieces for each) it took up to 2 GiB; as a dictionary of its names alone, some
130 bytes a name. What `registry_xml` keeps instead is the text (which the run keeps anyway) and, for each
element a name finds (an enum, a command, a type, an extension, a name an extension requires), a `Table` row
of 28 bytes: where the element starts, its line and column, and the place of the element it stands
in. Rows are sorted by a hash of the name, so a name is found by bisection, and the element is read again
from its start (`walk`) to make its record and check its name. The texts of a run ask for a few hundred
names; every read is of one element.

`read` reads XML with the protections `registry_xml` promises for the whole file, for a part of it as well:
expat without a document type, names not interned (pyexpat keeps every tag and attribute name it met for the
parser's life otherwise), text in pieces of at most `_CHUNK` bytes, the nesting bounded.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from hashlib import blake2b
from typing import Generic, NamedTuple, Protocol, TypeVar
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
_SPACES = re.compile(r"\s+")
#: A start tag of MAX_ATTRIBUTES attributes or more, in XML's own syntax (no `<` inside a tag, not even in a
#: value), possessive throughout: linear in the text.
_MANY_ATTRIBUTES = re.compile(rf"<[^ \t\n/<>!?][^ \t\n/<>]*+(?:{_S}++[^ \t\n=/<>\"']++{_S}*+={_S}*+"
                              rf"(?:\"[^\"<]*+\"|'[^'<]*+')){{{MAX_ATTRIBUTES}}}+")
#: Rows of a table: the hash of a name in the high bits of a row's key, its row number (document order) in
#: the low ones, so that sorting the keys sorts by hash, then by place.
_ROW_BITS = 24
_ROW_MASK = 2**_ROW_BITS - 1


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
    offset: int  # of its `<` from the start of the file (see `Here.offset`)


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
        line, column, pos = self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber, self._pos
        return Pos(pos.line, pos.column + column) if line == 1 else Pos(pos.line + line - 1, column + 1)

    def offset(self) -> int:
        """Of the event's `<` from the start of the file, in a reading of the whole file (see `Source`)."""
        return self._offset + self._parser.CurrentByteIndex


class Reading(Protocol):
    """What is told the events of a reading (`read`), as they come: the whole file's reading keeps only what
    its index needs, without an event object each (34,000 in the shipped registry)."""

    def start(self, depth: int, tag: str, attributes: dict[str, str], here: Here) -> None: ...

    def end(self, depth: int, tag: str) -> None: ...

    def text(self, depth: int, data: str) -> None: ...


#: The parser's handlers `read` sets, each a closure over the parser (see its end).
_HANDLERS = ("StartElementHandler", "EndElementHandler", "CharacterDataHandler", "StartDoctypeDeclHandler",
             "EntityDeclHandler", "ExternalEntityRefHandler")


class _Stop(Exception):
    """The element the reading began at has ended."""


_START = Pos(1, 1)


def read(source: Source, reading: Reading, offset: int = 0, pos: Pos = _START, whole: bool = False) -> Iterator[None]:
    """Tell `reading` the events of the element that starts at `offset` (at `pos`), to its end; `whole`: of the
    file from its start to its end (a fault after the root element is one too). Text comes in pieces (at most
    8 KiB each). Yields after each chunk of the text read: a reading may stop there."""
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
    """The events of the element that starts at `offset` (at `pos`), to its end (`read`)."""
    events = _Events()
    for _ in read(source, events, offset, pos):
        yield from events.taken
        events.taken.clear()


def attributes_at(source: Source, offset: int) -> dict[str, str]:
    """The attributes of the element that starts at `offset` (its start tag alone is read)."""
    first = next(walk(source, offset))
    assert isinstance(first, Start)
    return first.attributes


def name_hash(name: str) -> int:
    """A hash of a name that is the same in every process (the index crosses from a reading child to the run)."""
    digest = blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> _ROW_BITS


#: A row's `parent` or `owner` when it has none.
NONE = 2**32 - 1


class Table:
    """The elements of one kind, by the hash of their names: for each, where it starts and stands. Rows are added
    in document order; `finish` sorts them for lookups."""

    def __init__(self) -> None:
        self.keys = array("Q")
        self.starts = array("I")
        self.lines = array("I")
        self.columns = array("I")
        self.parents = array("I")  # the element it stands in that its record needs (an enum's `<enums>`, ...)
        self.owners = array("I")  # for a name an extension requires: the extension's start

    def add(self, name: str, start: int, pos: Pos, parent: int = NONE, owner: int = NONE) -> None:
        row = len(self.starts)
        if row >= 2**_ROW_BITS:  # an 8 MiB file holds at most two million elements
            raise ValueError("too many rows")
        self.keys.append(name_hash(name) << _ROW_BITS | row)
        self.starts.append(start)
        self.lines.append(pos.line)
        self.columns.append(pos.column)
        self.parents.append(parent)
        self.owners.append(owner)

    def finish(self) -> None:
        self.keys = array("Q", sorted(self.keys))

    def rows(self, name: str) -> Iterator[int]:
        """The rows whose name has the hash of `name` (almost always those of that name), in document order."""
        wanted = name_hash(name)
        index = bisect_left(self.keys, wanted << _ROW_BITS)
        while index < len(self.keys) and self.keys[index] >> _ROW_BITS == wanted:
            yield self.keys[index] & _ROW_MASK
            index += 1

    def runs(self) -> Iterator[list[int]]:
        """The rows in runs of one hash: the elements of one name (or, once in a blue moon, of two)."""
        run: list[int] = []
        current = -1
        for key in self.keys:
            if key >> _ROW_BITS != current and run:
                yield run
                run = []
            current = key >> _ROW_BITS
            run.append(key & _ROW_MASK)
        if run:
            yield run

    def pos(self, row: int) -> Pos:
        return Pos(self.lines[row], self.columns[row])

    def __len__(self) -> int:
        return len(self.starts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and (self.keys, self.starts, self.parents, self.owners) == \
            (other.keys, other.starts, other.parents, other.owners)

    def __hash__(self) -> int:
        return hash(self.keys.tobytes())


class Named(Protocol):
    """A record a table's row makes: it has a name."""

    @property
    def name(self) -> str: ...


R = TypeVar("R", bound=Named)


class Names(Mapping[str, R], Generic[R]):
    """A table read as a mapping of names to records: the first element of each name, as a dictionary built in
    document order with `setdefault` would hold. A row is added only for an element that makes a record;
    `make` reads a row's record from the text. The last `KEPT` records asked for are kept (a name is often asked
    for twice in a row: whether it is there, then what it is), not more: some stages ask for every name an
    extension requires."""

    KEPT = 256

    def __init__(self, source: Source, table: Table, make: Callable[[int], R]) -> None:
        self.source = source
        self.table = table
        self.make = make
        self._found: dict[str, R | None] = {}

    def __getitem__(self, name: str) -> R:
        if name not in self._found:
            if len(self._found) >= self.KEPT:
                self._found.clear()
            records = (self.make(row) for row in self.table.rows(name))
            self._found[name] = next((record for record in records if record.name == name), None)
        found = self._found[name]
        if found is None:
            raise KeyError(name)
        return found

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        """The names in document order (every element read again: for tests, and small registries)."""
        seen: set[str] = set()
        for row in range(len(self.table)):
            name = self.make(row).name
            if name not in seen:
                seen.add(name)
                yield name

    def __len__(self) -> int:
        """How many names: only the elements whose names share a hash (one name, repeated) are read again."""
        return sum(1 if len(run) == 1 else len({self.make(row).name for row in run}) for run in self.table.runs())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Names) and self.table == other.table and self.source.spec == other.source.spec

    def __hash__(self) -> int:
        return hash(self.table)

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "_found": {}}


class Rope:
    """Text put together from many pieces (expat's, between tags) without keeping millions of small strings."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pending: list[str] = []

    def add(self, piece: str) -> None:
        self.pending.append(piece)
        if len(self.pending) >= 1024:
            self.parts.append("".join(self.pending))
            self.pending.clear()

    def __str__(self) -> str:
        return "".join(self.parts) + "".join(self.pending)

    def __bool__(self) -> bool:
        return bool(self.parts or self.pending)


class Words(Rope):
    """The words of text put together from pieces, joined by single spaces: `" ".join(text.split())`, made piece
    by piece (that expression, or one `re.sub`, would hold a list of every word of a text of millions)."""

    def __init__(self) -> None:
        super().__init__()
        self.spaced = True  # what was added so far ends in white space (or is nothing)

    def add(self, piece: str) -> None:
        words = _SPACES.sub(" ", piece)  # a piece is at most a few KiB
        if self.spaced and words.startswith(" "):
            words = words[1:]
        if words:
            super().add(words)
            self.spaced = words.endswith(" ")

    def __str__(self) -> str:
        return super().__str__().strip()


class Typedef:
    """Whether a text's words begin `typedef ` (then another word), told from its pieces as they come, keeping
    no more than the first word."""

    def __init__(self) -> None:
        self.head = ""
        self.answer: bool | None = None

    def add(self, piece: str) -> None:
        if self.answer is not None:
            return
        head = (self.head + piece).lstrip()
        first = head.split(None, 1)
        if len(first) == 2 or (head and head[-1].isspace()):  # the first word is whole
            self.answer = None if first[0] == "typedef" and len(first) == 1 else first == ["typedef", *first[1:]]
            self.head = "typedef "
        else:
            self.answer = None if "typedef".startswith(head) else False
            self.head = head
