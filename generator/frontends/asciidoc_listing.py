"""What an AsciiDoc listing block (`----`) holds: token definitions, C declarations, or both, else code to read.

The specs put their API in listings: prototypes, `NAME value` lines, and (in the current vendor texts) a
typedef followed by its values in one block, with C comments between. Sample code is in listings too; it is
kept as text, marked as code, so that a listing in an API section that is neither can be reported.
"""

from __future__ import annotations

import re

from generator.base.source import Pos, SpecFile
from generator.frontends.common import DECLARATION_START, collapse, declarations, token_definitions
from generator.frontends.document import Block, Paragraph

#: A declaration's first line with more than one word before its `(` (`cl_int CL_API_CALL clFoo(`), or a
#: typedef; possessive runs, so a line of words and blanks is read once.
_DECLARATION = re.compile(r"\s*+(?:typedef\s|(?:const\s++)?[A-Za-z_]\w*+(?:[\s*]++[A-Za-z_]\w*+)++\s*+\()")
_TYPEDEF = re.compile(r"\s*+typedef\s")
#: What prototypes never hold and statements do: a body, an assignment, an address, a string.
_STATEMENT = re.compile(r"[{}=&\"]")
#: A comment alone on its line (`// ...` or `/* ... */`).
_COMMENT = re.compile(r"^\s*+(?://.*|/\*.*\*/\s*+)$")


def listing(code: str, spec: SpecFile, origin: Pos) -> list[Block]:
    """The blocks of a listing whose first line is at `origin`."""
    tokens = token_definitions(code, spec, origin)
    if tokens is not None:
        return tokens
    mixed = _runs(code, spec, origin)
    if mixed is not None:
        return mixed
    return [Paragraph(collapse(code), origin, code=True)] if code.strip() else []


def _runs(code: str, spec: SpecFile, origin: Pos) -> list[Block] | None:
    """Token lines, and runs of declarations between them; None when a run is not declarations (code).

    A preprocessor line that is no token definition is never C: it ends a run, and stays as code of its own
    (reported where the API is declared, as code that cannot be read).
    """
    lines = ["" if _COMMENT.match(line) else line for line in code.split("\n")]
    blocks: list[Block] = []
    start = 0  # the first line of the run of declaration lines being gathered
    for index, line in enumerate([*lines, None]):
        tokens = token_definitions(line, spec, Pos(origin.line + index, 1)) if line is not None else None
        directive = line is not None and tokens is None and line.lstrip().startswith("#")
        if tokens is None and line is not None and not directive:
            continue
        run = "\n".join(lines[start:index])
        if run.strip():
            if not _declares(run):
                return None
            first = start + next(i for i, text in enumerate(lines[start:index]) if text.strip())
            blocks.extend(declarations("\n".join(lines[first:index]), spec, Pos(origin.line + first, 1)))
        blocks.extend(tokens or [])
        if directive and line is not None:
            blocks.append(Paragraph(line.strip(), Pos(origin.line + index, 1), code=True))
        start = index + 1
    return blocks or None


def _declares(run: str) -> bool:
    """Whether a run of lines is C declarations: a typedef first (a struct's or an enum's holds braces and
    values), or a declaration first and nothing only statements hold."""
    if _TYPEDEF.match(run):
        return True
    return bool(DECLARATION_START.match(run) or _DECLARATION.match(run)) and not _STATEMENT.search(run)
