"""Findings that do not stop a run: errata in the texts, conflicts between them, recoveries.

Stages report into a `Sink` (the idea of glad's sink): the run goes on, and every
finding ends up both on stderr and in the IR of the extension it concerns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from generator.source import Pos

Severity = Literal["warning", "note"]


@dataclass(frozen=True, order=True)
class Location:
    path: str
    pos: Pos

    def __str__(self) -> str:
        """`path:line`, the IR's form."""
        return f"{self.path}:{self.pos.line}"

    def precise(self) -> str:
        """`path:line:column`, for messages (a text with its line breaks lost has only line 1)."""
        return f"{self.path}:{self.pos.line}:{self.pos.column}"


@dataclass(frozen=True, order=True)
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
        return f"{self.where}: {self.severity}: {self.message}{also}"


@dataclass
class Sink:
    """Collects diagnostics; keeps the first of identical ones."""

    items: list[Diagnostic] = field(default_factory=list)
    _seen: set[Diagnostic] = field(default_factory=set, repr=False)

    def report(
        self,
        where: Location,
        severity: Severity,
        kind: str,
        message: str,
        *,
        extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        diagnostic = Diagnostic(where, severity, kind, message, extension, related)
        if diagnostic not in self._seen:  # a set: a corpus of 200 specs reports thousands
            self._seen.add(diagnostic)
            self.items.append(diagnostic)

    def warning(
        self, where: Location, kind: str, message: str, *, extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        self.report(where, "warning", kind, message, extension=extension, related=related)

    def note(
        self, where: Location, kind: str, message: str, *, extension: str | None = None,
        related: tuple[Location, ...] = (),
    ) -> None:
        self.report(where, "note", kind, message, extension=extension, related=related)
