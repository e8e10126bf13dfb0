"""Damaged copies of the seed specs, drawn by hypothesis so that a failing case shrinks to a small one.

A case is one seed file, one to four mutations applied in order, and whether
the other seeds stay beside it (so merging meets the damaged member). Each
mutation is a small frozen dataclass whose `apply` maps bytes to bytes; its
positions are fractions of the length, so they stay valid whatever the earlier
mutations did to the size.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from tests.pathological import UNITS
from tests.scoring import CORPUS
from tests.support import SPECS

#: The seeds: every spec text of the project, by file name.
SPEC_SEEDS: dict[str, bytes] = {p.name: p.read_bytes() for p in sorted(SPECS.glob("*.txt"))}
#: The real registry texts of the corpus, in every form the generator reads: damaged alone.
CORPUS_SEEDS: dict[str, bytes] = {p.name: p.read_bytes() for p in sorted(CORPUS.iterdir())
                                  if p.suffix in (".txt", ".asciidoc")}
#: The registry XML, damaged and read beside a current text whose token values it gives.
XML_SEEDS: dict[str, bytes] = {"cl.xml": (CORPUS / "registry" / "cl.xml").read_bytes()}
XML_PARTNER = "cl_khr_egl_image.adoc2024.asciidoc"
SEEDS: dict[str, bytes] = SPEC_SEEDS | CORPUS_SEEDS | XML_SEEDS
#: The 2026 OpenCL book, and the files of it the D3D extensions are cut from, damaged one at a time.
BOOK = CORPUS / "opencl-docs-2026"
BOOK_SEEDS: dict[str, bytes] = {name: (BOOK / name).read_bytes() for name in (
    "OpenCL_API.txt", "api/opencl_platform_layer.asciidoc", "api/opencl_runtime_layer.asciidoc",
    "api/cl_khr_d3d11_sharing.asciidoc", "api/appendix_f.asciidoc", "xml/cl.xml")}
#: The seeds the random cases are drawn from: all, or those `python -m tests.fuzz --seeds` names.
DRAWN = sorted(name for name in SEEDS if name in os.environ.get("FUZZ_SEEDS", name).split(","))

#: Positions are drawn as integers in [0, SCALE] and read as a fraction of the length.
SCALE = 1_000_000
#: The bytes of a pathological line: 256 KB in `make fuzz` (which sets it), less in `make test`'s share.
LINE_SIZE = int(os.environ.get("FUZZ_LINE_SIZE", str(16 * 1024)))

_LINE_AFTER_BLANK = re.compile(rb"(?<=\n\n)(?=\S)")
_INLINE_TITLE = re.compile(
    rb"(?<=\s)(?=(Overview|Issues|New Procedures and Functions|New Tokens|New Types|Revision History"
    rb"|Errors|Description|Parameters|Additions to|Name Strings?|Dependencies)\b)"
)
_ASCIIDOC_TITLE = re.compile(rb"(?m)^(?==+ |\[\[)")
_LONE_NAME = re.compile(rb"(?m)^(?=[a-z]+(_[a-z0-9]+)+$)")


def section_boundaries(data: bytes) -> list[int]:
    """Offsets where a section starts: a line at the margin after a blank line, an AsciiDoc title or anchor,
    a parameter's name alone on its line (reference pages), or a template title inside a collapsed line."""
    found = {m.start() for pattern in (_LINE_AFTER_BLANK, _INLINE_TITLE, _ASCIIDOC_TITLE, _LONE_NAME)
             for m in pattern.finditer(data)}
    return sorted(found - {0})


def _at(fraction: int, length: int) -> int:
    return fraction * length // SCALE


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


@dataclass(frozen=True)
class FlipBytes:
    """Bytes XORed with a non-zero mask: typos, bit rot, and invalid UTF-8."""

    where: tuple[int, ...]
    mask: int

    def apply(self, data: bytes) -> bytes:
        out = bytearray(data)
        for fraction in self.where:
            if out:
                out[min(_at(fraction, len(out)), len(out) - 1)] ^= self.mask
        return bytes(out)


@dataclass(frozen=True)
class TruncateAtSection:
    """The text cut off where one of its sections starts (keeping the head, or only the tail)."""

    which: int
    keep_tail: bool

    def apply(self, data: bytes) -> bytes:
        boundaries = section_boundaries(data)
        if not boundaries:
            return data
        cut = boundaries[self.which % len(boundaries)]
        return data[cut:] if self.keep_tail else data[:cut]


@dataclass(frozen=True)
class TruncateAnywhere:
    """The text cut at any byte, perhaps inside a UTF-8 sequence."""

    at: int

    def apply(self, data: bytes) -> bytes:
        return data[:_at(self.at, len(data))]


@dataclass(frozen=True)
class DeleteLines:
    start: int
    count: int

    def apply(self, data: bytes) -> bytes:
        lines = _lines(data)
        first = _at(self.start, len(lines))
        return b"".join(lines[:first] + lines[first + self.count:])


@dataclass(frozen=True)
class DuplicateLines:
    start: int
    count: int
    times: int

    def apply(self, data: bytes) -> bytes:
        lines = _lines(data)
        first = _at(self.start, len(lines))
        block = lines[first:first + self.count]
        return b"".join(lines[:first] + block * self.times + lines[first:])


@dataclass(frozen=True)
class ShuffleLines:
    start: int
    count: int
    seed: int

    def apply(self, data: bytes) -> bytes:
        lines = _lines(data)
        first = _at(self.start, len(lines))
        window = lines[first:first + self.count]
        random.Random(self.seed).shuffle(window)
        return b"".join(lines[:first] + window + lines[first + self.count:])


@dataclass(frozen=True)
class InsertText:
    """Arbitrary Unicode (any plane, combining marks, controls, quotes, backslashes) put in at one place."""

    at: int
    text: str

    def apply(self, data: bytes) -> bytes:
        cut = _at(self.at, len(data))
        return data[:cut] + self.text.encode("utf-8", "surrogatepass") + data[cut:]


@dataclass(frozen=True)
class Whitespace:
    """Line ends and indentation as other editors write them, and a byte-order mark."""

    form: str

    def apply(self, data: bytes) -> bytes:
        if self.form == "crlf":
            return data.replace(b"\n", b"\r\n")
        if self.form == "cr":
            return data.replace(b"\n", b"\r")
        if self.form == "tabs":
            return re.sub(rb"(?m)^(    )+", lambda m: b"\t" * (len(m.group()) // 4), data)
        if self.form == "trailing":
            return data.replace(b"\n", b" \t\n")
        if self.form == "bom":
            return b"\xef\xbb\xbf" + data
        if self.form == "utf16":
            return data.decode("utf-8", "replace").encode("utf-16")
        raise ValueError(self.form)


WHITESPACE_FORMS = ("crlf", "cr", "tabs", "trailing", "bom", "utf16")


@dataclass(frozen=True)
class Replace:
    """The whole file replaced: nothing at all, or binary data."""

    data: bytes

    def apply(self, data: bytes) -> bytes:
        return self.data


@dataclass(frozen=True)
class Splice:
    """A stretch of another seed pasted over a stretch of this one."""

    donor: str
    start: int
    length: int
    at: int

    def apply(self, data: bytes) -> bytes:
        other = SEEDS[self.donor]
        first = _at(self.start, len(other))
        piece = other[first:first + self.length]
        cut = _at(self.at, len(data))
        return data[:cut] + piece + data[cut + self.length:]


@dataclass(frozen=True)
class Pathological:
    """A unit of the shapes that once took quadratic time (`tests/pathological.py`), repeated to `size`
    bytes at any place: a run of blanks, of clauses, of unclosed markup..."""

    at: int
    unit: str
    size: int

    def apply(self, data: bytes) -> bytes:
        cut = _at(self.at, len(data))
        return data[:cut] + (self.unit * max(1, self.size // len(self.unit))).encode() + data[cut:]


#: What a hostile XML file holds: entity bombs, external entities (file and URL), a document type, deep nesting.
HOSTILE_XML = (
    '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
    '<!DOCTYPE r [<!ENTITY s SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE r SYSTEM "http://example.invalid/r.dtd">',
    "&b;&s;&undefined;",
    "<x>" * 2000,
    "</registry>" * 3,
)


@dataclass(frozen=True)
class HostileXml(InsertText):
    """One of the hostile XML constructs, inserted anywhere (into a text, it is prose of odd characters); its own
    class so that the report counts these cases."""


Mutation = (FlipBytes | TruncateAtSection | TruncateAnywhere | DeleteLines | DuplicateLines | ShuffleLines
            | InsertText | Whitespace | Replace | Splice | Pathological | HostileXml)

_fraction = st.integers(0, SCALE)

mutations: st.SearchStrategy[Mutation] = st.one_of(
    st.builds(FlipBytes, st.lists(_fraction, min_size=1, max_size=16).map(tuple), st.integers(1, 255)),
    st.builds(TruncateAtSection, st.integers(0, 200), st.booleans()),
    st.builds(TruncateAnywhere, _fraction),
    st.builds(DeleteLines, _fraction, st.integers(1, 40)),
    st.builds(DuplicateLines, _fraction, st.integers(1, 40), st.integers(1, 3)),
    st.builds(ShuffleLines, _fraction, st.integers(2, 30), st.integers(0, 2**32)),
    st.builds(InsertText, _fraction, st.text(min_size=1, max_size=40)),
    st.builds(Whitespace, st.sampled_from(WHITESPACE_FORMS)),
    st.builds(Replace, st.sampled_from([b""]) | st.binary(min_size=1, max_size=4096)),
    st.builds(Splice, st.sampled_from(sorted(SEEDS)), _fraction, st.integers(1, 2000), _fraction),
    st.builds(Pathological, _fraction, st.sampled_from(UNITS), st.just(LINE_SIZE)),
    st.builds(HostileXml, _fraction, st.sampled_from(HOSTILE_XML)),
)


@dataclass(frozen=True)
class Case:
    seed: str
    changes: tuple[Mutation, ...]
    with_others: bool

    def damaged(self) -> bytes:
        data = SEEDS[self.seed]
        for change in self.changes:
            data = change.apply(data)
        return data

    def files(self) -> dict[str, bytes]:
        """The specs folder of this case, by file name."""
        others = SPEC_SEEDS if self.seed in SPEC_SEEDS else {}
        files = {name: data for name, data in others.items() if self.with_others}
        if self.seed in XML_SEEDS:
            files[XML_PARTNER] = CORPUS_SEEDS[XML_PARTNER]
        files[self.seed] = self.damaged()
        return files

    def kinds(self) -> str:
        return "+".join(type(change).__name__ for change in self.changes)


cases: st.SearchStrategy[Case] = st.builds(
    Case,
    st.sampled_from(DRAWN),
    st.lists(mutations, min_size=1, max_size=4).map(tuple),
    st.sampled_from([False, False, False, True]),
)


def write(files: dict[str, bytes], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
