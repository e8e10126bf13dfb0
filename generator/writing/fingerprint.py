"""A content hash of everything the output depends on, kept in OUT, so an unchanged run can skip all parsing.

`generate` says "current" only when this hash is as recorded and OUT is as written;
`check` compares the output itself, so whatever the output depends on must be here,
or a run would say "current" where `check` finds stale files. What goes in:

- `--no-registry`, which changes what is read;
- every spec file, by its name under the specs folder (`specs/...`: the folder's own
  path is in no output) and the sha256 of its bytes. The hash a run records is made of
  the bytes it parsed (`SpecFile.digest`), not of a second reading: a file changed
  while the run read it cannot make OUT look current for content it was not made from;
- the project's own inputs: every file under `generator/`, `grammar/`, `templates/`,
  `data/` and `docs/` whatever its suffix (a licence text of `data/` is copied into
  OUT), bytecode caches aside, read before the run reads or imports any of them;
- the generator's version, the Python it runs on (major.minor: the Unicode tables,
  `repr`), and the versions of the libraries whose work is written: lark (the parse),
  PyYAML (the IR's text), Jinja2 and MarkupSafe (every template), cffi and pycparser
  (the cffi modules).

The files of OUT are then compared one by one (`intact`), and its bytecode must be
its sources compiled (`bytecode`).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping
from pathlib import Path

from generator import ROOT, __version__
from generator.base import source
from generator.base.errors import InputError
from generator.writing import bytecode, folders, ownership

#: The file in OUT that holds the hash of the inputs it was made from (its manifest).
NAME = ownership.NAME
_PROJECT_INPUTS = ("generator", "grammar", "templates", "data", "docs")
#: The distributions whose versions can change what is written (their names as pip knows them).
LIBRARIES = ("cffi", "jinja2", "lark", "markupsafe", "pycparser", "pyyaml")
#: The most of one project file that is hashed: a file past it is hashed by its first bytes and its length.
_MOST = source.MAX_BYTES


def environment() -> str:
    """The generator's version, the Python's and each library's, one per line (a missing one as `-`)."""
    from importlib import metadata  # 13 ms of imports: only when a hash is made

    python = f"python {sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]}"
    lines = [f"generator {__version__}", python]
    for name in LIBRARIES:
        try:
            lines.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{name} -")
    return "\n".join(lines) + "\n"


def project() -> str:
    """The hash of the environment and of the project's own inputs, as hex."""
    digest = hashlib.sha256(environment().encode())
    for folder in _PROJECT_INPUTS:
        for path in sorted((ROOT / folder).rglob("*"), key=lambda p: p.as_posix()):
            if "__pycache__" not in path.relative_to(ROOT).parts and path.is_file():
                digest.update(_entry(path.relative_to(ROOT).as_posix(), path))
    return digest.hexdigest()


def _entry(name: str, path: Path) -> bytes:
    """One project file: its name, length and bytes (read no further than `_MOST`; one that cannot be read is
    hashed as such: the run that then reads it will say why)."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(_MOST + 1)
    except OSError as error:
        data = f"unreadable: {error.strerror}".encode()
    return f"{name}\n{len(data)}\n".encode("utf-8", "surrogateescape") + data  # a name's bytes, UTF-8 or not


def inputs(project_hash: str, specs: Mapping[str, str], lean: bool = True) -> str:
    """The inputs' hash: the project's (`project`), every spec file's sha256 by its name (`specs/...`), and
    whether the run leans on the project's registry XML (`--no-registry` when not)."""
    digest = hashlib.sha256(f"project {project_hash}\n".encode() + (b"" if lean else b"no registry\n"))
    for name in sorted(specs):
        digest.update(f"{name}\n{specs[name]}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def on_disk(specs: Path) -> dict[str, str] | None:
    """Every spec file's sha256 by its name, read as `generate` reads them; None when one cannot be read (the
    run reports it) or the folder cannot be listed."""
    try:
        files = source.spec_files(specs)
    except InputError:
        return None
    found: dict[str, str] = {}
    for path in files:
        digest = source.digest(path, specs)
        if digest is None:
            return None
        found[source.name_of(path, specs)] = digest
    return found


def of_folder(specs: Path) -> str | None:
    """The inputs' hash of a specs folder as it is now (None when a file cannot be read)."""
    digests = on_disk(specs)
    return None if digests is None else inputs(project(), digests)


def current(out: Path | folders.Held, value: str) -> bool:
    """Whether OUT was made from inputs with this hash, holds exactly what was written then, unchanged, and no
    bytecode but its sources compiled."""
    with folders.held(out) as tree:
        if tree is None:
            return False
        listed = ownership.read(tree)
        return (listed is not None and listed.inputs == value and intact(tree, listed)
                and not bytecode.foreign(tree, lambda name: _source(tree, listed, name)))


def intact(out: Path | folders.Held, listed: ownership.Manifest | None = None) -> bool:
    """Whether OUT holds exactly the files its manifest lists (byproducts aside), each with the hash written there."""
    with folders.held(out) as tree:
        if tree is None:
            return False
        listed = listed or ownership.read(tree)
        if listed is None or ownership.written(tree) - {NAME} != set(listed.files):
            return False
        return all(folders.file_digest(tree, name) == digest for name, digest in listed.files.items())


def _source(tree: folders.Held, listed: ownership.Manifest, name: str) -> str | None:
    """A generated module's text as OUT holds it (only a listed file is a generated source)."""
    if name not in listed.files:
        return None
    data = folders.read_file(tree, name, bytecode.MOST + 1)
    try:
        return None if data is None or len(data) > bytecode.MOST else data.decode("utf-8")
    except UnicodeDecodeError:
        return None
