"""Comparing two wordings of the same sentence, and filling one's gaps from the other.

Damaged texts lose words (parameter names, leading words); their undamaged
counterparts in another source still have them. Words are compared after
normalising case and markup, so that the alignment follows the wording alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from generator.base.records import frozen
from generator.frontends.document import REFERENCE

_TOKEN = re.compile(r"<\w+>|[A-Za-z0-9_][\w\-']*|[^\w\s]")

#: Pairs of words past which two wordings are not aligned: aligning takes time in the product of their
#: lengths, and no two wordings of one sentence come near it (the longest sentence of the seeds has 158
#: words, 25,000 pairs with itself). Past it, texts count as unlike and are left as they are.
MAX_PAIRS = 250_000


def _matcher(a: Sequence[str], b: Sequence[str]) -> SequenceMatcher[str] | None:
    return SequenceMatcher(None, a, b, autojunk=False) if len(a) * len(b) <= MAX_PAIRS else None


@frozen
class Word:
    text: str
    start: int
    reference: str | None  # the parameter's name when the word is a reference to one


@lru_cache(maxsize=4096)
def words(text: str) -> tuple[Word, ...]:
    """Cached: recovery aligns the same candidate wordings again and again."""
    found = []
    for match in _TOKEN.finditer(text):
        reference = REFERENCE.fullmatch(match.group())
        found.append(Word(match.group(), match.start(), reference.group(1) if reference else None))
    return tuple(found)


def _key(word: Word, translate: Callable[[str], str]) -> str:
    name = word.reference or word.text
    return translate(name).lower()


@lru_cache(maxsize=4096)
def _prose_keys(text: str, translate: Callable[[str], str]) -> tuple[str, ...]:
    """The compared form of the words of `text` that are not parameter references.

    Cached: recovery compares each damaged sentence with every candidate in the
    sibling texts, so the same candidates are split again and again.
    """
    return tuple(_key(w, translate) for w in words(text) if not w.reference)


def _prose_matcher(damaged: str, reference: str, translate: Callable[[str], str]) -> SequenceMatcher[str] | None:
    """The alignment of two wordings' prose (parameter names left out: the damaged one may have lost them)."""
    ours, theirs = _prose_keys(damaged, str), _prose_keys(reference, translate)
    return _matcher(ours, theirs) if ours and theirs else None


def similarity(damaged: str, reference: str, translate: Callable[[str], str] = str) -> float:
    """How alike two wordings are (0..1), ignoring parameter names the damaged one may have lost."""
    matcher = _prose_matcher(damaged, reference, translate)
    return matcher.ratio() if matcher else 0.0


def most_similar(damaged: str, candidates: Sequence[tuple[str, Callable[[str], str]]], least: float) -> int | None:
    """The index of the wording among `candidates` (each with its renaming) most like `damaged`, the first of
    equals, when it is at least `least` (above zero) alike; None otherwise. What `similarity` of each would
    choose, in a fraction of its time: a candidate whose upper bounds (`SequenceMatcher.real_quick_ratio`,
    `quick_ratio`) cannot reach `least` or the best so far is not aligned."""
    best, found = least, None
    for index, (reference, translate) in enumerate(candidates):
        matcher = _prose_matcher(damaged, reference, translate)
        if matcher is None or matcher.real_quick_ratio() < best or matcher.quick_ratio() < best:
            continue
        score = matcher.ratio()
        if score > best or (found is None and score >= best):
            best, found = score, index
    return found


def fill_gaps(damaged: str, reference: str, translate: Callable[[str], str] = str) -> tuple[str, list[str]]:
    """`damaged` with the parameter references that `reference` has where `damaged` has nothing.

    Only insertions of references are made; every word of the damaged text stays
    as it is. Returns the new text and the names inserted.
    """
    ours = words(damaged)
    theirs = words(reference)
    matcher = _matcher([_key(w, translate) for w in ours], [_key(w, translate) for w in theirs])
    if matcher is None:
        return damaged, []
    inserts: list[tuple[int, list[str]]] = []
    for op, i1, _i2, j1, j2 in matcher.get_opcodes():
        if op != "insert":
            continue
        references = [w.reference for w in theirs[j1:j2]]
        if all(references):
            inserts.append((i1, [translate(n) for n in references if n]))
    text = damaged
    inserted: list[str] = []
    for index, names in reversed(inserts):
        at = ours[index].start if index < len(ours) else len(text)
        piece = " ".join(f"<{n}>" for n in names)
        follows = text[at : at + 1]
        text = text[:at] + piece + ("" if follows in ("", ".", ",", ";", ":", ")") else " ") + text[at:]
        if at > 0 and not text[at - 1].isspace():
            text = text[:at] + " " + text[at:]
        inserted[:0] = names
    return text, inserted


def differences(first: str, second: str, lost_start: bool = False) -> list[tuple[str, str]]:
    """Words that differ between two wordings, ignoring markup, case and punctuation.

    With `lost_start`, words of `second` missing from the start of `first` do not
    count: `first` is known to have lost its beginning.
    """
    a = [(w.reference or w.text).lower() for w in words(first) if w.text[0].isalnum() or w.reference]
    b = [(w.reference or w.text).lower() for w in words(second) if w.text[0].isalnum() or w.reference]
    changes: list[tuple[str, str]] = []
    matcher = _matcher(a, b)
    for op, i1, i2, j1, j2 in matcher.get_opcodes() if matcher else ():
        if op == "equal" or (lost_start and op == "insert" and i1 == 0):
            continue
        changes.append((" ".join(a[i1:i2]), " ".join(b[j1:j2])))
    return changes


def coverage(damaged: str, reference: str, translate: Callable[[str], str] = str) -> float:
    """The share of `damaged`'s words found, in order, in `reference` (robust to words `damaged` lost)."""
    ours = [(w.reference or w.text).lower() for w in words(damaged)]
    theirs = [translate(w.reference or w.text).lower() for w in words(reference)]
    matcher = _matcher(ours, theirs) if ours else None
    if matcher is None:
        return 0.0
    return sum(block.size for block in matcher.get_matching_blocks()) / len(ours)
