"""`python -m generator diff OLD NEW`: what changed in the API between two revisions of the specs.

Compares IR dictionaries, so it sees what users of the package see: functions and
their prototypes, tokens and their values, error conditions, table rows, types and
the revision text. Where a fact stands in its file (`source:` lines) and what the
generator noticed (diagnostics) are not the API and are left out, so a spec that
only moved its text gives no change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict
from pathlib import Path

from generator import pipeline
from generator.base.records import frozen
from generator.ir import read
from generator.ir.model import NO_VALUE, Extension, value_text


@frozen
class Change:
    extension: str
    kind: str  # e.g. "function added", "token value changed", "condition reworded"
    subject: str  # what changed: a function, a token, a table ...
    old: str | None = None
    new: str | None = None

    def line(self) -> str:
        detail = ""
        if self.old is not None and self.new is not None:
            detail = f": {self.old} -> {self.new}"
        elif self.old is not None or self.new is not None:
            detail = f": {self.old if self.old is not None else self.new}"
        return _CONTROL.sub(_escaped, f"{self.extension}: {self.kind}: {self.subject}{detail}")

    def to_dict(self) -> dict[str, str | None]:
        return asdict(self)


#: Characters that would break a change's line or the terminal showing it (an IR's prototype or row may hold them).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escaped(match: re.Match[str]) -> str:
    return match[0].encode("unicode_escape").decode("ascii")


def load_api(path: Path) -> dict[str, Extension]:
    """Extension -> IR, from a spec file, a folder of specs, or a folder of IR files (or the OUT holding one)."""
    for folder in (path, path / "ir"):
        if folder.is_dir() and (found := read.load_folder(folder)):
            return found
    result = pipeline.run_files([path], str(path)) if path.is_file() else pipeline.run(path)
    return {extension.name: read.record(extension) for extension in result.extensions}


def compare(old: Mapping[str, Extension], new: Mapping[str, Extension]) -> list[Change]:
    """Every change from `old` to `new`, extension by extension in name order."""
    changes: list[Change] = []
    for name in sorted(old.keys() | new.keys()):
        if name not in new:
            changes.append(Change(name, "extension removed", name))
        elif name not in old:
            changes.append(Change(name, "extension added", name))
        else:
            changes += compare_extension(name, old[name], new[name])
    return changes


def compare_extension(name: str, old: Extension, new: Extension) -> list[Change]:
    changes: list[Change] = []
    if old.revision != new.revision:
        kind = "revision stated" if old.revision is None else "revision changed"
        changes.append(Change(name, kind if new.revision else "revision no longer stated", "revision",
                              _text(old.revision), _text(new.revision)))
    guessed = _guessed(old) | _guessed(new)
    changes += _keyed(name, "type", _types(old, guessed), _types(new, guessed))
    changes += _keyed(name, "function", _prototypes(old), _prototypes(new))
    changes += [_unvalued(c) for c in _keyed(name, "token", _tokens(old), _tokens(new), changed="token value changed")]
    changes += _conditions(name, old, new)
    changes += _tables(name, old, new)
    return changes


def _keyed(extension: str, what: str, old: dict[str, str], new: dict[str, str], changed: str = "") -> list[Change]:
    """Added, removed and changed entries of two name -> description maps, in the new (then old) order."""
    changes = []
    for key in [*new, *(k for k in old if k not in new)]:
        if key not in old:
            changes.append(Change(extension, f"{what} added", key, None, new[key]))
        elif key not in new:
            changes.append(Change(extension, f"{what} removed", key))
        elif old[key] != new[key]:
            changes.append(Change(extension, changed or f"{what} changed", key, old[key], new[key]))
    return changes


def _types(data: Extension, guessed: set[str]) -> dict[str, str]:
    """The types the specs define. Platform and COM types are the generator's knowledge, and a type one side
    only guessed (no text defined it) says nothing of the API: a registry's definition of it is no change."""
    return {t.name: f"{t.kind} {t.c_type or ''}".strip() for t in data.types
            if t.kind not in ("platform", "interface") and t.name not in guessed}


def _guessed(data: Extension) -> set[str]:
    return {t.name for t in data.types if not t.defined}


def _prototypes(data: Extension) -> dict[str, str]:
    found = {}
    for function in data.own_functions:
        params = ", ".join(f"{p.type} {p.name}" for p in function.params)
        found[function.name] = f"{function.return_type} {function.name}({params})"
    return found


def _unvalued(change: Change) -> Change:
    """A token the newer text still names but gives no value: its value is not given there, not removed."""
    if change.kind == "token value changed" and change.new == NO_VALUE:
        return Change(change.extension, "token value not given here", change.subject, change.old)
    return change


def _tokens(data: Extension) -> dict[str, str]:
    return {t.name: value_text(t.value) for t in data.tokens}


def _conditions(extension: str, old: Extension, new: Extension) -> list[Change]:
    """Conditions by (function, code). A text gone is a rewording of a text come under the same pair when the
    two make the same check, or when most of its words are still there (one revision may state in one item
    what another stated in two: both of the old texts are then reworded into the one); else it is removed.

    Texts are compared by their words (`_words`): two revisions in different forms write one condition
    with different markup and punctuation, which is no change of the API.
    """
    before, after = _condition_texts(old), _condition_texts(new)
    changes = []
    for key in [*after, *(k for k in before if k not in after)]:
        olds, news = before.get(key, []), after.get(key, [])
        old_words, new_words = {_words(t) for t, _ in olds}, {_words(t) for t, _ in news}
        gone = [(t, c) for t, c in olds if _words(t) not in new_words]
        come = [(t, c) for t, c in news if _words(t) not in old_words]
        subject = f"{key[0]} {key[1]}"
        matched: set[str] = set()
        for text, check in gone:
            successors = _successors(text, check, news)
            if not successors:
                changes.append(Change(extension, "condition removed", subject, _text(text)))
                continue
            matched.update(successors)
            changes.append(Change(extension, "condition reworded", subject, _text(text),
                                  " / ".join(repr(" ".join(t.split())) for t in successors)))
        changes += [Change(extension, "condition added", subject, None, _text(text))
                    for text, _ in come if text not in matched]
    return changes


#: The share of an old condition's words a new one must hold to be read as its rewording.
_KEPT_WORDS = 0.6


def _successors(text: str, check: tuple[str, ...], news: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The new conditions that say what `text` said: one making its check, else the one holding most of its
    words if it holds enough of them, else all of them together if together they do (a list split in items)."""
    if check:
        same = next((other for other, checks in news if checks == check), None)
        if same is not None:
            return [same]
    words = set(_words(text).split())
    if not words or not news:
        return []
    held = [(len(words & set(_words(other).split())) / len(words), other) for other, _ in news]
    share, best = max(held)
    if share >= _KEPT_WORDS:
        return [best]
    together = set().union(*(set(_words(other).split()) for other, _ in news))
    return [other for other, _ in news] if len(words & together) / len(words) >= _KEPT_WORDS else []


#: Markup a condition may carry in one form and not another: quotes, backquotes, emphasis, brackets.
_NOT_WORDS = re.compile(r"[^\w]+")


def _words(condition: str) -> str:
    """A condition's words, lower case, without punctuation or markup: `_param_` and `<param>` read alike."""
    return " ".join(word.strip("_") for word in _NOT_WORDS.split(condition.lower()) if word.strip("_"))


def _condition_texts(data: Extension) -> dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]]:
    """Each condition's text and the checks it makes (its clauses that are no prose), by function and code."""
    found: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
    for function in data.functions:
        for error in function.errors:
            checks = tuple(repr(c.predicate) for c in error.check if c.predicate is not None)
            found.setdefault((function.name, error.code), []).append((error.condition, checks))
    return found


def _tables(extension: str, old: Extension, new: Extension) -> list[Change]:
    before = {t.name: [" | ".join(row) for row in t.rows] for t in old.tables}
    after = {t.name: [" | ".join(row) for row in t.rows] for t in new.tables}
    changes = []
    for name in [*after, *(n for n in before if n not in after)]:
        if name not in before:
            changes.append(Change(extension, "table added", name))
        elif name not in after:
            changes.append(Change(extension, "table removed", name))
        else:
            gone, come = _without(before[name], after[name]), _without(after[name], before[name])
            changes += [Change(extension, "table row removed", name, row) for row in gone]
            changes += [Change(extension, "table row added", name, None, row) for row in come]
    return changes


def _without(rows: Iterable[str], others: list[str]) -> list[str]:
    return [row for row in rows if row not in others]


def _text(value: str | None) -> str | None:
    return None if value is None else repr(" ".join(value.split()))
