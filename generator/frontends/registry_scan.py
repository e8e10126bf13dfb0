"""The first and only reading of the whole registry XML: each named element's row in its table, and the first
fault of the registry's own (an enum without a name, a command without a prototype, a parameter without a name),
raised once the file is known to be well-formed XML.

What a row holds and how a name finds it is `registry_index`'s; `registry_xml` reads a row's record again from
where its element starts.
"""

from __future__ import annotations

from generator.base.errors import InputError
from generator.base.source import Pos
from generator.frontends import registry_reading
from generator.frontends.registry_index import Rope, Table, Typedef
from generator.frontends.registry_reading import Here, Source, Start


class Tables:
    """A table per kind of named element, and the `requires` of each extension (its row the owner)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.enums, self.commands, self.types, self.extensions, self.requires = (Table() for _ in range(5))

    def all(self) -> tuple[Table, ...]:
        return self.enums, self.commands, self.types, self.extensions, self.requires


def scan(source: Source) -> Tables:
    """The tables of the file, each row sorted and its places settled; an input error at the first fault."""
    source.refuse_many_attributes()
    reading = _Scan(source)
    registry_reading.read_whole(source, reading)
    return reading.finish()


class _Scan:
    """The reading of the whole file (`registry_reading.Reading`): the tables filled as its events come."""

    def __init__(self, source: Source) -> None:
        self.index = Tables(source)
        self.root = ""
        self.section = ""  # the tag of the root's child the reading is in
        self.section_start = 0
        self.item: Start | None = None  # the section's child the reading is in
        self.fault: InputError | None = None
        self.inside = ""  # where in the item the text goes: "proto", "name", "param", "require"
        self.name = Rope()
        self.protos = self.names = 0
        self.unnamed_param: Pos | None = None
        self.param_named = True
        self.param_pos = Pos(1, 1)
        self.typedef = Typedef()
        self.extension = -1  # the row of the extension read, -1 for one without a name
        self.require_start = 0

    def fail(self, pos: Pos, message: str) -> None:
        if self.fault is None:
            self.fault = self.index.source.spec.error(pos, message)

    def text(self, depth: int, data: str) -> None:
        if self.inside == "name":
            self.name.add(data)
        if self.item is not None and self.section == "types":
            self.typedef.add(data)

    def end(self, depth: int, tag: str) -> None:
        if depth == 2:
            self.finish_item()
        elif depth == 3:
            if self.inside == "param" and not self.param_named and self.unnamed_param is None:
                self.unnamed_param = self.param_pos
            self.inside = ""
        elif depth == 4 and self.inside == "name" and self.section == "commands":
            self.inside = "proto"

    def start(self, depth: int, tag: str, attributes: dict[str, str], here: Here) -> None:
        if depth == 0:
            self.root = tag
        elif depth == 1:
            self.section, self.section_start = tag, here.offset()
        elif depth == 2:
            self.begin_item(tag, attributes, here)
        elif depth == 3 and self.item is not None:
            self.inside = ""
            if self.section == "commands" and tag == "proto":
                self.protos += 1
                self.inside = "proto" if self.protos == 1 else ""
            elif self.section == "commands" and tag == "param":
                self.inside, self.param_named, self.param_pos = "param", False, here.pos()
            elif self.section == "types" and tag == "name":
                self.names += 1
                self.inside = "name" if self.names == 1 else ""
            elif self.section == "extensions" and tag == "require":
                self.inside, self.require_start = "require", here.offset()
        elif depth == 4 and self.item is not None:
            if self.inside == "proto" and tag == "name" and not self.names:
                self.names, self.inside = 1, "name"
            elif self.inside == "param" and tag == "name":
                self.param_named = True
            elif self.inside == "require" and self.extension >= 0 and "name" in attributes:
                self.index.requires.add(attributes["name"], here.offset(), here.pos(), self.require_start,
                                        self.extension)

    def begin_item(self, tag: str, attributes: dict[str, str], here: Here) -> None:
        self.item, self.inside, self.name = None, "", Rope()
        self.protos = self.names = 0
        self.unnamed_param = None
        self.typedef = Typedef()
        if self.section == "enums" and tag == "enum":
            if "name" not in attributes:
                self.fail(here.pos(), "an <enum> without a name")
            elif "bitpos" in attributes or "value" in attributes:  # else an alias or a reference: no value
                self.index.enums.add(attributes["name"], here.offset(), here.pos(), self.section_start)
        elif self.section == "extensions" and tag == "extension":
            self.extension = len(self.index.extensions) if "name" in attributes else -1
            if "name" in attributes:
                self.index.extensions.add(attributes["name"], here.offset(), here.pos())
            self.item = Start(2, tag, attributes, here.pos(), here.offset())
        elif (self.section, tag) in (("commands", "command"), ("types", "type")):
            self.item = Start(2, tag, attributes, here.pos(), here.offset())

    def finish_item(self) -> None:
        item, self.item, self.inside = self.item, None, ""
        if item is None or self.section == "extensions":
            return
        if self.section == "commands":
            name = str(self.name).strip()
            if not self.protos or not self.names:
                self.fail(item.pos, "a <command> without a <proto> that names it")
            elif self.unnamed_param is not None:
                self.fail(self.unnamed_param, "a <param> without a <name>")
            else:
                self.index.commands.add(name, item.offset, item.pos)
            return
        category = item.attributes.get("category")
        name = item.attributes.get("name") or str(self.name).strip()
        if name and (category == "struct" or (category == "define" and self.typedef.answer)):
            self.index.types.add(name, item.offset, item.pos)

    def finish(self) -> Tables:
        spec = self.index.source.spec
        if self.root != "registry":
            raise spec.error(Pos(1, 1), "an XML file whose root is not <registry>: not the registry XML")
        if self.fault is not None:
            raise self.fault
        tables = self.index.all()
        self.index.source.settle([places for table in tables for places in (table.starts, table.parents)])
        for table in tables:
            table.finish()
        return self.index
