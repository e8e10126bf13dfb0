"""The registry XML (`cl.xml`): the token values and prototypes Khronos' headers are made from, as facts.

Since 2020 the prose leaves token values to this file. It is read as untrusted input, with the standard
library's expat and these protections (each tested in `tests/frontends/test_registry_xml.py`):

- no document type declaration at all, so no entity can be declared (no "billion laughs") and none
  refers to another file or a URL (no external entities); the registry has never used one;
- at most `MAX_DEPTH` nested elements (the registry nests 5 deep);
- the size limit of every spec file (`source.MAX_BYTES`), checked before parsing.

Each fault is an input error at its line and column. What is read keeps its line (`Location`), so a value
taken from here is cited like any other fact.
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import TypeVar
from xml.parsers import expat

from generator.base import c_decl, integers
from generator.base.c_decl import CDeclaration, CFunction, CTypedef
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.records import frozen, mutable
from generator.base.source import Pos, SpecFile

MAX_DEPTH = 32
#: The start of an XML file: a declaration, a comment, a document type or the registry's root. Any such file is
#: read as the registry (and refused, at its fault, when it is not one): no XML is a spec text.
_XML_START = re.compile(r"^\s*(?:<\?xml\s|<!--|<!DOCTYPE\s|<registry[\s/>])")


@mutable
class _Element:
    tag: str
    attributes: dict[str, str]
    where: Location
    children: list[_Element] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # the element's own text and that of its children, in order

    def all_text(self) -> str:
        return "".join(self.text)

    def find(self, tag: str) -> _Element | None:
        return next((c for c in self.children if c.tag == tag), None)


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


@frozen
class RegistryExtension:
    name: str
    required: tuple[Required, ...]
    where: Location

    @property
    def names(self) -> frozenset[str]:
        return frozenset(r.name for r in self.required)

    def of_kind(self, kind: str) -> list[Required]:
        return [r for r in self.required if r.kind == kind]


@frozen
class Duplicate:
    """A name the registry defines twice: the first definition is the one kept; `said` is what each says (the
    enum's value, the declaration, the names required), so that two unlike ones are a conflict."""

    kind: str  # "enum", "command", "type", "extension"
    name: str
    first: Location
    second: Location
    said: tuple[str, str]

    @property
    def conflicting(self) -> bool:
        return self.said[0] != self.said[1]


@frozen
class Registry:
    spec: SpecFile = field(repr=False, compare=False)
    enums: dict[str, RegistryEnum]
    commands: dict[str, RegistryDeclaration]
    types: dict[str, RegistryDeclaration]  # the typedefs (`category="define"`) and the structs
    extensions: dict[str, RegistryExtension]
    duplicates: tuple[Duplicate, ...] = ()  # names defined twice, met while reading (`registry_check.duplicates`)

    @property
    def path(self) -> str:
        return self.spec.path

    def requiring(self, name: str) -> list[RegistryExtension]:
        """The extensions that require `name`, in the registry's order."""
        return [e for e in self.extensions.values() if name in e.names]

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
        try:
            found = c_decl.parse(declared.declaration, self.spec, declared.where.pos)
        except InputError as error:
            raise InputError(self.path, declared.where.pos, f"the registry's declaration of {declared.name} "
                             f"(`{declared.declaration}`) is not valid C: {error.message}") from None
        return found[0] if len(found) == 1 else None


def recognises(text: str) -> bool:
    """Whether a file is XML, to be read as the registry: by its content, whatever its name."""
    return _XML_START.match(text) is not None


def read(spec: SpecFile) -> Registry:
    root = _parse(spec)
    enums: dict[str, RegistryEnum] = {}
    commands: dict[str, RegistryDeclaration] = {}
    types: dict[str, RegistryDeclaration] = {}
    extensions: dict[str, RegistryExtension] = {}
    duplicates: list[Duplicate] = []
    for part in root.children:
        if part.tag == "types":
            for element in (c for c in part.children if c.tag == "type"):
                if (declared := _type(element)) is not None:
                    _keep(types, declared, "type", duplicates)
        elif part.tag == "enums":
            for enum in (c for c in part.children if c.tag == "enum"):
                found = _enum(enum, part.attributes.get("name"), spec)
                if found is not None:
                    _keep(enums, found, "enum", duplicates)
        elif part.tag == "commands":
            for command in (c for c in part.children if c.tag == "command"):
                _keep(commands, _command(command, spec), "command", duplicates)
        elif part.tag == "extensions":
            for extension in (c for c in part.children if c.tag == "extension" and "name" in c.attributes):
                required = tuple(Required(r.attributes["name"], r.tag, require.attributes.get("comment"), r.where)
                                 for require in extension.children if require.tag == "require"
                                 for r in require.children if "name" in r.attributes)
                name = extension.attributes["name"]
                _keep(extensions, RegistryExtension(name, required, extension.where), "extension", duplicates)
    return Registry(spec, enums, commands, types, extensions, tuple(duplicates))


_T = TypeVar("_T", RegistryEnum, RegistryDeclaration, RegistryExtension)


def _keep(table: dict[str, _T], item: _T, kind: str, duplicates: list[Duplicate]) -> None:
    """`item` under its name, unless the name is taken: then the first stays, and the second is a `Duplicate`."""
    first = table.setdefault(item.name, item)
    if first is not item:
        duplicates.append(Duplicate(kind, item.name, first.where, item.where, (_said(first), _said(item))))


def _said(item: object) -> str:
    """What a definition says, in the words a message shows."""
    if isinstance(item, RegistryEnum):
        return item.literal
    if isinstance(item, RegistryDeclaration):
        return item.declaration
    assert isinstance(item, RegistryExtension)
    return ", ".join(sorted(item.names)) or "nothing"


def _enum(element: _Element, group: str | None, spec: SpecFile) -> RegistryEnum | None:
    name = element.attributes.get("name")
    if name is None:
        raise spec.error(element.where.pos, "an <enum> without a name")
    if "bitpos" in element.attributes:
        literal = f"(1 << {element.attributes['bitpos']})"
    elif "value" in element.attributes:
        literal = element.attributes["value"]
    else:
        return None  # an alias or a reference: no value of its own
    try:
        value: int | None = integers.value(literal)
    except integers.LiteralError:
        value = None  # a float, a macro or an expression: the name is the registry's, its value no token's
    return RegistryEnum(name, value, literal, group, element.where)


def _command(element: _Element, spec: SpecFile) -> RegistryDeclaration:
    proto = element.find("proto")
    name = proto.find("name") if proto else None
    if proto is None or name is None:
        raise spec.error(element.where.pos, "a <command> without a <proto> that names it")
    params = []
    for param in (c for c in element.children if c.tag == "param"):
        if param.find("name") is None:
            raise spec.error(param.where.pos, "a <param> without a <name>")
        params.append(_words(param))
    declaration = f"{_words(proto)}({', '.join(params) or 'void'});"
    return RegistryDeclaration(name.all_text().strip(), declaration, element.where)


def _type(element: _Element) -> RegistryDeclaration | None:
    """A `typedef` the registry spells out, or a struct with its members; the other categories (includes, base
    types, `#define`s) declare nothing a binding takes from here."""
    name = element.attributes.get("name") or (found.all_text().strip() if (found := element.find("name")) else "")
    if element.attributes.get("category") == "struct" and name:
        members = " ".join(f"{_words(m)};" for m in element.children if m.tag == "member")
        return RegistryDeclaration(name, f"typedef struct {name} {{ {members} }} {name};", element.where)
    text = _words(element)
    if element.attributes.get("category") == "define" and text.startswith("typedef ") and name:
        return RegistryDeclaration(name, text, element.where)
    return None


def _words(element: _Element) -> str:
    return " ".join(element.all_text().split())


def _parse(spec: SpecFile) -> _Element:
    """The element tree, each element with its line; every protection of the module's docstring applied."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Element] = []
    roots: list[_Element] = []

    def here() -> Pos:
        return Pos(parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)

    def refuse(message: str) -> None:
        raise spec.error(here(), message)

    def start(tag: str, attributes: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            refuse(f"elements nest more than {MAX_DEPTH} deep here; the registry nests 5 deep")
        element = _Element(tag, attributes, Location(spec.path, here()))
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        for element in stack:
            element.text.append(data)

    def doctype(*_: object) -> None:
        line = parser.CurrentLineNumber
        start = spec.text.split("\n", line)[line - 1].find("<!DOCTYPE")  # the error at the declaration's start
        column = start + 1 if start >= 0 else parser.CurrentColumnNumber + 1
        raise spec.error(Pos(line, column), "a document type declaration: the registry has none, and entities "
                         "are not read (they could expand without end or fetch other files)")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.ExternalEntityRefHandler = lambda *_: refuse("a reference to an external entity")  # type: ignore[assignment]
    try:
        parser.Parse(spec.text, True)
    except expat.ExpatError as error:
        raise InputError(spec.path, Pos(error.lineno, error.offset + 1),
                         f"not well-formed XML: {expat.ErrorString(error.code)}") from None
    if len(roots) != 1 or roots[0].tag != "registry":
        raise spec.error(Pos(1, 1), "an XML file whose root is not <registry>: not the registry XML")
    return roots[0]
