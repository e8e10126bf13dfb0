"""Per source file, what its text was read to hold against what the IR keeps of it.

A reader of a spec can lose a fact at two places: the walk may not recognise a sentence (then `extract`
says so: an unowned condition, an unread listing), or merge may set a recognised fact aside (a duplicate,
a function of another extension). The tally makes the second kind visible whatever its cause: each source
of an extension records how many prototypes, tokens and error conditions were read from it and how many of
them the IR holds, and a fact read and not kept that no diagnostic at its line explains gets a note there.
"""

from __future__ import annotations

from generator.base.diagnostics import Diagnostic, Location, Sink
from generator.base.records import frozen
from generator.extraction.facts import SourceFacts
from generator.merging.draft import Count, Extension, Tally


@frozen
class _Unkept:
    where: Location
    what: str


def attach(extensions: list[Extension], sources: list[SourceFacts], sink: Sink, said: list[Diagnostic]) -> None:
    """Each extension's sources get their tally; facts not kept and not explained by `said` get a note."""
    explained = {(d.where.path, d.where.pos.line) for d in said}
    by_path = {facts.path: facts for facts in sources}
    for extension in extensions:
        for source in extension.sources:
            facts = by_path.get(source.path)
            if facts is None:
                continue
            source.tally, unkept = _count(extension, facts)
            for fact in unkept:
                if (fact.where.path, fact.where.pos.line) not in explained:
                    sink.note(fact.where, "not-kept", f"{fact.what} is read here but is not in the IR: another "
                              "place of the texts states it for the IR, or the IR has nowhere to keep it",
                              extension=extension.name)


def _count(extension: Extension, facts: SourceFacts) -> tuple[Tally, list[_Unkept]]:
    unkept: list[_Unkept] = []
    functions = {f.name for f in extension.functions}
    declared: dict[str, Location] = {}
    for function in facts.functions:
        if function.role != "aside":
            declared.setdefault(function.function.name, function.where)
    kept_functions = [name for name in declared if name in functions]
    unkept += [_Unkept(where, f"the prototype of {name}") for name, where in declared.items() if name not in functions]

    tokens = {t.name for t in extension.tokens}
    read_tokens: dict[str, Location] = {}
    for token in facts.tokens:
        read_tokens.setdefault(token.name, token.where)
    unkept += [_Unkept(where, f"the token {name}") for name, where in read_tokens.items() if name not in tokens]

    places = {(f.name, e.code, e.source.path, e.source.pos.line) for f in extension.functions for e in f.errors}
    places |= {(f.name, e.code, c.source.path, c.source.pos.line)
               for f in extension.functions for e in f.errors for c in e.also_in}
    coded = {(name, path, line) for name, _, path, line in places}  # a lost code is recovered after reading
    kept_conditions = 0
    for error in facts.errors:
        at = (error.where.path, error.where.pos.line)
        written = extension.unsuffixed(error.function)
        name = written.name if written else error.function
        if (name, error.code, *at) in places or (error.code is None and (name, *at) in coded):
            kept_conditions += 1
        else:
            unkept.append(_Unkept(error.where, f"a condition of {error.function} ({error.code or 'its code lost'})"))
    tally = Tally(Count(len(declared), len(kept_functions)),
                  Count(len(read_tokens), len(read_tokens.keys() & tokens)),
                  Count(len(facts.errors), kept_conditions))
    return tally, unkept
