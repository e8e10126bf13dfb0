"""Input files and positions inside them: every fact the generator keeps points back here."""

from __future__ import annotations

import os
import re
from pathlib import Path

from generator.base.errors import InputError, escape, unprinted
from generator.base.normalise import Normalised, normalise
from generator.base.records import frozen

#: The most a spec file may hold: 200 times the largest known (about 40 kB). Past it, reading would take
#: minutes and gigabytes for no text anyone writes by hand.
MAX_BYTES = 8 * 1024 * 1024

#: Characters that may not appear in a spec text (binary data, not prose).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")  # below U+0020 but tab, LF, CR and form feed


@frozen(order=True)
class Pos:
    """A 1-based line and column in one file."""

    line: int
    column: int = 1


@frozen
class SpecFile:
    """One input file: its display path and its text with line ends normalised to LF, and its invisible and
    look-alike characters as a reader sees them (`normalised` says what was done: `base/normalise.py`)."""

    path: str
    text: str
    normalised: tuple[Normalised, ...] = ()

    @classmethod
    def read(cls, path: Path, root: Path | None = None) -> SpecFile:
        """Read `path`, naming it relative to `root` (the working directory) when inside it."""
        shown = display_path(path, root or Path.cwd())
        if problem := name_problem(shown):
            raise InputError(shown, None, problem)
        try:
            with open(path, "rb") as stream:
                raw = stream.read(MAX_BYTES + 1)
        except OSError as error:
            raise InputError(shown, Pos(1, 1), f"cannot read this file: {error.strerror}") from None
        if len(raw) > MAX_BYTES:
            line = raw.count(b"\n", 0, MAX_BYTES) + 1
            column = MAX_BYTES - (raw.rfind(b"\n", 0, MAX_BYTES) + 1) + 1
            raise InputError(shown, Pos(line, column), f"the file goes on past {MAX_BYTES // 1024 // 1024} MiB here, "
                             "far more than any spec; is it the right file?")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = raw[: error.start].count(b"\n") + 1
            column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
            message = "not UTF-8 text: cannot read it as a spec"
            raise InputError(shown, Pos(line, column), message) from None
        return cls.from_text(shown, text)

    @classmethod
    def from_text(cls, path: str, text: str) -> SpecFile:
        # Line ends become LF; no-break spaces (from HTML) become plain ones, keeping every column.
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
        control = _CONTROL.search(text)
        if control:
            spec = cls(path, text)
            raise spec.error(position_of(text, control.start()), f"control character U+{ord(control[0]):04X}: "
                             "not a text file")
        return cls(path, *normalise(text))

    def error(self, pos: Pos, message: str) -> InputError:
        """An input error at `pos`, showing the offending line."""
        return InputError(self.path, pos, message, self.line(pos.line))

    def line(self, number: int) -> str:
        lines = self.text.split("\n")
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def where(self, pos: Pos) -> str:
        """`path:line`, the form the IR uses for sources."""
        return f"{self.path}:{pos.line}"


def position_of(text: str, offset: int) -> Pos:
    line = text.count("\n", 0, offset) + 1
    return Pos(line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def display_path(path: Path, root: Path) -> str:
    absolute = Path(os.path.realpath(path))  # never raises on a link loop, as Path.resolve does
    try:
        return absolute.relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return os.fspath(absolute)


def name_problem(shown: str) -> str | None:
    """Why a spec's path, as shown, cannot be used, or None. It is written into the IR (`source:`), the docs and
    every message, so it must be text that prints as itself: no control or format character, no byte that is not
    UTF-8 (Linux allows any byte in a name but `/` and NUL)."""
    character = unprinted(shown)
    if character is None:
        return None
    if 0xDC80 <= ord(character) <= 0xDCFF:
        what = f"the byte {escape(character)}, which is not UTF-8"
    else:
        what = f"the character U+{ord(character):04X}, which does not print as itself"
    return (f"the file name holds {what}; the name is written into the IR's sources, the docs and the messages, "
            "so it must be printable UTF-8 text: rename the file")


def spec_files(specs: Path) -> list[Path]:
    """Every file under `specs` (hidden ones aside), in a fixed order; none at all is an input error, and so is
    a folder that cannot be read or an entry that is no file (every file under `--specs` is read: none is
    passed over in silence)."""
    if not specs.is_dir():
        raise InputError(str(specs), None, "no such folder of specs")

    def unreadable(error: OSError) -> None:
        raise InputError(str(error.filename or specs), None, f"cannot read this folder of specs: {error.strerror}")

    found = []
    for folder, folders, names in os.walk(specs, onerror=unreadable):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in names:
            path = Path(folder) / name
            if name.startswith("."):
                continue
            if not path.is_file():
                raise InputError(str(path), None, "is no file (a link to nothing, a FIFO, a device): cannot read "
                                 "it as a spec")
            found.append(path)
    if not found:
        raise InputError(str(specs), None, "this folder holds no spec")
    return sorted(found, key=lambda p: p.as_posix())
