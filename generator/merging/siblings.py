"""Sibling extensions and the renaming between them.

Two extensions are siblings when their names differ in exactly one part
(`cl_acme_gfx3_interop` and `cl_khr_gfx3_interop`: the vendor; or
`cl_acme_gfx3_interop` and `cl_acme_gfx4_interop`: the API version). What one
calls `clGetDevicesFromGFX3ACME` the other calls `clGetDevicesFromGFX3KHR`:
the renaming is read off the two extension names, nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property, lru_cache

from generator.base.knowledge import Knowledge
from generator.base.records import frozen
from generator.ir.model import Extension, Function


@frozen
class Renaming:
    """How names of extension `source` are spelled in sibling `target`."""

    source: str
    target: str
    old: str  # the differing part of the names
    new: str
    vendor: bool  # the part is the vendor, which stands at the end of names

    def __call__(self, name: str) -> str:
        if self._old not in name.lower():  # most words: nothing to rename
            return name
        if self.vendor:
            for old, new in ((self.old.upper(), self.new.upper()), (self.old, self.new)):
                before = name[: -len(old)][-1:]
                if name.endswith("_" + old) or (name.endswith(old) and (before.islower() or before.isdigit())):
                    return name[: -len(old)] + new
            return name
        return re.sub(re.escape(self.old), lambda m: _same_case(m.group(), self.new), name, flags=re.I)

    @cached_property
    def _old(self) -> str:
        """`old` in lower case, made once: a renaming is asked of thousands of words."""
        return self.old.lower()


def _same_case(model: str, word: str) -> str:
    if model.isupper():
        return word.upper()
    if model.islower():
        return word.lower()
    return word


def renaming(source: str, target: str, knowledge: Knowledge) -> Renaming | None:
    """The renaming from `source` to `target`, or None when they are not siblings."""
    a, b = source.split("_"), target.split("_")
    if len(a) != len(b) or not knowledge.extension_parts(source) or not knowledge.extension_parts(target):
        return None
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differing) != 1:
        return None
    index = differing[0]
    return Renaming(source, target, a[index], b[index], vendor=index == 1)


def siblings(name: str, others: Iterable[str], knowledge: Knowledge) -> list[Renaming]:
    """Renamings from every sibling of `name` among `others` to `name`; same vendor first."""
    index = _by_all_but_one_part(frozenset(others))
    parts = name.split("_")
    candidates = {other for i in range(len(parts)) for other in index.get((i, *parts[:i], *parts[i + 1:]), ())}
    found = [r for other in sorted(candidates) if other != name and (r := renaming(other, name, knowledge))]
    return sorted(found, key=lambda r: (r.vendor, r.source))


@lru_cache(maxsize=4)
def _by_all_but_one_part(names: frozenset[str]) -> dict[tuple[object, ...], list[str]]:
    """Names by each of their parts left out: siblings share one of these keys (a corpus of 200 extensions
    would otherwise compare every name with every other, for every extension)."""
    index: dict[tuple[object, ...], list[str]] = {}
    for name in names:
        parts = name.split("_")
        for i in range(len(parts)):
            index.setdefault((i, *parts[:i], *parts[i + 1:]), []).append(name)
    return index


@frozen
class Relative:
    renaming: Renaming  # sibling names -> ours
    extension: Extension

    def function(self, name: str) -> Function | None:
        """The sibling's first function that is `name` under our names."""
        return self._functions.get(name)

    @cached_property
    def _functions(self) -> dict[str, Function]:
        """The sibling's functions by our names, built once (each step looks many up)."""
        found: dict[str, Function] = {}
        for function in self.extension.functions:
            found.setdefault(self.renaming(function.name), function)
        return found

    def row(self, table: str, key: str) -> tuple[str, ...] | None:
        """The first row keyed `key` under our names of the sibling's first table named `table`."""
        return self._rows.get(table, {}).get(key)

    @cached_property
    def _rows(self) -> dict[str, dict[str, tuple[str, ...]]]:
        found: dict[str, dict[str, tuple[str, ...]]] = {}
        for table in self.extension.tables:
            if table.name not in found:
                rows = found[table.name] = {}
                for row in table.rows:
                    rows.setdefault(self.renaming(row[0]), row)
        return found


def relatives(extension: Extension, merged: dict[str, Extension], knowledge: Knowledge) -> list[Relative]:
    return [Relative(r, merged[r.source]) for r in siblings(extension.name, merged, knowledge)]


def parameter_names(extension: Extension, function: str, knowledge: Knowledge) -> set[str]:
    own = extension.function(function)
    if own is not None:
        return {p.name for p in own.params}
    core = knowledge.core_functions.get(function)
    return {name for name, _ in core.params} if core else set()
