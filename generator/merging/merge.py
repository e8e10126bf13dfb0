"""Stage 4: one extension from all the sources that describe it.

A spec with a summary of new functions is the primary source; reference pages
corroborate it. Conflicts between declarations become diagnostics naming both
places. What damaged sources lost is recovered afterwards (`recover`), once
every extension is merged, because recovery reads the siblings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from difflib import get_close_matches

from generator.base import naming
from generator.base.diagnostics import Location, Sink
from generator.base.errors import Gather, InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import DeclaredFunction, ParamDoc, SourceFacts, primary_first, primary_source
from generator.frontends.registry_xml import Registry
from generator.ir.model import Builtin, ErrorCondition, Extension, Function, Param, Source
from generator.merging import from_registry, merge_tokens, recover, recover_groups, tables
from generator.merging.introduced_types import introduced_types
from generator.merging.lookup import first_places, unsuffixed


def merge_all(all_facts: Iterable[SourceFacts], knowledge: Knowledge, sink: Sink,
              registry: Registry | None = None) -> list[Extension]:
    """Every extension from its sources (the token values they leave out from the registry XML, when given);
    the input errors of all of them are reported together."""
    by_extension: dict[str, list[SourceFacts]] = defaultdict(list)
    errors = Gather()
    for facts in all_facts:
        if facts.extension is None:
            errors.add(InputError(facts.path, Pos(1, 1), "cannot tell which extension this file describes: "
                                  "it never names an extension string"))
        elif problem := naming.file_name_problem(facts.extension, "extension"):
            where = facts.extension_where or Location(facts.path, Pos(1, 1))
            errors.add(InputError(where.path, where.pos, problem))
        else:
            by_extension[facts.extension].append(facts)
    merged: dict[str, Extension] = {}
    for name, sources in sorted(by_extension.items()):
        with errors.attempt():
            merged[name] = merge_extension(name, sorted(sources, key=primary_first), knowledge, sink, registry)
    errors.check()
    # Recovery reads the siblings, so each step runs over every extension before the next; each extension a step
    # makes anew takes the old one's place in `merged` at once, and the extensions after it read it there.
    for name in merged:
        merged[name] = recover_groups.groups(merged[name], merged, knowledge, sink)
    for name in merged:
        extension = merge_tokens.name_groups(merged[name], knowledge)
        merged[name] = replace(extension, tables=tables.merge(extension, by_extension[name], knowledge, sink))
    for name in merged:
        extension = recover.texts(merged[name], by_extension[name], merged, knowledge, sink)
        merged[name] = replace(extension, types=introduced_types(extension, by_extension[name], knowledge, sink,
                                                                 registry))
    return list(merged.values())


def _sources(sources: list[SourceFacts], registry: str | None) -> tuple[Source, ...]:
    """Every text that contributed, in path order: each text read, and the files a text put together from
    others (a cut out of a book) took its lines from; the registry XML is the IR's `registry`."""
    found = {s.path: Source(s.path, s.format) for s in sources}
    for s in sources:
        for path in s.files:
            if path != registry:
                found.setdefault(path, Source(path, s.format))
    return tuple(found[path] for path in sorted(found))


def merge_extension(name: str, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                    registry: Registry | None = None) -> Extension:
    primary = [primary_source(sources)]
    parts = knowledge.extension_parts(name)
    extension = Extension(
        name=name,
        vendor=parts[0].upper() if parts else "",
        revision=next((s.revision for s in primary if s.revision), None),
        metadata={k: v for s in reversed(primary) for k, v in s.metadata.items()},
        sources=_sources(sources, registry.path if registry is not None else None),
        registry=registry.path if registry is not None else None,
    )
    _revisions(extension, sources, primary[0], sink)
    extension = replace(extension, functions=functions(extension, sources, sink))
    extension = replace(extension, functions=extension.functions + from_registry.named(extension, sources, sink,
                                                                                         registry))
    extension = replace(extension, builtins=builtins(sources))
    token_groups, tokens = merge_tokens.tokens(extension, sources, sink, knowledge, registry)
    extension = replace(extension, token_groups=token_groups, tokens=tokens)
    extension = primary_errors(extension, primary, knowledge, sink, registry)
    for remark in (r for source in sources for r in source.remarks):
        report = sink.note if remark.note else sink.warning
        report(remark.where, remark.kind, remark.message, extension=extension.name)
    return parameter_docs(extension, sources, sink)


def _revisions(extension: Extension, sources: list[SourceFacts], followed: SourceFacts, sink: Sink) -> None:
    """Another text of the extension stating another revision than the followed one: which the IR keeps, said."""
    for source in sources:
        if source is not followed and source.revision and source.revision != extension.revision:
            kept = f"'{extension.revision}', which the IR keeps" if extension.revision else \
                "none, so the IR has no revision"
            sink.warning(source.revision_where or Location(source.path, Pos(1)), Kind.REVISION_CONFLICT,
                         f"this text gives the revision '{source.revision}'; {followed.path}, which is followed, "
                         f"gives {kept}", extension=extension.name)


# -- functions --------------------------------------------------------------


def builtins(sources: list[SourceFacts]) -> tuple[Builtin, ...]:
    """The kernel language's functions the texts declare, each declaration once (overloads are kept, the same
    declaration in another place or text is one)."""
    found: dict[tuple[str, str, tuple[tuple[str | None, str], ...]], Builtin] = {}
    for source in sources:
        for declared in source.builtins:
            function = declared.function
            params = tuple((p.name, p.type) for p in function.params)
            found.setdefault((function.name, function.return_type, params),
                             Builtin(function.name, function.return_type, params, declared.where))
    return tuple(found.values())


def functions(extension: Extension, sources: list[SourceFacts], sink: Sink) -> tuple[Function, ...]:
    """The summary's prototypes, each checked against every other declaration of the function."""
    summaries = [s for s in sources if s.has_summary]
    for copy in summaries[1:]:
        sink.note(copy.functions[0].where if copy.functions else Location(copy.path, Pos(1)), Kind.SECOND_SOURCE,
                  f"this text, too, gives the whole extension; {summaries[0].path} is followed and this one only "
                  "corroborates it", extension=extension.name)
    declared = [d for d in summaries[0].functions if d.role == "summary"] if summaries else []
    if not declared:
        declared = [d for s in sources for d in s.functions if d.role == "body"]
    declarations: dict[str, list[DeclaredFunction]] = {}  # by name, in order: each function's looked up once
    for source in sources:
        for d in source.functions:
            if d.role != "aside":
                declarations.setdefault(d.function.name, []).append(d)
    result: list[Function] = []
    errors = Gather()
    done: set[str] = set()
    for first in declared:
        if first.function.name in done:
            continue
        done.add(first.function.name)
        if problem := naming.file_name_problem(first.function.name, "function"):
            errors.add(InputError(first.where.path, first.where.pos, problem))
        others = [d for d in declarations.get(first.function.name, []) if d is not first]
        for other in others:
            if problem := reordered(first, other):
                errors.add(InputError(other.where.path, other.where.pos, problem))
            compare_prototypes(first, other, extension.name, sink)
        params = tuple(Param(_parameter_name(first, index, others), p.type)
                       for index, p in enumerate(first.function.params))
        result.append(Function(
            first.function.name, first.function.return_type, params, first.where,
            declared_at=(first.where, *(o.where for o in others)),
        ))
    errors.check()
    summary_names = {d.function.name for d in declared}
    followed = summaries[0].path if summaries else None
    for source in sources:
        for d in source.functions:
            if d.function.name in summary_names or d.role == "aside":
                continue
            summary_names.add(d.function.name)  # said once, at its first declaration
            if d.role == "summary":
                sink.warning(d.where, Kind.UNDECLARED_FUNCTION, f"{d.function.name} is declared in this text's list of "
                             f"new functions, but {followed}, whose list is followed, does not declare it: it is left "
                             "out of the IR and the package", extension=extension.name)
            elif followed is not None:
                sink.warning(d.where, Kind.UNDECLARED_FUNCTION, f"{d.function.name} is described here but missing from "
                             f"the list of new functions{'' if followed == source.path else f' of {followed}'}: it is "
                             "left out of the IR and the package", extension=extension.name)
    return tuple(result)


def _parameter_name(first: DeclaredFunction, index: int, others: list[DeclaredFunction]) -> str:
    """A parameter's name, from another declaration of the function where the first has none."""
    for declaration in (first, *others):
        params = declaration.function.params
        if len(params) > index and params[index].name:
            return str(params[index].name)
    return f"arg{index}"


def reordered(first: DeclaredFunction, other: DeclaredFunction) -> str | None:
    """Two declarations of one function that put a parameter in two places contradict each other: which order
    the binding must pass its arguments in, the text does not say (a type or a name that differs is a slip,
    reported by `compare_prototypes`)."""
    if len(first.function.params) != len(other.function.params):  # one lacks a parameter: a warning says so
        return None
    places = {p.name: i for i, p in enumerate(first.function.params) if p.name}
    for index, param in enumerate(other.function.params):
        if param.name and places.get(param.name, index) != index:
            return (f"{first.function.name} is declared here with parameter {param.name!r} in place {index + 1}, "
                    f"but at {first.where.precise()} in place {places[param.name] + 1}: the text contradicts "
                    "itself on the order of the arguments")
    return None


def compare_prototypes(first: DeclaredFunction, other: DeclaredFunction, extension: str, sink: Sink) -> None:
    """Report where another declaration of a function differs from the one used (the summary's)."""
    a, b = first.function, other.function
    used = "the list of new functions" if first.role == "summary" else "its first declaration"

    def conflict(what: str, here: str, there: str) -> None:
        sink.warning(other.where, Kind.PROTOTYPE_CONFLICT, f"{a.name}: {what} is {here} here but {there} in {used} "
                     f"at {first.where.precise()}, which is used", extension=extension, related=(first.where,))

    if a.return_type != b.return_type:
        conflict("the return type", f"`{b.return_type}`", f"`{a.return_type}`")
    if len(a.params) != len(b.params):
        conflict("the number of parameters", str(len(b.params)), str(len(a.params)))
        return
    for index, (p, q) in enumerate(zip(a.params, b.params, strict=True), start=1):
        if p.type != q.type:
            conflict(f"parameter {index} ({p.name})", f"`{q.type}`", f"`{p.type}`")
        if p.name and q.name and p.name != q.name:
            conflict(f"the name of parameter {index}", f"`{q.name}`", f"`{p.name}`")


class _Owners:
    """The extension's functions while `primary_errors` gives them their conditions: each one's conditions
    gathered by its place in the list, and the foreign functions it enters on first use added at its end."""

    def __init__(self, extension: Extension) -> None:
        self.extension = extension
        self.functions = list(extension.functions)
        self.errors = [list(f.errors) for f in self.functions]
        self.places = first_places(self.functions)

    def find(self, name: str) -> int | None:
        return self.places.get(name)

    def add(self, function: Function) -> int:
        self.functions.append(function)
        self.errors.append(list(function.errors))
        self.places.setdefault(function.name, len(self.functions) - 1)
        return len(self.functions) - 1

    def finished(self) -> Extension:
        made = tuple(f if len(errors) == len(f.errors) else replace(f, errors=tuple(errors))
                     for f, errors in zip(self.functions, self.errors, strict=True))
        return replace(self.extension, functions=made)


def owner(owners: _Owners, name: str, knowledge: Knowledge, where: Location, sink: Sink,
          registry: Registry | None = None) -> int | None:
    """The place among `owners` of the function errors are added to: the extension's own (also when named without
    the vendor's suffix), a core one, another extension's the registry XML declares (a layered extension adds
    conditions to the one it builds on), or another vendor's (its name does not end in the extension's vendor),
    entered on first use, the last with no prototype; each guess with a warning."""
    extension = owners.extension
    existing = owners.find(name)
    if existing is not None:
        return existing
    core = knowledge.core_functions.get(name)
    suffixed = unsuffixed(extension, name)  # the functions entered here are foreign: never the one it finds
    if suffixed is not None:
        sink.warning(where, Kind.UNSUFFIXED_FUNCTION, f"{name} is named without the vendor's suffix: its errors are "
                     f"taken as those of {suffixed.name}, which the extension declares", extension=extension.name)
        return owners.find(suffixed.name)
    declared = registry.prototype(name) if registry is not None and core is None else None
    if core is not None:
        function = Function(name, core.return_type, tuple(Param(n, t) for n, t in core.params), where, core=True)
    elif declared is not None and registry is not None:
        others = ", ".join(e.name for e in registry.requiring(name)) or "no extension"
        sink.note(where, Kind.REGISTRY_FUNCTION, f"errors are given for {name}, which the registry XML declares (for "
                  f"{others}): they are kept as conditions {extension.name} adds to it, with the XML's prototype",
                  extension=extension.name)
        function = Function(name, declared.return_type, tuple(Param(p.name or "", p.type) for p in declared.params),
                            where, external=True)
    elif not extension.vendor or name.endswith(extension.vendor):
        sink.warning(where, Kind.UNKNOWN_FUNCTION, f"errors are given for {name}, but no source declares it and it is "
                     "not a function of core OpenCL; they are left out", extension=extension.name)
        return None
    else:
        sink.warning(where, Kind.EXTERNAL_FUNCTION, f"errors are given for {name}, which no source of "
                     f"{extension.name} declares and which is not a function of core OpenCL: they are kept as "
                     "conditions the extension adds to another extension's function, whose prototype no source "
                     "gives", extension=extension.name)
        function = Function(name, None, (), where, external=True)
    return owners.add(function)


# -- errors and parameter descriptions --------------------------------------


def primary_errors(extension: Extension, primary: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                   registry: Registry | None = None) -> Extension:
    """The extension with the error conditions of the primary source, "the same errors as f" copied over.

    Conditions that lost their code wait for `recover`.
    """
    owners = _Owners(extension)
    unknown: set[str] = set()  # reported once each
    for source in primary:
        for fact in sorted(source.errors, key=lambda e: (e.where.pos, e.origin)):
            function = None if fact.function in unknown else owner(owners, fact.function, knowledge, fact.where,
                                                                   sink, registry)
            if function is None:
                unknown.add(fact.function)
            elif fact.code is not None:
                owners.errors[function].append(ErrorCondition(fact.code, fact.text, fact.where, fact.origin))
        for copy in source.copies:
            target = owner(owners, copy.target, knowledge, copy.where, sink, registry)
            original = owners.find(copy.source)
            for error in list(owners.errors[original] if original is not None and target is not None else []):
                if target is not None and error.origin == "list" and error.source.pos < copy.where.pos:
                    owners.errors[target].append(ErrorCondition(error.code, error.condition, copy.where, "copy",
                                                                copied_from=error.source))
    return owners.finished()


def parameter_docs(extension: Extension, sources: list[SourceFacts], sink: Sink) -> Extension:
    """The extension with each parameter's description: the first source that gives one with the parameter as
    subject (the text followed first; another text's wording of the same description only corroborates it). One
    text describing a parameter twice in other words is a warning: the first is used.

    A description whose subject is not a parameter (a misspelt name) goes to the
    one parameter it is close to that has none; the cross-check reports the name.
    """
    places = first_places(extension.functions)
    described: dict[int, list[Param]] = {}  # the parameters of each function given a description, by its place
    for source in sources:
        seen: dict[tuple[str, str], ParamDoc] = {}
        for doc in source.param_docs:
            for name in doc.parameters:
                first = seen.setdefault((doc.function, name), doc)
                if first is not doc and " ".join(first.text.split()) != " ".join(doc.text.split()):
                    sink.warning(doc.where, Kind.DESCRIPTION_CONFLICT, f"{doc.function}: parameter {name} is described "
                                 f"again here, otherwise than at {first.where.precise()}; the first is preferred",
                                 extension=extension.name, related=(first.where,))
        for doc in source.param_docs:
            place = places.get(doc.function)
            if place is None or not doc.parameters:
                continue
            params = described.get(place) or list(extension.functions[place].params)
            names = {p.name for p in params}
            subjects = [n for n in doc.parameters if n in names] or [
                close for n in doc.parameters
                for close in get_close_matches(n, [p.name for p in params if p.description is None], 1, 0.6)
            ]
            for index, param in enumerate(params):
                if param.name in subjects and param.description is None:
                    params[index] = replace(param, description=doc.text, description_source=doc.where)
                    described[place] = params
    if not described:
        return extension
    return replace(extension, functions=tuple(replace(f, params=tuple(described[place])) if place in described else f
                                              for place, f in enumerate(extension.functions)))
