"""Which format a spec file is written in, told from its content alone (never its name).

Each front end states the marks only its format leaves (its `DETECTION`); the format with the most marks, and
at least its minimum, wins. A Markdown note among the specs (a README) is recognised so that it can be
skipped; anything else unrecognised is an error.
"""

from __future__ import annotations

import re

from generator.base.source import Pos, SpecFile
from generator.frontends import asciidoc, collapsed, refpage, registry
from generator.frontends.common import Format

#: Not a specification: recognised and skipped.
NOTES = "markdown"

_MARKDOWN = re.compile(r"^(#{1,6} \S.*|\|\s*-{3,}\s*\|.*)$", re.M)

#: In this order: of two formats with as many marks, the first wins.
FORMATS = (
    registry.DETECTION,
    collapsed.DETECTION,
    asciidoc.DETECTION,
    refpage.DETECTION,
    Format(NOTES, 2, lambda t: len(_MARKDOWN.findall(t)), "Markdown headings and tables"),
)


def detect(spec: SpecFile) -> str:
    """The name of the format of `spec`; an `InputError` naming the file when none fits."""
    if not spec.text.strip():
        raise spec.error(Pos(1, 1), "empty file: not a specification")
    scores = {f.name: f.marks(spec.text) for f in FORMATS}
    fitting = [f for f in FORMATS if scores[f.name] >= f.minimum]
    if not fitting:
        looked_for = "; ".join(f"{f.name} ({f.what})" for f in FORMATS if f.name != NOTES)
        raise spec.error(Pos(1, 1), f"cannot recognise the format of this file; looked for: {looked_for}")
    return max(fitting, key=lambda f: scores[f.name]).name
