"""What damaged sources lost, recovered from the other sources of the extension and from its siblings.

Recovery only ever adds what is missing (a parameter name, an error code) and
says where it came from; the damaged source's own words are kept. A match is
made on the wording of the sentence, after renaming the sibling's names to
the extension's own.
"""

from __future__ import annotations

from dataclasses import replace

from generator.base.diagnostics import Location, Sink
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import ErrorFact, ParamDoc, SourceFacts, primary_source
from generator.frontends.document import LOST_ERROR_CODES, LOST_PARAMETER_NAMES, REFERENCE
from generator.ir.model import Corroboration, ErrorCondition, Extension, Function, Param, Table
from generator.merging import textalign
from generator.merging.lookup import first_places
from generator.merging.siblings import Relative, parameter_names, relatives

#: How alike two wordings must be to be taken for the same sentence.
SAME_SENTENCE = 0.7
#: How much of a damaged condition must be found in another to be the same condition.
SAME_CONDITION = 0.6
#: How alike a description without its subject must be to a sibling's.
SAME_DESCRIPTION = 0.6
#: Words whose difference between two wordings is not worth a warning ("a" for "an").
_ARTICLES = {"a", "an", "the"}


# -- texts: conditions, corroborating pages, descriptions, table cells --------


def texts(
    extension: Extension, sources: list[SourceFacts], merged: dict[str, Extension], knowledge: Knowledge,
    sink: Sink,
) -> Extension:
    """The extension with what its texts lost restored from the siblings: parameter names in conditions,
    descriptions and table cells, descriptions no text gives, and the conditions of the secondary sources."""
    family = relatives(extension, merged, knowledge)
    lost = {s.path for s in sources if LOST_PARAMETER_NAMES in s.lost}
    extension, restored = _conditions(extension, lost, family, knowledge)
    extension, described = _descriptions(extension, [s for s in sources if s.path in lost], family)
    extension, rows = _table_cells(extension, lost, family)
    extension = _missing_descriptions(extension, family)
    for path in sorted(lost):
        if not (restored or described or rows) and not any(
            not f.foreign and f.prototype_source is None and f.source.path == path for f in extension.functions
        ):
            continue  # a text that declares no function and had nothing to restore lost nothing worth a note
        origins = sorted({r.extension.name for r in family})
        sink.note(Location(path, _first(extension, path)), Kind.RECOVERED,
                  f"this text lost its parameter names; restored them in {restored} error conditions, "
                  f"{described} parameter descriptions and {rows} table rows from "
                  f"{', '.join(origins) or 'nowhere'}", extension=extension.name)
        if not family:
            _undescribed(extension, path, [s for s in sources if s.path == path], sink)
    primary = primary_source(sources)
    for source in sources:
        extension = _corroborate(extension, source, source is not primary, family, sink)
    return extension


def _undescribed(extension: Extension, path: str, sources: list[SourceFacts], sink: Sink) -> None:
    """A text that lost its parameter names, with no sibling to restore them from: each function it declares whose
    descriptions lost their subject, with the parameters left without one (a description that names no parameter
    is not kept). The conditions are named by `analysis.damaged`, the table rows too."""
    bare_docs = {doc.function for source in sources for doc in source.param_docs if not doc.parameters}
    for function in extension.functions:
        bare = [param.name for param in function.params if param.description is None]
        if function.foreign or function.source.path != path or function.name not in bare_docs or not bare:
            continue
        listed = bare[0] if len(bare) == 1 else f"{', '.join(bare[:-1])} and {bare[-1]}"
        sink.warning(function.source, Kind.UNRESTORED_DESCRIPTION, f"{function.name}: this text's descriptions do not "
                     "name their parameters (its `<name>` markup is lost) and no sibling extension restores them: "
                     f"{listed} {'has' if len(bare) == 1 else 'have'} no description in the IR, the docs or the "
                     "docstrings", extension=extension.name)


def _first(extension: Extension, path: str) -> Pos:
    return next((f.source.pos for f in extension.functions if f.source.path == path), Pos(1, 1))


def _conditions(extension: Extension, lost: set[str], family: list[Relative],
                knowledge: Knowledge) -> tuple[Extension, int]:
    """The extension with the parameter names its conditions lost restored, and how many were."""
    restored = 0
    functions: list[Function] = []
    for function in extension.functions:
        if not any(error.source.path in lost for error in function.errors):
            functions.append(function)
            continue
        names = parameter_names(extension, function.name, knowledge)
        errors: list[ErrorCondition] = []
        before = restored
        for error in function.errors:
            errors.append(error)
            if error.source.path not in lost:
                continue
            best = _best_condition(error.code, error.condition, function.name, family)
            if best is None:
                continue
            relative, condition = best
            text, inserted = textalign.fill_gaps(error.condition, condition.condition, relative.renaming)
            if inserted and set(inserted) <= names:
                errors[-1] = replace(error, condition=text, recovered_from=condition.source,
                                     recovered="parameter names")
                restored += 1
        functions.append(replace(function, errors=tuple(errors)) if restored > before else function)
    return (replace(extension, functions=tuple(functions)) if restored else extension), restored


def _best_condition(
    code: str | None, text: str, function: str, family: list[Relative]
) -> tuple[Relative, ErrorCondition] | None:
    candidates = []
    for relative in family:
        theirs = relative.function(function)
        for condition in theirs.errors if theirs else []:
            if code is None or relative.renaming(condition.code) == code:
                candidates.append((relative, condition))
    best = textalign.most_similar(text, [(c.condition, r.renaming) for r, c in candidates], SAME_SENTENCE)
    return None if best is None else candidates[best]


def _descriptions(extension: Extension, sources: list[SourceFacts],
                  family: list[Relative]) -> tuple[Extension, int]:
    """Descriptions whose subject (the parameter's name) was lost take it from the sibling's matching one: the
    extension with them, and how many."""
    restored = 0
    functions = list(extension.functions)
    places = first_places(functions)
    for source in sources:
        for doc in source.param_docs:
            place = places.get(doc.function)
            if doc.parameters or place is None:
                continue
            function = functions[place]
            match = _best_description(doc, function.name, family)
            if match is None:
                continue
            relative, names, text, where = match
            filled, _ = textalign.fill_gaps(doc.text, text, relative.renaming)
            params: list[Param] = []
            before = restored
            for param in function.params:
                if param.name in names and param.description is None:
                    param = replace(param, description=filled, description_source=doc.where, recovered_from=where)
                    restored += 1
                params.append(param)
            if restored > before:
                functions[place] = replace(function, params=tuple(params))
    return (replace(extension, functions=tuple(functions)) if restored else extension), restored


def _best_description(
    doc: ParamDoc, function: str, family: list[Relative]
) -> tuple[Relative, set[str], str, Location] | None:
    candidates = []
    for relative in family:
        theirs = relative.function(function)
        params = theirs.params if theirs else []
        for param in params:
            if param.description and param.description_source:
                candidates.append((relative, params, param.description, param.description_source))
    best = textalign.most_similar(doc.text, [(text, r.renaming) for r, _, text, _ in candidates], SAME_DESCRIPTION)
    if best is None:
        return None
    relative, params, text, where = candidates[best]
    return relative, {relative.renaming(p.name) for p in params if p.description == text}, text, where


def _missing_descriptions(extension: Extension, family: list[Relative]) -> Extension:
    """A parameter no source describes takes its sibling's description: the same API's first."""
    functions: list[Function] = []
    for function in extension.functions:
        params: list[Param] = []
        for param in function.params:
            params.append(param)
            if param.description is not None or function.foreign:
                continue
            for relative in sorted(family, key=lambda r: not r.renaming.vendor):
                theirs = relative.function(function.name)
                twin = next((p for p in theirs.params if relative.renaming(p.name) == param.name), None) if theirs \
                    else None
                if twin is not None and twin.description and twin.description_source:
                    params[-1] = replace(param, description=relative.renaming(twin.description),
                                         description_source=twin.description_source,
                                         recovered_from=twin.description_source)
                    break
        functions.append(replace(function, params=tuple(params)) if params != list(function.params) else function)
    return replace(extension, functions=tuple(functions))


def _table_cells(extension: Extension, lost: set[str], family: list[Relative]) -> tuple[Extension, int]:
    """The extension with the parameter names its table cells lost restored, and in how many rows."""
    restored = 0
    tables: list[Table] = []
    for table in extension.tables:
        if table.source.path not in lost:
            tables.append(table)
            continue
        rows: list[tuple[str, ...]] = []
        for cells in table.rows:
            row = list(cells)
            for relative in family:
                twin = relative.row(table.name, row[0])
                if twin is None or len(twin) != len(row):
                    continue
                changed = False
                for index, (cell, other) in enumerate(zip(row, twin, strict=True)):
                    if "<" in other and textalign.similarity(cell, other, relative.renaming) >= SAME_SENTENCE:
                        row[index], inserted = textalign.fill_gaps(cell, other, relative.renaming)
                        changed = changed or bool(inserted)
                if changed:
                    restored += 1
                    break
            rows.append(tuple(row))
        tables.append(replace(table, rows=tuple(rows)))
    return replace(extension, tables=tuple(tables)), restored


def _corroborate(
    extension: Extension, source: SourceFacts, secondary: bool, family: list[Relative], sink: Sink
) -> Extension:
    """Conditions of a secondary source (a reference page) join the primary's; lost codes are found there.

    Of the primary source only the conditions that lost their code are left to do.
    """
    places = first_places(extension.functions)
    working: dict[int, list[ErrorCondition]] = {}  # the conditions of each function amended so far, by its place

    def errors_of(place: int) -> list[ErrorCondition]:
        found = working.get(place)
        if found is None:
            found = working[place] = list(extension.functions[place].errors)
        return found

    covered: dict[str, set[str]] = {}
    lost_codes = [f for f in source.errors if f.code is None]
    recovered = 0
    for fact in source.errors if secondary else lost_codes:
        place = places.get(fact.function)
        if place is None:
            continue  # reported by merge
        function, errors = extension.functions[place], errors_of(place)
        at = _matching(errors, fact)
        if at is not None:
            match = errors[at]
            origin = match.source if fact.code is None else None
            recovered += origin is not None
            errors[at] = replace(match, also_in=(*match.also_in, Corroboration(fact.where, fact.text, origin)))
            covered.setdefault(function.name, set()).add(match.code)
            _differences(extension, fact, match, sink)
            continue
        if fact.code is not None:
            _joined(extension, function.name, errors, fact, sink)
            errors.append(ErrorCondition(fact.code, fact.text, fact.where, "list"))
            covered.setdefault(function.name, set()).add(fact.code)
            continue
        best = _best_condition(None, fact.text, function.name, family)
        if best is not None:
            relative, condition = best
            errors.append(ErrorCondition(relative.renaming(condition.code), fact.text, fact.where, "list",
                                         recovered_from=condition.source, recovered="error code"))
            recovered += 1
        else:
            text = " ".join(fact.text.split())
            sink.warning(fact.where, Kind.UNRECOVERED_CONDITION, f"{function.name}: the condition '{text[:80]}"
                         f"{'...' if len(text) > 80 else ''}' lost its error code and no other source states it: "
                         "it is not in the IR's conditions, and `coverage` names it", extension=extension.name)
    if lost_codes and LOST_ERROR_CODES in source.lost:
        sink.note(lost_codes[0].where, Kind.RECOVERED, f"the conditions of this error list lost their error codes; "
                  f"recovered {recovered} of {len(lost_codes)} by matching them with the conditions of "
                  "the other sources", extension=extension.name)
    for name, codes in covered.items():
        place = places.get(name)
        for error in errors_of(place) if place is not None else []:
            if error.origin == "list" and error.code not in codes and error.source.path != source.path:
                sink.note(Location(source.path, _first_error(source, name)), Kind.INCOMPLETE_SOURCE,
                          f"{name}: this page gives no condition for {error.code}, which "
                          f"{error.source.precise()} states", extension=extension.name, related=(error.source,))
                codes.add(error.code)
    if not working:
        return extension
    return replace(extension, functions=tuple(replace(f, errors=tuple(working[place])) if place in working else f
                                              for place, f in enumerate(extension.functions)))


def _joined(extension: Extension, function: str, errors: list[ErrorCondition], fact: ErrorFact, sink: Sink) -> None:
    """A condition of another text that matches none of this code's conditions joins them: where another text gives
    this code otherwise, the two texts tell two readings of one error, and both are kept (and checked), so say so."""
    others = [error for error in errors if error.code == fact.code and error.source.path != fact.where.path]
    if others:
        sink.warning(fact.where, Kind.CONDITION_CONFLICT, f"{function} {fact.code}: this text's condition "
                     f"'{_quoted(fact.text)}' is none of those {others[0].source.precise()} gives for this code "
                     f"('{_quoted(others[0].condition)}'); both are kept, and each is checked where it can be",
                     extension=extension.name, related=(others[0].source,))


def _quoted(text: str) -> str:
    plain = REFERENCE.sub(r"\1", " ".join(text.split()))
    return plain if len(plain) <= 80 else plain[:77] + "..."


def _first_error(source: SourceFacts, function: str) -> Pos:
    return next(f.where.pos for f in source.errors if f.function == function)


def _matching(errors: list[ErrorCondition], fact: ErrorFact) -> int | None:
    """Where among `errors` the condition `fact` states too stands, if one is."""
    scored = [
        (textalign.coverage(fact.text, error.condition), place)
        for place, error in enumerate(errors)
        if (fact.code is None or error.code == fact.code) and error.source.path != fact.where.path
    ]
    if not scored:
        return None
    score, place = max(scored, key=lambda s: s[0])
    return place if score >= SAME_CONDITION else None


def _differences(extension: Extension, fact: ErrorFact, match: ErrorCondition, sink: Sink) -> None:
    changes = [change for change in textalign.differences(fact.text, match.condition, lost_start=fact.code is None)
               if not set(change) <= _ARTICLES]
    if changes:
        said = "; ".join(f"'{ours}' where {match.source.precise()} has '{theirs}'" for ours, theirs in changes)
        sink.warning(fact.where, Kind.CONDITION_DIFFERS, f"{fact.function} {match.code}: the condition reads {said}",
                     extension=extension.name, related=(match.source,))
