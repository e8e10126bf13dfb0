"""The registry XML kept small: its text, and where each named element starts, read again when a name is asked.

An 8 MiB registry may hold two million elements. Built as a tree (an object, a dictionary of attributes and a
list of children and of text pieces for each) it took up to 2 GiB; as a dictionary of its names alone, some
130 bytes a name. What `registry_xml` keeps instead is the text (which the run keeps anyway) and, for each
element a name finds (an enum, a command, a type, an extension, a name an extension requires), a `Table` row
of 28 bytes: where the element starts, its line and column, and the place of the element it stands
in. Rows are sorted by a hash of the name, so a name is found by bisection, and the element is read again
from its start (`registry_reading.walk`) to make its record and check its name. The texts of a run ask for a few hundred
names; every read is of one element.

The text is read, whole or from an element's start, by `registry_reading`.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from hashlib import blake2b
from typing import Generic, Protocol, TypeVar

from generator.base.source import Pos
from generator.frontends.registry_reading import NONE, Source

_SPACES = re.compile(r"\s+")
#: Rows of a table: the hash of a name in the high bits of a row's key, its row number (document order) in
#: the low ones, so that sorting the keys sorts by hash, then by place.
_ROW_BITS = 24
_ROW_MASK = 2**_ROW_BITS - 1


def name_hash(name: str) -> int:
    """A hash of a name that is the same in every process (the index crosses from a reading child to the run)."""
    digest = blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> _ROW_BITS


class Table:
    """The elements of one kind, by the hash of their names: for each, where it starts and stands. Rows are added
    in document order; `finish` sorts them for lookups."""

    def __init__(self) -> None:
        self.keys = array("Q")
        self.starts = array("I")
        self.lines = array("I")
        self.columns = array("I")
        self.parents = array("I")  # the element it stands in that its record needs (an enum's `<enums>`, ...)
        self.owners = array("I")  # for a name an extension requires: the extension's row

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
