"""Error conditions that cannot be read as the text meant them, each marked and named, never checked in silence.

A condition is damaged when its words are not all there or not all what a reader sees: a text that lost its
parameter names (`<name>` dropped by a web page) where no other text restores them ("if is not a valid
platform"), or a character the text's reading could not keep (a bidirectional control, an unknown invisible
character: `base/normalise.py` puts U+FFFD in its place). Such a condition keeps its words in the IR with
`damaged:` saying why, has no check (`analysis.conditions`), is marked on its function's page and in its
docstring, and makes `coverage` fail; each is a warning naming it at its place.

Where a lost name stood is told from the words around it, since nothing else is left of it: a clause that
starts with a verb or an operator ("is not a valid platform", "> 0") lost its subject; a preposition, a
determiner or "if" followed by a verb, an operator, a conjunction or the end ("values specified in are not
valid", "a subresource index for") lost the word after it. "and is" and "or is" are English ("X is NULL and is
not ..."), so a conjunction before a verb is no sign.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import replace

from generator.base.diagnostics import Location, Sink
from generator.base.kinds import Kind
from generator.base.normalise import UNREADABLE, describe
from generator.extraction.facts import SourceFacts
from generator.frontends.document import LOST_PARAMETER_NAMES, REFERENCE
from generator.ir.model import ErrorCondition, Extension

#: Finite verbs: none follows a preposition, a determiner or "if" in a sentence that lost nothing.
_VERBS = frozenset({
    "is", "are", "was", "were", "has", "have", "does", "do", "did", "isn't", "aren't", "wasn't", "weren't", "hasn't",
    "haven't", "doesn't", "don't", "contains", "contain", "specifies", "specify", "points", "point", "refers", "refer",
    "equals"})
_OPERATORS = frozenset({">", "<", ">=", "<=", "=", "==", "!="})
#: After these a noun phrase must follow.
_PREPOSITIONS = frozenset({"in", "of", "for", "by", "to", "with", "from", "on", "at", "into", "onto", "than", "as",
                           "within", "between"})
_DETERMINERS = frozenset(["the", "a", "an", "both", "either", "neither", "each", "every"])
_SUBORDINATE = frozenset(["if", "when", "whether", "unless", "while", "where"])
_CONJUNCTIONS = frozenset({"and", "or", "nor", "but"})
_ENDS = frozenset({",", ".", ";", ":", ")", ""})
_WORD = re.compile(r"<\w+>|[A-Za-z_][\w'-]*|>=|<=|==|!=|[<>=]|[0-9]+|[^\w\s]")
#: Where `gaps` says a sentence lost its subject.
_START = "at its start"
#: How much of a condition a message quotes.
_QUOTED = 80


def mark(extensions: list[Extension], sources: list[SourceFacts], sink: Sink) -> list[Extension]:
    """The extensions with every damaged condition marked (`ErrorCondition.damaged`), each with a warning at its
    place; and what else a text that lost its parameter names says that no other text restores named
    (`unrestored`)."""
    lost = {s.path for s in sources if LOST_PARAMETER_NAMES in s.lost}
    replaced = {s.path: tuple(sorted(s.unreadable, key=lambda r: r[0].pos)) for s in sources}
    marked: list[Extension] = []
    for extension in extensions:
        functions = []
        for function in extension.functions:
            errors = []
            for error in function.errors:
                why = damage(error, lost, replaced)
                if why != error.damaged:
                    error = replace(error, damaged=why)
                errors.append(error)
                if error.damaged is not None:
                    sink.warning(error.source, Kind.DAMAGED_CONDITION, f"{function.name} {error.code}: the condition "
                                 f"'{quoted(error.condition)}' {error.damaged}; it is not read as a check, and the "
                                 "IR, the docs and `coverage` mark it", extension=extension.name)
            changed = any(new is not old for new, old in zip(errors, function.errors, strict=True))
            functions.append(replace(function, errors=tuple(errors)) if changed else function)
        marked.append(replace(extension, functions=tuple(functions)))
    unrestored(marked, [s for s in sources if s.path in lost], sink)
    return marked


def unrestored(extensions: list[Extension], damaged: list[SourceFacts], sink: Sink) -> None:
    """A warning for each table row of the texts that lost their parameter names (`damaged`) whose cell lost a name
    in mid-sentence (a cell may start with its verb) that no other text restores: the row is kept with the gap.
    (Descriptions that lost their subject are named by `merging.recover`, which knows whether a text had others to
    restore them from.)"""
    paths = {source.path for source in damaged}
    for extension in extensions:
        for table in extension.tables:
            if table.source.path not in paths:
                continue
            for index, row in enumerate(table.rows):
                holes = [(cell, places) for cell in row if (places := [p for p in gaps(cell) if p != _START])]
                if holes:
                    where = table.row_sources[index] if index < len(table.row_sources) else table.source
                    cell, places = holes[0]
                    sink.warning(where, Kind.UNRESTORED_ROW, f"table {table.name}, row {row[0]}: the cell "
                                 f"'{quoted(cell)}' lost parameter names ({', '.join(places[:3])}), which no other "
                                 "text restores: the row is kept with the gaps", extension=extension.name)


def damage(error: ErrorCondition, lost: set[str], replaced: dict[str, tuple[tuple[Location, str], ...]]) -> str | None:
    """Why `error` cannot be read as its text meant it, or None."""
    if UNREADABLE in error.condition:
        return f"holds {_unreadable(error.source, replaced.get(error.source.path, ()))}"
    if error.source.path not in lost:
        return None
    places = gaps(error.condition)
    if not places:
        return None
    where = ", ".join(places[:3]) + (" and more" if len(places) > 3 else "")
    if error.recovered == "parameter names":
        return f"lost parameter names ({where}) that the other texts restore only in part"
    return f"lost parameter names ({where}) that no other text restores"


def _unreadable(source: Location, replaced: tuple[tuple[Location, str], ...]) -> str:
    """The character the text's reading put U+FFFD in place of: the first at or after the condition's start
    (`replaced` is in the order of the text)."""
    at = bisect_left(replaced, source.pos, key=lambda r: r[0].pos)
    if at == len(replaced):
        return ("U+FFFD, which stands for a character lost before the text was written, or one its reading could "
                "not keep (see the warning on the text's characters)")
    return f"{describe(replaced[at][1])}, read as U+FFFD: the condition may show otherwise than it reads"


def quoted(text: str) -> str:
    plain = REFERENCE.sub(r"\1", " ".join(text.split()))
    return plain if len(plain) <= _QUOTED else plain[: _QUOTED - 3] + "..."


def gaps(condition: str) -> list[str]:
    """Where the words around say a name is missing: `at its start`, `after 'in'`, ..."""
    words = [w.lower() for w in _WORD.findall(condition)]
    found: list[str] = []
    if words and _needs_subject(words[0]):
        found.append(_START)
    for index, word in enumerate(words):
        after = words[index + 1] if index + 1 < len(words) else ""
        if _lost_after(word, after):
            found.append(f"after '{word}'")
    return list(dict.fromkeys(found))


def _needs_subject(word: str) -> bool:
    return word in _VERBS or word in _OPERATORS


def _lost_after(word: str, after: str) -> bool:
    """Whether a name is missing right after `word`, which `after` follows."""
    if word in _PREPOSITIONS:
        if word == "to" and after in ("have", "do"):  # "to have been", "to do": an infinitive
            return False
        return after in _VERBS or after in _OPERATORS or after in _ENDS or after in _CONJUNCTIONS
    if word in _DETERMINERS:
        return after in _VERBS or after in _OPERATORS or after in _ENDS or after in _CONJUNCTIONS
    if word in _SUBORDINATE:
        return after in _VERBS or after in _OPERATORS or after in _ENDS
    if word in _CONJUNCTIONS or word == ",":
        return after in _OPERATORS
    return False
