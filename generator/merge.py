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

from generator import naming, phrases, recover, tables, typedef_chains, undefined_types
from generator.c_decl import base_type, parts
from generator.diagnostics import Location, Sink
from generator.errors import Gather, InputError
from generator.facts import DeclaredFunction, DeclaredType, SourceFacts, TokenGroupFact, primary_first, primary_source
from generator.frontends.registry_xml import Registry
from generator.knowledge import Knowledge
from generator.model import ErrorCondition, Extension, Function, Param, Source, Token, TokenGroup, TypeInfo
from generator.source import Pos


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


def merge_extension(name: str, sources: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                    registry: Registry | None = None) -> Extension:
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
    extension.groups, extension.tokens = tokens(extension, sources, sink, knowledge, registry)
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
            if problem := reordered(first, other):
                errors.add(InputError(other.where.path, other.where.pos, problem))
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
    """The function errors are added to: the extension's own (also when named without the vendor's suffix), a
    core one, or another vendor's (its name does not end in the extension's vendor), entered on first use, the
    last with no prototype; each guess with a warning."""
    existing = extension.function(name)
    if existing is not None:
        return existing
    core = knowledge.core_functions.get(name)
    suffixed = extension.unsuffixed(name)
    if suffixed is not None:
        sink.warning(where, "unsuffixed-function", f"{name} is named without the vendor's suffix: its errors are "
                     f"taken as those of {suffixed.name}, which the extension declares", extension=extension.name)
        return suffixed
    if core is not None:
        function = Function(name, core.return_type, [Param(n, t) for n, t in core.params], where, core=True)
    elif not extension.vendor or name.endswith(extension.vendor):
        sink.warning(where, "unknown-function", f"errors are given for {name}, but no source declares it and it is "
                     "not a function of core OpenCL; they are left out", extension=extension.name)
        return None
    else:
        sink.warning(where, "external-function", f"errors are given for {name}, which no source of "
                     f"{extension.name} declares and which is not a function of core OpenCL: they are kept as "
                     "conditions the extension adds to another extension's function, whose prototype no source "
                     "gives", extension=extension.name)
        function = Function(name, None, [], where, external=True)
    extension.functions.append(function)
    return function


# -- tokens and their groups ------------------------------------------------


def tokens(
    extension: Extension, sources: list[SourceFacts], sink: Sink, knowledge: Knowledge, registry: Registry | None
) -> tuple[list[TokenGroup], list[Token]]:
    groups: dict[str, TokenGroup] = {}
    result: dict[str, Token] = {}
    for source in sources:
        for fact in source.tokens:
            group = _group(fact.group, groups)
            if fact.name in result and not (result[fact.name].value is None and fact.value is not None):
                known = result[fact.name]
                if None not in (known.value, fact.value) and known.value != fact.value:
                    sink.warning(fact.where, "token-conflict",
                                 f"{fact.name} is {fact.literal} here but {known.literal} at {known.source.precise()}",
                                 extension=extension.name, related=(known.source,))
                continue
            result[fact.name] = Token(fact.name, fact.value, group.key if group else None, fact.where,
                                      fact.literal)
    if not result:
        result = named_tokens(extension, sources, knowledge)
    for token in result.values() if registry else ():
        registered = registry.enums.get(token.name) if registry else None
        if registered is None:
            continue
        if token.value is None:
            token.value, token.literal, token.value_source = registered.value, registered.literal, registered.where
        elif token.value != registered.value:
            sink.warning(token.source, "registry-conflict", f"{token.name} is {token.literal} here but "
                         f"{registered.literal} in the registry at {registered.where.precise()}; the text's value "
                         "is used", extension=extension.name, related=(registered.where,))
    for token in (t for t in result.values() if t.value is None):
        sink.warning(token.source, "token-without-value", f"{token.name} is introduced by this text without a "
                     "value: it is listed in the IR and the docs, but the package has no constant or enumeration "
                     "member for it", extension=extension.name)
    return list(groups.values()), list(result.values())


def named_tokens(extension: Extension, sources: list[SourceFacts], knowledge: Knowledge) -> dict[str, Token]:
    """The tokens a text that defines none introduces by name only (in a table, in its description).

    They are the names of constants that carry the extension's vendor suffix (`CL_..._<VENDOR>`, the API's
    naming rule for what an extension adds) and that core OpenCL does not define: those its list of new
    tokens names, if it names any, else those the text uses anywhere. They keep `value: None`:
    listed in the IR and the docs, left out of the package's enumerations and constants (it cannot make a
    constant of no value), each with a warning saying so.
    """
    if not extension.vendor:
        return {}
    suffix = f"_{extension.vendor}"
    candidates = [m for s in sources for m in s.mentions if m.kind == "constant" and m.name.endswith(suffix)
                  and m.name not in knowledge.core_constants]
    if any(m.listed for m in candidates):  # names in a list of new tokens: those, not every name the text uses
        candidates = [m for m in candidates if m.listed]
    found: dict[str, Token] = {}
    for mention in candidates:
        found.setdefault(mention.name, Token(mention.name, None, None, mention.where))
    return found


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
    own = {f.name: f for f in extension.functions if not f.foreign}
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
    """Every type the extension's texts declare, and those its prototypes, typedefs and tables use beyond core
    OpenCL: COM and platform types, and what it leaves undefined."""
    typedefs = {t.typedef.name: t for s in sources for t in s.types}
    uses: dict[str, Location] = {}
    by_value: set[str] = set()  # the types a value of which is passed or returned, not only a pointer to it
    for name, declared in typedefs.items():
        uses.setdefault(name, declared.where)
        for c_type in [part for t in [declared.typedef.c_type, *(m.type for m in declared.typedef.members)]
                       for part in parts(t.partition(" [")[0])]:
            if not knowledge.c_language.is_builtin(base_type(c_type)):
                uses.setdefault(base_type(c_type), declared.where)
                if "*" not in c_type:
                    by_value.add(base_type(c_type))
    for function in extension.functions:
        if function.foreign or function.return_type is None:
            continue
        for c_type in [function.return_type, *(p.type for p in function.params)]:
            for part in parts(c_type):
                uses.setdefault(base_type(part), function.source)
                if "*" not in part:
                    by_value.add(base_type(part))
    for table in extension.tables:
        if "type" in table.columns:
            column = table.columns.index("type")
            for row, where in zip(table.rows, table.row_sources, strict=True):
                if row[column]:
                    uses.setdefault(base_type(row[column]), where)
    result: list[TypeInfo] = []
    for name, where in typedef_chains.with_parts(uses, typedefs, knowledge.c_language).items():
        if name in typedefs:
            result.append(_declared_type(typedefs[name]))
        elif name in knowledge.platform_types:
            result.append(TypeInfo(name, "platform", knowledge.platform_types[name], where))
        elif knowledge.is_interface(name):
            result.append(TypeInfo(name, "interface", None, where))
        elif not knowledge.is_known_type(name):
            result.extend(undefined_types.undefined(extension, name, where, knowledge, sink, name in by_value))
    unique = {t.name: t for t in reversed(result)}  # a platform type named by two casts is declared once
    return sorted(unique.values(), key=lambda t: t.name)


def _declared_type(declared: DeclaredType) -> TypeInfo:
    """A typedef of the text; a struct or union with its members; an enum as `int`, the type C gives an enum
    whose values an int holds (C17 6.7.2.2; its enumerators are the text's tokens)."""
    typedef = declared.typedef
    if typedef.record == "enum":
        return TypeInfo(typedef.name, "enum", "int", declared.where)
    members = tuple((str(m.name), m.type) for m in typedef.members)
    return TypeInfo(typedef.name, "typedef", typedef.c_type, declared.where, members=members)
