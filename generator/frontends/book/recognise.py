"""Telling a Khronos checkout from a folder of spec texts, by its files alone (what every run asks first).

A checkout (OpenCL-Docs) holds its registry XML in `xml/` and, at its top, a book: an AsciiDoc document (a
`= Title` line) that includes files of the folder. Every other folder is a folder of spec texts, read as before.
Reading a checkout is `checkout`'s, imported only for one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from generator.base import source
from generator.base.errors import InputError
from generator.base.records import frozen
from generator.base.source import cited
from generator.frontends import registry_xml

#: Where a checkout keeps its registry XML.
XML_FOLDER = "xml"
ASCIIDOC = (".txt", ".adoc", ".asciidoc")
_HEAD = 64 * 1024
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_TITLE = re.compile(rb"^=[ \t]+\S", re.M)
_INCLUDE = re.compile(rb"^include::(?!\{)[^\[\n]+\[", re.M)


@frozen
class Checkout:
    root: Path
    books: tuple[str, ...]  # the first file of each book, cited (`specs/<path>`)
    registry: str  # cited


def recognise(root: Path) -> Checkout | None:
    """The checkout at `root`, or None when it is a folder of spec texts."""
    registries = [name for name in listed(root, XML_FOLDER) if name.endswith(".xml")
                  and _head_matches(root, f"{XML_FOLDER}/{name}", lambda head: registry_xml.recognises(
                      head.decode("utf-8", "replace")))]
    books = [name for name in listed(root, "") if name.endswith(ASCIIDOC)
             and _head_matches(root, name, lambda head: bool(_TITLE.search(head) and _INCLUDE.search(head)))]
    if not registries or not books:
        return None
    if len(registries) > 1:
        raise InputError(cited(XML_FOLDER), None, f"holds {len(registries)} registry XMLs "
                         f"({', '.join(registries)}): which to believe the run cannot tell")
    return Checkout(root, tuple(cited(name) for name in books), cited(f"{XML_FOLDER}/{registries[0]}"))


def listed(root: Path, folder: str) -> list[str]:
    """The names of the regular files (or links, judged when read) directly in `folder` under `root`, none
    hidden; the folder opened one name at a time from root without following a link (a link is no folder of
    the checkout: nothing in it is listed)."""
    held = []
    try:
        held.append(os.open(root, _FOLDER))
        for part in (p for p in folder.split("/") if p):
            held.append(os.open(part, _FOLDER | getattr(os, "O_NOFOLLOW", 0), dir_fd=held[-1]))
        with os.scandir(held[-1]) as entries:
            return sorted(e.name for e in entries if not e.name.startswith(".")
                          and (e.is_symlink() or e.is_file(follow_symlinks=False)))
    except OSError:
        return []
    finally:
        for descriptor in held:
            os.close(descriptor)


def _head_matches(root: Path, relative: str, test: Callable[[bytes], bool]) -> bool:
    """Whether the head of a file, its line ends made LF as reading makes them, passes `test`."""
    found = source.head(root / relative, root, _HEAD)
    return found is not None and test(found[0].replace(b"\r\n", b"\n").replace(b"\r", b"\n"))
