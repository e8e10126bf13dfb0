"""A sentence that opens a token group: "Accepted as the <p> parameter of f", "Returned in the <p> parameter of
f when ...", "Returned by f and g if ..." (the phrases are `phrases`')."""

from __future__ import annotations

import re

from generator.base import phrases
from generator.base.diagnostics import Location
from generator.extraction.facts import TokenGroupFact


def token_group(text: str, where: Location) -> TokenGroupFact | None:
    """The group a sentence opens: tokens accepted by, returned in or returned as errors of functions."""
    if accepted := phrases.accepted(text):
        parameter, broken = _parameter(accepted.param)
        functions = tuple(phrases.split_names(accepted.functions))
        return TokenGroupFact(text, "accepted", functions, parameter, None, where, broken)
    if returned := phrases.RETURNED_IN.match(text):
        parameter, broken = _parameter(returned["param"])
        return TokenGroupFact(
            text, "returned", (returned["function"],), parameter, returned["when"], where, broken
        )
    if phrases.RETURNED_BY.match(text):
        functions = tuple(
            name
            for clause in phrases.RETURNED_BY_CLAUSE.finditer(text)
            for name in phrases.split_names(clause["functions"])
        )
        return TokenGroupFact(text, "error", functions, None, None, where)
    return None


def _parameter(phrase: str) -> tuple[str | None, bool]:
    """The parameter named in "in the <p> parameter", and whether its markup was broken."""
    phrase = phrase.strip()
    if match := re.fullmatch(r"<(\w+)>", phrase):
        return match.group(1), False
    bare = phrase.strip("_*` ")
    if re.fullmatch(r"[A-Za-z]\w*", bare):
        return bare, True
    return None, False
