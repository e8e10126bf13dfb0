"""What the spec build makes from the registry XML and the book includes: the attribute dictionary and the
prototypes, each line citing the XML element it comes from.

The build's dictionary writes a name for `{NAME}` (a command, enum or type), `{NAME_anchor}` and `{NAME_label}`
(the same, with an anchor or as a label), `{NAME_TYPE}` (a type) and `{NAME_EXT}` (an extension). Here each
entry's value is the bare name, the text a reader sees.
"""

from __future__ import annotations

import re

from generator.base.diagnostics import Location
from generator.frontends.registry_xml import Registry

#: The suffixes of the build's attribute names, and which of the registry's kinds each may name.
_SUFFIXES = (("_anchor", "any"), ("_label", "any"), ("_TYPE", "type"), ("_EXT", "extension"))
REFERENCE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def defined(registry: Registry, reference: str) -> tuple[str, Location] | None:
    """The name `{reference}` stands for and where the XML defines it, or None when the XML defines none."""
    for suffix, kind in _SUFFIXES:
        if reference.endswith(suffix):
            found = _element(registry, reference[: -len(suffix)], kind)
            if found is not None:
                return found
    return _element(registry, reference, "any")


def _element(registry: Registry, name: str, kind: str) -> tuple[str, Location] | None:
    if kind == "extension":
        extension = registry.extensions.get(name)
        return None if extension is None else (name, extension.where)
    for table in (registry.commands, registry.enums, registry.types) if kind == "any" else (registry.types,):
        element = table.get(name)
        if element is not None:
            return name, element.where
    return None


def prototype(registry: Registry, name: str) -> tuple[list[str], Location] | None:
    """The lines of a listing that declares command `name` as the XML does, or None when it declares none."""
    command = registry.commands.get(name)
    if command is None:
        return None
    return ["[source,c]", "----", command.declaration, "----"], command.where
