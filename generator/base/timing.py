"""Where a run's time goes, stage by stage: `generate --timings FILE` writes it, `make bench` reads it.

Times are exclusive: while a stage nested in another runs (a grammar's parse
inside a front-end), only the inner one is charged, so the stages of a process add
up to its time. Time outside every stage is charged to `other`. The clock is always
on; a stage costs about a microsecond.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from generator.base.errors import InputError
from generator.base.source import real_path

OTHER = "other"

_totals: dict[str, float] = {}
_open: list[str] = [OTHER]
_mark = time.perf_counter()


def _charge(now: float) -> None:
    global _mark
    _totals[_open[-1]] = _totals.get(_open[-1], 0.0) + now - _mark
    _mark = now


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Charge the time spent inside the block to `name` (less the time of stages nested in it)."""
    _charge(time.perf_counter())
    _open.append(name)
    try:
        yield
    finally:
        _charge(time.perf_counter())
        _open.pop()


def reset() -> None:
    """Start the totals afresh (a fuzz case's process, forked from one that has run stages, counts its own)."""
    global _mark
    _totals.clear()
    _mark = time.perf_counter()


def totals() -> dict[str, float]:
    """Seconds per stage so far, `other` included, in the order the stages first ran."""
    _charge(time.perf_counter())
    return dict(_totals)


class Report:
    """The `--timings` file: checked before the run (not inside OUT or the specs, which the run owns or reads;
    in a folder that exists; not a folder, a FIFO or a socket), written after it, so nothing is emptied by a run
    refused early."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def checked(cls, path: Path, out: Path, specs: Path) -> Report:
        real = Path(real_path(path))
        for folder, what in ((out, "the output folder, which is replaced whole"), (specs, "the specs folder")):
            inside = Path(real_path(folder))
            if real == inside or inside in real.parents:
                raise InputError(str(path), None, f"the timings file may not be inside {what}")
        if os.path.isdir(real) or not os.path.isdir(real.parent):
            raise InputError(str(path), None, "cannot write the timings here: "
                             f"{'a folder' if os.path.isdir(real) else 'no such folder'}")
        mode = os.stat(real).st_mode if os.path.exists(real) else 0
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            raise InputError(str(path), None, "cannot write the timings here: a FIFO or a socket, which a run would "
                             "wait on for a reader")
        if not os.access(real if os.path.lexists(real) else real.parent, os.W_OK):
            raise InputError(str(path), None, "cannot write the timings here: permission denied")
        return cls(path)

    def write(self) -> None:
        """Write the file, never through a link (O_NOFOLLOW): one swapped in for it, in a folder others can write,
        would make a run as root overwrite the file it leads to; never waiting (O_NONBLOCK) on a FIFO with no
        reader."""
        flags = (os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_NONBLOCK", 0))  # a FIFO put in its place meanwhile: refused, not waited on
        try:
            with open(os.open(self.path, flags, 0o666), "w", encoding="utf-8") as stream:
                stream.write(json.dumps(totals(), indent=1) + "\n")
        except OSError as error:
            why = "a symbolic link, which is not followed" if os.path.islink(self.path) else error.strerror
            raise InputError(str(self.path), None, f"cannot write the timings here: {why}") from None
