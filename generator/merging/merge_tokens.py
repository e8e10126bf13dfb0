"""The tokens of an extension and their groups, from all its sources: the `merge` stage's part for tokens.

Values a text leaves out come from the registry XML when the run has one; a group is named after what it
belongs to (a parameter, a query, the error codes), so that tokens refer to groups by name.
"""

from __future__ import annotations

import re
from dataclasses import replace

from generator.base import phrases
from generator.base.diagnostics import Sink
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type
from generator.extraction.facts import SourceFacts, TokenGroupFact
from generator.frontends.registry_xml import Registry
from generator.ir.model import Extension, Function, Token, TokenGroup
from generator.merging.lookup import group_key, place_key


def tokens(
    extension: Extension, sources: list[SourceFacts], sink: Sink, knowledge: Knowledge, registry: Registry | None
) -> tuple[tuple[TokenGroup, ...], tuple[Token, ...]]:
    """The groups and the tokens of the texts, each token in the group of its sentence by the group's key (named
    after by `name_groups`)."""
    groups: dict[str, TokenGroup] = {}
    result: dict[str, Token] = {}
    spelled = spellings(sources)  # each token's value as its text spells it, beside the records
    for source in sources:
        for fact in source.tokens:
            group = _group(fact.group, groups)
            if fact.name in result and not (result[fact.name].value is None and fact.value is not None):
                known = result[fact.name]
                if None not in (known.value, fact.value) and known.value != fact.value:
                    sink.warning(fact.where, Kind.TOKEN_CONFLICT,
                                 f"{fact.name} is {fact.literal} here but {spelled[fact.name]} at "
                                 f"{known.source.precise()}, which is used",
                                 extension=extension.name, related=(known.source,))
                continue
            result[fact.name] = Token(fact.name, fact.value, group_key(group) if group else None, fact.where)
    if not result:
        result = named_tokens(extension, sources, knowledge, registry)
    enums = registry.enums if registry is not None else {}
    for token in [t for t in result.values() if t.value is None]:
        registered = enums.get(token.name)  # the text's own values are compared by `registry_check`
        if registered is not None and registered.value is not None:
            result[token.name] = replace(token, value=registered.value, value_source=registered.where)
    for token in (t for t in result.values() if t.value is None):
        sink.warning(token.source, Kind.TOKEN_WITHOUT_VALUE, f"{token.name} is introduced by this text without a "
                     "value: it is listed in the IR and the docs, but the package has no constant or enumeration "
                     "member for it", extension=extension.name)
    return tuple(groups.values()), tuple(result.values())


def spellings(sources: list[SourceFacts]) -> dict[str, str]:
    """Each token's value as the text that gives it spells it (`0x4000`, `(1 << 2)`), the records holding only the
    number: the text `tokens` takes the token from, the first of `sources` (in merge's order, `primary_first`)
    that gives a value, else the first that names it. `tokens` and the cross-checks quote it."""
    found: dict[str, tuple[int | None, str]] = {}
    for source in sources:
        for fact in source.tokens:
            known = found.get(fact.name)
            if known is None or (known[0] is None and fact.value is not None):
                found[fact.name] = fact.value, fact.literal
    return {name: literal for name, (_, literal) in found.items()}


def named_tokens(extension: Extension, sources: list[SourceFacts], knowledge: Knowledge,
                 registry: Registry | None = None) -> dict[str, Token]:
    """The tokens a text that defines none introduces by name only (in a table, in its description).

    They are the names of constants that carry the extension's vendor suffix (`CL_..._<VENDOR>`, the API's
    naming rule for what an extension adds) and that core OpenCL does not define: those its list of new
    tokens names, if it names any, else those the text uses anywhere but those the registry files under other
    extensions only, none a layer of this one (a text of throttle hints naming a priority hint). They keep
    `value: None` (the registry's value, when it has one, is taken after):
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
    elif registry is not None:  # names only used: the registry tells another extension's from this one's
        entry = registry.extensions.get(extension.name)
        candidates = [m for m in candidates if (entry is not None and entry.requires(m.name))
                      or all(_layered(other.name, extension.name) for other in registry.requiring(m.name))]
    found: dict[str, Token] = {}
    for mention in candidates:
        found.setdefault(mention.name, Token(mention.name, None, None, mention.where))
    return found


def _layered(other: str, extension: str) -> bool:
    """Whether `other` is named as a layer of `extension` (`cl_acme_base_more` of `cl_acme_base`), whose names a
    text of the base often introduces too."""
    return other.startswith(f"{extension}_")


def _group(fact: TokenGroupFact | None, groups: dict[str, TokenGroup]) -> TokenGroup | None:
    """The group a sentence opens."""
    if fact is None:
        return None
    key = place_key(fact.where)
    if key not in groups:
        groups[key] = TokenGroup("", fact.kind, fact.functions, fact.parameter, fact.c_type, fact.when,
                                 fact.sentence, fact.where)
    return groups[key]


def name_groups(extension: Extension, knowledge: Knowledge) -> Extension:
    """The extension with each group named after what it belongs to; tokens then refer to groups by name.

    A parameter of the extension's own function names its group (`widget_source`);
    a parameter of a core function is too generic (`param_name`), so its C type does
    (`cl_mem_info` -> `mem_info`); a returned value is named after the query
    (`CL_EVENT_COMMAND_TYPE` -> `command_type`); error codes form one group.
    """
    own = {f.name: f for f in extension.functions if not f.foreign}
    names: dict[str, str] = {}
    named: set[str] = set()  # the names given so far (the groups after this one have none yet)
    numbered: dict[str, int] = {}
    made: list[TokenGroup] = []
    for group in extension.token_groups:
        function = group.functions[0] if group.functions else ""
        if group.kind == "error":
            group = replace(group, name=knowledge.error_group, c_type=knowledge.error_type)
        elif group.c_type and not group.parameter:
            group = _typed(group, own, knowledge)
        elif group.kind == "returned" and group.when:
            group = replace(group, name=_query_name(group.when, knowledge))
        elif function in own and group.parameter:
            group = replace(group, name=group.parameter, c_type=_param_type(own[function], group.parameter))
        elif group.parameter:
            core = knowledge.core_functions.get(function)
            c_type = core.param_type(group.parameter) if core else None
            c_type = base_type(c_type) if c_type else None
            group = replace(group, c_type=c_type,
                            name=knowledge.without_api_prefix(c_type) if c_type else group.parameter)
        else:
            group = replace(group, name=_unique(_slug(group.sentence), named, numbered))
        named.add(group.name)
        names[group_key(group)] = group.name
        made.append(group)
    merged: dict[str, TokenGroup] = {}
    for group in made:
        first = merged.setdefault(group.name, group)
        functions = tuple(dict.fromkeys(first.functions + group.functions))
        if functions != first.functions:
            merged[group.name] = replace(first, functions=functions)
    renamed = tuple(token if (name := names.get(token.group or "", token.group)) == token.group
                    else replace(token, group=name) for token in extension.tokens)
    return replace(extension, token_groups=tuple(merged.values()), tokens=renamed)


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


def _typed(group: TokenGroup, own: dict[str, Function], knowledge: Knowledge) -> TokenGroup:
    """A group of enums of one type (the book's New Enums), named: accepted by the parameters of that type, of the
    extension's own functions (the group is named after the parameter) or else of core ones (after the type);
    where no parameter takes the type, its values are returned (a query's answer) and named after the type."""
    assert group.c_type is not None
    takers = [(f.name, p.name) for f in own.values() for p in f.params if p.name and base_type(p.type) == group.c_type]
    if takers:
        return replace(group, name=takers[0][1], functions=tuple(dict.fromkeys(f for f, _ in takers)),
                       parameter=takers[0][1])
    core = [(name, param) for name, f in knowledge.core_functions.items() for param, c_type in f.params
            if base_type(c_type) == group.c_type]
    name = knowledge.without_api_prefix(group.c_type)
    if core:
        return replace(group, name=name, functions=tuple(dict.fromkeys(f for f, _ in core)), parameter=core[0][1])
    return replace(group, name=name, kind="returned")


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
