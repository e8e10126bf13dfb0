"""Whose error conditions a document states, and which: the error-list part of `extract`'s walk.

A reader keeps what a reader of the text keeps: which functions the next conditions belong to (named by
"f returns ... one of the following errors:", "Add to the list of errors for f [and g]:", "Replace the
description of CL_X error value under f with:", "The following values may be returned by f:"), whether
the text is quoting conditions only to strike them ("Remove the following description ..."), and the
tokens the text has defined so far, to tell an error code from another token. The sentences themselves
are read by `error_sentences`; the fixed phrases are in `phrases`.

Whatever has the shape of a condition but cannot be kept (no function is named for it) becomes a
remark, reported as a diagnostic, never dropped in silence.
"""

from __future__ import annotations

import re

from generator.base import phrases
from generator.base.diagnostics import Location
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.extraction import error_sentences
from generator.extraction.facts import ErrorFact, Remark, SourceFacts, TokenFact

_WORD = re.compile(r"[A-Za-z_]\w*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: What a sentence leading into a list of errors says its subjects do.
_VERB = re.compile(r"\b(?:return|returns|returned|generate|generates|fail|fails|report|reports|raise|raises|"
                   r"yield|yields|give|gives|produce|produces|do|does|may|can|will|shall|must)\b")
#: A clause before the verb that names a function as no subject: "Unlike f, ...", "If f fails, ...".
_SUBORDINATE = re.compile(r"(?:unlike|like|when|whenever|if|after|before|except|as with|as for|in addition to|"
                          r"besides|while|once|until|because|since|although|though)\b", re.I)
_PRONOUN = re.compile(r"\b(?:it|they|them|this function|these functions|this call|these calls)\b", re.I)
#: "Replace the description of CL_X with:" naming no function: the code, where, and what was named before.
Replacing = tuple[str, Location, tuple[tuple[str, ...], Location] | None]


class ErrorReader:
    def __init__(self, facts: SourceFacts, knowledge: Knowledge) -> None:
        self.facts = facts
        self.knowledge = knowledge
        self._owners: tuple[str, ...] = ()
        self.listed: tuple[str, ...] = ()  # whose list this description has opened since its heading
        self.in_list = False
        self.striking = False  # the quoted conditions that follow are removed from another text
        self.tokens: dict[str, TokenFact] = {}  # the tokens defined so far, by name
        self.named: tuple[tuple[str, ...], Location] | None = None  # the functions the last naming text named
        self.replacing: Replacing | None = None
        self.lead: tuple[str, Location] | None = None  # the paragraph before what follows, in this section
        self.named_here: tuple[tuple[str, ...], Location] | None = None  # `named`, in this section only
        self._structural: tuple[object, tuple[tuple[str, ...], str, bool] | None] | None = None

    # -- context ------------------------------------------------------------

    @property
    def owners(self) -> tuple[str, ...]:
        """The functions the conditions read now belong to."""
        return self._owners

    @owners.setter
    def owners(self, owners: tuple[str, ...]) -> None:
        self._owners = owners
        self.listed = owners or self.listed

    def reset(self) -> None:
        """A heading or a prototype: the conditions after it belong to no function named before."""
        self.unanswered()
        self.owners, self.in_list, self.striking, self.listed, self.lead = (), False, False, (), None
        self.named_here = None

    def saw(self, functions: list[str], where: Location) -> None:
        """Remember the functions a paragraph names: an owner a later sentence leaves implicit."""
        if functions:
            self.named = self.named_here = (tuple(dict.fromkeys(functions)), where)

    def end_list(self) -> None:
        if self.in_list:
            self.owners, self.in_list = (), False

    def opens(self, text: str, where: Location) -> bool:
        """A sentence that says whose conditions follow (or that they are struck); True when it is one. It ends
        a new description announced before it that no condition followed."""
        pending, self.replacing = self.replacing, None
        opened = self.opened(text, where)
        if not opened:
            self.replacing = pending
        elif pending is not None:
            self.unanswered(pending)
        return opened

    def opened(self, text: str, where: Location) -> bool:
        if match := phrases.ADD_ERRORS.match(text) or phrases.RETURNED_BY_LIST.match(text):
            self.owners, self.striking = tuple(phrases.split_names(match["functions"])), False
            return True
        if (match := phrases.LEADS_ERRORS.search(text)) and any(
            self.knowledge.is_function_name(name) for name in phrases.split_names(match["functions"])
        ):
            self.owners, self.striking = tuple(phrases.split_names(match["functions"])), False
            return True
        if match := phrases.REPLACE_ERROR.match(text):
            self.striking = False
            self.owners = tuple(phrases.split_names(match["functions"])) if match["functions"] else ()
            self.replacing = None if self.owners else (match["code"], where, self.named)
            return True
        if phrases.REMOVE.match(text):
            self.owners, self.striking = (), True
            return True
        return False

    def replacement_owners(self, text: str) -> tuple[str, ...]:
        """Whose condition a new description that names no function is: the functions the text named last,
        those of them whose parameters the description names (said in a note); none, said in a warning."""
        if self.replacing is None:
            return ()
        code, where, named = self.replacing
        self.replacing = None
        words = set(_WORD.findall(text))
        names, named_at = named or ((), where)
        owners = tuple(f for f in names if words & self.parameters(f))
        if not owners:
            self.remark(where, Kind.UNOWNED_CONDITION, f"the new description of {code} given here names no function "
                        "it is an error of, and no function named before it has a parameter it names; the "
                        "condition that follows is not kept")
            return ()
        fitted = sorted(words & set().union(*(self.parameters(f) for f in owners)))
        self.remark(where, Kind.INFERRED_OWNER, f"the new description of {code} given here names no function; it is "
                    f"kept as a condition of {' and '.join(owners)}, named last (line {named_at.pos.line}), whose "
                    f"parameter{'s' * (len(fitted) > 1)} {', '.join(fitted)} it names", "note")
        return owners

    def unanswered(self, pending: Replacing | None = None) -> None:
        """A "Replace the description of CL_X with:" (the one under way, or `pending`) that no condition followed."""
        if pending is None:
            pending, self.replacing = self.replacing, None
        if pending is not None:
            code, where, _ = pending
            self.remark(where, Kind.UNOWNED_CONDITION, f"the new description of {code} announced here is not followed "
                        "by a condition that could be read; nothing of it is kept")

    def parameters(self, function: str) -> set[str]:
        """The parameter names of a function declared so far, or of a core one."""
        declared = next((d.function for d in self.facts.functions if d.function.name == function), None)
        if declared is not None:
            return {p.name for p in declared.params if p.name}
        core = self.knowledge.core_functions.get(function)
        return {name for name, _ in core.params} if core else set()

    # -- conditions ---------------------------------------------------------

    def item(self, text: str, where: Location, current: str | None = None) -> None:
        """A list item under the current owners: "CL_X if ...", "CL_X - ...", "CL_X ... or if ...", or prose.
        An item led by an error code that no sentence gave an owner ("New errors:" after a list) is a condition
        of the function `current`ly described, once its description has opened its list of errors."""
        if self.striking:
            return
        if not self.owners and self.replacing is not None:
            self.owners = self.replacement_owners(text)
        led = phrases.ERROR_ITEM.match(text)
        if not self.owners and led is not None and self.is_error_code(led["code"], explicit=False) \
                and not self.is_success(led["code"]):
            if current in self.listed:
                self.owners = (current,)
            elif (found := self.structural_owners(current)) is not None:
                self.owners, how, said = found
                self.remark(where, Kind.INFERRED_OWNER, f"no phrase the generator knows leads into this list of "
                            f"errors; its conditions are kept as {' and '.join(self.owners)}'s, {how}",
                            "note" if said else "warning")
        if not self.owners:
            self.unowned_item(text, where)
            return
        self.in_list = True
        item = phrases.ERROR_ITEM.match(text)
        stated = error_sentences.leading(text, joined=False) if item is None else None
        if item:
            code, condition = item["code"], item["condition"].strip()
        elif stated is not None and self.is_error_code(stated.code, explicit=True):
            code, condition = stated.code, stated.condition
        else:
            code, condition = None, text.rstrip(".,;").strip()
        for owner in self.owners:
            self.facts.errors.append(ErrorFact(owner, code, condition, where, "list"))

    def structural_owners(self, current: str | None) -> tuple[tuple[str, ...], str, bool] | None:
        """Whose list of errors begins here when no known phrase said so, from where it stands, and whether the
        text says it (True) or it is only where the list stands (False, said louder): the functions the sentence
        leading into it names as its subjects (in any number; a clause such as "unlike f," or "if f fails," names
        none), or those its "it" or "they" stands for, named earlier in the paragraph or in this part of the
        text; else the function this part of the text describes, else the one function the text declares. Read
        once per lead-in: every item of a list asks."""
        if self._structural is not None and self._structural[0] == (self.lead, current):
            return self._structural[1]
        found = self._lead_owners() or self._placed_owners(current)
        self._structural = ((self.lead, current), found)
        return found

    def _lead_owners(self) -> tuple[tuple[str, ...], str, bool] | None:
        if self.lead is None:
            return None
        text, where = self.lead
        sentences = _SENTENCE_END.split(text.strip())
        last, line = sentences[-1], where.pos.line
        if any(self.knowledge.is_function_name(w) for w in _WORD.findall(last)):
            verbs = list(_VERB.finditer(last))
            before = last[: verbs[-1].start()] if verbs else last
            clauses = [c for c in before.split(",") if not _SUBORDINATE.match(c.strip())]
            for clause in reversed(clauses):
                subjects = [w for w in _WORD.findall(clause) if self.knowledge.is_function_name(w)]
                if subjects:
                    return tuple(dict.fromkeys(subjects)), f"which the sentence leading into it names (line {line})", \
                        True
            return None
        if pronoun := _PRONOUN.search(last):
            earlier = [w for s in sentences[:-1] for w in _WORD.findall(s) if self.knowledge.is_function_name(w)]
            if earlier:
                return tuple(dict.fromkeys(earlier)), f"whom \"{pronoun[0]}\" of the sentence leading into it " \
                    f"(line {line}) stands for", True
            if self.named_here is not None:
                names, at = self.named_here
                return names, f"whom \"{pronoun[0]}\" of the sentence leading into it (line {line}) stands for, " \
                    f"named last (line {at.pos.line})", False
        return None

    def _placed_owners(self, current: str | None) -> tuple[tuple[str, ...], str, bool] | None:
        if current is not None:
            return (current,), "the function this part of the text describes", False
        declared = {d.function.name for d in self.facts.functions}
        if len(declared) == 1:
            return (declared.pop(),), "the one function the text declares", False
        return None

    def unowned_item(self, text: str, where: Location) -> None:
        """A list item shaped as a condition ("CL_X if ...") where no sentence has said whose list it is."""
        item = phrases.ERROR_ITEM.match(text)
        if item is not None and self.is_error_code(item["code"], explicit=False) and not self.is_success(item["code"]):
            self.remark(where, Kind.UNOWNED_CONDITION, f"this item gives a condition for {item['code']}, but no "
                        "sentence before it names the function whose error list it is; it is not kept")

    def paragraph(self, text: str, where: Location, current: str | None) -> bool:
        """A paragraph led by an error code ("CL_X - ...", "CL_X is generated if ..."): one condition.

        It goes on the list being read, else to the function being described. True when it was one.
        """
        stated = error_sentences.leading(text, joined=True)
        if stated is None or not self.is_error_code(stated.code, explicit=bool(self.owners)):
            return False
        if self.striking:
            self.remark(where, Kind.STRUCK_CONDITION, f"{stated.code}: this condition is quoted to be removed from "
                        "another text; it is not a condition of this one", "note")
            return True
        if not self.owners and self.replacing is not None:
            owners = self.replacement_owners(text)
            if not owners:
                return True  # reported
        else:
            owners = self.owners or ((current,) if current else ())
        self.keep(stated, owners, where)
        self.in_list = self.in_list or bool(self.owners)
        for more in error_sentences.embedded(text):
            if more.code != stated.code:  # "... these cases return CL_Y instead": another condition
                self.keep(more, owners, where)
        return True

    def sentences(self, text: str, where: Location, current: str | None) -> None:
        """Every "returns CL_X if ..." of a paragraph: the function is the one named, else the list's or the
        described one."""
        self.lead = (text, where)
        if self.striking:
            return
        led = error_sentences.led_by(text)
        led = led if led and self.knowledge.is_function_name(led) else None
        said = [s for s in error_sentences.embedded(text)
                if self.is_error_code(s.code, explicit=True) and not self.is_success(s.code)]
        if said and self.replacing is not None and not self.owners:  # the new description announced
            replacing = self.replacement_owners(text)
            for stated in said if replacing else ():
                self.keep(stated, replacing, where)
            return
        for stated in said:
            named = stated.subject is not None and self.knowledge.is_function_name(stated.subject)
            if not stated.pronoun and not named:
                self.remark(where, Kind.UNOWNED_CONDITION, f"{stated.code} is said to be returned by a call this "
                            "sentence does not name; it is not kept as a condition of any function", "note")
                continue
            subject = stated.subject if stated.subject and self.knowledge.is_function_name(stated.subject) else None
            if subject is not None:  # "f returns": f, unless f is not the function described (a slip, reported)
                owners: tuple[str, ...] = (current or subject,)
            elif led is not None:
                owners = (led,)
            else:
                owners = self.owners or ((current,) if current else ())
            self.keep(stated, owners, where)

    def keep(self, stated: error_sentences.Stated, owners: tuple[str, ...], where: Location) -> None:
        if self.is_success(stated.code):
            return
        if not owners:
            self.remark(where, Kind.UNOWNED_CONDITION, f"{stated.code} is given here as an error code, but the text "
                        "names no function it is an error of; the condition is not kept")
        for owner in owners:
            self.facts.errors.append(ErrorFact(owner, stated.code, stated.condition, where, "list"))

    # -- codes --------------------------------------------------------------

    def defined(self, token: TokenFact) -> None:
        self.tokens[token.name] = token

    def is_success(self, code: str) -> bool:
        """The code of success (0 among core OpenCL's error codes): "returns CL_X if it worked" is no error."""
        core = self.knowledge.core_constants.get(code)
        return core is not None and core.get("group") == self.knowledge.error_group and int(core["value"]) == 0

    def is_error_code(self, code: str, *, explicit: bool) -> bool:
        """A core error code, or a token of the text that is one (negative, or in an error group).

        A name the text has not defined is taken for one only where the text says it is returned (`explicit`).
        """
        core = self.knowledge.core_constants.get(code)
        if core is not None:
            return core.get("group") == self.knowledge.error_group
        token = self.tokens.get(code)
        if token is not None:
            negative = token.value is not None and token.value < 0
            return negative or (token.group is not None and token.group.kind == "error")
        return explicit

    def remark(self, where: Location, kind: Kind, message: str, severity: str = "warning") -> None:
        self.facts.remarks.append(Remark(where, kind, message, severity == "note"))
