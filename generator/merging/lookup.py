"""Looking up the front half's records by what names them.

The records are `ir.model`'s, frozen; `Extension.function` and `Extension.token` find one by name (each an index
built once per record). A stage that amends functions keeps them in a list while it works and finds them by
place (`first_places`), so that each step finds the function as the steps before it left it.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.base.diagnostics import Location
from generator.ir.model import Extension, Function, TokenGroup


def unsuffixed(extension: Extension, name: str) -> Function | None:
    """The extension's own function `name` is written for without the vendor's suffix (a slip of texts)."""
    found = extension.function(name + extension.vendor)
    return found if found is not None and not found.foreign and extension.function(name) is None else None


def first_places(functions: Iterable[Function]) -> dict[str, int]:
    """Where in `functions` the first of each name stands."""
    found: dict[str, int] = {}
    for place, function in enumerate(functions):
        found.setdefault(function.name, place)
    return found


def group_key(group: TokenGroup) -> str:
    """How tokens refer to a group until it is named (`merge_tokens.name_groups`): the place of its sentence."""
    return place_key(group.source)


def place_key(where: Location) -> str:
    return f"{where.path}:{where.pos.line}:{where.pos.column}"
