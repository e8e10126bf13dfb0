"""Folders worked on through descriptors: OUT, the folder that holds it, and what lies under them.

The generator may run as root beside folders others can write. Every call that
takes a path looks it up again, so a folder on the way swapped for a link between
two calls leads the next one elsewhere: a removal into /etc, a chown of a user's
home. Here a folder is opened once and held; everything under it is reached from
that descriptor (`dir_fd=`), each name opened with O_NOFOLLOW, folders made
exclusively (`mkdir`), files created with O_EXCL, modes and owners changed through
descriptors or with `follow_symlinks=False`, trees removed with `shutil.rmtree(...,
dir_fd=)` from a descriptor of their top. What is read, made, changed or removed
therefore lies inside the folder held, whatever is swapped on the way: a link
where a folder was is refused or left alone, never followed.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import os
import secrets
import shutil
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FILE = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | _NOFOLLOW


class Held:
    """A folder held open: `descriptor`, and the path it was opened by (`shown`, for messages only)."""

    def __init__(self, descriptor: int, shown: Path) -> None:
        self.descriptor = descriptor
        self.shown = shown


@contextlib.contextmanager
def held(folder: Path | Held) -> Iterator[Held | None]:
    """`folder` held for the block (None when it is absent, a link, or no folder); a `Held` is passed through."""
    if isinstance(folder, Held):
        yield folder
        return
    try:
        descriptor = os.open(folder, _FOLDER | _NOFOLLOW)
    except OSError:
        yield None
        return
    try:
        yield Held(descriptor, folder)
    finally:
        os.close(descriptor)


def hold_making(path: Path) -> int:
    """A descriptor of the folder `path`, made where missing. The part that exists is opened as the user named it
    (the links the user gave included); each missing folder is made and then opened without following a link, so
    that one swapped for a link right after it was made leads nowhere."""
    missing: list[str] = []
    here = path
    while True:
        try:
            descriptor = os.open(here, _FOLDER)
            break
        except FileNotFoundError:
            if here.parent == here:
                raise
            missing.append(here.name)
            here = here.parent
    try:
        for name in reversed(missing):
            with contextlib.suppress(FileExistsError):  # made meanwhile: opened below, never through a link
                os.mkdir(name, 0o777, dir_fd=descriptor)
            inner = os.open(name, _FOLDER | _NOFOLLOW, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def open_folder(parent: int, name: str) -> int:
    """The folder `name` in `parent`; `OSError` when it is a link (ELOOP or ENOTDIR), absent or no folder."""
    return os.open(name, _FOLDER | _NOFOLLOW, dir_fd=parent)


def exists(parent: int, name: str) -> bool:
    """Whether `parent` holds an entry `name`, of any kind, links included (never followed)."""
    try:
        os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def entries(folder: int) -> tuple[set[str], set[str]]:
    """The files and the other entries (folders, with a trailing `/`, links, devices) under the open `folder`, as
    relative paths; nothing is followed. Raises `OSError`, naming the relative path, where a folder cannot be read
    or entered: what it holds is unknown."""
    files: set[str] = set()
    others: set[str] = set()

    def visit(descriptor: int, prefix: str) -> None:
        try:
            with os.scandir(descriptor) as listed:
                names = [entry.name for entry in listed]
        except OSError as error:
            error.filename = prefix.rstrip("/") or "."
            raise
        for name in names:
            relative = prefix + name
            try:
                mode = os.stat(name, dir_fd=descriptor, follow_symlinks=False).st_mode
                inner = open_folder(descriptor, name) if stat.S_ISDIR(mode) else None
            except OSError as error:
                error.filename = relative
                raise
            if inner is None:
                (files if stat.S_ISREG(mode) else others).add(relative)
                continue
            others.add(relative + "/")
            try:
                visit(inner, relative + "/")
            finally:
                os.close(inner)

    visit(folder, "")
    return files, others


@contextlib.contextmanager
def opened(folder: Held | int, relative: str) -> Iterator[int | None]:
    """The regular file `relative` under `folder`, open for reading (None when it is absent, a link, no regular
    file, or behind a link): each name on the way opened without following a link."""
    top = folder.descriptor if isinstance(folder, Held) else folder
    *path, name = relative.split("/")
    chain: list[int] = []
    descriptor = None
    try:
        for part in path:
            chain.append(open_folder(chain[-1] if chain else top, part))
        descriptor = os.open(name, _FILE, dir_fd=chain[-1] if chain else top)
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            os.close(descriptor)
            descriptor = None
    except OSError:
        descriptor = None
    for inner in chain:
        os.close(inner)
    try:
        yield descriptor
    finally:
        if descriptor is not None:
            os.close(descriptor)


def read_file(folder: Held | int, relative: str, most: int) -> bytes | None:
    """The first `most` bytes of a regular file under `folder` (see `opened`; ask for one byte more than a file
    may hold to tell a longer one); None when it cannot be read."""
    with opened(folder, relative) as descriptor:
        if descriptor is None:
            return None
        chunks: list[bytes] = []
        try:
            while most > 0 and (chunk := os.read(descriptor, min(most, 1 << 20))):
                chunks.append(chunk)
                most -= len(chunk)
        except OSError:
            return None
    return b"".join(chunks)


def file_digest(folder: Held | int, relative: str) -> str | None:
    """The sha256 of a regular file under `folder`, read in pieces (a huge file costs time, not memory); None
    when it cannot be read."""
    with opened(folder, relative) as descriptor:
        if descriptor is None:
            return None
        digest = hashlib.sha256()
        try:
            while piece := os.read(descriptor, 1 << 20):
                digest.update(piece)
        except OSError:
            return None
        return digest.hexdigest()


def make_staging(parent: int, prefix: str) -> tuple[str, int]:
    """A new folder `prefix<random>` in `parent`, made exclusively (mode 0700), and its descriptor, checked to be
    the folder this process made (another's, swapped in, is not written into)."""
    for _ in range(100):
        name = prefix + secrets.token_hex(4)
        try:
            os.mkdir(name, 0o700, dir_fd=parent)
        except FileExistsError:
            continue
        descriptor = open_folder(parent, name)
        found = os.fstat(descriptor)
        if found.st_uid != os.geteuid() or stat.S_IMODE(found.st_mode) & 0o077:
            os.close(descriptor)
            raise OSError(errno.EEXIST, "a folder not made by this run took the staging folder's place", name)
        return name, descriptor
    raise OSError(errno.EEXIST, "no free name for a staging folder", prefix)


def put(folder: int, files: dict[str, bytes]) -> None:
    """Write `files` into the open, new `folder`: each folder made, each file created (O_EXCL), never through a
    link. An `OSError` names the file or folder it failed on, relative to `folder`."""
    held_folders: dict[str, int] = {"": folder}

    def folder_of(relative: str) -> int:
        parent, _, name = relative.rpartition("/")
        if relative not in held_folders:
            above = folder_of(parent)
            os.mkdir(name, 0o777, dir_fd=above)
            held_folders[relative] = open_folder(above, name)
        return held_folders[relative]

    try:
        for relative, data in sorted(files.items()):
            parent, _, name = relative.rpartition("/")
            try:
                descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | _NOFOLLOW, 0o666,
                                     dir_fd=folder_of(parent))
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(descriptor, view):]
                finally:
                    os.close(descriptor)
            except OSError as error:
                error.filename = relative
                raise
    finally:
        for relative, descriptor in held_folders.items():
            if relative:
                os.close(descriptor)


def give(folder: int, owner: tuple[int, int] | None, mode: int) -> None:
    """The owner to all of the tree under the open `folder` (when root writes a user's OUT), and `mode` to its
    top: through descriptors, never following a link."""
    if owner is not None:
        uid, gid = owner

        def chown(descriptor: int) -> None:
            os.fchown(descriptor, uid, gid)
            with os.scandir(descriptor) as listed:
                found = [(entry.name, entry.is_dir(follow_symlinks=False)) for entry in listed]
            for name, is_folder in found:
                if is_folder:
                    inner = open_folder(descriptor, name)
                    try:
                        chown(inner)
                    finally:
                        os.close(inner)
                else:
                    os.chown(name, uid, gid, dir_fd=descriptor, follow_symlinks=False)

        chown(folder)
    os.fchmod(folder, mode)


def remove(parent: int, name: str, last: frozenset[str] = frozenset(), top: int | None = None) -> None:
    """Remove the tree `name` in `parent`, the entries named in `last` at its top last (a removal killed halfway
    leaves a tree still provably the generator's). `top`: a descriptor of the tree, already held and proved: its
    contents are removed through it, and `name` only if it is still that tree (not swapped meanwhile). A link
    there is left alone; folders this process owns and cannot write are made writable through their descriptors
    first; what still cannot be removed stays (the next run's clean-up finds it)."""
    mine = top is None
    try:
        top = open_folder(parent, name) if top is None else top
    except OSError:
        return
    try:
        _writable(top)
        with os.scandir(top) as listed:
            found = sorted(((entry.name, entry.is_dir(follow_symlinks=False)) for entry in listed),
                           key=lambda pair: (pair[0] in last, pair[0]))
        for entry, is_folder in found:
            with contextlib.suppress(OSError):
                if is_folder:
                    shutil.rmtree(entry, dir_fd=top, ignore_errors=True)
                else:
                    os.unlink(entry, dir_fd=top)
        if same(parent, name, top):
            os.rmdir(name, dir_fd=parent)
    except OSError:
        pass  # what stays is found by the next run's clean-up
    finally:
        if mine:
            os.close(top)


def _writable(descriptor: int) -> None:
    """Give this process write and search rights on the folders under `descriptor` that it owns and lacks them
    on (an OUT made read-only), each through its own descriptor."""
    if os.geteuid() == 0:
        return  # root removes from any folder: nothing to change
    found = os.fstat(descriptor)
    if found.st_uid == os.geteuid() and stat.S_IMODE(found.st_mode) & 0o700 != 0o700:
        os.fchmod(descriptor, stat.S_IMODE(found.st_mode) | 0o700)
    with os.scandir(descriptor) as listed:
        folders = [entry.name for entry in listed if entry.is_dir(follow_symlinks=False)]
    for name in folders:
        with contextlib.suppress(OSError):
            inner = open_folder(descriptor, name)
            try:
                _writable(inner)
            finally:
                os.close(inner)


_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2


def _renameat2(a_folder: int, a: str, b_folder: int, b: str, flags: int) -> bool | None:
    """renameat2 from `a` in `a_folder` to `b` in `b_folder` (Linux): True when done, None where the system has no
    such call; `OSError` else."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)  # the process's own symbols, libc's among them
    call = getattr(libc, "renameat2", None)
    if call is None:
        return None
    if call(a_folder, os.fsencode(a), b_folder, os.fsencode(b), flags) == 0:
        return True
    number = ctypes.get_errno()
    if number in (errno.ENOSYS, errno.EINVAL):
        return None  # an old kernel, or a file system without the flag
    raise OSError(number, os.strerror(number), b)


def exchange(a_folder: int, a: str, b_folder: int, b: str) -> bool:
    """Swap the entry `a` of `a_folder` and `b` of `b_folder` in one atomic step (Linux); False where the system
    cannot. The entries themselves are swapped: a link stays a link, never followed."""
    return bool(_renameat2(a_folder, a, b_folder, b, _RENAME_EXCHANGE))


def rename_new(a_folder: int, a: str, b_folder: int, b: str) -> None:
    """Rename `a` in `a_folder` to `b` in `b_folder`, failing when `b` exists (never replacing what another put
    there)."""
    if _renameat2(a_folder, a, b_folder, b, _RENAME_NOREPLACE) is None:
        if exists(b_folder, b):
            raise OSError(errno.EEXIST, os.strerror(errno.EEXIST), b)
        os.rename(a, b, src_dir_fd=a_folder, dst_dir_fd=b_folder)


def same(parent: int, name: str, descriptor: int) -> bool:
    """Whether `name` in `parent` is still the folder open as `descriptor` (not swapped for another, or a link)."""
    try:
        return os.path.samestat(os.stat(name, dir_fd=parent, follow_symlinks=False), os.fstat(descriptor))
    except OSError:
        return False
