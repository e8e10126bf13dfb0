"""Which extension a document describes: the naming part of `extract`'s walk.

A text states its extension string in a Name Strings section (the first there; a note names the others, which
are not generated), else its prose names one ("the cl_x_y extension"), else a word of its title or of a
chapter's id (`The cl_x_y Extension`, `cl_x_y-opencl`) is the last resort. A text cut out of a book for
`--extension` is that extension's whatever its prose says.
"""

from __future__ import annotations

import re

from generator.base import phrases
from generator.base.diagnostics import Location
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import Remark, SourceFacts
from generator.frontends.document import Document

#: What markup and punctuation put around a word (`+cl_x_y+`, `*cl_x_y*`, `"cl_x_y"`, `cl_x_y,`).
MARKUP = "+*`'\"_()[]<>.,:;"
#: Where a title or an anchor parts its words (`cl_x_y-opencl`, `cl_x_y__overview`, the 2017 texts' anchors).
_TITLE_WORDS = re.compile(r"[\s\-]+|__")


class ExtensionNamer:
    """Sets `facts.extension` (and where it is stated) as the walk reads the document's sentences and titles."""

    def __init__(self, facts: SourceFacts, knowledge: Knowledge) -> None:
        self.facts = facts
        self.knowledge = knowledge
        self.stated = False  # the Name Strings section named the extension: prose does not rename it
        self.titled: list[tuple[str, Location]] = []  # document and chapter titles and ids, the last resort

    def title(self, title: str, where: Location) -> None:
        self.titled.append((title, where))

    def sentence(self, text: str, where: Location, section: str) -> None:
        """A sentence of `section`: a Name Strings section's names, or prose that names the extension."""
        facts = self.facts
        if section == "name":
            words = [word.strip(MARKUP) for word in text.split()]
            name = next(iter(words), "")
            if not self.stated and self.knowledge.extension_parts(name):
                facts.extension, facts.extension_where = name, where
                self.stated = True
            others = [w for w in dict.fromkeys(words) if w != facts.extension
                      and self.knowledge.extension_parts(w)] if self.stated else []
            if others:
                facts.remarks.append(Remark(where, Kind.OTHER_NAMES, f"the text names other extension strings too "
                                            f"({', '.join(others)}): it is read as describing {facts.extension}, "
                                            "and they are not generated", True))
        elif facts.extension is None and (named := phrases.EXTENSION_NAMED.search(text)):
            name = named["name"] or named["stated"]
            if self.knowledge.extension_parts(name):
                facts.extension, facts.extension_where = name, where

    def finish(self, document: Document) -> None:
        """A cut out of a book is the extension it was cut for; a text that named none is named by a title."""
        facts = self.facts
        if document.extension is not None:
            where = document.locate(Pos(1, 1))
            if facts.extension not in (None, document.extension):
                facts.remarks.append(Remark(facts.extension_where or where, Kind.OTHER_NAMES, f"the text names "
                                            f"{facts.extension} as the extension it describes; cut out of the book "
                                            f"for {document.extension}, it is read as that one's", note=True))
            facts.extension, facts.extension_where = document.extension, where
            return
        for title, where in self.titled if facts.extension is None else ():
            for word in (w.strip(MARKUP) for w in _TITLE_WORDS.split(title)):
                if self.knowledge.extension_parts(word) and word not in self.knowledge.core_types:
                    facts.extension, facts.extension_where = word, where
                    return
