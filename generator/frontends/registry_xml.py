"""The registry XML (`cl.xml`): the token values and prototypes Khronos' headers are made from, as facts.

Since 2020 the prose leaves token values to this file. It is read as untrusted input, with the standard
library's expat and these protections (each tested in `tests/frontends/test_registry_xml.py`):

- no document type declaration at all, so no entity can be declared (no "billion laughs") and none
  refers to another file or a URL (no external entities); the registry has never used one;
- at most `MAX_DEPTH` nested elements (the registry nests 5 deep), at most `MAX_ATTRIBUTES - 1`
  attributes in a tag (it has at most 6);
- the size limit of every spec file (`source.MAX_BYTES`), checked before parsing;
- memory within a few times the file's size, whatever it holds: no tree is built, only an index of where
  each named element starts (`registry_index`), and a record is read again from the text when a name is
  asked for.

Each fault is an input error at its line and column. What is read keeps its line (`Location`), so a value
taken from here is cited like any other fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import field
from typing import NamedTuple

from generator.base import c_decl, integers
from generator.base.c_decl import CDeclaration, CFunction, CTypedef
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.records import frozen
from generator.base.source import SpecFile
from generator.frontends import registry_scan
from generator.frontends.registry_index import Names, Rope, Table, Words
from generator.frontends.registry_reading import (
    MAX_ATTRIBUTES,
    MAX_DEPTH,
    End,
    Source,
    Start,
    Text,
    attributes_at,
    walk,
)
from generator.frontends.registry_scan import Tables

__all__ = ["MAX_ATTRIBUTES", "MAX_DEPTH", "Duplicate", "Registry", "RegistryDeclaration", "RegistryEnum",
           "RegistryExtension", "Required", "read", "recognises"]

#: The start of an XML file: a declaration, a comment, a document type or the registry's root. Any such file is
#: read as the registry (and refused, at its fault, when it is not one): no XML is a spec text.
_XML_START = re.compile(r"^\s*(?:<\?xml\s|<!--|<!DOCTYPE\s|<registry[\s/>])")
#: The most of a declaration a message quotes.
_SHOWN = 200
#: The longest declaration that is parsed (characters, its words joined by single spaces): the registry's longest
#: is about 500. A longer one is not used, and its warning says so: parsed, a declaration of 8 MiB took 450 MiB,
#: and one of a quarter of a million parameters would be bound as such in the package.
MAX_DECLARATION = 16 * 1024


@frozen
class RegistryEnum:
    name: str
    value: int | None  # None: not an integer constant (`SIZE_MAX`, `((cl_x)0 - 1)`, a float)
    literal: str
    group: str | None  # the `<enums name=...>` it is in
    where: Location


@frozen
class RegistryDeclaration:
    """A command's prototype or a type's typedef, as the C text the registry's markup spells out. It is parsed
    only when a text needs it (`Registry.prototype`, `Registry.typedef`): most of the registry never is."""

    name: str
    declaration: str
    where: Location


@frozen
class Required:
    """A name an extension requires, with its `<require>`'s comment: what the names are, often the C type
    of a token group ("cl_platform_info") or "Error codes"."""

    name: str
    kind: str  # "enum", "command" or "type"
    comment: str | None
    where: Location


class _Extent(NamedTuple):
    """Where an extension's element is, for reading what it requires when asked."""

    tables: _Index
    row: int  # in the table of extensions


@frozen
class RegistryExtension:
    name: str
    where: Location
    extent: _Extent = field(repr=False, compare=False)
    depends: str = ""  # what it needs, as the XML writes it: `CL_VERSION_1_2+cl_khr_base`

    @property
    def required(self) -> Iterator[Required]:
        """What it requires, in order, read from the text each time: an extension may require a great many."""
        return self.extent.tables.required(self.extent.row)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(r.name for r in self.required)

    def of_kind(self, kind: str) -> list[Required]:
        return [r for r in self.required if r.kind == kind]

    def requires(self, name: str) -> bool:
        return self.extent.row in self.extent.tables.owners(name)


@frozen
class Duplicate:
    """A name the registry defines twice: the first definition is the one read; `said` is what each says (the
    enum's value, the declaration, the names required), so that two unlike ones are a conflict."""

    kind: str  # "enum", "command", "type", "extension"
    name: str
    first: Location
    second: Location
    said: tuple[str, str]

    @property
    def conflicting(self) -> bool:
        return self.said[0] != self.said[1]

    def shown(self, which: int) -> str:
        """What definition `which` says, as a message quotes it."""
        said = self.said[which]
        return said if len(said) <= _SHOWN else f"{said[:_SHOWN]}... ({len(said)} characters)"


@frozen
class Registry:
    spec: SpecFile = field(repr=False, compare=False)
    enums: Names[RegistryEnum]
    commands: Names[RegistryDeclaration]
    types: Names[RegistryDeclaration]  # the typedefs (`category="define"`) and the structs
    extensions: Names[RegistryExtension]
    index: _Index = field(repr=False, compare=False)
    #: Where the project's own copy comes from (`base/shipped_registry.py`), when the run leans on it: it was not
    #: given, so that it lacks an extension is no fault of the input.
    shipped: str | None = field(default=None, compare=False)

    @property
    def path(self) -> str:
        return self.spec.path

    def duplicates(self) -> Iterator[Duplicate]:
        """Each later definition of a name against its first, kind by kind: only the elements whose names share a
        hash are read again, one run of them at a time (none is kept)."""
        tables: tuple[tuple[str, Names[RegistryEnum] | Names[RegistryDeclaration] | Names[RegistryExtension]], ...] = (
            ("type", self.types), ("enum", self.enums), ("command", self.commands), ("extension", self.extensions))
        for kind, names in tables:
            for run in names.table.runs():
                if len(run) < 2:
                    continue
                firsts: dict[str, RegistryEnum | RegistryDeclaration | RegistryExtension] = {}
                for row in sorted(run):
                    record = names.make(row)
                    first = firsts.setdefault(record.name, record)
                    if first is not record:
                        yield Duplicate(kind, record.name, first.where, record.where, (_said(first), _said(record)))

    def requiring(self, name: str) -> list[RegistryExtension]:
        """The extensions that require `name`, in the registry's order."""
        found = (self.index.extension(row) for row in sorted(self.index.owners(name)))
        return [e for e in found if self.extensions.get(e.name) == e]  # not a later one of the same name

    def prototype(self, name: str) -> CFunction | None:
        """The command's prototype, parsed as a text's would be; an input error at its line if not valid C."""
        command = self.commands.get(name)
        if command is None:
            return None
        parsed = self._parse(command)
        return parsed if isinstance(parsed, CFunction) else None

    def typedef(self, name: str) -> CTypedef | None:
        declared = self.types.get(name)
        if declared is None:
            return None
        parsed = self._parse(declared)
        return parsed if isinstance(parsed, CTypedef) and parsed.name == name else None

    def _parse(self, declared: RegistryDeclaration) -> CDeclaration | None:
        shown = declared.declaration if len(declared.declaration) <= _SHOWN else \
            f"{declared.declaration[:_SHOWN]}... ({len(declared.declaration)} characters)"
        if len(declared.declaration) > MAX_DECLARATION:
            raise InputError(self.path, declared.where.pos, f"the registry's declaration of {declared.name} "
                             f"(`{shown}`) is longer than the {MAX_DECLARATION} characters a declaration is read at")
        try:
            found = c_decl.parse(declared.declaration, self.spec, declared.where.pos)
        except InputError as error:
            raise InputError(self.path, declared.where.pos, f"the registry's declaration of {declared.name} "
                             f"(`{shown}`) is not valid C: {error.message}") from None
        return found[0] if len(found) == 1 else None


def _said(item: RegistryEnum | RegistryDeclaration | RegistryExtension) -> str:
    """What a definition says, in the words a message shows."""
    if isinstance(item, RegistryEnum):
        return item.literal
    if isinstance(item, RegistryDeclaration):
        return item.declaration
    return ", ".join(sorted(item.names)) or "nothing"


def recognises(text: str) -> bool:
    """Whether a file is XML, to be read as the registry: by its content, whatever its name."""
    return _XML_START.match(text) is not None


def read(spec: SpecFile) -> Registry:
    index = _Index(registry_scan.scan(Source(spec)))
    return Registry(spec, Names(index.source, index.enums, index.enum),
                    Names(index.source, index.commands, index.command),
                    Names(index.source, index.types, index.type),
                    Names(index.source, index.extensions, index.extension), index)


class _Index:
    """The registry's tables (`registry_scan.Tables`), and the record of a row, read again from the text."""

    def __init__(self, tables: Tables) -> None:
        self.source = tables.source
        self.enums, self.commands, self.types = tables.enums, tables.commands, tables.types
        self.extensions, self.requires = tables.extensions, tables.requires

    def where(self, table: Table, row: int) -> Location:
        return Location(self.source.spec.path, table.pos(row))

    def enum(self, row: int) -> RegistryEnum:
        attributes = attributes_at(self.source, self.enums.starts[row])
        literal = f"(1 << {attributes['bitpos']})" if "bitpos" in attributes else attributes["value"]
        try:
            value: int | None = integers.value(literal)
        except integers.LiteralError:
            value = None  # a float, a macro or an expression: the name is the registry's, its value no token's
        group = attributes_at(self.source, self.enums.parents[row]).get("name")
        return RegistryEnum(attributes["name"], value, literal, group, self.where(self.enums, row))

    def command(self, row: int) -> RegistryDeclaration:
        """The prototype its `<proto>` (the first) and `<param>`s spell out, named by the `<proto>`'s `<name>`."""
        proto, name, params, param = Words(), Rope(), Rope(), Words()
        inside = ""  # "proto", "name" (the proto's first) or "param": the text read into a rope
        protos = count = 0
        named = False
        for event in walk(self.source, self.commands.starts[row], self.commands.pos(row)):
            if isinstance(event, Start) and event.depth == 1:
                protos += event.tag == "proto"
                inside = "param" if event.tag == "param" else "proto" if event.tag == "proto" and protos == 1 else ""
                param = Words()
            elif isinstance(event, Start) and event.depth == 2 and inside == "proto" and event.tag == "name" \
                    and not named:
                inside, named = "name", True
            elif isinstance(event, End) and event.depth == 2 and inside == "name":
                inside = "proto"
            elif isinstance(event, End) and event.depth == 1:
                if inside == "param":
                    params.add(f"{', ' if count else ''}{param}")
                    count += 1
                inside = ""
            elif isinstance(event, Text):
                for rope in {"proto": (proto,), "name": (proto, name), "param": (param,)}.get(inside, ()):
                    rope.add(event.data)
        return RegistryDeclaration(str(name).strip(), f"{proto}({str(params) or 'void'});",
                                   self.where(self.commands, row))

    def type(self, row: int) -> RegistryDeclaration:
        """A `typedef` the registry spells out (its words), or a struct with its members."""
        words, name, members, member = Words(), Rope(), Rope(), Words()
        attributes: dict[str, str] = {}
        inside = ""  # "name" (the first) or "member": the text read into a rope beside `words`
        names = 0
        for event in walk(self.source, self.types.starts[row], self.types.pos(row)):
            if isinstance(event, Start) and event.depth == 0:
                attributes = event.attributes
            elif isinstance(event, Start) and event.depth == 1:
                names += event.tag == "name"
                inside = "member" if event.tag == "member" else "name" if event.tag == "name" and names == 1 else ""
                member = Words()
            elif isinstance(event, End) and event.depth == 1:
                if inside == "member":
                    members.add(f"{' ' if members else ''}{member};")
                inside = ""
            elif isinstance(event, Text):
                words.add(event.data)
                for rope in {"name": (name,), "member": (member,)}.get(inside, ()):
                    rope.add(event.data)
        called = attributes.get("name") or str(name).strip()
        if attributes.get("category") == "struct":
            return RegistryDeclaration(called, f"typedef struct {called} {{ {members} }} {called};",
                                       self.where(self.types, row))
        return RegistryDeclaration(called, str(words), self.where(self.types, row))

    def extension(self, row: int) -> RegistryExtension:
        attributes = attributes_at(self.source, self.extensions.starts[row])
        return RegistryExtension(attributes["name"], self.where(self.extensions, row), _Extent(self, row),
                                 attributes.get("depends", ""))

    def required(self, row: int) -> Iterator[Required]:
        in_require, comment = False, None
        for event in walk(self.source, self.extensions.starts[row], self.extensions.pos(row)):
            if isinstance(event, Start) and event.depth == 1:
                in_require, comment = event.tag == "require", event.attributes.get("comment")
            elif isinstance(event, Start) and event.depth == 2 and in_require and "name" in event.attributes:
                yield Required(event.attributes["name"], event.tag, comment,
                               Location(self.source.spec.path, event.pos))

    def owners(self, name: str) -> set[int]:
        """The rows of the extensions that require `name`."""
        return {self.requires.owners[row] for row in self.requires.rows(name)
                if attributes_at(self.source, self.requires.starts[row]).get("name") == name}
