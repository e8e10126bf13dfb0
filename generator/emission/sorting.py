"""The orders ruff checks, so that the generated package passes its linter as written: `__all__` sorted
isort-style (RUF022) and imports as ruff's isort sorts and wraps them (I001).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.emission.layout import WIDTH, width

_DIGITS = re.compile(r"(\d+)")


def natural(text: str) -> tuple[str | int, ...]:
    """A natural sort key (`a2` before `a10`): text and numbers alternate, so two keys compare part by part."""
    return tuple(int(part) if index % 2 else part for index, part in enumerate(_DIGITS.split(text)))


def _kind(name: str) -> int:
    """isort's member type: a constant (`CL_X`, two or more characters, all cased ones upper case), a class
    (`Name`), anything else."""
    return 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2


def dunder_all(names: Iterable[str]) -> tuple[str, ...]:
    """`names` in the order ruff wants `__all__` in (RUF022): constants, classes, the rest, each in natural order."""
    return tuple(sorted(set(names), key=lambda name: (_kind(name), natural(name))))


def _member(name: str) -> tuple[object, ...]:
    """isort's key of an imported name: its type, then natural order ignoring case, then with case."""
    return _kind(name), natural(name.lower()), natural(name)


def imports(names: Iterable[tuple[str, str, str | None]]) -> list[str]:
    """The `from <module> import <name> [as <alias>]` statements of (module, name, alias) in the form ruff's isort
    gives them: one statement per module for its names without alias, one per aliased name; ordered by module
    (`from . import` first), then by first name; a statement too long one name per line in parentheses."""
    plain: dict[str, list[str]] = {}
    statements: list[tuple[str, list[str]]] = []
    for module, name, alias in names:
        if alias is None:
            plain.setdefault(module, []).append(name)
        else:
            statements.append((module, [f"{name} as {alias}"]))
    statements += [(module, sorted(set(found), key=_member)) for module, found in plain.items()]

    def key(entry: tuple[str, list[str]]) -> tuple[object, ...]:
        module, found = entry
        name = module.lstrip(".")
        return bool(name), natural(name.lower()), natural(name), _member(found[0].split(" as ")[0])

    out: list[str] = []
    for module, found in sorted(statements, key=key):
        line = f"from {module} import {', '.join(found)}"
        out += [line] if width(line) <= WIDTH else [f"from {module} import (", *(f"    {n}," for n in found), ")"]
    return out
