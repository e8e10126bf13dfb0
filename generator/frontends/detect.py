"""Which format a spec file is written in, told from its content alone (never its name).

Each format has marks that only it leaves; the format with the most marks, and
at least its minimum, wins. A Markdown note among the specs (a README) is
recognised so that it can be skipped; anything else unrecognised is an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.base.source import Pos, SpecFile
from generator.frontends import asciidoc, collapsed, refpage, registry

#: Not a specification: recognised and skipped.
NOTES = "markdown"

#: Titles of the Khronos extension template: the short fields first, then the sections.
FIELD_TITLES = ("Name Strings?", "Contact", "Contributors", "Status", "Version", "Number", "Dependencies")
SECTION_TITLES = ("Overview", "Issues", "New Procedures and Functions", "New Tokens", "New Types", "Revision History")
_TITLE_LINE = re.compile(rf"^({'|'.join(FIELD_TITLES + SECTION_TITLES)})[ \t]*$", re.M)
_TITLE_INLINE = re.compile(rf"(?<!\S)({'|'.join(SECTION_TITLES)})(?=\s)")
#: AsciiDoc's titles, anchors, table delimiters, source listings, attribute entries and preprocessor lines.
_ASCIIDOC = re.compile(r"^(={1,6} \S.*|\[\[[^\]\n]+\]\]|\|={3,}|\[source(?:,[^\]\n]*)?\]|\[cols=.*"
                       r"|:[A-Za-z][\w-]*+!?:(?: .*)?|(?:ifn?def|endif|include)::[^\[\n]*\[.*\])[ \t]*$", re.M)
_MAN_MARKS = re.compile(r"^[ \t]*•|\b\w+\(\d\w*\)|^\w+ - \S", re.M)
_LONE_IDENTIFIER = re.compile(r"^[a-z]+(_[a-z0-9]+)+$", re.M)
_SUCCESS_SENTENCE = re.compile(r"\bif the function (is )?executed successfully")
_MARKDOWN = re.compile(r"^(#{1,6} \S.*|\|\s*-{3,}\s*\|.*)$", re.M)

#: A text whose longest line holds more than this share of it has lost its line breaks.
_COLLAPSED_SHARE = 0.5


@dataclass(frozen=True)
class Format:
    name: str
    minimum: int
    marks: Callable[[str], int]
    what: str


def _longest_line(text: str) -> int:
    return max((len(line) for line in text.split("\n")), default=0)


def _collapsed_lines(text: str) -> bool:
    return _longest_line(text) > _COLLAPSED_SHARE * len(text)


def _registry(text: str) -> int:
    return 0 if _collapsed_lines(text) else len(_TITLE_LINE.findall(text))


def _collapsed(text: str) -> int:
    return len(_TITLE_INLINE.findall(text)) if _collapsed_lines(text) else 0


def _refpage(text: str) -> int:
    marks = len(_MAN_MARKS.findall(text)) + len(_LONE_IDENTIFIER.findall(text))
    return marks + 3 * bool(_SUCCESS_SENTENCE.search(text))


FORMATS = (
    Format(registry.FORMAT, 2, _registry, "template section titles alone on their lines"),
    Format(collapsed.FORMAT, 2, _collapsed, "template section titles inside one line holding most of the text"),
    Format(asciidoc.FORMAT, 3, lambda t: len(_ASCIIDOC.findall(t)),
           "AsciiDoc titles, anchors, tables, listings, attribute entries and include lines"),
    Format(refpage.FORMAT, 3, _refpage,
           "man-page bullets and references, parameter names on their own lines, a return-value sentence"),
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
