"""Asciidoctor's preprocessor, run once over a whole book: includes followed, conditionals kept for later.

Which conditional blocks hold depends on the extension generated, and a run may generate many from one reading:
so every line keeps the conditionals it lies inside (its `scope`), and `holds` judges a scope for one extension.
Includes are followed only inside the checkout (`SpecFile.read` beneath its root: no link out, no FIFO), each
file read once however often it is included. Bounds, each an input error past it: includes 64 deep (Asciidoctor's
own default), conditionals 64 deep, and 64 MiB of text or 2**19 lines in all, the book and the pages
read beside it together, so that files including each other many times over cannot make a run grow without end.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path

from lark import Token, Tree

from generator.base import grammars
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.kinds import Kind
from generator.base.records import frozen, mutable
from generator.base.source import SPECS, Pos, SpecFile

MOST_DEPTH = 64
MOST_NESTING = 64
MOST_BYTES = 64 * 1024 * 1024
#: Lines in all (the 2026 book has 28,000): each costs far more than its text, so that a short line included
#: over and over (files that include each other a few hundred times each) held gigabytes within the size bound.
MOST_LINES = 1 << 19

#: The attribute the spec build points at the files it makes from the registry XML.
GENERATED = "generated"

#: A line that may be a directive: its name and `::` (a leading `\` escapes it).
_DIRECTIVE = re.compile(r"^(\\?)(include|ifdef|ifndef|ifeval|endif)::")
#: An attribute entry: `:name: value`, `:name!:` or `:!name:` (unset).
ENTRY = re.compile(r"^:(?P<unset>!?)(?P<name>[A-Za-z0-9_][A-Za-z0-9_-]*)(?P<after>!?):(?:[ \t]+(?P<value>.*))?$")
_REFERENCE = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}")
#: Include attributes that select part of a file, which this reader does not do.
_SELECTING = re.compile(r"\b(lines|tags?)=")


@frozen
class Condition:
    """An `ifdef`, `ifndef` or `ifeval` a line lies inside."""

    names: tuple[str, ...]
    every: bool  # `a+b`: all of them set; `a,b`: any
    negated: bool  # ifndef
    where: Location
    expression: str | None = None  # ifeval: an expression on values the build sets, which a run cannot know

    def holds(self, defined: Callable[[str], bool]) -> bool:
        if self.expression is not None:
            return False
        test = all if self.every else any
        return test(defined(name) for name in self.names) != self.negated

    def shown(self) -> str:
        if self.expression is not None:
            return f"ifeval::[{self.expression}]"
        kind = "ifndef" if self.negated else "ifdef"
        return f"{kind}::{('+' if self.every else ',').join(self.names)}[]"


@frozen
class Line:
    """One line of the book where it stands, and the conditionals around it. `generated`: for an include of a
    file the spec build makes (`include::{generated}/api/protos/f.txt[]`), the path after `{generated}/`."""

    where: Location
    text: str
    scope: tuple[Condition, ...] = ()
    generated: str | None = None


@frozen
class Note:
    """What the reading passed over, said where it stands."""

    where: Location
    kind: Kind
    message: str


@frozen
class Book:
    lines: tuple[Line, ...]
    files: dict[str, SpecFile] = field(compare=False, repr=False)  # each file read, by its cited path
    attributes: frozenset[str] = frozenset()  # the names the book's attribute entries set
    notes: tuple[Note, ...] = ()

    def defined(self, selected: frozenset[str]) -> Callable[[str], bool]:
        """Whether an attribute is set when the book is built for the `selected` extensions: those, and what the
        book sets itself."""
        return lambda name: name in selected or name in self.attributes


def holds(scope: tuple[Condition, ...], defined: Callable[[str], bool]) -> bool:
    return all(condition.holds(defined) for condition in scope)


@mutable
class _Open:
    """A file being read: where it is, and the lines left."""

    spec: SpecFile
    lines: Iterator[tuple[int, str]]


@mutable
class Budget:
    """What a run has read so far, the book and every page beside it together: the bounds are the run's."""

    size: int = 0
    lines: int = 0


@mutable
class _Reader:
    root: Path
    budget: Budget
    files: dict[str, SpecFile] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    attributes: set[str] = field(default_factory=set)
    scope: tuple[Condition, ...] = ()

    def read(self, first: str) -> None:
        stack = [self.opened(first, None)]
        while stack:
            spec_lines = stack[-1]
            found = next(spec_lines.lines, None)
            if found is None:
                stack.pop()
                continue
            number, text = found
            where = Location(spec_lines.spec.path, Pos(number, 1))
            budget = self.budget
            budget.size += len(text) + 1
            budget.lines += 1
            if budget.size > MOST_BYTES or budget.lines > MOST_LINES:
                grown = f"{MOST_BYTES // 1024 // 1024} MiB" if budget.size > MOST_BYTES else f"{MOST_LINES:,} lines"
                raise spec_lines.spec.error(where.pos, f"the book (with the pages beside it) grows past {grown} "
                                            "through its includes here: files that include each other over and over?")
            included = self.line(spec_lines.spec, where, text)
            if included is not None:
                if len(stack) >= MOST_DEPTH:
                    raise spec_lines.spec.error(where.pos, f"includes nested more than {MOST_DEPTH} deep: "
                                                "files that include each other?")
                if any(open_.spec.path == included for open_ in stack):
                    chain = " includes ".join([*(o.spec.path for o in stack), included])
                    raise spec_lines.spec.error(where.pos, f"an include cycle: {chain}")
                stack.append(self.opened(included, where))
        if self.scope:
            opened = self.scope[-1]
            raise self.files[opened.where.path].error(opened.where.pos, f"{opened.shown()} is never closed "
                                                      "(no endif:: follows it)")

    def opened(self, cited: str, where: Location | None) -> _Open:
        spec = self.files.get(cited)
        if spec is None:
            relative = cited.removeprefix(f"{SPECS}/")
            try:
                spec = SpecFile.read(self.root / relative, self.root)
            except InputError as error:
                if where is None:
                    raise
                including = self.files[where.path]
                raise including.error(where.pos, f"cannot include {cited}: {error.message}") from None
            self.files[cited] = spec
        return _Open(spec, enumerate(spec.text.split("\n"), start=1))

    def line(self, spec: SpecFile, where: Location, text: str) -> str | None:
        """Take one line; the cited path of a file to include, when it is an include of one."""
        directive = _DIRECTIVE.match(text)
        if directive is None:
            self.entry(text)
            self.lines.append(Line(where, text, self.scope))
            return None
        if directive[1]:  # escaped: text, without its backslash
            self.lines.append(Line(where, text[1:], self.scope))
            return None
        try:
            tree = grammars.grammar("asciidoc_preprocessor").parse(text.rstrip())
        except Exception:
            self.notes.append(Note(where, Kind.UNREAD_DIRECTIVE, f"`{text.strip()[:80]}` is not read as a "
                                   f"{directive[2]} directive (its form is not one Asciidoctor reads): kept as text"))
            self.lines.append(Line(where, text, self.scope))
            return None
        node = tree.children[0]
        assert isinstance(node, Tree)
        if node.data == "include":
            return self.include(spec, where, node)
        if node.data == "endif":
            self.endif(spec, where, node)
            return None
        self.conditional(spec, where, node)
        return None

    def entry(self, text: str) -> None:
        entry = ENTRY.match(text)
        if entry is None:
            return
        unset, name, unset_after, value = entry.groups()
        if unset or unset_after:
            self.values.pop(name, None)
        else:
            self.values[name] = value or ""
            self.attributes.add(name)

    def include(self, spec: SpecFile, where: Location, node: Tree[Token]) -> str | None:
        target = str(node.children[0]).strip()
        options = str(node.children[1]) if len(node.children) > 1 else ""
        if target.startswith(f"{{{GENERATED}}}/"):
            self.lines.append(Line(where, f"include::{target}[]", self.scope, target.split("/", 1)[1]))
            return None
        missing = [name for name in _REFERENCE.findall(target) if name not in self.values]
        if missing:
            self.notes.append(Note(where, Kind.UNREAD_INCLUDE, f"include::{target}[] is not read: the attribute "
                                   f"{{{missing[0]}}} is set by the build, not by the book (Asciidoctor drops the "
                                   "line too)"))
            return None
        resolved = _REFERENCE.sub(lambda m: self.values[m[1]], target)
        folder = posixpath.dirname(where.path.removeprefix(f"{SPECS}/"))
        relative = posixpath.normpath(posixpath.join(folder, resolved))
        if resolved.startswith("/") or relative == ".." or relative.startswith("../") or "://" in resolved:
            raise spec.error(where.pos, f"include::{target}[] leads out of the checkout: a book is read only from "
                             "inside the folder given")
        if _SELECTING.search(options):
            self.notes.append(Note(where, Kind.WHOLE_INCLUDE, f"include::{target}[{options}] selects part of the "
                                   "file, which this reader does not do: the whole file is read"))
        return f"{SPECS}/{relative}"

    def conditional(self, spec: SpecFile, where: Location, node: Tree[Token]) -> None:
        if node.data == "ifeval":
            condition = Condition((), False, False, where, str(node.children[0]))
            self.notes.append(Note(where, Kind.IFEVAL, f"{condition.shown()} compares values the build sets, which the "
                                   "run cannot know: its block is left out"))
            content = None
        else:
            kind, names = node.children[0], node.children[1]
            assert isinstance(names, Tree)
            condition = Condition(tuple(str(n) for n in names.children), names.data == "every",
                                  str(kind) == "ifndef::", where)
            content = str(node.children[2]) if len(node.children) > 2 else None
        if content is not None:  # `ifdef::a[text]`: one line of text, under its condition
            self.lines.append(Line(where, content, (*self.scope, condition)))
            return
        if len(self.scope) >= MOST_NESTING:
            raise spec.error(where.pos, f"conditionals nested more than {MOST_NESTING} deep")
        self.scope = (*self.scope, condition)

    def endif(self, spec: SpecFile, where: Location, node: Tree[Token]) -> None:
        if not self.scope:
            raise spec.error(where.pos, "endif:: with no ifdef::, ifndef:: or ifeval:: open")
        opened = self.scope[-1]
        if node.children:
            names = node.children[0]
            assert isinstance(names, Tree)
            closing = tuple(str(n) for n in names.children)
            if opened.expression is not None or closing != opened.names or (names.data == "every") != opened.every:
                raise spec.error(where.pos, f"this endif:: does not close {opened.shown()}, which is open since "
                                 f"{opened.where.precise()}")
        self.scope = self.scope[:-1]


def read(root: Path, first: str, budget: Budget | None = None) -> Book:
    """The book whose first file is `first` (a cited path, `specs/<path under root>`), includes followed."""
    reader = _Reader(root, budget or Budget())
    reader.read(first)
    return Book(tuple(reader.lines), reader.files, frozenset(reader.attributes), tuple(reader.notes))


def read_all(root: Path, firsts: tuple[str, ...], budget: Budget) -> Book:
    """The books whose first files are `firsts`, read as one (a checkout may hold several)."""
    reader = _Reader(root, budget)
    for first in firsts:
        reader.read(first)
    return Book(tuple(reader.lines), reader.files, frozenset(reader.attributes), tuple(reader.notes))
