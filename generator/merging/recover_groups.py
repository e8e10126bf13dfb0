"""Token groups whose sentence lost its parameter, given it back: from the sibling group with the same tokens,
else from the prototype (`merge` runs this over every extension before the groups are named)."""

from __future__ import annotations

import re
from dataclasses import replace

from generator.base import phrases
from generator.base.diagnostics import Sink
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type
from generator.ir.model import Extension, TokenGroup
from generator.merging import textalign
from generator.merging.lookup import group_key
from generator.merging.siblings import Relative, parameter_names, relatives


def groups(extension: Extension, merged: dict[str, Extension], knowledge: Knowledge, sink: Sink) -> Extension:
    """The extension, each group whose sentence lost its parameter given the parameter of the sibling group with
    the same tokens."""
    family = relatives(extension, merged, knowledge)
    ours_by_group = _members(extension)
    indexes: dict[int, dict[str, set[int]]] = {}  # per relative: our name of a token -> where its groups stand
    made = list(extension.token_groups)
    for place, group in enumerate(extension.token_groups):
        if group.kind == "error" or group.parameter is not None or group.c_type is not None:
            continue  # a group headed by its type lost nothing: `merge_tokens` finds what takes the type
        ours = ours_by_group.get(group_key(group), set())
        for number, relative in enumerate(family):
            index = indexes.get(number)
            if index is None:
                index = indexes[number] = _group_index(relative)
            found = _sibling_group(group, ours, relative, index, extension, knowledge)
            if found is not None:
                made[place] = replace(group, parameter=found.parameter, recovered_from=found.source,
                                      sentence=textalign.fill_gaps(group.sentence, found.sentence,
                                                                   relative.renaming)[0])
                break
        else:
            group = made[place] = replace(group, parameter=_parameter_taking(group, extension, knowledge))
            if group.parameter is None:
                sink.warning(group.source, Kind.UNRECOVERED, "the parameter these tokens are passed in was lost "
                             "from the text, and neither a sibling nor the prototype tells which it is",
                             extension=extension.name)
            else:
                sink.note(group.source, Kind.RECOVERED, f"the parameter these tokens are passed in was lost from the "
                          f"text; taken to be <{group.parameter}>, the one of {group.functions[0]} that fits",
                          extension=extension.name)
    return replace(extension, token_groups=tuple(made))


def _members(extension: Extension) -> dict[str | None, set[str]]:
    """The names of each group's tokens, by group key, sorted out once (not once per group)."""
    found: dict[str | None, set[str]] = {}
    for token in extension.tokens:
        found.setdefault(token.group, set()).add(token.name)
    return found


def _group_index(relative: Relative) -> dict[str, set[int]]:
    """Where in the sibling's list of groups each of its tokens (under our name) stands."""
    at: dict[str, list[int]] = {}
    for position, group in enumerate(relative.extension.token_groups):
        at.setdefault(group_key(group), []).append(position)
    index: dict[str, set[int]] = {}
    for token in relative.extension.tokens:
        for position in at.get(token.group or "", ()):
            index.setdefault(relative.renaming(token.name), set()).add(position)
    return index


def _sibling_group(
    group: TokenGroup, ours: set[str], relative: Relative, index: dict[str, set[int]], extension: Extension,
    knowledge: Knowledge,
) -> TokenGroup | None:
    """The sibling's first group with a parameter, one of our tokens, and a parameter our function has."""
    sharing = sorted({position for name in ours for position in index.get(name, ())})
    for position in sharing:
        candidate = relative.extension.token_groups[position]
        if candidate.parameter and candidate.parameter in parameter_names(extension, group.functions[0], knowledge):
            return candidate
    return None


def _parameter_taking(group: TokenGroup, extension: Extension, knowledge: Knowledge) -> str | None:
    """The parameter of the group's function that takes enumerants; the sentence's words break a tie.

    An extension's own function takes them in a type of the extension's own; a core
    function in one of core OpenCL's enumeration typedefs (`cl_mem_info`).
    """
    function = group.functions[0] if group.functions else ""
    own = extension.function(function)
    core = knowledge.core_functions.get(function)
    if own is not None and not own.foreign:
        candidates = [p.name for p in own.params if not knowledge.is_known_type(base_type(p.type))]
    elif core is not None:
        candidates = [n for n, t in core.params if knowledge.core_types.get(base_type(t), {}).get("kind") == "typedef"]
    else:
        return None
    if len(candidates) == 1:
        return candidates[0]
    accepted = phrases.accepted(group.sentence)
    said = {_singular(w) for w in re.findall(r"[a-z]+", accepted.what.lower())} if accepted else set()
    scores = {name: len(said & {_singular(w) for w in name.split("_")}) for name in candidates}
    best = sorted(scores, key=lambda n: -scores[n])
    return best[0] if best and scores[best[0]] and (len(best) == 1 or scores[best[0]] > scores[best[1]]) else None


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") else word
