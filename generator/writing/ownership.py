"""Which folder `generate` may replace: one it can prove it wrote, by the manifest it leaves there.

OUT is replaced whole (see `writer`), so a wrong OUT would lose a user's files:
`--out .`, `--out specs`, a typo naming a home folder. OUT may therefore be absent,
empty, or hold only what its manifest (`INPUTS.sha256`, written last by every run)
lists, plus the byproducts of using the package in place: bytecode caches, and the
`build/` and `*.egg-info/` that `pip install OUT` leaves at its top, which are
copies of or facts about the listed files and go with them. Anything else is a
clean refusal naming the path and why. The manifest is read as untrusted input:
a name in it that leaves OUT, or a line that is not the generator's, proves nothing.
A folder is read through descriptors (`folders`): a link in it is an entry of its
own, never followed, and one swapped in while it is read is no way out of it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from generator import ROOT
from generator.base.records import frozen
from generator.base.source import real_path
from generator.writing import folders

#: The manifest's name in OUT: the hash of the inputs, then of every file written beside it.
NAME = "INPUTS.sha256"
#: A manifest is a line per file written: far below this for any OUT.
_MAX_MANIFEST = 8 * 1024 * 1024
_DIGEST = re.compile(r"[0-9a-f]{64}")
#: Unknown inputs (an OUT written without a fingerprint): never equal to a real hash.
UNKNOWN = "unknown"
#: How many foreign paths a refusal names.
_SHOWN = 5


@frozen
class Manifest:
    inputs: str
    files: dict[str, str]  # relative path -> sha256 hex, as written


def manifest(inputs: str, files: dict[str, str]) -> str:
    """The manifest text: the inputs' hash, then each file's hash and path (as `sha256sum` prints them)."""
    lines = [f"inputs {inputs}"]
    lines += [f"{hashlib.sha256(files[name].encode()).hexdigest()}  {name}" for name in sorted(files) if name != NAME]
    return "\n".join(lines) + "\n"


def read(out: Path | folders.Held) -> Manifest | None:
    """OUT's manifest; None when it has none, or one the generator cannot have written (a link is none)."""
    with folders.held(out) as tree:
        raw = None if tree is None else folders.read_file(tree, NAME, _MAX_MANIFEST + 1)
    if raw is None or len(raw) > _MAX_MANIFEST:
        return None
    try:
        lines = raw.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None
    if not lines or not lines[0].startswith("inputs ") or lines[-1] != "":
        return None
    files: dict[str, str] = {}
    for line in lines[1:-1]:
        digest, separator, name = line.partition("  ")
        if not separator or not _DIGEST.fullmatch(digest) or not _inside(name) or name in files:
            return None
        files[name] = digest
    return Manifest(lines[0].removeprefix("inputs "), files)


def _inside(name: str) -> bool:
    """Whether a manifest name is a plain relative path under OUT (no `..`, nothing absolute, printable)."""
    parts = name.split("/")
    return name.isprintable() and "\\" not in name and all(part not in ("", ".", "..") for part in parts)


def byproduct(relative: str) -> bool:
    """Whether a path under OUT is made by using the package in place, not by the generator: bytecode
    caches anywhere, and what `pip install OUT` (setuptools' in-tree build) leaves at OUT's top."""
    parts = relative.split("/")
    return "__pycache__" in parts or parts[0] == "build" or parts[0].endswith(".egg-info")


def entries(out: Path | folders.Held) -> tuple[set[str], set[str]]:
    """The files and the other entries (folders, links, devices) under OUT, as relative paths; symbolic links
    are entries, never followed. Raises `OSError` where a folder cannot be read, or OUT is no folder of its own:
    what it holds is unknown."""
    if isinstance(out, folders.Held):
        return folders.entries(out.descriptor)
    descriptor = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
    try:
        return folders.entries(descriptor)
    except OSError as error:
        error.filename = str(out / error.filename) if error.filename != "." else str(out)
        raise
    finally:
        os.close(descriptor)


def written(out: Path | folders.Held) -> set[str]:
    """The regular files under OUT but for byproducts: what `generate` wrote there, if OUT is its own (none
    when OUT cannot be read whole: then nothing in it counts as written)."""
    try:
        return {name for name in entries(out)[0] if not byproduct(name)}
    except OSError:
        return set()


def foreign(out: Path | folders.Held, listed: Manifest | None) -> list[str]:
    """What under OUT the generator did not write: not in its manifest, and not a byproduct of what it lists
    (a `.pyc` in a `__pycache__` folder; `build/lib/X` for a listed X, `build/bdist.*`; a `*.egg-info/` file)."""
    files, others = entries(out)
    if listed is None:  # byproducts of what? Without a manifest, nothing under OUT is the generator's
        return sorted(files | others)
    known = set(listed.files) | {NAME}
    allowed = known | {f"build/lib/{name}" for name in known}
    folders = {"/".join(name.split("/")[:i]) + "/" for name in allowed for i in range(1, name.count("/") + 1)}
    strays = [name for name in files if name not in allowed and not _cache(name)]
    strays += [name for name in others if name not in folders and not _cache_folder(name)]
    return sorted(strays)


def provably_ours(folder: Path | folders.Held) -> bool:
    """Whether a folder is the generator's to remove: empty, or holding only what its manifest lists (and
    byproducts). A link, or a folder that cannot be read whole, is not."""
    with folders.held(folder) as tree:
        if tree is None:
            return False
        try:
            return not foreign(tree, read(tree))
        except OSError:
            return False


def _cache(name: str) -> bool:
    parts = name.split("/")
    return (parts[-2:-1] == ["__pycache__"] and name.endswith(".pyc")) or (
        len(parts) == 2 and parts[0].endswith(".egg-info"))


def _cache_folder(name: str) -> bool:
    parts = name.rstrip("/").split("/")
    return name.endswith("/") and (
        parts[-1] == "__pycache__" or (len(parts) == 1 and parts[0].endswith(".egg-info"))
        or (len(parts) == 2 and parts[0] == "build" and parts[1].startswith("bdist.")))


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _chain(path: Path) -> set[tuple[int, int]]:
    """The identities of `path` and of every folder above it: the same folder under another name (a link, a
    bind mount) has the same identity."""
    real = Path(real_path(path))
    return {found for place in (real, *real.parents) if (found := _identity(place)) is not None}


def refusal(out: Path, specs: Path | None = None) -> str | None:
    """Why `generate` may not replace OUT, or None when it may."""
    if os.path.islink(out):
        return (f"is a symbolic link; OUT is replaced whole, so give the folder itself "
                f"({real_path(out)})")
    where = _identity(out)
    if where is not None and where in _chain(Path.cwd()):
        return "is the current folder or holds it; OUT is replaced whole"
    if where is not None and where in _chain(ROOT):
        return "holds the generator itself; OUT is replaced whole"
    if specs is not None:
        folder = _identity(specs)
        if where is not None and where in _chain(specs):
            return "is the specs folder or holds it; OUT is replaced whole"
        if folder is not None and folder in _chain(out):
            return "lies inside the specs folder, which is read whole"
    if not os.path.lexists(out):
        return None
    if not out.is_dir():
        return "is not a folder; OUT is a folder the generator writes"
    try:
        listed = read(out)
        strays = foreign(out, listed)
    except OSError as error:
        return (f"cannot be read whole ({error.strerror}: {error.filename}), so what it holds is unknown; "
                "OUT is replaced whole")
    if not strays:
        return None
    shown = ", ".join(strays[:_SHOWN]) + (f" and {len(strays) - _SHOWN} more" if len(strays) > _SHOWN else "")
    why = "it has no manifest" if listed is None else f"its {NAME} does not list them"
    return (f"holds files the generator did not write ({shown}; {why}); generate replaces only a new or "
            "empty folder or one it wrote: move them, or choose another --out")


@frozen
class Attributes:
    """What the new OUT keeps of the old: its permissions, and its owner (which only root can give away)."""

    mode: int
    owner: tuple[int, int] | None  # (uid, gid) to give the new tree, when this run may and must


def attributes_for(found: os.stat_result | None) -> Attributes:
    """The old OUT's permissions and owner (`found`, its status); a new OUT (None) gets what the umask gives,
    and this process's owner."""
    if found is None:
        umask = os.umask(0)
        os.umask(umask)
        return Attributes(0o777 & ~umask, None)
    mine = hasattr(os, "geteuid") and (found.st_uid, found.st_gid) == (os.geteuid(), os.getegid())
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return Attributes(stat.S_IMODE(found.st_mode), None if mine or not root else (found.st_uid, found.st_gid))
