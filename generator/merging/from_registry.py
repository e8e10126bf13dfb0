"""Stage 4 (merge): what a text leaves out and the registry XML gives, each taken with the place it came from.

The prose stays the source of everything it states; the registry only fills in. Token values are filled in
by `merge_tokens`; here, the prototypes of functions a text only names and the definitions of types it uses
but never defines. Without a registry, each gap is a warning saying what is missing and where it would come
from; a registry declaration that is not valid C (the registry has such errata) is one too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TypeVar

from generator.base.c_decl import CTypedef
from generator.base.diagnostics import Location, Sink
from generator.base.errors import InputError
from generator.base.kinds import Kind
from generator.extraction.facts import DeclaredType, SourceFacts
from generator.frontends.registry_xml import Registry
from generator.ir.model import Extension, Function, Param

_T = TypeVar("_T")


def named(extension: Extension, sources: list[SourceFacts], sink: Sink,
          registry: Registry | None) -> tuple[Function, ...]:
    """The functions a summary names without a prototype (and no text declares), with the registry's
    prototype; without one they are left out, with a warning."""
    declared = {f.name for f in extension.functions}
    result: list[Function] = []
    for source in sources:
        for mention in source.named_functions:
            if mention.name in declared:
                continue
            declared.add(mention.name)
            if registry is None or mention.name not in registry.commands:
                where = "the registry XML has no such command" if registry else "no registry XML was given"
                sink.warning(mention.where, Kind.UNPROTOTYPED_FUNCTION, f"{mention.name} is named as a new function, "
                             f"but no text gives its prototype and {where}: it is left out",
                             extension=extension.name)
                continue
            command = registry.commands[mention.name]
            prototype = _parsed(partial(registry.prototype, mention.name), command.where, extension, sink)
            if prototype is None:
                sink.warning(mention.where, Kind.UNPROTOTYPED_FUNCTION, f"{mention.name} is named as a new function, "
                             "but no text gives its prototype and the registry XML's cannot be read as one: it is "
                             "left out", extension=extension.name, related=(command.where,))
                continue
            sink.note(mention.where, Kind.FROM_REGISTRY, f"{mention.name} is named here without a prototype; "
                      "the registry XML's is taken", extension=extension.name,
                      related=(command.where,))
            result.append(Function(prototype.name, prototype.return_type,
                                   tuple(Param(p.name or f"arg{i}", p.type) for i, p in enumerate(prototype.params)),
                                   mention.where, declared_at=(mention.where,), prototype_source=command.where))
    return tuple(result)


def typedef(name: str, registry: Registry | None, used_at: Location, extension: Extension,
            sink: Sink) -> DeclaredType | None:
    """A type the texts use and never define, as the registry defines it; None if it does not (or not in C)."""
    if registry is None or name not in registry.types:
        return None
    where = registry.types[name].where
    found: CTypedef | None = _parsed(partial(registry.typedef, name), where, extension, sink)
    if found is None:
        return None
    sink.note(used_at, Kind.FROM_REGISTRY, f"type {name} is used but never defined in the text; the registry's "
              "definition is taken", extension=extension.name, related=(where,))
    return DeclaredType(found, where)


def _parsed(parse: Callable[[], _T | None], where: Location, extension: Extension, sink: Sink) -> _T | None:
    try:
        return parse()
    except InputError as error:
        sink.warning(where, Kind.REGISTRY_UNREADABLE, f"{error.message}; it is not used", extension=extension.name)
        return None
