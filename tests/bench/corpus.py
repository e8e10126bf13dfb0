"""Corpora for the scaling benchmark: renamed copies of the seed specs, each a distinct extension.

Copy k is seed k mod 4 (the four extension texts, each with the reference pages
that describe its functions) renamed into copy set k div 4: every extension
name, vendor suffix and API name gets the set's mark, so copy set 7 holds
`cl_nvq7_d3d10q7_sharing` (with `clCreateFromD3D10Q7BufferNVQ7`) and its three
relatives. A set is a
family like the seeds (vendor and API siblings of each other), and copies in
different sets are unrelated extensions, as they would be in a real corpus.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import SPECS

#: The extension texts, and the reference pages that belong to each (by the extension they name).
_EXTENSION = re.compile(r"\bcl_([a-z]+)_(d3d1[01])_sharing\b")
_API = re.compile(r"(D3D|d3d)(1[01])(?![0-9])")
_SUFFIX_AFTER_NAME = re.compile(r"(?<=[A-Za-z0-9])(NV|KHR)\b")
_SUFFIX_UPPER = re.compile(r"_(NV|KHR)\b")
_SUFFIX_LOWER = re.compile(r"_(nv|khr)\b")


def seeds() -> list[tuple[str, list[Path]]]:
    """(extension name, [its text, its reference pages]) for each seed extension, in name order."""
    texts = sorted(p for p in SPECS.glob("cl_*.txt"))
    pages = sorted(p for p in SPECS.glob("*.txt") if p not in texts)
    found = []
    for text in texts:
        name = text.stem
        found.append((name, [text, *(p for p in pages if name in p.read_text(encoding="utf-8"))]))
    return found


def rename(text: str, mark: str) -> str:
    """`text` as it would read for copy set `mark` (a short lowercase word)."""
    text = _EXTENSION.sub(lambda m: f"cl_{m[1]}{mark}_{m[2]}_sharing", text)
    text = _API.sub(lambda m: m[1] + m[2] + (mark.upper() if m[1].isupper() else mark), text)
    text = _SUFFIX_AFTER_NAME.sub(lambda m: m[1] + mark.upper(), text)
    text = _SUFFIX_UPPER.sub(lambda m: f"_{m[1]}{mark.upper()}", text)
    return _SUFFIX_LOWER.sub(lambda m: f"_{m[1]}{mark}", text)


def make(folder: Path, copies: int) -> int:
    """Write `copies` renamed seed extensions into `folder`; the bytes written."""
    folder.mkdir(parents=True, exist_ok=True)
    family = seeds()
    written = 0
    for k in range(copies):
        _, files = family[k % len(family)]
        mark = f"q{k // len(family)}"
        for path in files:
            text = rename(path.read_text(encoding="utf-8"), mark)
            target = folder / f"{rename(path.stem, mark)}.txt"
            target.write_text(text, encoding="utf-8")
            written += len(text.encode())
    return written
