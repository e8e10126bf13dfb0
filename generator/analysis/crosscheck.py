"""Stage 5: errata, found by reading each text against itself, core OpenCL and its siblings.

No erratum is looked up by its wording: every check is a rule that any
extension text must obey (a name it uses is defined somewhere; a table's type
agrees with the argument it says is returned; a property one "sets" is one the
extension accepts as a property...). Warnings are inconsistencies; notes are
differences from a sibling that may be intended.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from generator.base import phrases
from generator.base.diagnostics import Location, Sink
from generator.base.errors import InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type
from generator.extraction.facts import Mention, SourceFacts, TokenFact, primary_first
from generator.frontends.document import REFERENCE
from generator.frontends.registry_xml import Registry
from generator.ir.model import Extension, Table
from generator.merging.merge_tokens import spellings
from generator.merging.siblings import Renaming, siblings

_SNAKE = re.compile(r"(?<![\w<])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w>])")
_IS_TOKEN = re.compile(r"<(?P<param>\w+)> is (?P<token>[A-Z][A-Z0-9_]+)")
_BROKEN_MARKUP = re.compile(r"(?<![\w<])_[A-Za-z]\w*|\w>>")
#: A parameter's markup padded with blanks inside (`<flags >`, `< flags>`: a no-break space, read as a space, is
#: what a reader does not see): the name is not read as a parameter reference, so its clause has no check.
_MALFORMED_REFERENCE = re.compile(r"<(?:[^\S\n]+[A-Za-z_]\w*[^\S\n]*|[A-Za-z_]\w*[^\S\n]+)>")

#: How many candidate names the "did you mean" suggestions of one extension may weigh in all. Each
#: suggestion weighs every candidate, so a text of many undefined names and many tokens would take time in
#: their product; past this (the seeds weigh 24 at most), the warnings come without suggestions.
SUGGESTION_BUDGET = 100_000


class _Checker:
    def __init__(self, extension: Extension, facts: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                 registry: Registry | None) -> None:
        self.extension = extension
        self.registry = registry
        self.facts = facts
        self.knowledge = knowledge
        self.sink = sink
        self.reported: set[tuple[str, Location]] = set()
        self.meant: dict[str, str] = {}  # undefined table keys -> the token they most likely mean
        self.budget = SUGGESTION_BUDGET
        self.own = [f for f in extension.functions if not f.foreign]
        self.named = {n.name for f in facts for n in f.named_functions}
        self.tokens = [t.name for t in extension.tokens]
        self.spelled = spellings(sorted(facts, key=primary_first))  # each token's value as its text spells it
        self.members: dict[str | None, list[str]] = {}  # token names by group
        for token in extension.tokens:
            self.members.setdefault(token.group, []).append(token.name)
        self.group_types = sorted({g.c_type for g in extension.token_groups if g.c_type})
        self.used_types = {base_type(p.type) for f in extension.functions for p in f.params} | {
            t.name for t in extension.types}

    def warn(self, where: Location, kind: Kind, message: str, related: tuple[Location, ...] = ()) -> None:
        self.sink.warning(where, kind, message, extension=self.extension.name, related=related)

    def note(self, where: Location, kind: Kind, message: str, related: tuple[Location, ...] = ()) -> None:
        self.sink.note(where, kind, message, extension=self.extension.name, related=related)

    def close_matches(self, name: str, candidates: list[str], cutoff: float) -> list[str]:
        """The candidate most like `name` (difflib's), while the suggestion budget lasts."""
        self.budget -= len(candidates)
        return get_close_matches(name, candidates, 1, cutoff) if self.budget >= 0 else []

    def did_you_mean(self, name: str, candidates: list[str], cutoff: float = 0.75) -> str:
        close = self.close_matches(name, candidates, cutoff)
        return f"; did you mean {close[0]}?" if close else ""

    # -- names --------------------------------------------------------------

    def defined_constant(self, name: str) -> bool:
        return self.extension.token(name) is not None or name in self.knowledge.core_constants

    def defined_function(self, name: str) -> bool:
        """Declared, core, or named as new without a prototype (a warning of its own said so)."""
        return (self.extension.function(name) is not None or name in self.knowledge.core_functions
                or name in self.named)

    def group_tokens(self, function: str | None, parameter: str) -> list[str]:
        groups = {g.name for g in self.extension.token_groups if function in g.functions and g.parameter == parameter}
        return [t.name for t in self.extension.tokens if t.group in groups]

    # -- checks -------------------------------------------------------------

    def wrong_functions(self) -> None:
        """A return-value sentence naming another function than the one described."""
        for facts in self.facts:
            for claim in facts.claims:
                self.reported.add((claim.named, claim.where))
                known = " (no such function)" if not self.defined_function(claim.named) else ""
                self.warn(claim.where, Kind.WRONG_FUNCTION,
                          f"the return values given here are introduced as those of {claim.named}{known}, "
                          f"but the text is describing {claim.described}")

    def table_keys(self) -> None:
        """A table row for a token the extension does not define; what it most likely means is kept."""
        for table in self.extension.tables:
            group = table.name.removesuffix("_mapping")
            members = self.members.get(group, [])
            for row, where in zip(table.rows, table.row_sources, strict=True):
                key = row[0]
                if self.knowledge.is_constant_name(key) and not self.defined_constant(key):
                    self.reported.add((key, where))
                    meant = self.close_matches(key, members, 0.0) if len(members) == 1 else []
                    meant = meant or self.close_matches(key, members or self.tokens, 0.75)
                    if meant:
                        self.meant[key] = meant[0]
                    self.warn(where, Kind.UNDEFINED_TOKEN, f"table {table.name} has a row for {key}, which is "
                              f"not defined" + (f"; did you mean {meant[0]}?" if meant else ""))

    def mentions(self) -> None:
        """Every constant and function the text names is defined by the extension or by core OpenCL."""
        for facts in self.facts:
            for mention in facts.mentions:
                if (mention.name, mention.where) in self.reported:
                    continue
                if mention.kind == "constant" and not self.defined_constant(mention.name):
                    self.reported.add((mention.name, mention.where))
                    if self.registered(mention, "enum"):
                        continue
                    self.warn(mention.where, Kind.UNDEFINED_TOKEN, f"{mention.name} is not defined by the "
                              f"extension or by core OpenCL{self.suggest_constant(mention)}")
                elif mention.kind == "function" and not self.defined_function(mention.name):
                    self.reported.add((mention.name, mention.where))
                    if self.registered(mention, "command"):
                        continue
                    names = [f.name for f in self.own] if self.budget >= 0 else []
                    self.warn(mention.where, Kind.UNDEFINED_FUNCTION, f"{mention.name} is not a function of the "
                              f"extension or of core OpenCL{self.did_you_mean(mention.name, names)}")

    def registered(self, mention: Mention, kind: str) -> bool:
        """Whether the registry XML defines the name the text uses (another extension's, most often): said in a
        note naming where, instead of a warning that it is defined nowhere."""
        found = None if self.registry is None else \
            (self.registry.enums if kind == "enum" else self.registry.commands).get(mention.name)
        if self.registry is None or found is None:
            return False
        requiring = [e.name for e in self.registry.requiring(mention.name)]
        if self.extension.name in requiring:  # the extension's own name that its text fails to define: a warning
            return False
        owners = ", ".join(requiring) or "no extension"
        article = "an" if kind == "enum" else "a"
        self.note(mention.where, Kind.DEFINED_ELSEWHERE, f"{mention.name} is not defined by the extension or by core "
                  f"OpenCL, but by the registry XML ({article} {kind} required by {owners})", (found.where,))
        return True

    def suggest_constant(self, mention: Mention) -> str:
        """Where the sentence says `<p> is NAME`, the tokens that `p` accepts are the candidates.

        The function's conditions are read too: there, names a damaged text lost are restored.
        """
        if self.budget < 0:
            return ""
        function = self.extension.function(mention.described or "")
        self.budget -= len(function.errors) if function else 0
        sentences = [mention.sentence, *(e.condition for e in function.errors if mention.name in e.condition)] \
            if function else [mention.sentence]
        for sentence in sentences:
            for match in _IS_TOKEN.finditer(sentence):
                if match["token"] == mention.name:
                    candidates = self.group_tokens(mention.described, match["param"])
                    if candidates:
                        return self.did_you_mean(mention.name, candidates, cutoff=0.0)
        return self.did_you_mean(mention.name, self.tokens)

    def properties_set(self) -> None:
        """"setting X to ..." must name something the function accepts, not an error code."""
        accepting = {g.name for g in self.extension.token_groups if g.kind == "accepted"}
        accepted = {t.name for t in self.extension.tokens if t.group in accepting}
        for function in self.extension.functions:
            for error in (e for e in function.errors if e.origin != "copy"):  # a copy says nothing new
                for match in phrases.SETTING.finditer(error.condition):
                    token = match["token"]
                    if token in accepted or (token in self.knowledge.core_constants and not self.is_error_code(token)):
                        continue  # the extension's properties, and core OpenCL's
                    groups = [g.name for g in self.extension.token_groups
                              if g.kind == "accepted" and function.name in g.functions]
                    candidates = [t.name for t in self.extension.tokens for g in groups if t.group == g]
                    what = "an error code" if self.is_error_code(token) else "not a value one can set"
                    self.warn(error.source, Kind.NOT_A_PROPERTY, f"{function.name}: the condition speaks of "
                              f"setting {token}, which is {what}{self.did_you_mean(token, candidates, cutoff=0.0)}")

    def is_error_code(self, name: str) -> bool:
        token = self.extension.token(name)
        group = self.knowledge.error_group
        return (token is not None and token.group == group) or self.knowledge.constant_group(name) == group

    def table_types(self) -> None:
        """An info table's type must be the type of the argument its description says is returned."""
        own = self.own
        for table in self.extension.tables:
            if "type" not in table.columns or "description" not in table.columns:
                continue
            type_at, text_at = table.columns.index("type"), table.columns.index("description")
            for row, where in zip(table.rows, table.row_sources, strict=True):
                returned = phrases.returned_argument(row[text_at], ((p.name, p.type) for f in own for p in f.params))
                if returned is not None and returned[1] is not None and returned[1] != row[type_at]:
                    self.warn(where, Kind.TABLE_TYPE, f"table {table.name} gives {row[0]} the type `{row[type_at]}`, "
                              f"but says it returns the <{returned[0]}> argument, which is `{returned[1]}` (the "
                              "type the package's query answers)")

    def table_headers(self) -> None:
        """A type named in a table header must exist."""
        for facts in self.facts:
            for table in facts.tables:
                for cell in table.header or ():
                    for word in cell.split():
                        if self.knowledge.naming["type"].match(word) and not self.known_type(word):
                            self.warn(table.where, Kind.UNDEFINED_TYPE, f"the table header names type {word}, "
                                      f"which is not defined{self.did_you_mean(word, self.group_types, cutoff=0.5)}")

    def known_type(self, name: str) -> bool:
        return self.knowledge.is_known_type(name) or name in self.used_types

    def parameters(self) -> None:
        """Names used as parameters of a function must be its parameters."""
        for facts in self.facts:
            for doc in facts.param_docs:
                function = self.extension.function(doc.function)
                if function is None or function.foreign:
                    continue
                names = [p.name for p in function.params]
                for name in doc.parameters:
                    if name not in names:
                        self.warn(doc.where, Kind.UNKNOWN_PARAMETER, f"{function.name} has no parameter "
                                  f"{name}{self.did_you_mean(name, names)}")
        for function in self.own:
            names = [p.name for p in function.params]
            for error in function.errors:
                references = REFERENCE.findall(error.condition)
                for word in {*references, *_SNAKE.findall(error.condition)}:
                    if word in names or self.knowledge.is_known_type(word) or self.known_type(word):
                        continue
                    close = self.close_matches(word, names, 0.8)
                    if close or word in references:
                        self.warn(error.source, Kind.UNKNOWN_PARAMETER, f"{function.name} {error.code}: the condition "
                                  f"names {word}, which is not a parameter{self.did_you_mean(word, names)}")

    def markup(self) -> None:
        for facts in self.facts:
            for token in facts.tokens:
                group = token.group
                if group is not None and group.parameter_markup_broken and (group.sentence, group.where) not in \
                        self.reported:
                    self.reported.add((group.sentence, group.where))
                    self.warn(group.where, Kind.BROKEN_MARKUP, f"the parameter {group.parameter} is not marked up "
                              "as a parameter in this sentence")
        for function in self.extension.functions:
            for error in function.errors:
                for broken in _BROKEN_MARKUP.findall(error.condition):
                    self.warn(error.source, Kind.BROKEN_MARKUP, f"{function.name} {error.code}: stray markup "
                              f"`{broken}` in the condition")
                for broken in _MALFORMED_REFERENCE.findall(error.condition):
                    self.warn(error.source, Kind.BROKEN_MARKUP, f"{function.name} {error.code}: the condition marks "
                              f"`{broken}` as a parameter with blanks inside the markup (a no-break space?): it is not "
                              "read as the parameter, and what the condition says of it is not checked")

    def token_values(self) -> None:
        """A token defined twice by one text, and two tokens of one group with the same value."""
        for facts in self.facts:
            seen: dict[str, TokenFact] = {}
            for token in facts.tokens:
                first = seen.setdefault(token.name, token)
                if first is token:
                    continue
                if None not in (first.value, token.value) and first.value != token.value:  # which is meant?
                    raise InputError(token.where.path, token.where.pos, f"{token.name} is defined again with "
                                     f"another value: {token.literal} here, {first.literal} at {first.where.precise()}")
                self.note(token.where, Kind.REPEATED_TOKEN, f"{token.name} is defined a second time",
                          related=(first.where,))
        by_value: dict[tuple[str | None, int | None], str] = {}
        for defined in (t for t in self.extension.tokens if t.value is not None and t.value_source is None):
            other = by_value.setdefault((defined.group, defined.value), defined.name)
            if other != defined.name:  # the registry's values are its own to clash: compared with the texts' there
                where = f"in the same group {defined.group}" if defined.group else "both in no group"
                self.warn(defined.source, Kind.VALUE_CLASH, f"{defined.name} has the value "
                          f"{self.spelled.get(defined.name) or defined.value} of {other}, {where}")

    def repeated_conditions(self) -> None:
        for facts in self.facts:
            seen: dict[tuple[str, str], Location] = {}
            for error in facts.errors:
                if error.origin != "list" or error.code is None:
                    continue
                key = (error.function, error.code)
                if key in seen:
                    self.note(error.where, Kind.REPEATED_CONDITION, f"{error.function} lists {error.code} a second "
                              "time", related=(seen[key],))
                seen.setdefault(key, error.where)

    # -- siblings -----------------------------------------------------------

    def against(self, sibling: Extension, renaming: Renaming) -> None:
        """Differences from a sibling: what it has that this extension lacks, and what they disagree on."""
        theirs = sibling.name
        anchor = self.extension.functions[0].source if self.extension.functions else None
        for token in sibling.tokens:
            name = renaming(token.name)
            ours = self.extension.token(name)
            if ours is None and anchor:
                self.note(anchor, Kind.SIBLING_DIFFERENCE, f"{theirs} defines {token.name}; this extension has no "
                          f"{name}", related=(token.source,))
            elif ours is not None and renaming.vendor and None not in (ours.value, token.value) \
                    and ours.value != token.value:
                self.warn(ours.source, Kind.SIBLING_CONFLICT, f"{name} is {ours.value} here but {token.name} is "
                          f"{token.value} in {theirs}, the same extension from another vendor",
                          related=(token.source,))
        tables: dict[str, Table] = {}
        for table in self.extension.tables:
            tables.setdefault(table.name, table)
        for table in sibling.tables:
            mine = tables.get(table.name)
            if mine is None or mine.columns != table.columns:
                continue
            rows = {self.meant.get(r[0], r[0]): (r, w) for r, w in zip(mine.rows, mine.row_sources, strict=True)}
            for row, where in zip(table.rows, table.row_sources, strict=True):
                if sibling.token(row[0]) is None and not row[0].startswith(tuple(self.knowledge.external_enums)):
                    continue  # core rows and rows the sibling itself does not define
                key = renaming(row[0])
                if key not in rows:
                    self.note(mine.source, Kind.SIBLING_DIFFERENCE, f"table {mine.name} has no row for {key}, which "
                              f"{theirs} lists as {', '.join(row[1:])}", related=(where,))
                    continue
                ours_row, ours_where = rows[key]
                for column, a, b in zip(mine.columns[1:], ours_row[1:], row[1:], strict=True):
                    if column != "description" and a != renaming(b):
                        self.note(ours_where, Kind.SIBLING_DIFFERENCE, f"table {mine.name}: {key} has {column} "
                                  f"`{a}` here but `{b}` in {theirs}", related=(where,))
        for function in sibling.functions:
            if function.foreign:
                continue
            mine_function = self.extension.function(renaming(function.name))
            if mine_function is None or len(mine_function.params) != len(function.params):
                continue
            for ours_param, their_param in zip(mine_function.params, function.params, strict=True):
                if ours_param.type != renaming(their_param.type):
                    self.note(mine_function.source, Kind.SIBLING_DIFFERENCE, f"{mine_function.name} parameter "
                              f"{ours_param.name} is `{ours_param.type}` here but `{their_param.type}` in {theirs}",
                              related=(function.source,))


def check(extensions: list[Extension], facts: list[SourceFacts], knowledge: Knowledge, sink: Sink,
          registry: Registry | None = None) -> None:
    names = [e.name for e in extensions]
    by_name = {e.name: e for e in extensions}
    facts_of: dict[str | None, list[SourceFacts]] = {}
    for fact in facts:
        facts_of.setdefault(fact.extension, []).append(fact)
    for extension in extensions:
        checker = _Checker(extension, facts_of.get(extension.name, []), knowledge, sink, registry)
        checker.wrong_functions()
        checker.table_keys()
        checker.mentions()
        checker.properties_set()
        checker.table_types()
        checker.table_headers()
        checker.parameters()
        checker.markup()
        checker.repeated_conditions()
        checker.token_values()
        for renaming in siblings(extension.name, names, knowledge):
            checker.against(by_name[renaming.source], renaming)
