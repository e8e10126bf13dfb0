"""The tables of the package's `__init__` and `errors` modules as lines (`PackageCode`): their keys and values
are extension names and the paths of the texts, as long as the texts make them, so they are laid out within the
line length (`emission.layout`) like the extension modules' code.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.base.records import frozen
from generator.emission.layout import Bracket, Node, Prefixed, Text
from generator.emission.module_code import assigned
from generator.emission.package_model import Package
from generator.emission.render import py
from generator.emission.signatures import Lines


@frozen
class PackageCode:
    extensions: Lines  # EXTENSIONS: extension string -> module name
    revisions: Lines  # REVISIONS: extension string -> its revision
    sources: Lines  # SOURCES: each text as cited -> its sha256
    texts: Lines  # errors.TEXTS: each text as cited -> its path under `specs/`


def package_code(package: Package) -> PackageCode:
    return PackageCode(
        extensions=assigned("EXTENSIONS: Final", _table((e.extension, Text(e.module)) for e in package.extensions)),
        revisions=assigned("REVISIONS: Final[dict[str, str | None]]",
                           _table((e.extension, py(e.revision)) for e in package.extensions)),
        sources=assigned("SOURCES: Final[dict[str, str]]", _table((t.source, Text(t.digest)) for t in package.texts)),
        texts=assigned("TEXTS: Mapping[str, str]", _table((t.source, Text(t.path)) for t in package.texts)),
    )


def _table(entries: Iterable[tuple[str, Node]]) -> Bracket:
    """A dict display of str keys, one entry a line."""
    return Bracket("{", tuple(Prefixed(f"{py(key)}: ", value) for key, value in entries), "}", broken=True)
