"""Findings that do not stop a run: errata in the texts, conflicts between them, recoveries.

Stages report into a `Sink` (the idea of glad's sink): the run goes on, and every
finding ends up both on stderr and in the IR of the extension it concerns.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from generator.base.kinds import Kind
from generator.base.records import frozen, mutable
from generator.base.source import Pos

Severity = Literal["warning", "note"]


@frozen(order=True)
class Location:
    path: str
    pos: Pos

    def __str__(self) -> str:
        """`path:line`, the IR's form."""
        return f"{self.path}:{self.pos.line}"

    def precise(self) -> str:
        """`path:line:column`, for messages (a text with its line breaks lost has only line 1)."""
        return f"{self.path}:{self.pos.line}:{self.pos.column}"

    @property
    def kept_column(self) -> int | None:
        """The column, where the line alone does not place the text: on a text's first line (all there is of a
        text whose line breaks were lost). The IR keeps it beside `path:line`, and citations show it."""
        return self.pos.column if self.pos.line == 1 else None

    def cited(self) -> str:
        """Where a reader finds the text: `path:line`, and its `kept_column`."""
        return self.precise() if self.kept_column is not None else str(self)


@frozen(order=True)
class Diagnostic:
    """One finding. `kind` is a stable short name (`undefined-token`), `related` the other places involved."""

    where: Location
    severity: Severity
    kind: str
    message: str
    extension: str | None = None
    related: tuple[Location, ...] = ()

    def render(self) -> str:
        also = "".join(f" [see {place.precise()}]" for place in self.related)
        return f"{self.where.cited()}: {self.severity}: {self.message}{also}"


#: How many diagnostics saying the same thing (kind, message, extension) are listed one by one; the rest are
#: counted in one more. A text that repeats one fault a hundred thousand times (a token defined again and again
#: on one line) would otherwise make the IR, the docs and stderr a hundred thousand lines longer.
ALIKE = 10


@mutable
class Sink:
    """Collects diagnostics; keeps the first of identical ones, and the first `ALIKE` of those saying the same
    thing in other places (`finished` adds one that counts the others)."""

    items: list[Diagnostic] = field(default_factory=list)
    _seen: set[Diagnostic] = field(default_factory=set, repr=False)
    _alike: dict[tuple[str, str, str, str | None], int] = field(default_factory=dict, repr=False)
    _first: dict[tuple[str, str, str, str | None], Diagnostic] = field(default_factory=dict, repr=False)

    def report(
        self,
        where: Location,
        severity: Severity,
        kind: Kind,
        message: str,
        *,
        extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        diagnostic = Diagnostic(where, severity, kind, message, extension, related)
        if diagnostic in self._seen:  # a set: a corpus of 200 specs reports thousands
            return
        self._seen.add(diagnostic)
        key = (severity, kind, message, extension)
        count = self._alike.get(key, 0) + 1
        self._alike[key] = count
        if count <= ALIKE:
            self._first.setdefault(key, diagnostic)
            self.items.append(diagnostic)

    def finished(self) -> list[Diagnostic]:
        """Every diagnostic kept, and for each that was said more than `ALIKE` times, one that counts the rest."""
        more = [Diagnostic(first.where, first.severity, first.kind,
                           f"{first.message} ({self._alike[key] - ALIKE} more times like this, not listed one by one)",
                           first.extension)
                for key, first in self._first.items() if self._alike[key] > ALIKE]
        return self.items + more

    def warning(
        self, where: Location, kind: Kind, message: str, *, extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        self.report(where, "warning", kind, message, extension=extension, related=related)

    def note(
        self, where: Location, kind: Kind, message: str, *, extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        self.report(where, "note", kind, message, extension=extension, related=related)
