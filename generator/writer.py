"""OUT written whole or not at all, and only where the generator may write.

Everything is written into a fresh folder beside OUT and then put in OUT's
place in one step: on Linux the two folders are exchanged atomically
(`renameat2(RENAME_EXCHANGE)`), so a run killed at any moment leaves either
the old OUT or the new one, never a mix and never none. Elsewhere OUT goes to
`.OUT-previous` and the new folder to OUT by two renames; a run killed between
them leaves `.OUT-previous`, which the next run puts back before it starts.

OUT is replaced only when `ownership` proves the generator wrote it, keeps its
permissions, and one run at a time writes it (`locked`): the clean-up of what
a killed run left can then never take another run's live staging folder.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from generator import ownership
from generator.errors import InputError

try:
    import fcntl
except ImportError:  # Windows: a lock file instead
    fcntl = None  # type: ignore[assignment]


def _previous(out: Path) -> Path:
    return out.with_name(f".{out.name}-previous")


def _stagings(out: Path) -> list[Path]:
    return sorted(out.parent.glob(f".{out.name}-staging-*"))


@contextlib.contextmanager
def locked(out: Path, waiting: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Hold OUT for this run: a second run on the same OUT waits here (calling `waiting` once) until the first
    ends. The lock is on OUT's parent folder (which holds OUT, its staging folders and `.OUT-previous`); it
    leaves no file behind, and the system drops it when a run dies."""
    parent = out.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            with _lock_file(out, waiting):
                yield
            return
        handle = os.open(parent, os.O_RDONLY)
    except OSError as error:
        raise _failure(out, "cannot hold the output folder for this run", error) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # and with it the lock


@contextlib.contextmanager
def _lock_file(out: Path, waiting: Callable[[], None]) -> Iterator[None]:
    """Where there is no flock: a file made exclusively beside OUT, removed at the end."""
    lock = out.resolve().with_name(f".{out.name}-lock")
    try:
        handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        waiting()
        raise InputError(str(lock), None, "another run writes this OUT (or one was killed: then remove this "
                         "file)") from None
    os.close(handle)
    try:
        yield
    finally:
        os.unlink(lock)


def recover(out: Path) -> None:
    """Undo what an interrupted run left: put back the OUT it had moved aside, remove its staging folders.
    Call it under `locked` only: a staging folder is then never a live run's."""
    out = out.resolve()
    previous = _previous(out)
    try:
        if previous.is_dir() and not os.path.lexists(out):
            os.rename(previous, out)
        for left in _stagings(out):
            shutil.rmtree(left, ignore_errors=True)
    except OSError as error:
        raise _failure(out, "cannot clean up what an interrupted run left", error) from None


def write(out: Path, files: dict[str, str], specs: Path | None = None) -> None:
    """Replace OUT by exactly `files` (with a manifest, if `files` has none), or raise `InputError` and
    change nothing: when OUT is not the generator's to replace, or the system refuses a write."""
    why = ownership.refusal(out, specs)
    if why is not None:
        raise InputError(str(out), None, why)
    if ownership.NAME not in files:
        files = files | {ownership.NAME: ownership.manifest(ownership.UNKNOWN, files)}
    out = out.resolve()
    mode = ownership.mode_for(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-staging-", dir=out.parent))
    except OSError as error:
        raise _failure(out, "cannot write the output", error) from None
    try:
        for relative, text in sorted(files.items()):
            target = staging / relative
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            except OSError as error:
                error.filename = error.filename or str(target)  # a failed write() names no file
                raise
        os.chmod(staging, mode)
        _swap(staging, out)
    except OSError as error:
        raise _failure(out, "cannot write the output", error) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # the old OUT once swapped, else the unfinished new one


def _swap(staging: Path, out: Path) -> None:
    """Put `staging` in OUT's place; the old OUT ends at `staging`'s path (or is gone)."""
    if os.path.lexists(out) and _exchange(staging, out):
        return
    previous = _previous(out)
    if os.path.lexists(previous):
        shutil.rmtree(previous)
    if os.path.lexists(out):
        os.rename(out, previous)
    try:
        os.rename(staging, out)
    except OSError:
        if os.path.lexists(previous):
            os.rename(previous, out)
        raise
    shutil.rmtree(previous, ignore_errors=True)


def _failure(out: Path, what: str, error: OSError) -> InputError:
    """A refusal of the file system, naming the path it refused (exit 2, like any bad input)."""
    where = f" ({error.filename})" if error.filename else ""
    return InputError(str(out), None, f"{what}: {error.strerror or error}{where}; nothing under it changed")


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)  # the process's own symbols, libc's among them
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(done == 0)


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Files under OUT that differ from `files`, are missing, or should not be there (byproducts aside)."""
    present = ownership.written(out)
    differing = [
        name for name in files
        if name not in present or (out / name).read_text(encoding="utf-8", errors="replace") != files[name]
    ]
    return sorted(differing + [name for name in present if name not in files])
