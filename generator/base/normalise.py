"""Invisible and look-alike characters in a spec text: what a reader does not see never changes what it means.

A text copied from a web page or a PDF, or shaped by an attacker, can hold characters that show as nothing or as
another character: a soft hyphen inside `CL_INVALID_VALUE`, a zero-width space after `flags`, the ligature `ﬀ`
in `eﬀective`, a bidirectional override that shows a condition in another order than it reads (Trojan Source).
`normalise` makes the text what a reader sees, where that is safe, and says what it did, per kind:

- removed (a warning): soft hyphen, zero-width space, non-joiner and joiner, word joiner, a byte order mark
  inside the text, the invisible mathematical operators, the Mongolian vowel separator;
- read as U+FFFD (a warning): bidirectional controls, and every other invisible format or C1 control character,
  blank glyph (the Hangul fillers, the blank Braille pattern), private-use or unassigned code point, whose
  meaning is unknown: a condition holding one is not read as a check, a name holding one is refused;
- read as what they stand for (a note): space characters as a space, ligatures, fullwidth and mathematical
  letters as their letters (NFKC), typographic dashes, minus signs and quotes as ASCII;
- kept, with a warning: a word that mixes Latin letters with a look-alike of another script.

Line numbers never change. Columns are those of the text as normalised, as every excerpt shows it: a removed
character makes the ones after it on its line one column earlier, and a ligature one later.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from generator.base.records import frozen

Kind = Literal["invisible", "bidi", "format", "space", "compatibility", "punctuation", "mixed-script"]

#: What stands in the text for a character that could not be read safely.
UNREADABLE = "\ufffd"

#: Invisible characters with no meaning in the texts' prose or names: removed.
_REMOVED = frozenset("\u00ad\u180e\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff")
#: Bidirectional controls: they reorder what is shown around them, so the text may show otherwise than it reads.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63")
_SINGLE_QUOTES = frozenset("\u2018\u2019\u201a\u201b\u2032\u2035")
_DOUBLE_QUOTES = frozenset("\u201c\u201d\u201e\u201f\u2033\u2036")
#: Unicode's default-ignorable code points beyond the format characters (DerivedCoreProperties.txt): shown as
#: nothing by every renderer (Hangul fillers, variation selectors, the tag block); and the symbols drawn blank (the
#: blank Braille pattern, the null notehead), which are no space: a word holding one is another word.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2800, 0x2800),
              (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3), (0x1D159, 0x1D159),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: Code points whose meaning no reader shares: private use (a font's own glyph: a box, a logo, nothing) and those
#: this Python's Unicode assigns nothing to.
_UNKNOWN = frozenset({"Co", "Cn"})
#: Compatibility characters read as their NFKC form: Latin ligatures, fullwidth ASCII, mathematical letters.
_COMPATIBLE = ((0xFB00, 0xFB06), (0xFF01, 0xFF5E), (0x1D400, 0x1D7FF))

#: How many lines of one kind a finding's message shows.
SHOWN = 5
#: How many of the U+FFFD it put in the text a finding keeps, with the character each stands for (a condition
#: holding one is named with it); past that, a condition is named with U+FFFD alone.
KEPT = 10_000

#: The characters `treatment` may change: all but ASCII and the letters of the blocks that hold none it changes
#: (Latin, Greek, Cyrillic, Hebrew, kana, CJK, Hangul), so that a text in another script is passed over at C speed;
#: the code points these blocks leave unassigned (Unicode 14) are candidates too.
_CANDIDATE = re.compile(
    r"[^\x00-\x7f\u00c0-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u052f"
    r"\u0591-\u05c7\u05d0-\u05ea\u05ef-\u05f4\u3041-\u3096\u3099-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")
_WORD = re.compile(r"\w+")
_LATIN = re.compile(r"[A-Za-z]")


@frozen
class Normalised:
    """One kind of character found in a text: how many, where the first stands, which lines hold them, and
    which characters they were. `replaced`: where (line, column) each of the first `KEPT` that became
    `UNREADABLE` stands, and the character it was."""

    kind: Kind
    count: int
    line: int
    column: int
    lines: tuple[int, ...]
    characters: tuple[tuple[str, int], ...]  # each character and how many times it stood
    replaced: tuple[tuple[int, int, str], ...] = ()
    word: str = ""  # "mixed-script": the first such word

    @property
    def warning(self) -> bool:
        return self.kind in ("invisible", "bidi", "format", "mixed-script")

    def message(self) -> str:
        """What was found and done, in words."""
        names = ", ".join(f"{describe(c)}{f' x{n}' if n > 1 else ''}" for c, n in self.characters)
        where = _lines(self.lines, self.count)
        if self.kind == "invisible":
            return (f"{_count(self.count, 'invisible character')} ({names}) {where} removed: a reader does not see "
                    "them, and inside a name they would make it another name; columns after one on its line count "
                    "without it")
        if self.kind == "bidi":
            return (f"{_count(self.count, 'bidirectional control')} ({names}) {where} read as U+FFFD: they can make "
                    "the text show in another order than it reads, so an error condition holding one is not read as "
                    "a check and a name holding one is refused")
        if self.kind == "format":
            return (f"{_count(self.count, 'invisible, private-use or unassigned character')} ({names}) {where} read as "
                    "U+FFFD: what it stands for is unknown, so an error condition holding one is not read as a check "
                    "and a name holding one is refused")
        if self.kind == "mixed-script":
            return (f"{_count(self.count, 'word')} {where} {'mixes' if self.count == 1 else 'mix'} Latin letters "
                    f"with a letter of another script that looks like one ({names}; the first: {self.word!r}): such "
                    "a word is not the name it looks like")
        what = {"space": ("space character", "space characters"),
                "compatibility": ("compatibility character", "compatibility characters"),
                "punctuation": ("typographic dash or quote", "typographic dashes and quotes")}[self.kind]
        into = {"space": "plain spaces", "compatibility": "the letters they stand for (NFKC)",
                "punctuation": "ASCII - ' \""}[self.kind]
        return f"{_count(self.count, *what)} ({names}) {where} read as {into}"


def describe(character: str) -> str:
    """`U+00AD SOFT HYPHEN`."""
    return f"U+{ord(character):04X} {unicodedata.name(character, 'unnamed')}"


def _count(number: int, what: str, plural: str | None = None) -> str:
    return f"{number} {what if number == 1 else plural or what + 's'}"


def _lines(lines: tuple[int, ...], count: int) -> str:
    shown = ", ".join(str(n) for n in lines[:SHOWN])
    more = " and on further lines" if len(lines) > SHOWN else ""
    return f"on line{'s' if len(lines) > 1 else ''} {shown}{more}" if count else ""


def treatment(character: str) -> tuple[Kind, str] | None:
    """What becomes of one character that is not ASCII: its kind and what stands for it, or None to keep it."""
    code = ord(character)
    if character in _REMOVED:
        return "invisible", ""
    if character in _BIDI:
        return "bidi", UNREADABLE
    if character in _DASHES:
        return "punctuation", "-"
    if character in _SINGLE_QUOTES:
        return "punctuation", "'"
    if character in _DOUBLE_QUOTES:
        return "punctuation", '"'
    category = unicodedata.category(character)
    if category in ("Zs", "Zl", "Zp") and character != "\u00a0":
        return "space", " "
    if any(low <= code <= high for low, high in _COMPATIBLE):
        return "compatibility", unicodedata.normalize("NFKC", character)
    if category in ("Cf", "Cc") or category in _UNKNOWN or any(low <= code <= high for low, high in _IGNORABLE):
        return "format", UNREADABLE
    return None


class _Kinds:
    """The findings of one text as they are met, by kind."""

    def __init__(self) -> None:
        self.counts: dict[Kind, dict[str, int]] = {}
        self.lines: dict[Kind, list[int]] = {}
        self.first: dict[Kind, tuple[int, int]] = {}
        self.replaced: dict[Kind, list[tuple[int, int, str]]] = {}
        self.words: dict[Kind, str] = {}

    def add(self, kind: Kind, character: str, line: int, column: int) -> None:
        counts = self.counts.setdefault(kind, {})
        counts[character] = counts.get(character, 0) + 1
        lines = self.lines.setdefault(kind, [])
        if not lines or lines[-1] != line:
            lines.append(line)
        self.first.setdefault(kind, (line, column))

    def found(self) -> tuple[Normalised, ...]:
        return tuple(
            Normalised(kind, sum(counts.values()), *self.first[kind], tuple(self.lines[kind][: SHOWN + 1]),
                       tuple(sorted(counts.items())), tuple(self.replaced.get(kind, ())), self.words.get(kind, ""))
            for kind, counts in self.counts.items())


def normalise(text: str) -> tuple[str, tuple[Normalised, ...]]:
    """`text` as a reader sees it, and what was changed or found, per kind (see the module's docstring)."""
    if text.isascii():
        return text, ()
    kinds = _Kinds()
    pieces: list[str] = []
    kept = 0  # the text up to here is in `pieces`
    line, line_start, scanned = 1, 0, 0  # the line of the last match, where it starts (in the output), and input
    shift = 0  # characters the output has more (ligatures) or fewer (removals) than the input so far
    for match in _CANDIDATE.finditer(text):
        found = treatment(match[0])
        if found is None:
            continue
        at = match.start()
        breaks = text.count("\n", scanned, at)
        if breaks:
            line += breaks
            line_start = text.rfind("\n", scanned, at) + 1 + shift
        scanned = at
        kind, replacement = found
        column = at + shift - line_start + 1
        kinds.add(kind, match[0], line, column)
        if replacement == UNREADABLE and len(kinds.replaced.setdefault(kind, [])) < KEPT:
            kinds.replaced[kind].append((line, column, match[0]))
        pieces.append(text[kept:at])
        pieces.append(replacement)
        kept = match.end()
        shift += len(replacement) - 1
    pieces.append(text[kept:])
    normalised = "".join(pieces)
    _mixed_scripts(normalised, kinds)
    return normalised, kinds.found()


def _mixed_scripts(text: str, kinds: _Kinds) -> None:
    """Words of Latin letters holding a letter of another script (a Cyrillic a, U+0430, in a function's name)."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.isascii():  # most lines of a text with a few foreign letters (a registry's names, a quote)
            continue
        for match in _WORD.finditer(line):  # every word once: a pattern around the stranger backtracks on long words
            word = match[0]
            if word.isascii() or _LATIN.search(word) is None:
                continue
            stranger = next((c for c in word if not c.isascii() and c.isalpha()
                             and not unicodedata.name(c, "").startswith("LATIN")), None)
            if stranger is not None:
                kinds.add("mixed-script", stranger, number, match.start() + 1)
                kinds.words.setdefault("mixed-script", word)
