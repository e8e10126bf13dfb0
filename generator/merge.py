"""Stage 4: one extension from all the sources that describe it.

A spec with a summary of new functions is the primary source; reference pages
corroborate it. Conflicts between declarations become diagnostics naming both
places. What damaged sources lost is recovered afterwards (`recover`), once
every extension is merged, because recovery reads the siblings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from difflib import get_close_matches

from generator import naming, phrases, recover, tables, typedef_chains
from generator.c_decl import base_type
from generator.diagnostics import Location, Sink
from generator.errors import Gather, InputError
from generator.facts import DeclaredFunction, SourceFacts, TokenGroupFact, primary_first, primary_source
from generator.knowledge import Knowledge
from generator.model import ErrorCondition, Extension, Function, Param, Source, Token, TokenGroup, TypeInfo
from generator.source import Pos


def merge_all(all_facts: Iterable[SourceFacts], knowledge: Knowledge, sink: Sink) -> list[Extension]:
    """Every extension from its sources; the input errors of all of them are reported together."""
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
            merged[name] = merge_extension(name, sorted(sources, key=primary_first), knowledge, sink)
    errors.check()
    # Recovery reads the siblings, so each step runs over every extension before the next.
    for extension in merged.values():
        recover.groups(extension, merged, knowledge, sink)
    for extension in merged.values():
        name_groups(extension, knowledge)
        extension.tables = tables.merge(extension, by_extension[extension.name], knowledge, sink)
    for extension in merged.values():
        recover.texts(extension, by_extension[extension.name], merged, knowledge, sink)
        extension.types = introduced_types(extension, by_extension[extension.name], knowledge, sink)
    return list(merged.values())


def merge_extension(name: str, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink) -> Extension:
    primary = [primary_source(sources)]
    parts = knowledge.extension_parts(name)
    extension = Extension(
        name=name,
        vendor=parts[0].upper() if parts else "",
        revision=next((s.revision for s in primary if s.revision), None),
        metadata={k: v for s in reversed(primary) for k, v in s.metadata.items()},
        sources=[Source(s.path, s.format) for s in sorted(sources, key=lambda s: s.path)],
    )
    extension.functions = functions(extension, sources, sink)
    extension.groups, extension.tokens = tokens(extension, sources, sink)
    primary_errors(extension, primary, knowledge, sink)
    for remark in (r for source in sources for r in source.remarks):
        report = sink.note if remark.note else sink.warning
        report(remark.where, remark.kind, remark.message, extension=extension.name)
    parameter_docs(extension, sources)
    return extension


# -- functions --------------------------------------------------------------


def functions(extension: Extension, sources: list[SourceFacts], sink: Sink) -> list[Function]:
    """The summary's prototypes, each checked against every other declaration of the function."""
    summaries = [s for s in sources if s.has_summary]
    for copy in summaries[1:]:
        sink.note(copy.functions[0].where if copy.functions else Location(copy.path, Pos(1)), "second-source",
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
            compare_prototypes(first, other, extension.name, sink)
        params = [Param(_parameter_name(first, index, others), p.type)
                  for index, p in enumerate(first.function.params)]
        result.append(Function(
            first.function.name, first.function.return_type, params, first.where,
            declared_at=[first.where, *(o.where for o in others)],
        ))
    errors.check()
    summary_names = {d.function.name for d in declared}
    for source in sources:
        for d in source.functions:
            if d.role == "body" and source.has_summary and d.function.name not in summary_names:
                sink.warning(d.where, "undeclared-function",
                             f"{d.function.name} is described here but missing from the list of new functions",
                             extension=extension.name)
    return result


def _parameter_name(first: DeclaredFunction, index: int, others: list[DeclaredFunction]) -> str:
    """A parameter's name, from another declaration of the function where the first has none."""
    for declaration in (first, *others):
        params = declaration.function.params
        if len(params) > index and params[index].name:
            return str(params[index].name)
    return f"arg{index}"


def compare_prototypes(first: DeclaredFunction, other: DeclaredFunction, extension: str, sink: Sink) -> None:
    """Report where another declaration of a function differs from the one used (the summary's)."""
    a, b = first.function, other.function
    used = "the list of new functions" if first.role == "summary" else "its first declaration"

    def conflict(what: str, here: str, there: str) -> None:
        sink.warning(other.where, "prototype-conflict", f"{a.name}: {what} is {here} here but {there} in {used} "
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


def owner(extension: Extension, name: str, knowledge: Knowledge, where: Location, sink: Sink) -> Function | None:
    """The function errors are added to: the extension's own, or a core one (entered on first use)."""
    existing = extension.function(name)
    if existing is not None:
        return existing
    core = knowledge.core_functions.get(name)
    if core is None:
        sink.warning(where, "unknown-function", f"errors are given for {name}, but no source declares it and it is "
                     "not a function of core OpenCL; they are left out", extension=extension.name)
        return None
    function = Function(name, core.return_type, [Param(n, t) for n, t in core.params], where, core=True)
    extension.functions.append(function)
    return function


# -- tokens and their groups ------------------------------------------------


def tokens(extension: Extension, sources: list[SourceFacts], sink: Sink) -> tuple[list[TokenGroup], list[Token]]:
    groups: dict[str, TokenGroup] = {}
    result: dict[str, Token] = {}
    for source in sources:
        for fact in source.tokens:
            group = _group(fact.group, groups)
            if fact.name in result:
                known = result[fact.name]
                if known.value != fact.value:
                    sink.warning(fact.where, "token-conflict",
                                 f"{fact.name} is {fact.literal} here but {known.literal} at {known.source.precise()}",
                                 extension=extension.name, related=(known.source,))
                continue
            result[fact.name] = Token(fact.name, fact.value, group.key if group else None, fact.where,
                                      fact.literal)
    return list(groups.values()), list(result.values())


def _group(fact: TokenGroupFact | None, groups: dict[str, TokenGroup]) -> TokenGroup | None:
    """The group a sentence opens."""
    if fact is None:
        return None
    key = f"{fact.where.path}:{fact.where.pos.line}:{fact.where.pos.column}"
    if key not in groups:
        groups[key] = TokenGroup("", fact.kind, fact.functions, fact.parameter, None, fact.when, fact.sentence,
                                 fact.where)
    return groups[key]


def name_groups(extension: Extension, knowledge: Knowledge) -> None:
    """Name each group after what it belongs to; tokens then refer to groups by name.

    A parameter of the extension's own function names its group (`widget_source`);
    a parameter of a core function is too generic (`param_name`), so its C type does
    (`cl_mem_info` -> `mem_info`); a returned value is named after the query
    (`CL_EVENT_COMMAND_TYPE` -> `command_type`); error codes form one group.
    """
    own = {f.name: f for f in extension.functions if not f.core}
    names: dict[str, str] = {}
    named: set[str] = set()  # the names given so far (the groups after this one have none yet)
    numbered: dict[str, int] = {}
    for group in extension.groups:
        function = group.functions[0] if group.functions else ""
        if group.kind == "error":
            group.name, group.c_type = knowledge.error_group, knowledge.error_type
        elif group.kind == "returned" and group.when:
            group.name = _query_name(group.when, knowledge)
        elif function in own and group.parameter:
            group.name = group.parameter
            group.c_type = _param_type(own[function], group.parameter)
        elif group.parameter:
            core = knowledge.core_functions.get(function)
            c_type = core.param_type(group.parameter) if core else None
            group.c_type = base_type(c_type) if c_type else None
            group.name = knowledge.without_api_prefix(group.c_type) if group.c_type else group.parameter
        else:
            group.name = _unique(_slug(group.sentence), named, numbered)
        named.add(group.name)
        names[group.key] = group.name
    merged: dict[str, TokenGroup] = {}
    for group in extension.groups:
        first = merged.setdefault(group.name, group)
        first.functions = tuple(dict.fromkeys(first.functions + group.functions))
    extension.groups = list(merged.values())
    for token in extension.tokens:
        token.group = names.get(token.group or "", token.group)


def _slug(sentence: str) -> str:
    """A name for a group whose parameter is unknown, from what its sentence says the tokens are."""
    accepted = phrases.accepted(sentence)
    words = re.findall(r"[a-z0-9]+", (accepted.what if accepted else sentence).lower())
    return "_".join(w for w in words if w not in ("a", "an", "the")) or "tokens"


def _unique(name: str, taken: set[str], last: dict[str, int]) -> str:
    """`name`, else `name_2`, `name_3`...: the first not taken, counting on from the last given for `name`
    (names are only ever added, so those below it stay taken)."""
    candidate, number = name, last.get(name, 1)
    while candidate in taken:
        number += 1
        candidate = f"{name}_{number}"
    last[name] = number
    return candidate


def _param_type(function: Function, parameter: str) -> str | None:
    return next((p.type for p in function.params if p.name == parameter), None)



def _query_name(when: str, knowledge: Knowledge) -> str:
    """`CL_EVENT_COMMAND_TYPE` (a `cl_event_info` query) -> `command_type`."""
    words = when.lower().split("_")[1:]
    group = knowledge.constant_group(when) or ""
    subject = group.split("_")[1:-1]  # cl_event_info -> [event]
    if subject and words[: len(subject)] == subject:
        words = words[len(subject):]
    return "_".join(words)


# -- errors and parameter descriptions --------------------------------------


def primary_errors(extension: Extension, primary: list[SourceFacts], knowledge: Knowledge, sink: Sink) -> None:
    """Error conditions of the primary source, with "the same errors as f" copied over.

    Conditions that lost their code wait for `recover`.
    """
    unknown: set[str] = set()  # reported once each
    for source in primary:
        for fact in sorted(source.errors, key=lambda e: (e.where.pos, e.origin)):
            function = None if fact.function in unknown else owner(extension, fact.function, knowledge, fact.where,
                                                                   sink)
            if function is None:
                unknown.add(fact.function)
            elif fact.code is not None:
                function.errors.append(ErrorCondition(fact.code, fact.text, fact.where, fact.origin))
        for copy in source.copies:
            target = owner(extension, copy.target, knowledge, copy.where, sink)
            original = extension.function(copy.source)
            for error in list(original.errors if original and target else []):
                if target and error.origin == "list" and error.source.pos < copy.where.pos:
                    target.errors.append(ErrorCondition(error.code, error.condition, copy.where, "copy",
                                                        copied_from=error.source))


def parameter_docs(extension: Extension, sources: list[SourceFacts]) -> None:
    """Each parameter's description: the first source that gives one with the parameter as subject.

    A description whose subject is not a parameter (a misspelt name) goes to the
    one parameter it is close to that has none; the cross-check reports the name.
    """
    for source in sources:
        for doc in source.param_docs:
            function = extension.function(doc.function)
            if function is None or not doc.parameters:
                continue
            names = {p.name for p in function.params}
            subjects = [n for n in doc.parameters if n in names] or [
                close for n in doc.parameters
                for close in get_close_matches(n, [p.name for p in function.params if p.description is None], 1, 0.6)
            ]
            for param in function.params:
                if param.name in subjects and param.description is None:
                    param.description, param.description_source = doc.text, doc.where


# -- types ------------------------------------------------------------------


def introduced_types(
    extension: Extension, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink
) -> list[TypeInfo]:
    """Types the extension's prototypes and tables use beyond core OpenCL: its own, COM and platform types."""
    typedefs = {t.typedef.name: t for s in sources for t in s.types}
    uses: dict[str, Location] = {}
    for function in extension.functions:
        if function.core:
            continue
        for c_type in [function.return_type, *(p.type for p in function.params)]:
            uses.setdefault(base_type(c_type), function.source)
    for table in extension.tables:
        if "type" in table.columns:
            column = table.columns.index("type")
            for row, where in zip(table.rows, table.row_sources, strict=True):
                if row[column]:
                    uses.setdefault(base_type(row[column]), where)
    result: list[TypeInfo] = []
    for name, where in typedef_chains.with_parts(uses, typedefs, knowledge.c_language).items():
        if name in typedefs:
            result.append(TypeInfo(name, "typedef", typedefs[name].typedef.c_type, typedefs[name].where))
        elif name in knowledge.platform_types:
            result.append(TypeInfo(name, "platform", knowledge.platform_types[name], where))
        elif knowledge.is_interface(name):
            result.append(TypeInfo(name, "interface", None, where))
        elif not knowledge.is_known_type(name):
            result.append(_undefined_type(extension, name, where, knowledge, sink))
    return sorted(result, key=lambda t: t.name)


def _undefined_type(
    extension: Extension, name: str, where: Location, knowledge: Knowledge, sink: Sink
) -> TypeInfo:
    """A type the text uses but never defines: an enumeration if a token group is passed in it."""
    groups = [g.name for g in extension.groups if g.c_type and base_type(g.c_type) == name]
    if groups:
        sink.warning(where, "undefined-type",
                     f"type {name} is used but never defined in the text; taken as {knowledge.enum_base_type} "
                     f"(OpenCL's type for enumerations) because it carries the tokens of group {groups[0]}",
                     extension=extension.name)
        return TypeInfo(name, "enum", knowledge.enum_base_type, where, defined=False)
    sink.warning(where, "undefined-type", f"type {name} is used but never defined in the text",
                 extension=extension.name)
    return TypeInfo(name, "typedef", None, where, defined=False)
