"""Stage 5: errata, found by reading each text against itself and its siblings."""

from __future__ import annotations

from generator.diagnostics import Sink
from generator.facts import SourceFacts
from generator.knowledge import Knowledge
from generator.model import Extension


def check(extensions: list[Extension], facts: list[SourceFacts], knowledge: Knowledge, sink: Sink) -> None:
    return None
