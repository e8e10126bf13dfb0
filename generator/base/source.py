"""Input files and positions inside them: every fact the generator keeps points back here."""

from __future__ import annotations

import codecs
import errno
import hashlib
import os
import re
import stat
from dataclasses import field
from functools import lru_cache
from pathlib import Path

from generator.base.errors import InputError, escape, unprinted
from generator.base.normalise import Normalised, normalise
from generator.base.records import frozen

#: The most a spec file may hold: 200 times the largest known (about 40 kB). Past it, reading would take
#: minutes and gigabytes for no text anyone writes by hand.
MAX_BYTES = 8 * 1024 * 1024

#: How every citation and message names the `--specs` folder, whatever it is called and wherever it lies: the
#: output is then the same from any folder, and holds no path of the machine it was made on.
SPECS = "specs"
#: The most links one path may go through, as the kernel's own limit (MAXSYMLINKS): past it, a loop.
_MOST_LINKS = 40
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

#: Characters that may not appear in a spec text (binary data, not prose).
#: What a text that is not UTF-8 is read as, the first that takes every byte: older registry texts were written
#: on Windows (cp1252: its quotes and dashes) or in ISO 8859-1, which takes any byte (a binary file is then refused
#: for its control characters).
LEGACY_ENCODINGS = ("cp1252", "latin-1")


def _mixed(raw: bytes, encoding: str) -> str:
    """`raw` as UTF-8 where it is UTF-8, each other byte in the legacy `encoding`: a UTF-8 text with a stray
    byte keeps its characters, and a text all in the legacy encoding reads as that (one pass: the codec calls
    the handler at each byte that is not UTF-8)."""
    return raw.decode("utf-8-sig", errors=_HANDLERS[encoding])


def _legacy_handler(encoding: str) -> str:
    name = f"cl-d3d-sharing-{encoding}"

    def handler(error: UnicodeError) -> tuple[str, int]:
        assert isinstance(error, UnicodeDecodeError)
        return error.object[error.start : error.end].decode(encoding), error.end

    codecs.register_error(name, handler)
    return name


_HANDLERS = {encoding: _legacy_handler(encoding) for encoding in LEGACY_ENCODINGS}


def _decodes(raw: bytes, encoding: str) -> bool:
    try:
        raw.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


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
    #: The sha256 of the bytes read ("" for a text made in memory): the inputs' hash is made of what was parsed.
    digest: str = field(default="", compare=False, repr=False)
    #: The legacy encoding a text that is not UTF-8 was read in, and where its first byte that is not UTF-8 stands.
    legacy: tuple[str, Pos] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def read(cls, path: Path, root: Path | None = None, name: str | None = None) -> SpecFile:
        """Read `path`. Under `root`, the `--specs` folder, it is named `specs/<its path under root>` and opened
        beneath root (`open_spec`); without one (a file named on the command line), it is named relative to the
        working folder. `name`: how a file of the project's own under `root` (`data/`) is named instead,
        wherever the project lies; such a file is never read through a link."""
        shown = name or name_of(path, root)
        if problem := name_problem(shown):
            raise InputError(shown, None, problem)
        descriptor = open_spec(path, root, shown, follow=name is None)
        try:
            raw = _read_at_most(descriptor, MAX_BYTES + 1)
        except OSError as error:
            raise InputError(shown, Pos(1, 1), f"cannot read this file: {error.strerror}") from None
        finally:
            os.close(descriptor)
        if len(raw) > MAX_BYTES:
            line = raw.count(b"\n", 0, MAX_BYTES) + 1
            column = MAX_BYTES - (raw.rfind(b"\n", 0, MAX_BYTES) + 1) + 1
            raise InputError(shown, Pos(line, column), f"the file goes on past {MAX_BYTES // 1024 // 1024} MiB here, "
                             "far more than any spec; is it the right file?")
        legacy = None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            before = raw[: error.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            at = Pos(before.count(b"\n") + 1, len(before) - (before.rfind(b"\n") + 1) + 1)
            encoding = next(e for e in LEGACY_ENCODINGS if _decodes(raw, e))
            text, legacy = _mixed(raw, encoding), (encoding, at)
        spec = cls.from_text(shown, text)
        return cls(spec.path, spec.text, spec.normalised, hashlib.sha256(raw).hexdigest(), legacy)

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
        return _line(self.text, number)

    def where(self, pos: Pos) -> str:
        """`path:line`, the form the IR uses for sources."""
        return f"{self.path}:{pos.line}"


@lru_cache(maxsize=4)
def _line(text: str, number: int) -> str:
    """Line `number` of `text` ("" past its end), found without splitting the text, and the same string each time
    it is asked for: every error at a place of one long line (a registry of one 8 MiB line) shows that line, and
    each held a copy of its own."""
    if number < 1:
        return ""
    start = 0
    for _ in range(number - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


def position_of(text: str, offset: int) -> Pos:
    line = text.count("\n", 0, offset) + 1
    return Pos(line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def real_path(path: Path | str) -> str:
    """`os.path.realpath`, which never raises on a link loop but does (EINVAL) when a link on the way is swapped
    for something else while it is read: then the path made absolute as it is written."""
    try:
        return os.path.realpath(path)
    except OSError:
        return os.path.abspath(path)


def display_path(path: Path, root: Path) -> str:
    """A file named on the command line, relative to `root` (the working folder) when inside it. Files under
    `--specs` are named by `name_of` instead."""
    absolute = Path(real_path(path))
    try:
        return absolute.relative_to(real_path(root)).as_posix()
    except ValueError:
        return os.fspath(absolute)


def cited(relative: str) -> str:
    """A file `relative` to the `--specs` folder, as every citation names it: `specs/<relative>`."""
    return f"{SPECS}/{relative}"


def name_of(path: Path, root: Path | None) -> str:
    """How a spec file is named everywhere: `specs/<its path under root>`, or without a root (a file named on the
    command line) relative to the working folder."""
    return display_path(path, Path.cwd()) if root is None else cited(path.relative_to(root).as_posix())


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


class _Outside(Exception):
    """A link on a spec's way leads out of the `--specs` folder."""


class _Linked(Exception):
    """A link on the way to a file that is read only as it is."""


def open_spec(path: Path, root: Path | None, shown: str, follow: bool = True) -> int:
    """A descriptor of a spec file to read: a regular file, opened without blocking (a FIFO is refused, never
    waited on). Under `root` every name on the way is opened without following a link, and a link is followed
    by hand beneath root (`_beneath`): one that leads out of it, or a folder on the way swapped for such a link
    while the run works, is refused before a byte is read; without `follow`, any link is. Raises `InputError`
    naming the file as `shown`."""
    try:
        if root is None:
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        else:
            descriptor = _beneath(root, path.relative_to(root).as_posix(), follow)
    except _Linked:
        raise InputError(shown, None, "is, or lies behind, a symbolic link: the project's own files are read "
                         "only as they are, never through a link") from None
    except _Outside:
        raise InputError(shown, None, "is, or lies behind, a symbolic link that leads out of the specs folder: it "
                         "is not read (a spec is read only from inside the folder; copy the file there)") from None
    except OSError as error:
        raise InputError(shown, None, f"cannot read this file: {error.strerror}") from None
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(descriptor)
        raise InputError(shown, None, "is no regular file (a folder, a FIFO, a device): cannot read it as a spec")
    return descriptor


def head(path: Path, root: Path | None, size: int) -> tuple[bytes, int] | None:
    """The first `size` bytes of a spec file and its size, opened as `SpecFile.read` opens it; None where it
    cannot be (reading it will say why)."""
    try:
        descriptor = open_spec(path, root, "")
    except InputError:
        return None
    try:
        return _read_at_most(descriptor, size), os.fstat(descriptor).st_size
    except OSError:
        return None
    finally:
        os.close(descriptor)


def digest(path: Path, root: Path | None, follow: bool = True) -> str | None:
    """The sha256 of a spec file's bytes as `SpecFile.read` would read them (at most one byte past the limit);
    None where it cannot be read (reading it will say why). `follow`: as `open_spec`'s."""
    try:
        descriptor = open_spec(path, root, "", follow)
    except InputError:
        return None
    try:
        return hashlib.sha256(_read_at_most(descriptor, MAX_BYTES + 1)).hexdigest()
    except OSError:
        return None
    finally:
        os.close(descriptor)


def _read_at_most(descriptor: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0 and (chunk := os.read(descriptor, min(size, 1 << 20))):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _beneath(root: Path, relative: str, follow: bool = True) -> int:
    """`relative` opened beneath the folder `root` (itself opened as named, links and all: the user named it):
    one name at a time, each with O_NOFOLLOW from a descriptor of the folder before it, so that nothing swapped
    on the way can lead the open elsewhere. A link met on the way is read and its target walked the same way,
    `..` never climbing above root, an absolute target counting only where it names a place under root; what
    would leave root raises `_Outside`. Linux's openat2(RESOLVE_BENEATH) does this; Python does not offer it."""
    held = [os.open(root, _FOLDER)]
    prefixes = {real_path(root).rstrip("/") + "/", os.path.abspath(root).rstrip("/") + "/"}
    todo = _parts(relative)
    links = 0
    try:
        while todo:
            name = todo.pop()
            if name == "..":
                if len(held) == 1:
                    raise _Outside
                os.close(held.pop())
                continue
            flags = (_FOLDER if todo else os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC) | _NOFOLLOW
            try:
                held.append(os.open(name, flags, dir_fd=held[-1]))
                continue
            except OSError as error:
                if error.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise
                try:
                    target = os.readlink(name, dir_fd=held[-1])
                except OSError:
                    raise error from None  # no link: a file where a folder was named
                if not follow:
                    raise _Linked from None
            links += 1
            if links > _MOST_LINKS:
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP))
            if target.startswith("/"):
                inside = next((target[len(p):] for p in prefixes if (target + "/").startswith(p)), None)
                if inside is None:
                    raise _Outside
                while len(held) > 1:
                    os.close(held.pop())
                target = inside
            todo += _parts(target)
        return held.pop()
    finally:
        for descriptor in held:
            os.close(descriptor)


def _parts(path: str) -> list[str]:
    """The names of a path, last first (a stack to walk)."""
    return [part for part in reversed(path.split("/")) if part not in ("", ".")]


def spec_files(specs: Path, hidden: list[str] | None = None) -> list[Path]:
    """Every file under `specs` (hidden ones aside: version control's folders, editors' swap files), in a fixed
    order; none at all is an input error, and so is a folder that cannot be read or an entry that is no file
    (every file under `--specs` is read: none is passed over in silence). The hidden entries passed over go
    into `hidden`, cited, for the run to name. The folder is walked through descriptors, never into a link: a
    link is listed as a file, and where it leads is judged when it is read (`open_spec`)."""
    try:
        top = os.open(specs, _FOLDER)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            raise InputError(str(specs), None, "no such folder of specs") from None
        raise InputError(str(specs), None, f"cannot read this folder of specs: {error.strerror}") from None
    found: list[str] = []
    try:
        _walk(top, "", found, [] if hidden is None else hidden)
    finally:
        os.close(top)
    if not found:
        raise InputError(str(specs), None, "this folder holds no spec")
    return sorted((specs / name for name in found), key=lambda p: p.as_posix())


def _walk(folder: int, prefix: str, found: list[str], hidden: list[str]) -> None:
    """The files under the open `folder`, as paths beginning with `prefix`, into `found`; hidden entries,
    cited, into `hidden`."""
    try:
        with os.scandir(folder) as listed:
            entries = sorted(listed, key=lambda e: e.name)
    except OSError as error:
        raise InputError(cited(prefix.rstrip("/")) if prefix else SPECS, None,
                         f"cannot read this folder of specs: {error.strerror}") from None
    for entry in entries:
        relative = prefix + entry.name
        if entry.name.startswith("."):
            hidden.append(cited(relative))
            continue
        if entry.is_dir(follow_symlinks=False):
            try:
                inner = os.open(entry.name, _FOLDER | _NOFOLLOW, dir_fd=folder)
            except OSError as error:
                raise InputError(cited(relative), None, f"cannot read this folder of specs: {error.strerror}") from None
            try:
                _walk(inner, relative + "/", found, hidden)
            finally:
                os.close(inner)
        elif entry.is_symlink() or entry.is_file(follow_symlinks=False):
            found.append(relative)
        else:
            raise InputError(cited(relative), None, "is no file (a FIFO, a device, a socket): cannot read it as a "
                             "spec")
