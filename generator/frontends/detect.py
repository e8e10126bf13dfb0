"""Which format a spec file is written in, told from its content alone (never its name).

Each front end states the marks only its format leaves (its `DETECTION`); the format with the most marks, and
at least its minimum, wins. A Markdown note among the specs (a README) is recognised so that it can be
skipped, but only where no spec format fits at all: a spec that ends in (or holds) Markdown headings is a spec,
however many (`note_like` lets the pipeline pass over a README that some spec format fits by chance, once
reading it as that format found nothing of a spec). Anything else unrecognised is an error.
"""

from __future__ import annotations

import re

from generator.base.source import Pos, SpecFile
from generator.frontends import asciidoc, collapsed, refpage, registry
from generator.frontends.common import Format

#: Not a specification: recognised and skipped.
NOTES = "markdown"

_MARKDOWN = re.compile(r"^(#{1,6} \S.*|\|\s*-{3,}\s*\|.*)$", re.M)

#: The spec formats, in this order: of two with as many marks, the first wins.
SPEC_FORMATS = (
    registry.DETECTION,
    collapsed.DETECTION,
    asciidoc.DETECTION,
    refpage.DETECTION,
)
_NOTE = Format(NOTES, 2, lambda t: len(_MARKDOWN.findall(t)), "Markdown headings and tables")
#: Not a specification but where one is now: a short text giving an address (the registry's old texts that say
#: the extension is no longer written in plain text). Passed over with a warning that names it.
POINTERS = "pointer"
_URL = re.compile(r"\bhttps?://[^\s<>\"]+")
_POINTER = Format(POINTERS, 1, lambda t: len(_URL.findall(t)) if t.count("\n") < 40 else 0,
                  "a short text giving the address of the specification")
FORMATS = (*SPEC_FORMATS, _NOTE, _POINTER)


def detect(spec: SpecFile) -> str:
    """The name of the format of `spec`: the spec format with the most marks, else `NOTES` for a Markdown note;
    an `InputError` naming the file when none fits."""
    if not spec.text.strip():
        hidden = sum(found.count for found in spec.normalised if found.kind in ("invisible", "space"))
        raise spec.error(Pos(1, 1), f"empty file{f' but for {hidden} invisible or space characters' if hidden else ''}"
                         ": not a specification")
    scores = {f.name: f.marks(spec.text) for f in SPEC_FORMATS}
    fitting = [f for f in SPEC_FORMATS if scores[f.name] >= f.minimum]
    if fitting:
        return max(fitting, key=lambda f: scores[f.name]).name
    if _NOTE.marks(spec.text) >= _NOTE.minimum:
        return NOTES
    if _POINTER.marks(spec.text) >= _POINTER.minimum:
        return POINTERS
    looked_for = "; ".join(f"{f.name} ({f.what})" for f in SPEC_FORMATS)
    raise spec.error(Pos(1, 1), f"cannot recognise the format of this file; looked for: {looked_for}")


def note_like(spec: SpecFile, form: str) -> bool:
    """Whether `spec`, read as `form`, has more of a Markdown note's marks than of that format's: a README that a
    spec format fits by chance, to be passed over when reading it finds nothing of a spec."""
    marks = next(f.marks for f in SPEC_FORMATS if f.name == form)
    return _NOTE.marks(spec.text) > marks(spec.text)
