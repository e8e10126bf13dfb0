"""The two exceptions that stop a run: bad input (`InputError`, exit 2) and a fault of the generator (`SchemaError`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.source import Pos

#: How much of a long line to show on each side of the caret.
_CONTEXT = 60


class InputError(Exception):
    """A spec file the generator cannot use. Carries what the user needs to find the fault."""

    def __init__(self, path: str, pos: Pos | None, message: str, line_text: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.pos = pos
        self.message = message
        self.line_text = line_text

    def __str__(self) -> str:
        return self.render()

    def render(self, severity: str = "error") -> str:
        """The message in compiler style, with the offending line and a caret under the column.

        `severity` "warning": the same fault in a file the run can do without (the previous OUT/ir).
        """
        if self.pos is None:  # the fault is the file or folder as a whole
            return f"{self.path}: {severity}: {self.message}"
        head = f"{self.path}:{self.pos.line}:{self.pos.column}: {severity}: {self.message}"
        if self.line_text is None:
            return head
        text, caret = excerpt(self.line_text, self.pos.column)
        return f"{head}\n    {text}\n    {' ' * caret}^"



class SchemaError(Exception):
    """What is about to be written breaks the IR schema or would not compile: a bug in the generator, not the input."""

def excerpt(line: str, column: int) -> tuple[str, int]:
    """Cut a long line down around `column`; return the text and the caret's offset in it."""
    line = line.replace("\t", " ")
    start = max(0, column - 1 - _CONTEXT)
    end = column - 1 + _CONTEXT
    text = line[start:end]
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(line) else ""
    return prefix + text + suffix, len(prefix) + column - 1 - start
