"""OUT written whole or not at all, only where the generator may write, and never through a link it did not make.

Everything is written into a fresh tree inside a staging folder beside OUT (`.OUT-staging-<random>/tree`) and
then put in OUT's place in one step: on Linux the two are exchanged atomically (`renameat2(RENAME_EXCHANGE)`),
so a run killed at any moment leaves either the old OUT or the new one, never a mix and never none. Elsewhere
OUT goes to `.OUT-previous` and the new tree to OUT by two renames; a run killed between them leaves
`.OUT-previous`, which the next run puts back before it starts.

The folder that holds OUT is opened once, when the run takes its lock (`locked`), and all the work is done from
that descriptor (`folders`): the staging folder is made exclusively (mode 0700) and held open, the tree is written
through descriptors and moved out of the staging folder's descriptor, never by a name in OUT's parent (another
user who can write there may swap a link in for any name: a staging folder so swapped made OUT a link to that
user's folder); the old tree lands in the staging folder, is proved and removed there. A folder on OUT's path
swapped for a link meanwhile, or a leftover swapped for a link to a user's folder, leads nowhere.

OUT is replaced only when `ownership` proves the generator wrote it, and proved again once it is swapped out (a
file saved into it meanwhile puts it back); a generated file edited by hand is replaced with a warning naming
it; OUT keeps its permissions and owner; one run at a time writes it. What a killed run left is removed only
when it is provably the generator's: a staging folder still holding its marker, or a tree its manifest covers.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from generator.base.errors import InputError
from generator.base.source import real_path
from generator.writing import bytecode, folders, ownership

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the generator needs descriptors of folders, which it lacks
    fcntl = None  # type: ignore[assignment]

#: A file in a staging folder while it is being written: a folder holding it is an unfinished run's.
MARK = ".generate-staging"
#: The tree a staging folder holds: the new OUT while it is written, the old one once the two are exchanged.
TREE = "tree"
#: What a removal takes last: a tree killed halfway through its removal is still provably the generator's.
_LAST = frozenset({ownership.NAME, MARK})


def _real(out: Path) -> Path:
    """OUT with the links of its parent folders followed (for messages; the work goes through a descriptor)."""
    return Path(real_path(out.parent)) / out.name


class Place:
    """OUT's parent folder, held open and locked for one run, and OUT's name in it."""

    def __init__(self, out: Path, parent: int) -> None:
        self.out = out
        self.parent = parent
        self.name = out.name
        self.previous = f".{out.name}-previous"
        self.prefix = f".{out.name}-staging-"

    def shown(self, name: str) -> Path:
        """An entry of OUT's parent as messages name it."""
        return _real(self.out).with_name(name)

    def recover(self) -> list[Path]:
        """Undo what an interrupted run left: put back the OUT it had moved aside, remove its staging folders.
        Only what is provably the generator's is touched, through descriptors (a link there is left alone); the
        entries left are returned (to be named). A staging folder is never a live run's: this run holds the lock."""
        left = []
        try:
            if folders.exists(self.parent, self.previous) and not folders.exists(self.parent, self.name):
                if self._proved(self.previous):
                    folders.rename_new(self.parent, self.previous, self.parent, self.name)
                else:
                    left.append(self.previous)
            for name in sorted(n for n in os.listdir(self.parent) if n.startswith(self.prefix)):
                try:
                    found = folders.open_folder(self.parent, name)
                except OSError:
                    left.append(name)  # a link, or no folder: not the generator's
                    continue
                try:
                    if _marked(found) or ownership.provably_ours(folders.Held(found, self.shown(name))):
                        folders.remove(self.parent, name, _LAST, found)
                    else:
                        left.append(name)
                finally:
                    os.close(found)
        except OSError as error:
            raise _failure(self.out, "cannot clean up what an interrupted run left", error) from None
        return [self.shown(name) for name in left]

    def _proved(self, name: str) -> bool:
        try:
            found = folders.open_folder(self.parent, name)
        except OSError:
            return False
        try:
            return ownership.provably_ours(folders.Held(found, self.shown(name)))
        finally:
            os.close(found)

    @contextlib.contextmanager
    def held(self) -> Iterator[folders.Held | None]:
        """OUT held for the block, opened in its parent without following a link (None when it is absent, a
        link, or no folder)."""
        try:
            descriptor = folders.open_folder(self.parent, self.name)
        except OSError:
            yield None
            return
        try:
            yield folders.Held(descriptor, self.out)
        finally:
            os.close(descriptor)

    def previous_ir(self, limit: int) -> dict[str, bytes | None]:
        """The `*.yaml` files of the old OUT/ir by name, each read through descriptors (None: not a regular file,
        or a link, or past `limit` bytes); none when OUT or its `ir` is no folder of its own."""
        found: dict[str, bytes | None] = {}
        try:
            out = folders.open_folder(self.parent, self.name)
        except OSError:
            return found
        try:
            ir = folders.open_folder(out, "ir")
        except OSError:
            return found
        finally:
            os.close(out)
        try:
            for name in sorted(n for n in os.listdir(ir) if n.endswith(".yaml")):
                found[name] = folders.read_file(ir, name, limit)
        except OSError:
            return {}
        finally:
            os.close(ir)
        return found

    def write(self, files: dict[str, str], specs: Path | None = None) -> list[str]:
        """Replace OUT by exactly `files` (with a manifest, if `files` has none), or raise `InputError` and change
        nothing: when OUT is not the generator's to replace, or the system refuses a write. Returns the generated
        files of the old OUT edited by hand, whose edits this run replaced."""
        why = ownership.refusal(self.out, specs)
        if why is not None:
            raise InputError(str(self.out), None, why)
        if ownership.NAME not in files:
            files = files | {ownership.NAME: ownership.manifest(ownership.UNKNOWN, files)}
        data = {name: text.encode("utf-8") for name, text in files.items()}
        try:
            attributes = ownership.attributes_for(self._status())
            staging, container = folders.make_staging(self.parent, self.prefix)
        except OSError as error:
            raise _failure(self.out, "cannot write the output", error) from None
        try:
            try:
                os.close(os.open(MARK, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | _NOFOLLOW, 0o600,
                                 dir_fd=container))
                os.mkdir(TREE, 0o700, dir_fd=container)
                tree = folders.open_folder(container, TREE)
                try:
                    folders.put(tree, data)
                    folders.give(tree, attributes.owner, attributes.mode)
                    return self._swap(container, tree, data)
                finally:
                    os.close(tree)
            except OSError as error:
                raise _failure(self.out, "cannot write the output", error) from None
        finally:  # what the staging folder holds now: the unfinished new tree, or the old OUT
            folders.remove(self.parent, staging, _LAST, container)
            os.close(container)

    def _status(self) -> os.stat_result | None:
        """The old OUT's status (None when there is none); OUT may not be a link (`ownership.refusal`)."""
        try:
            found = folders.open_folder(self.parent, self.name)
        except FileNotFoundError:
            return None
        try:
            return os.fstat(found)
        finally:
            os.close(found)

    def _swap(self, container: int, tree: int, data: dict[str, bytes]) -> list[str]:
        """Put the new tree (`TREE` in the staging folder `container`, open as `tree`) in OUT's place, and return the
        edited files of the old OUT. The new tree is taken from the staging folder's descriptor, never by a name in
        OUT's parent, where another user may swap a link in for it. On Linux the old OUT takes its place in the
        staging folder, which no one else can write; there it is proved the generator's again (anything saved into
        it meanwhile, or anything but a folder of its own swapped in for it, puts it back) and is removed with the
        staging folder."""
        if not folders.exists(self.parent, self.name):
            folders.rename_new(container, TREE, self.parent, self.name)
            return []
        if folders.exchange(container, TREE, self.parent, self.name):
            old = self._proof(container, TREE, lambda: folders.exchange(container, TREE, self.parent, self.name))
            try:
                return _edited(old, data)
            finally:
                os.close(old)
        if folders.exists(self.parent, self.previous):  # no atomic exchange here: OUT aside, the new tree in
            if not self._proved(self.previous):
                raise InputError(str(self.shown(self.previous)), None, "is in the way of replacing OUT and is not "
                                 "the generator's: move it")
            folders.remove(self.parent, self.previous, _LAST)
        folders.rename_new(self.parent, self.name, self.parent, self.previous)
        old = self._proof(self.parent, self.previous,
                          lambda: folders.rename_new(self.parent, self.previous, self.parent, self.name))
        try:
            folders.rename_new(container, TREE, self.parent, self.name)
        except OSError:
            os.close(old)
            folders.rename_new(self.parent, self.previous, self.parent, self.name)
            raise
        edited = _edited(old, data)
        folders.remove(self.parent, self.previous, _LAST, old)
        os.close(old)
        return edited

    def _proof(self, folder: int, name: str, undo: Callable[[], object]) -> int:
        """A descriptor of the old OUT, now `name` in `folder`, once proved the generator's; else `undo` puts it
        back and the run stops."""
        try:
            old = folders.open_folder(folder, name)
        except OSError:
            undo()
            raise InputError(str(self.out), None, "was replaced by something that is no folder of its own while "
                             "this run wrote it; put back as it was, nothing written") from None
        strays = _strays(folders.Held(old, self.shown(name)))
        if strays:
            os.close(old)
            undo()
            raise InputError(str(self.out), None, f"changed while this run wrote it ({strays} appeared); put back as "
                             "it was, nothing written")
        return old


@contextlib.contextmanager
def locked(out: Path, waiting: Callable[[], None] = lambda: None) -> Iterator[Place]:
    """Hold OUT for this run: its parent folder opened (made where missing) and locked, so that a second run on
    the same OUT waits here (calling `waiting` once) until the first ends. The lock (`flock`) leaves no file
    behind, and the system drops it when a run dies."""
    if out.name in ("", ".", ".."):
        out = Path(os.path.abspath(out))
    try:
        if fcntl is None:
            raise OSError("this system has no flock (the generator needs a POSIX system)")
        parent = folders.hold_making(out.parent)
    except OSError as error:
        raise _failure(out, "cannot hold the output folder for this run", error) from None
    try:
        try:
            fcntl.flock(parent, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            waiting()
            fcntl.flock(parent, fcntl.LOCK_EX)
        yield Place(out, parent)
    finally:
        os.close(parent)  # and with it the lock


def recover(out: Path) -> list[Path]:
    """`Place.recover` for OUT, under its lock (for a caller that holds no `Place`)."""
    with locked(out) as place:
        return place.recover()


def write(out: Path, files: dict[str, str], specs: Path | None = None) -> list[str]:
    """`Place.write` for OUT, under its lock (for a caller that holds no `Place`)."""
    with locked(out) as place:
        return place.write(files, specs)


def _marked(folder: int) -> bool:
    """Whether a staging folder still holds its marker: a regular file, not a link."""
    with folders.opened(folder, MARK) as mark:
        return mark is not None


def _strays(old: folders.Held) -> str:
    """What in the old OUT, swapped out, the generator did not write ("" when nothing)."""
    try:
        found = ownership.foreign(old, ownership.read(old))
    except OSError as error:
        return f"something it cannot read: {error.filename}"
    return ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")


def _edited(old: int, data: dict[str, bytes]) -> list[str]:
    """The files of the old OUT (open as `old`) that differ from what its manifest says was written there and
    from what this run writes in their place: edits by hand, which this run replaces."""
    tree = folders.Held(old, Path())
    listed = ownership.read(tree)
    if listed is None:
        return []
    edited = []
    for name, digest in sorted(listed.files.items()):
        now = folders.file_digest(tree, name)
        if now is not None and now != digest and (name not in data or hashlib.sha256(data[name]).hexdigest() != now):
            edited.append(name)
    return edited


def _failure(out: Path, what: str, error: OSError) -> InputError:
    """A refusal of the file system, naming the path it refused (exit 2, like any bad input)."""
    where = f" ({error.filename})" if error.filename else ""
    return InputError(str(out), None, f"{what}: {error.strerror or error}{where}; nothing under it changed")


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Files under OUT that differ from `files`, are missing, or should not be there (byproducts aside). The
    manifest's first line, the hash of the inputs, is where OUT came from and not part of it: a run with other
    library versions makes the same files (`fingerprint`).

    What should not be there is what `generate` would refuse as not its own (`ownership.foreign`), links, FIFOs
    and devices too: Python follows a `__pycache__` linked elsewhere to the bytecode there, and an import hangs
    on a FIFO named as a module's bytecode."""
    with folders.held(out) as tree:
        present = set() if tree is None else ownership.written(tree)
        differing = [name for name in files if name not in present or not _holds(tree, name, files[name])]
        strays = [] if tree is None else _not_of(tree, files)
    return sorted({*differing, *(name for name in present if name not in files), *strays})


def _not_of(tree: folders.Held, files: dict[str, str]) -> list[str]:
    """What under the open OUT is neither one of `files` nor a byproduct of them (a folder that cannot be read
    is named by `written` already: its files are missing)."""
    try:
        return ownership.foreign(tree, ownership.Manifest("", dict.fromkeys(files, "")))
    except OSError:
        return []


def _holds(tree: folders.Held | None, name: str, text: str) -> bool:
    """Whether a file holds exactly `text` (the manifest: but for its first line); a huge file is not read."""
    data = text.encode("utf-8")
    found = None if tree is None else folders.read_file(tree, name, len(data) + 1)
    if found is None:
        return False
    if name == ownership.NAME:
        return found.partition(b"\n")[2] == data.partition(b"\n")[2]
    return found == data


def foreign_bytecode(out: Path, files: dict[str, str]) -> list[tuple[str, str]]:
    """The bytecode under OUT that is not what `files` compile to (`bytecode.foreign`), each with why."""
    with folders.held(out) as tree:
        if tree is None:
            return []
        try:
            return bytecode.foreign(tree, files.get)
        except OSError as error:
            return [(str(error.filename or "."), f"cannot be read: {error.strerror}")]
