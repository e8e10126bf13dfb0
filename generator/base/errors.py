"""The two exceptions that stop a run: bad input (`InputError`, exit 2; `InputErrors` for several at once, so a run
reports them all) and a fault of the generator (`SchemaError`); and how a path or a line is printed safely."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.base.source import Pos

#: How much of a long line to show on each side of the caret.
_CONTEXT = 60
#: The Unicode categories a path is never printed with: controls (C0, DEL, C1: a terminal obeys them), format
#: characters (invisible, or reordering the text around them), surrogates (how Python keeps a byte of a file name
#: that is not UTF-8), line and paragraph separators.
_UNPRINTED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


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

    @property
    def all(self) -> tuple[InputError, ...]:
        """Every error this one stands for: itself, or each of those gathered into it."""
        return (self,)

    def render(self, severity: str = "error") -> str:
        """The message in compiler style, with the offending line and a caret under the column.

        `severity` "warning": the same fault in a file the run can do without (the previous OUT/ir).
        """
        path, message = printable(self.path), printable(self.message)  # a message may name a path too
        if self.pos is None:  # the fault is the file or folder as a whole
            return f"{path}: {severity}: {message}"
        head = f"{path}:{self.pos.line}:{self.pos.column}: {severity}: {message}"
        if self.line_text is None:
            return head
        text, caret = excerpt(self.line_text, self.pos.column)
        return f"{head}\n    {text}\n    {' ' * caret}^"


class InputErrors(InputError):
    """Several input errors of one run, reported together. Callers catch `InputError` as before; `path`, `pos`
    and `message` are the first error's, so anything that reads one error still reads a true one."""

    def __init__(self, errors: Iterable[InputError]) -> None:
        unique: dict[str, InputError] = {}
        for error in errors:
            for one in error.all:
                unique.setdefault(one.render(), one)
        self.errors = tuple(unique.values())
        if not self.errors:
            raise ValueError("no input error to report")
        first = self.errors[0]
        super().__init__(first.path, first.pos, first.message, first.line_text)

    @property
    def all(self) -> tuple[InputError, ...]:
        return self.errors

    def render(self, severity: str = "error") -> str:
        """Each error in turn, then how many there are (the first line is always the first error's)."""
        shown = [error.render(severity) for error in self.errors]
        return "\n".join(shown) + (f"\n{len(shown)} errors" if len(shown) > 1 else "")


class Gather:
    """The input errors of one stage, collected so that a run reports every one and not only the first."""

    def __init__(self) -> None:
        self.errors: list[InputError] = []

    def add(self, error: InputError) -> None:
        self.errors.append(error)

    @contextmanager
    def attempt(self) -> Iterator[None]:
        """Run the block; an input error it raises is kept for `check` instead of stopping the stage."""
        try:
            yield
        except InputError as error:
            self.errors.append(error)

    def check(self) -> None:
        """Raise what was gathered: nothing when all went well, the one error, or all of them as one."""
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InputErrors(self.errors)



class SchemaError(Exception):
    """What is about to be written breaks the IR schema or would not compile: a bug in the generator, not the input."""

def excerpt(line: str, column: int) -> tuple[str, int]:
    """Cut a long line down around `column`; return the text and the caret's offset in it. What a terminal would
    not print as itself (a control or format character) is shown as U+FFFD, keeping the caret's column."""
    start = max(0, column - 1 - _CONTEXT)
    end = column - 1 + _CONTEXT
    text = "".join(" " if c == "\t" else "\ufffd" if unicodedata.category(c) in _UNPRINTED else c
                   for c in line[start:end])
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(line) else ""
    return prefix + text + suffix, len(prefix) + column - 1 - start


def unprinted(text: str) -> str | None:
    """The first character of `text` that is never printed as it is (see `_UNPRINTED`), or None."""
    if text.isprintable():  # the usual case, decided fast
        return None
    return next((c for c in text if unicodedata.category(c) in _UNPRINTED), None)


def printable(path: str) -> str:
    """`path` safe to print: each character `unprinted` finds as a backslash escape, a byte of the file name that
    is not UTF-8 as `\\xNN`."""
    if unprinted(path) is None:
        return path
    return "".join(escape(c) if unicodedata.category(c) in _UNPRINTED else c for c in path)


def escape(character: str) -> str:
    """One character as a backslash escape: `\\x1b`, `\\u202e`; a byte that is not UTF-8 (os.fsdecode keeps it as
    a lone surrogate) as the byte, `\\xff`."""
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
