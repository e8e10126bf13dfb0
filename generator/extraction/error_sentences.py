"""Error conditions stated in prose rather than in a bulleted list, as the extension template words them.

A list item or a paragraph may lead with its code ("CL_X if ...", "CL_X - ...", "CL_X: ...",
"CL_X is generated if ...", "CL_X on ..."); a sentence may carry one anywhere ("f returns CL_X if ...",
"It returns CL_X if ...", "This call will return CL_X if ...", "If ..., it will return CL_X",
"a CL_X will be returned for ..."). These are English template phrases: codes and function names are
captured, never matched literally. Whose condition it is, and whether the name is an error code at all,
is for the caller (`extract`) to judge.

The texts are collapsed by the front-ends (one space between words); every pattern is anchored at a
word boundary or a fixed place, and the words before a verb are looked for in a bounded window, so a
paragraph is read in time linear in its length.
"""

from __future__ import annotations

import re

from generator.base.records import frozen

_CODE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
#: A code at the start of an item or paragraph, and what follows it.
_LEADING = re.compile(rf"^\"?(?P<code>{_CODE})(?![\w(])\s*(?P<rest>.*)$", re.S)
#: What joins a leading code to its condition in a paragraph (a list item needs none).
_JOINS = ("- ", "-- ", ": ", "is generated ", "is returned ", "will be returned ", "if ", "when ", "on ", "for ",
          "in case ")
#: Words between a code and its condition that carry nothing ("CL_X ... or if", "CL_X - if").
_FILLER = re.compile(r"^(?:(?:-+|:|\.\.\.|…|is generated|is returned|will be returned|or|if|when)\s*)+")
#: "returns CL_X", "will return CL_X", "generates the error CL_X".
_ACTIVE = re.compile(rf"\b(?:returns?|generates?)\s(?:the\s(?:error\s)?(?:code\s|value\s)?)?(?P<code>{_CODE})\b")
#: "CL_X will be returned", "a CL_X is generated".
_PASSIVE = re.compile(rf"\b(?P<code>{_CODE})\s(?:will\sbe|is|shall\sbe)\s(?:returned|generated)\b")
#: The subject just before a verb: "clFoo returns", "It will return", "This call will return".
_SUBJECT = re.compile(r"(?:(?P<determiner>\w+)\s)?(?P<subject>[\w<>]+)$")
#: The helping words between a subject and its verb ("it will also return").
_HELPERS = re.compile(r"(?:\s(?:will|may|can|shall|also|then|must))*\s*$")
#: Subjects that stand for the function a text is about: "it", "this call", "this function".
_PRONOUNS = ("this call", "this function", "this command", "the function", "this api")
#: A paragraph that names its function first: "clFoo - This call will return ...", "clFoo: ...".
_LED_BY = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s?(?:-|:|--)\s")
#: Sentences end at a full stop followed by a capital (collapsed text: one space).
_SENTENCE_END = re.compile(r"(?<=[.])\s(?=[A-Z\"])")
#: The openings of a sentence whose first clause is the condition ("If ..., it will return CL_X").
_CONDITIONAL = ("If ", "When ")
#: Words that make a following "it" their object ("with it", "to it"), not the subject of the verb after it.
_GOVERNS = ("with", "to", "on", "of", "for", "from", "by", "in", "at", "into", "about", "than", "as")
_CONDITION_OPENS = re.compile(r"^(?:if|when|for|on|in case)\s", re.I)
#: How far back from a verb its subject is looked for.
_WINDOW = 80


@frozen
class Stated:
    """A code and its condition as one sentence or item states them; `subject` is the word before the verb."""

    code: str
    condition: str
    subject: str | None = None
    #: True when the subject stands for the function described ("it", "this call", a `<parameter>`); a
    #: subject that is a function name is for the caller to recognise
    pronoun: bool = True


def leading(text: str, *, joined: bool) -> Stated | None:
    """The code an item or paragraph leads with, and its condition; `joined`: a joining word is required."""
    match = _LEADING.match(text)
    if match is None:
        return None
    rest = match["rest"]
    if joined and not rest.startswith(_JOINS):
        return None
    return Stated(match["code"], _trim(_FILLER.sub("", rest, count=1)))


def led_by(text: str) -> str | None:
    """The name a paragraph opens with before a dash or colon ("clFoo - This call ...")."""
    match = _LED_BY.match(text)
    return match["name"] if match else None


def embedded(text: str) -> list[Stated]:
    """Every "returns CL_X if ..." and "CL_X will be returned ..." of a paragraph, in order."""
    found: list[Stated] = []
    for sentence in _SENTENCE_END.split(text):
        hits = sorted([*_ACTIVE.finditer(sentence), *_PASSIVE.finditer(sentence)], key=lambda m: m.start())
        for hit in hits:
            start = max(0, hit.start() - _WINDOW)
            before = sentence[start: hit.start()]
            before = before[: _HELPERS.search(before).start()]  # type: ignore[union-attr]  # it always matches
            subject = _SUBJECT.search(before) if hit.re is _ACTIVE else None
            conditional = sentence.startswith(_CONDITIONAL)
            at = start + subject.start("subject") if subject else None
            found.append(Stated(hit["code"], _condition(sentence, hit, at), subject["subject"] if subject else None,
                                subject is None or _stands_for_a_function(subject, conditional)))
    return found


def _stands_for_a_function(subject: re.Match[str], conditional: bool) -> bool:
    """"It returns", "This call will return": not "the call using it will return".

    After an opening "If ..." without a comma ("If <f> is not supported by the implementation it will return"),
    the word before "it" ends the condition, unless it makes "it" its object ("using it", "with it").
    """
    word, determiner = subject["subject"], (subject["determiner"] or "").lower()
    if word.startswith("<"):
        return True
    if word.lower() == "it":  # "..., it returns", "Otherwise it returns"; not "the call using it will return"
        if conditional and determiner and not determiner.endswith("ing") and determiner not in _GOVERNS:
            return True
        return determiner in ("", "otherwise", "then", "and")
    return f"{determiner} {word.lower()}" in _PRONOUNS


def _condition(sentence: str, hit: re.Match[str], subject_at: int | None = None) -> str:
    """What the sentence says must hold: the clause after the code ("if ..."), or the "If ..." before it (up to
    its comma, or else up to the subject of the verb)."""
    after = sentence[hit.end():].lstrip(" ,")
    if _CONDITION_OPENS.match(after):
        return _trim(_FILLER.sub("", after, count=1) if after[:3].lower() in ("if ", "whe") else after)
    if sentence.startswith(_CONDITIONAL) and "," in sentence[: hit.start()]:
        return _trim(sentence[sentence.index(" ") + 1: sentence.rindex(",", 0, hit.start())])
    if sentence.startswith(_CONDITIONAL) and subject_at is not None:
        return _trim(sentence[sentence.index(" ") + 1: subject_at])
    return _trim(sentence)


def _trim(text: str) -> str:
    return text.strip().rstrip(".,;:\"").strip()
