"""One extension's text, cut out of the book: an AsciiDoc text the AsciiDoc front-end reads as it reads an
extension's own, each of whose lines cites the book's file and line (or the XML element) it comes from.

What is the extension's: the lines inside a conditional that names it (and holds when it alone is set), the
reference pages of its commands, and its appendix page. Lines of core text come along only as the frame that
makes the cut read as the book does: the heading above, a reference page's opening and its "returns" sentence
(whose function the error items then belong to), a table's opening and header. The text is laid out as
`= <extension>`, the attribute entries (the book's, then the XML's dictionary), the page, the book's title (so
that the page's sections end there), the cut lines.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import field

from generator.base.diagnostics import Location
from generator.base.kinds import Kind
from generator.base.records import frozen, mutable
from generator.base.source import Pos, SpecFile
from generator.frontends.book import dictionary
from generator.frontends.book.blocks import ITEM, Blocks, Refpage, Table
from generator.frontends.book.preprocess import ENTRY, Book, Line, Note, holds
from generator.frontends.registry_xml import Registry

_PROTOS = "api/protos/"
#: The names in an XML `depends` expression (`CL_VERSION_1_2+(cl_khr_a,cl_khr_b)`).
_DEPENDED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A document's title: `= Title`.
_TITLE = re.compile(r"^=[ \t]+\S")
#: The generated include that marks a page as an extension's appendix page: `meta/<prefix><extension>.txt`.
META = "meta/"


@frozen
class Assembled:
    """The extension's text, and for each of its lines (0-based) where it comes from."""

    spec: SpecFile
    origins: tuple[Location, ...]
    notes: tuple[Note, ...] = ()
    generated_kinds: frozenset[str] = frozenset()  # the kinds of build-made includes left unanswered
    read: int = 0  # lines of the appendix page and of the book it holds that state something (`_states`): none
    #               when the book says nothing of the extension


def _states(text: str) -> bool:
    """A line that states something: neither blank nor a comment (`// ...`)."""
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("//")


def page_extension(line: Line) -> str | None:
    """The extension a `{generated}/meta/...<extension>.txt` include names, or None when it is no such include."""
    if line.generated is None or not line.generated.startswith(META) or not line.generated.endswith(".txt"):
        return None
    stem = posixpath.basename(line.generated)[: -len(".txt")]
    return re.sub(r"\{[^}]*\}", "", stem) or None


@mutable
class _Text:
    lines: list[str] = field(default_factory=list)
    origins: list[Location] = field(default_factory=list)

    def add(self, text: str, origin: Location) -> None:
        self.lines.append(text)
        self.origins.append(origin)


@mutable
class _Cut:
    """The walk over the extension's lines of the book, emitting each with the frame it needs once."""

    book: Book
    blocks: Blocks
    registry: Registry
    out: _Text
    notes: list[Note]
    unanswered: set[str]
    emitted: set[int] = field(default_factory=set)
    items: dict[int, list[int]] = field(default_factory=dict)  # an item's lines, by its first
    page: Refpage | None = None
    table: Table | None = None
    last: int = -2

    def line(self, index: int) -> None:
        page, table = self.blocks.refpages[index], self.blocks.tables[index]
        if table is not self.table:
            self.close_table()
        if page is not self.page:
            self.close_page()
        if index in self.emitted:
            return
        heading = self.blocks.headings[index]
        if heading not in (-1, index) and heading not in self.emitted and (page is None or heading < page.start):
            self.frame([heading])
        if page is not None and page is not self.page:
            self.frame([page.start, page.start + 1])
            self.page = page
        if page is not None and 0 <= page.errors < index and page.errors not in self.emitted:
            self.frame(self.returns(page))
        if table is not None and table is not self.table:
            self.frame(list(range(table.start, table.header_end + 1)))
            self.table = table
        self.frame(self.parent_item(index))
        self.emit(index)

    def parent_item(self, index: int) -> list[int]:
        """For a sub-item (`** if ...`), the lines of the item it belongs to (`* {CL_X}`): the code whose
        conditions the sub-items are; each item's lines found once, however many sub-items it has."""
        parent = self.blocks.parents[index]
        if parent < 0:
            return []
        if parent not in self.items:
            lines = [parent]
            while lines[-1] + 1 < len(self.book.lines) and self.book.lines[lines[-1] + 1].text.strip() \
                    and not ITEM.match(self.book.lines[lines[-1] + 1].text):
                lines.append(lines[-1] + 1)
            self.items[parent] = lines
        return [line for line in self.items[parent] if line < index]

    def returns(self, page: Refpage) -> list[int]:
        """The `// refError` line and the paragraph after it: "f returns ... one of the following errors:"."""
        taken = [page.errors]
        index = page.errors + 1
        while index < page.end and not self.book.lines[index].text.strip():
            index += 1
        while index < page.end and self.book.lines[index].text.strip() and not ITEM.match(self.book.lines[index].text):
            taken.append(index)
            index += 1
        return taken

    def frame(self, indices: list[int]) -> None:
        for index in indices:
            if index not in self.emitted:  # checked here too: a long item's lines are offered to every sub-item
                self.emit(index)

    def emit(self, index: int) -> None:
        if index in self.emitted:
            return
        line = self.book.lines[index]
        if index != self.last + 1 and self.out.lines and self.out.lines[-1].strip():
            self.out.add("", line.where)  # cut lines never run into the paragraph before them
        self.emitted.add(index)
        self.last = index
        if line.generated is None:
            self.out.add(line.text, line.where)
        else:
            answer(line, self.registry, self.out, self.notes, self.unanswered)

    def close_table(self) -> None:
        if self.table is not None and self.table.end not in self.emitted:
            self.emit(self.table.end)
        self.table = None

    def close_page(self) -> None:
        self.close_table()
        if self.page is not None and self.page.end not in self.emitted:
            self.emit(self.page.end)
        self.page = None


def answer(line: Line, registry: Registry, out: _Text, notes: list[Note], unanswered: set[str]) -> None:
    """An include of a file the build makes: a prototype answered from the XML; any other left out, its kind
    noted once for the run."""
    assert line.generated is not None
    if line.generated.startswith(_PROTOS):
        name = posixpath.basename(line.generated).rsplit(".", 1)[0]
        found = dictionary.prototype(registry, name)
        if found is not None:
            listing, where = found
            for text in listing:
                out.add(text, where)
            return
        notes.append(Note(line.where, Kind.UNANSWERED_PROTOTYPE, f"the build would include the prototype of {name} "
                          "here, but the registry XML declares no such command"))
        return
    unanswered.add(posixpath.dirname(line.generated) or line.generated)


def indices(book: Book, blocks: Blocks, extension: str, commands: frozenset[str],
            defined: Callable[[str], bool]) -> Iterator[int]:
    """The extension's lines in book order: inside a conditional naming it, or on a reference page of one of its
    commands; each holding when the extension alone is set. A line of a file read more than once (by two books
    of the checkout, or included twice) is taken where it is first met: one line of the text states its
    condition once."""
    named: dict[int, bool] = {}
    taken: set[Location] = set()
    for index, line in enumerate(book.lines):
        scope_id = id(line.scope)
        if scope_id not in named:
            named[scope_id] = any(extension in c.names and not c.negated and c.expression is None for c in line.scope)
        page = blocks.refpages[index]
        if (named[scope_id] or (page is not None and page.name in commands)) and holds(line.scope, defined) \
                and line.where not in taken:
            taken.add(line.where)
            yield index


def built_with(extension: str, registry: Registry) -> frozenset[str]:
    """The extensions a build for `extension` sets: it, and those it depends on (the XML's `depends`, followed),
    whose text a layered extension's lines lie inside (the base extension's `ifdef` around the pages of the
    extension built on it)."""
    found, todo = {extension}, [extension]
    while todo:
        entry = registry.extensions.get(todo.pop())
        for name in _DEPENDED.findall(entry.depends if entry is not None else ""):
            if name in registry.extensions and name not in found:
                found.add(name)
                todo.append(name)
    return frozenset(found)


def assemble(extension: str, book: Book, blocks: Blocks, page: Book | None, registry: Registry) -> Assembled:
    defined = book.defined(built_with(extension, registry))
    found = registry.extensions.get(extension)
    commands = frozenset(r.name for r in found.required if r.kind == "command") if found is not None else frozenset()
    notes: list[Note] = []
    unanswered: set[str] = set()
    body = _Text()
    read = 0
    if page is not None:  # first: its new enums tell the error codes the reference pages use
        for line in page.lines:
            if page_extension(line) == extension or not holds(line.scope, defined):
                continue
            if line.generated is None:
                body.add(line.text, line.where)
            else:
                answer(line, registry, body, notes, unanswered)
        read = sum(map(_states, body.lines))
        book_title = next((line for line in book.lines if _TITLE.match(line.text)), None)
        if book_title is not None:  # the page's sections end where the book's text begins
            body.add("", book_title.where)
            body.add(book_title.text, book_title.where)
    cut = _Cut(book, blocks, registry, body, notes, unanswered)
    for index in indices(book, blocks, extension, commands, defined):
        cut.line(index)
        read += _states(book.lines[index].text)
    cut.close_page()
    head = _Text()
    title = page.lines[0].where if page is not None else (found.where if found else Location("", Pos(1, 1)))
    head.add(f"= {extension}", title)
    head.add("", title)
    _entries(body, book, defined, registry, head)
    head.add("", title)
    text = "\n".join(head.lines + body.lines) + "\n"
    spec = SpecFile(title.path, text)
    return Assembled(spec, tuple(head.origins + body.origins), tuple(notes), frozenset(unanswered), read)


def _entries(body: _Text, book: Book, defined: Callable[[str], bool], registry: Registry, head: _Text) -> None:
    """An attribute entry for each reference of the cut lines: the book's own where it sets the name (a value of
    several lines joined into one), else the XML's dictionary entry."""
    referenced: dict[str, None] = {}
    for text in body.lines:
        referenced.update(dict.fromkeys(dictionary.REFERENCE.findall(text)))
    own = _book_entries(book, defined)
    for reference in referenced:
        if reference in own:
            value, where = own[reference]
            head.add(f":{reference}: {value}", where)
        elif (found := dictionary.defined(registry, reference)) is not None:
            head.add(f":{reference}: {found[0]}", found[1])


def _book_entries(book: Book, defined: Callable[[str], bool]) -> dict[str, tuple[str, Location]]:
    """The book's attribute entries that hold, by name: the last value set, its lines joined where each but the
    last ends in a backslash."""
    entries: dict[str, tuple[str, Location]] = {}
    lines = book.lines
    index = 0
    while index < len(lines):
        entry = ENTRY.match(lines[index].text)
        if entry is None or not holds(lines[index].scope, defined):
            index += 1
            continue
        parts, where = [entry["value"] or ""], lines[index].where
        while parts[-1].endswith("\\") and index + 1 < len(lines):
            parts[-1] = parts[-1][:-1].rstrip()
            index += 1
            parts.append(lines[index].text.strip())
        if entry["unset"] or entry["after"]:
            entries.pop(entry["name"], None)
        else:
            entries[entry["name"]] = (" ".join(p for p in parts if p), where)
        index += 1
    return entries
