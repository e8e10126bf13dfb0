"""Per source file, what its text was read to hold against what the IR keeps of it.

A reader of a spec can lose a fact at two places: the walk may not recognise a sentence (then `extract`
says so: an unowned condition, an unread listing), or merge may set a recognised fact aside (a duplicate,
a function of another extension). The tally makes the second kind visible whatever its cause: each source
of an extension records how many prototypes, tokens and error conditions were read from it and how many of
them the IR holds, and a fact read and not kept that no diagnostic at its line explains gets a note there.

Two losses are warnings, whatever else was said: a text of which the IR keeps nothing at all (every file under
`--specs` either contributes or is named), and a function a text declares that the IR does not hold, unless a
warning at its declaration names it (each place that drops a function says why; this is the net under them).
"""

from __future__ import annotations

from dataclasses import replace

from generator.base.diagnostics import Diagnostic, Location, Sink
from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.base.source import Pos
from generator.extraction.facts import SourceFacts
from generator.ir.model import Count, Extension, Tally
from generator.merging.lookup import unsuffixed


@frozen
class _Unkept:
    where: Location
    what: str
    function: str | None = None  # the function whose prototype it is


def _cited(extension: Extension) -> set[str]:
    """The paths the IR of `extension` cites for anything it holds."""
    places = [extension_place for f in extension.functions
              for extension_place in (f.source, *f.declared_at, *(e.source for e in f.errors),
                                      *(c.source for e in f.errors for c in e.also_in),
                                      *(p.description_source for p in f.params if p.description_source))]
    places += [t.source for t in extension.tokens] + [g.source for g in extension.token_groups]
    places += [t.source for t in extension.tables] + [w for t in extension.tables for w in t.row_sources]
    places += [t.source for t in extension.types] + [b.source for b in extension.builtins]
    return {place.path for place in places if place is not None}


def _read(facts: SourceFacts) -> str:
    """What was read from a text, in words."""
    counts = [(len(facts.functions), "prototype"), (len(facts.builtins), "built-in function"),
              (len(facts.named_functions), "named function"),
              (len(facts.tokens), "token"), (len(facts.errors), "error condition"), (len(facts.tables), "table")]
    said = [f"{count} {what}{'s' if count != 1 else ''}" for count, what in counts if count]
    return (f"it was read to hold {', '.join(said)}, none of which the IR keeps (other places state them for it, or "
            "the diagnostics at them say why)" if said else
            "nothing was read from it but the extension's name (is it in the format it was taken for?)")


def attach(extensions: list[Extension], sources: list[SourceFacts], sink: Sink,
           said: list[Diagnostic]) -> list[Extension]:
    """The extensions, each source with its tally; facts not kept and not explained by `said` get a note."""
    explained = {(d.where.path, d.where.pos.line) for d in said}
    warned: dict[tuple[str, int], list[str]] = {}
    for d in said:
        if d.severity == "warning":
            warned.setdefault((d.where.path, d.where.pos.line), []).append(d.message)
    by_path = {facts.path: facts for facts in sources}
    tallied: list[Extension] = []
    for extension in extensions:
        cited = _cited(extension)
        counted = []
        for source in extension.sources:
            facts = by_path.get(source.path)
            if facts is None:
                counted.append(source)
                continue
            tally, unkept = _count(extension, facts)
            counted.append(replace(source, tally=tally))
            if source.path not in cited and not cited.intersection(facts.files):
                sink.warning(facts.extension_where or Location(source.path, Pos(1, 1)), Kind.NOTHING_KEPT,
                             f"read as {source.format} text of {extension.name}, but nothing it states is in the IR: "
                             f"{_read(facts)}", extension=extension.name)
            for fact in unkept:
                if fact.function is not None and not any(
                        fact.function in message for message in warned.get((fact.where.path, fact.where.pos.line), ())):
                    sink.warning(fact.where, Kind.FUNCTION_DROPPED, f"{fact.function} is declared here but is not in "
                                 "the IR or the package, and no other diagnostic here says why",
                                 extension=extension.name)
                elif (fact.where.path, fact.where.pos.line) not in explained:
                    sink.note(fact.where, Kind.NOT_KEPT, f"{fact.what} is read here but is not in the IR: another "
                              "place of the texts states it for the IR, or the IR has nowhere to keep it",
                              extension=extension.name)
        tallied.append(replace(extension, sources=tuple(counted)))
    return tallied


def _count(extension: Extension, facts: SourceFacts) -> tuple[Tally, list[_Unkept]]:
    unkept: list[_Unkept] = []
    functions = {f.name for f in extension.functions}
    declared: dict[str, Location] = {}
    for function in facts.functions:
        if function.role != "aside":
            declared.setdefault(function.function.name, function.where)
    kept_functions = [name for name in declared if name in functions]
    unkept += [_Unkept(where, f"the prototype of {name}", name) for name, where in declared.items()
               if name not in functions]

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
        written = unsuffixed(extension, error.function)
        name = written.name if written else error.function
        if (name, error.code, *at) in places or (error.code is None and (name, *at) in coded):
            kept_conditions += 1
        else:
            unkept.append(_Unkept(error.where, f"a condition of {error.function} ({error.code or 'its code lost'})"))
    tally = Tally(Count(len(declared), len(kept_functions)),
                  Count(len(read_tokens), len(read_tokens.keys() & tokens)),
                  Count(len(facts.errors), kept_conditions))
    return tally, unkept
