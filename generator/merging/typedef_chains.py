"""Typedef chains: what a type is made of, followed step by step and refused where it loops or goes too deep.

A spec's typedef may name another of its typedefs (`typedef cl_a_khr cl_b_khr;`), which the generated C
declarations must then declare too, and first. A chain that comes back to where it started defines no type
at all (cffi said only "Missing type in declaration", and the package's own ordering recursed without end);
one that piles up pointer levels past C's limit takes cffi past Python's stack, and so do structs that hold
structs by value past C's limit of nesting. Each walk here is a loop, and each typedef is followed once, however
long the chains.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.base.diagnostics import Location
from generator.base.errors import Gather, InputError
from generator.base.knowledge import CLanguage
from generator.base.type_spelling import base_type
from generator.extraction.facts import DeclaredType


def with_parts(uses: Mapping[str, Location], typedefs: Mapping[str, DeclaredType],
               language: CLanguage) -> dict[str, Location]:
    """`uses` (type -> where it is used) and every named type their typedefs are made of (not C's own, such as
    `unsigned long`), each with the typedef that names it. Input errors at every typedef that closes a loop, or
    whose pointer levels, counted down its chain, pass C's limit."""
    check(typedefs, language.pointer_levels)
    nesting(typedefs, language.struct_nesting)
    found = dict(uses)
    pending = list(found)
    while pending:
        name = pending.pop()
        if name in typedefs:
            target = base_type(typedefs[name].typedef.c_type)
            if target not in found and not language.is_builtin(target):
                found[target] = typedefs[name].where
                pending.append(target)
    return found


def check(typedefs: Mapping[str, DeclaredType], most: int) -> None:
    """Every chain ends in a type that is no typedef of the spec, within `most` pointer levels."""
    levels: dict[str, int] = {}  # the pointer levels of each typedef followed, down its chain
    errors = Gather()
    for start in typedefs:
        path: list[str] = []
        on_path: set[str] = set()
        name = start
        while name in typedefs and name not in levels and name not in on_path:
            path.append(name)
            on_path.add(name)
            name = base_type(typedefs[name].typedef.c_type)
        if name in on_path:
            closing = typedefs[path[-1]]
            links = [*path[path.index(name):], name]
            if len(links) > 6:  # the message stays one readable line
                links = [*links[:3], f"... {len(links) - 5} more ...", *links[-2:]]
            loop = " -> ".join(links)
            errors.add(InputError(closing.where.path, closing.where.pos,
                                  f"typedef {closing.typedef.name} is made of itself ({loop}): it defines no type"))
            levels.update(dict.fromkeys(path, 0))  # reported once, not again from each typedef that leads here
            continue
        below = levels.get(name, 0)
        for link in reversed(path):
            declared = typedefs[link]
            below += declared.typedef.c_type.count("*")
            levels[link] = below
            if below > most:
                errors.add(InputError(declared.where.path, declared.where.pos,
                                      f"typedef {link}: {below} pointer levels, counted through the typedefs it is "
                                      f"made of; C declarations take {most} at most (C17 5.2.4.1)"))
                below = 0  # reported here, not again for each typedef made of it
    errors.check()


def _held(declared: DeclaredType, typedefs: Mapping[str, DeclaredType]) -> list[str]:
    """The spec's typedefs a struct holds by value (members that are no pointer), each followed through the
    typedefs that only rename it."""
    held = []
    for member in declared.typedef.members:
        if "*" in member.type or "(" in member.type:
            continue
        name = base_type(member.type)
        seen: set[str] = set()
        while name in typedefs and not typedefs[name].typedef.members and name not in seen:
            seen.add(name)
            name = base_type(typedefs[name].typedef.c_type) if "*" not in typedefs[name].typedef.c_type else ""
        if name in typedefs:
            held.append(name)
    return held


def nesting(typedefs: Mapping[str, DeclaredType], most: int) -> None:
    """No struct holds structs by value more than `most` deep, nor itself (which no C type can)."""
    depth: dict[str, int] = {}
    errors = Gather()
    for start in (name for name, declared in typedefs.items() if declared.typedef.members):
        if start in depth:
            continue
        stack = [(start, iter(_held(typedefs[start], typedefs)))]
        on_path = [start]
        while stack:
            name, inner = stack[-1]
            nested = next((n for n in inner if n not in depth), None)
            if nested is None:
                stack.pop()
                on_path.pop()
                depth[name] = 1 + max((depth[n] for n in _held(typedefs[name], typedefs)), default=0)
                declared = typedefs[name]
                if depth[name] == most + 1:
                    errors.add(InputError(declared.where.path, declared.where.pos, f"typedef {name}: structs "
                                          f"held by value {depth[name]} deep; C declarations take {most} at most "
                                          "(C17 5.2.4.1)"))
            elif nested in on_path:
                declared = typedefs[name]
                loop = " -> ".join([*on_path[on_path.index(nested):], nested])
                errors.add(InputError(declared.where.path, declared.where.pos, f"typedef {name} holds itself by "
                                      f"value ({loop}): no C type can"))
                depth.update(dict.fromkeys(on_path, 0))  # reported once
                stack.clear()
            else:
                stack.append((nested, iter(_held(typedefs[nested], typedefs))))
                on_path.append(nested)
    errors.check()
