"""OUT written whole or not at all, and only where the generator may write.

Everything is written into a fresh folder beside OUT and then put in OUT's
place in one step: on Linux the two folders are exchanged atomically
(`renameat2(RENAME_EXCHANGE)`), so a run killed at any moment leaves either
the old OUT or the new one, never a mix and never none. Elsewhere OUT goes to
`.OUT-previous` and the new folder to OUT by two renames; a run killed between
them leaves `.OUT-previous`, which the next run puts back before it starts.

OUT is replaced only when `ownership` proves the generator wrote it, and proved
again once it is swapped out (a file saved into it meanwhile puts it back); it
keeps its permissions and owner; one run at a time writes it (`locked`). What a
killed run left is removed only when it is provably the generator's: a staging
folder still holding its marker, or a tree its manifest covers.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generator.base.errors import InputError
from generator.writing import ownership

try:
    import fcntl
except ImportError:  # Windows: a lock file instead
    fcntl = None  # type: ignore[assignment]

#: A file in a staging folder while it is being written: a folder holding it is an unfinished run's.
MARK = ".generate-staging"


def _real(out: Path) -> Path:
    """OUT with the links of its parent folders followed (OUT itself is never a link: see `ownership`)."""
    return Path(os.path.realpath(out.parent)) / out.name


def _previous(out: Path) -> Path:
    return out.with_name(f".{out.name}-previous")


def _prefix(out: Path) -> str:
    return f".{out.name}-staging-"


@contextlib.contextmanager
def locked(out: Path, waiting: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Hold OUT for this run: a second run on the same OUT waits here (calling `waiting` once) until the first
    ends. The lock is on OUT's parent folder (which holds OUT, its staging folders and `.OUT-previous`); it
    leaves no file behind, and the system drops it when a run dies."""
    parent = _real(out).parent
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
    lock = _real(out).with_name(f".{out.name}-lock")
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


def recover(out: Path) -> list[Path]:
    """Undo what an interrupted run left: put back the OUT it had moved aside, remove its staging folders.
    Only what is provably the generator's is touched; the folders left alone are returned (to be named).
    Call it under `locked` only: a staging folder is then never a live run's."""
    out = _real(out)
    previous, left = _previous(out), []
    try:
        if os.path.lexists(previous) and not os.path.lexists(out):
            if ownership.provably_ours(previous):
                os.rename(previous, out)
            else:
                left.append(previous)
        names = os.listdir(out.parent) if out.parent.is_dir() else []
        for name in sorted(n for n in names if n.startswith(_prefix(out))):
            folder = out.parent / name
            if not os.path.islink(folder) and (os.path.isfile(folder / MARK) or ownership.provably_ours(folder)):
                _remove(folder)
            else:
                left.append(folder)
    except OSError as error:
        raise _failure(out, "cannot clean up what an interrupted run left", error) from None
    return left


def write(out: Path, files: dict[str, str], specs: Path | None = None) -> None:
    """Replace OUT by exactly `files` (with a manifest, if `files` has none), or raise `InputError` and
    change nothing: when OUT is not the generator's to replace, or the system refuses a write."""
    why = ownership.refusal(out, specs)
    if why is not None:
        raise InputError(str(out), None, why)
    if ownership.NAME not in files:
        files = files | {ownership.NAME: ownership.manifest(ownership.UNKNOWN, files)}
    shown, out = out, _real(out)
    attributes = ownership.attributes_for(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=_prefix(out), dir=out.parent))
    except OSError as error:
        raise _failure(shown, "cannot write the output", error) from None
    try:
        (staging / MARK).write_bytes(b"")
        for relative, text in sorted(files.items()):
            target = staging / relative
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            except OSError as error:
                error.filename = error.filename or str(target)  # a failed write() names no file
                raise
        os.remove(staging / MARK)
        _give(staging, attributes)
        _swap(staging, out, shown)
    except OSError as error:
        raise _failure(shown, "cannot write the output", error) from None
    finally:
        _remove(staging)  # the old OUT once swapped, else the unfinished new one


def _give(tree: Path, attributes: ownership.Attributes) -> None:
    """The old OUT's permissions to the new tree's top, and its owner to all of it (when root writes a
    user's OUT)."""
    if attributes.owner is not None:
        uid, gid = attributes.owner
        for folder, _, names in os.walk(tree):
            os.chown(folder, uid, gid)
            for name in names:
                os.chown(Path(folder) / name, uid, gid)
    os.chmod(tree, attributes.mode)


def _swap(staging: Path, out: Path, shown: Path) -> None:
    """Put `staging` in OUT's place; the old OUT ends at `staging`'s path (or is gone). The old OUT is proved
    the generator's again once it is out of the way: anything saved into it during the run puts it back."""
    if not os.path.lexists(out):
        os.rename(staging, out)
        return
    if _exchange(staging, out):
        strays = _strays(staging)
        if strays:
            _exchange(staging, out)
            raise InputError(str(shown), None, f"changed while this run wrote it ({strays} appeared); put back as "
                             "it was, nothing written")
        return
    previous = _previous(out)  # no atomic exchange here: OUT aside, the new tree in, the old one out
    if os.path.lexists(previous):
        if not ownership.provably_ours(previous):
            raise InputError(str(previous), None, "is in the way of replacing OUT and is not the generator's: "
                             "move it")
        _remove(previous)
    os.rename(out, previous)
    strays = _strays(previous)
    if strays:
        os.rename(previous, out)
        raise InputError(str(shown), None, f"changed while this run wrote it ({strays} appeared); put back as it "
                         "was, nothing written")
    try:
        os.rename(staging, out)
    except OSError:
        os.rename(previous, out)
        raise
    _remove(previous)


def _strays(old: Path) -> str:
    """What in the old OUT, swapped out, the generator did not write ("" when nothing)."""
    try:
        found = ownership.foreign(old, ownership.read(old))
    except OSError as error:
        return f"something it cannot read: {error.filename}"
    return ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")


def _remove(tree: Path) -> None:
    """Remove a tree of the generator's, folders it made read-only included, its manifest last."""

    def writable(function: Callable[..., Any], path: str, _: object) -> None:
        with contextlib.suppress(OSError):  # what still cannot be removed stays, for the next run's `recover`
            os.chmod(os.path.dirname(path), stat.S_IRWXU)
            function(path)

    if os.path.isdir(tree) and not os.path.islink(tree):
        with contextlib.suppress(OSError):
            os.chmod(tree, stat.S_IRWXU)
        # the manifest and the mark go last: a run killed halfway leaves a tree still provably the generator's
        last = {ownership.NAME, MARK}
        with contextlib.suppress(OSError):
            for entry in os.scandir(tree):
                if entry.name not in last:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, onerror=writable)
                    else:
                        writable(os.unlink, entry.path, None)
        shutil.rmtree(tree, onerror=writable)


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
    differing = [name for name in files if name not in present or not _holds(out / name, files[name])]
    return sorted(differing + [name for name in present if name not in files])


def _holds(path: Path, text: str) -> bool:
    """Whether a file holds exactly `text` (its size is compared first: a huge file is not read)."""
    data = text.encode("utf-8")
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False
