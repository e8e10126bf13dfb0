"""A content hash of everything `generate` reads, kept in OUT, so an unchanged run can skip all parsing.

What goes in: every spec file (its path under the specs folder and its bytes),
and the project's own inputs: the generator's code, grammars, templates,
`data/` and the guides of `docs/`, and the generator's version. What does not:
the versions of the libraries (jinja2, lark, cffi). If one of them changes what
is written, `python -m generator check` still tells, because it compares the
output itself.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from generator import ROOT, __version__
from generator.base.errors import InputError
from generator.base.source import MAX_BYTES
from generator.writing import ownership

#: The file in OUT that holds the hash of the inputs it was made from (its manifest).
NAME = ownership.NAME
_PROJECT_INPUTS = ("generator", "grammar", "templates", "data", "docs")
_SUFFIXES = {".py", ".lark", ".j2", ".json", ".yaml", ".md"}


def inputs(spec_files: list[Path], specs: Path) -> str:
    """The hash of the specs (named relative to `specs`) and of the project's own inputs, as hex."""
    digest = hashlib.sha256(f"generator {__version__}\n".encode())
    for path in sorted(spec_files, key=lambda p: p.relative_to(specs).as_posix()):
        digest.update(_entry(f"specs/{path.relative_to(specs).as_posix()}", path))
    for folder in _PROJECT_INPUTS:
        for path in sorted((ROOT / folder).rglob("*"), key=lambda p: p.as_posix()):
            if path.is_file() and path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                digest.update(_entry(path.relative_to(ROOT).as_posix(), path))
    return digest.hexdigest()


def _entry(name: str, path: Path) -> bytes:
    """One input of the hash, read no further than a spec may be long (a longer file is refused where it is
    read as a spec; here its first bytes and its length already make the hash its own)."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise InputError(str(path), None, f"cannot read this file: {error.strerror}") from None
    return f"{name}\n{len(data)}\n".encode("utf-8", "surrogateescape") + data  # a name's bytes, UTF-8 or not


def _file_digest(path: Path) -> str:
    """A file's hash, read in pieces (a huge file in OUT costs time, not memory)."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while piece := stream.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()


def current(out: Path, value: str) -> bool:
    """Whether OUT was made from inputs with this hash and holds exactly what was written then, unchanged."""
    listed = ownership.read(out)
    return listed is not None and listed.inputs == value and intact(out, listed)


def intact(out: Path, listed: ownership.Manifest | None = None) -> bool:
    """Whether OUT holds exactly the files its manifest lists (byproducts aside), each with the hash written there."""
    listed = listed or ownership.read(out)
    if listed is None or ownership.written(out) - {NAME} != set(listed.files):
        return False
    try:
        return all(_file_digest(out / name) == digest for name, digest in listed.files.items())
    except OSError:
        return False
