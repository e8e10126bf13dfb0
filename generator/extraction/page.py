"""What a document says as a whole, read before its blocks are walked one by one: whether it has the template's
summary, the function a reference page describes (its subject) and that function's parameters, the one function
a summary declares, and the revision its version-history table gives last."""

from __future__ import annotations

import re
from collections import Counter

from generator.base import phrases
from generator.base.c_decl import CFunction
from generator.base.knowledge import Knowledge
from generator.frontends.document import Definition, Document, Heading, Prototype, Table

#: A name, not one already marked `<name>`.
WORD = re.compile(r"(?<![<\w])[A-Za-z_]\w*(?![\w>])")


def latest_version(table: Table) -> str | None:
    """The version a version-history table gives last: in its row of the latest date (ISO dates sort as text),
    else in its last row."""
    header = [cell.strip().lower() for cell in table.header or ()]
    column = next((i for i, name in enumerate(header) if name in ("version", "revision")), None)
    if column is None:
        return None
    dated = next((i for i, name in enumerate(header) if name == "date"), None)
    rows = [row for row in table.rows if len(row.cells) > max(column, dated or 0)]
    if not rows:
        return None
    return (max(rows, key=lambda row: row.cells[dated]) if dated is not None else rows[-1]).cells[column]


def has_summary(document: Document) -> bool:
    return any(isinstance(b, Heading) and phrases.section_kind(b.title) == "summary" for b in document.blocks)


def subject(document: Document, knowledge: Knowledge) -> str | None:
    """The function a page without a summary describes: its prototype's, else the one it names most."""
    for block in document.blocks:
        if isinstance(block, Prototype):
            return block.function.name
    counts: Counter[str] = Counter()
    for block in document.blocks:
        text = getattr(block, "text", "")
        counts.update(word for word in WORD.findall(text) if knowledge.is_function_name(word))
    return counts.most_common(1)[0][0] if counts else None


def sole_function(document: Document) -> str | None:
    """The one function a text's summary declares (its description may stay in the summary), else None."""
    section, names = None, set()
    for block in document.blocks:
        if isinstance(block, Heading):
            section = phrases.section_kind(block.title) or section
        elif isinstance(block, Prototype) and section == "summary":
            names.add(block.function.name)
    return names.pop() if len(names) == 1 else None


def page_function(document: Document, subject: str | None) -> CFunction | None:
    """The function a reference page describes: its prototype, or only a name when the page lost it."""
    if subject is None:
        return None
    for block in document.blocks:
        if isinstance(block, Prototype) and block.function.name == subject:
            return block.function
    return CFunction(subject, "", (), document.blocks[0].pos)


def page_parameters(document: Document, subject: str | None) -> set[str]:
    names: set[str] = set()
    for block in document.blocks:
        if isinstance(block, Prototype) and block.function.name == subject:
            names.update(p.name for p in block.function.params if p.name)
        elif isinstance(block, Definition):
            names.update(block.terms)
    return names
