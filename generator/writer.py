"""OUT written whole or not at all.

Everything is written into a fresh folder beside OUT and then put in OUT's
place in one step: on Linux the two folders are exchanged atomically
(`renameat2(RENAME_EXCHANGE)`), so a run killed at any moment leaves either
the old OUT or the new one, never a mix and never none. Elsewhere OUT goes to
`.OUT-previous` and the new folder to OUT by two renames; a run killed between
them leaves `.OUT-previous`, which the next run puts back before it starts.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import sys
import tempfile
from pathlib import Path


def recover(out: Path) -> None:
    """Undo what an interrupted run left: put back the OUT it had moved aside, remove its staging folders."""
    out = out.resolve()
    previous = out.with_name(f".{out.name}-previous")
    if previous.exists() and not out.exists():
        os.rename(previous, out)
    for left in out.parent.glob(f".{out.name}-staging-*"):
        shutil.rmtree(left, ignore_errors=True)


def write(out: Path, files: dict[str, str]) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    recover(out)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-staging-", dir=out.parent))
    try:
        for relative, text in sorted(files.items()):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if out.exists() and _exchange(staging, out):
            shutil.rmtree(staging, ignore_errors=True)  # now the old OUT
            return
        previous = out.with_name(f".{out.name}-previous")
        if previous.exists():
            shutil.rmtree(previous)
        if out.exists():
            os.rename(out, previous)
        os.rename(staging, out)
        shutil.rmtree(previous, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


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


def files_in(out: Path) -> set[str]:
    """The files under OUT (relative paths), but for the bytecode caches of the package imported in place."""
    if not out.exists():
        return set()
    return {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Files under OUT that differ from `files`, are missing, or should not be there."""
    present = files_in(out)
    differing = [
        name for name, text in files.items()
        if name not in present or (out / name).read_text(encoding="utf-8") != text
    ]
    return sorted(differing + [name for name in present if name not in files])
