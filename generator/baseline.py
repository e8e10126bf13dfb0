"""Known warnings a user keeps in a file, so that a run shows what is new (`generate -q --baseline FILE`).

Every regeneration repeats the warnings of the texts' known errata; a new one is hard to see among them. A
baseline lists the warnings a user has read, one per line: its kind, file and message, without the numbers of
lines and columns (an edit above a warning moves it, and it is still the same warning). The file is the user's:
it is read and written only as a regular file (never through a link), and written only over a baseline.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from generator.base import safeload
from generator.base.diagnostics import Diagnostic
from generator.base.errors import InputError

HEADER = "# cl-d3d-sharing-generator: known warnings, one a line (generate --baseline FILE --write-baseline)"
#: A baseline holds a warning a line; past this, it is no baseline.
MOST_BYTES = 8 * 1024 * 1024
#: A place inside a message (`specs/x.txt:12`, `:12:3`): left out of the key.
_PLACE = re.compile(r"(?::\d+)+")
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def key(diagnostic: Diagnostic) -> str:
    """How a baseline names a warning."""
    message = " ".join(_PLACE.sub("", diagnostic.message).split())
    return f"{diagnostic.kind}\t{diagnostic.where.path}\t{message}"


def read(path: Path) -> frozenset[str]:
    """The warnings a baseline knows; an input error when it is no baseline (or cannot be read)."""
    text = _read(path)
    if text is None:
        raise InputError(str(path), None, "no such baseline; write one with --write-baseline")
    lines = text.split("\n")
    if lines[0] != HEADER:
        raise InputError(str(path), None, f"not a baseline of known warnings (its first line is not `{HEADER}`)")
    return frozenset(line for line in lines[1:] if line)


def writable(path: Path) -> None:
    """An input error unless a baseline may be written at `path`: no file there, or a baseline (asked before the
    run, so that a run that would end refusing it writes nothing)."""
    existing = _read(path)
    if existing is not None and existing.split("\n", 1)[0] != HEADER:
        raise InputError(str(path), None, "exists and is not a baseline: it is not replaced (choose another file)")


def write(path: Path, warnings: Iterable[Diagnostic]) -> int:
    """Write the baseline of `warnings` (how many lines it holds): only as a new file or over a baseline, through
    a file made beside it and renamed over it, so that a reader never sees half of one."""
    writable(path)
    keys = sorted({key(d) for d in warnings if d.severity == "warning"})
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        descriptor = os.open(partial, _NEW, 0o644)
    except OSError as error:
        raise InputError(str(path), None, f"cannot write the baseline here: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write("\n".join([HEADER, *keys]) + "\n")
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise InputError(str(path), None, f"cannot write the baseline: {error.strerror}") from None
    return len(keys)


def _read(path: Path) -> str | None:
    """The text of a regular file at `path` (not through a link, not a FIFO), None when there is none."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InputError(str(path), None, f"cannot read the baseline: {error.strerror}") from None
    return safeload.read_text(path, limit=MOST_BYTES)
