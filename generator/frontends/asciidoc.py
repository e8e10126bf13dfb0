"""Front-end for the AsciiDoc sources of the Khronos specifications (`grammar/asciidoc.lark`).

Both AsciiDoc forms are read: the 2017 one (`*function*`, names written out) and the current one, whose names
are attribute references (`{clFoo}`), whose body prototypes are includes of files the spec build generates,
and whose error lists nest (`* {CL_X}` then `** if ...`). What the build would add (an included file) is not
here to read: each include is reported, and one that stands for a prototype the text declares elsewhere
gets that prototype in its place.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lark import Token, Tree

from generator.base import grammars
from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.frontends.asciidoc_inline import Attributes, ExpansionError, attribute_entry, inline
from generator.frontends.asciidoc_listing import listing
from generator.frontends.asciidoc_table import table
from generator.frontends.common import Format
from generator.frontends.document import Block, Document, Heading, ListItem, Omission, Paragraph, Prototype

FORMAT = "asciidoc"

#: AsciiDoc's titles, anchors, table delimiters, source listings, attribute entries and preprocessor lines.
_MARKS = re.compile(r"^(={1,6} \S.*|\[\[[^\]\n]+\]\]|\|={3,}|\[source(?:,[^\]\n]*)?\]|\[cols=.*"
                    r"|:[A-Za-z][\w-]*+!?:(?: .*)?|(?:ifn?def|endif|include)::[^\[\n]*\[.*\])[ \t]*$", re.M)


def _marks(text: str) -> int:
    """Lines of AsciiDoc's own markup, which the plain-text formats do not write."""
    return len(_MARKS.findall(text))


DETECTION = Format(FORMAT, 3, _marks, "AsciiDoc titles, anchors, tables, listings, attribute entries and include lines")

_BULLET = re.compile(r"^\s*(\*+|\.+|-)\s+")
#: An item that is only an error code (`* {CL_X}`): its sub-items are its conditions.
_CODE_ONLY = re.compile(r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+):?")
#: What joins one sub-item to the next (`..., or`): list glue, not part of the condition.
_GLUE = (", or", " or", ", and", " and", ",", ";")
#: The attributes of a reference page's open block: `[open,refpage='clFoo',desc='...',type='protos']`.
_REFPAGE = re.compile(r"^\[open,(?:[^\]]*,)?refpage='(?P<name>[A-Za-z_]\w*)'")
#: `include::target[...]` alone on its line, as the grammar drops it.
_INCLUDE = re.compile(r"^include::([^\[\n]*+)\[[^\n]*\][ \t]*+$", re.M)


@frozen
class _Open:
    """A list item whose sub-items may follow: its marker, and its code when it is nothing but one."""

    marker: tuple[str, int]
    code: str | None
    pos: Pos
    has_items: bool = False


def parse(spec: SpecFile) -> Document:
    text = spec.text if spec.text.endswith("\n") else spec.text + "\n"
    reader = _Reader(spec)
    for node in grammars.parse("asciidoc", text, spec).children:
        reader.read(node)
    reader.close_lists()
    blocks, remarks = _includes(text, reader.blocks)
    return Document(spec.path, FORMAT, tuple(blocks), omissions=tuple(remarks))


class _Reader:
    """The walk over the parse tree, in text order: attributes defined so far, block attributes and the
    anchor waiting for their block, and the list items still open for sub-items."""

    def __init__(self, spec: SpecFile) -> None:
        self.spec = spec
        self.attributes = Attributes()
        self.block_attributes: list[str] = []
        self.anchor: str | None = None
        self.open: list[_Open] = []
        self.blocks: list[Block] = []
        self.level = 0  # the last title's

    def read(self, node: Tree[Token] | Token) -> None:
        try:
            self.node(node)
        except ExpansionError as error:
            line = node.line if isinstance(node, Token) else node.meta.line
            raise self.spec.error(Pos(line or 1, 1), str(error)) from None

    def node(self, node: Tree[Token] | Token) -> None:
        if isinstance(node, Token):
            if node.type == "ATTRIBUTE_ENTRY":
                attribute_entry(str(node), self.attributes)
            elif node.type == "ANCHOR":
                self.anchor = str(node).strip()[2:-2].split(",")[0].strip() or None
            elif page := _REFPAGE.match(str(node)):  # a reference page: a section on one function
                self.close_lists()
                self.blocks.append(Heading(page["name"], self.level + 1, Pos(node.line or 1, 1), self.anchor))
            else:  # ATTRIBUTES: they apply to the next block
                self.block_attributes.append(str(node).strip())
            return
        if node.data == "list":
            self.items(node)
        else:
            self.close_lists()
            self.blocks.extend(self.block(node))
        self.block_attributes = []
        self.anchor = None

    def block(self, node: Tree[Token]) -> list[Block]:
        lines = [token for token in node.scan_values(lambda v: isinstance(v, Token))]
        pos = Pos(node.meta.line, 1)
        if node.data == "title":
            marks, _, title = str(lines[0]).strip().partition(" ")
            self.level = len(marks) - 1
            return [Heading(inline(title, self.attributes), self.level, pos, self.anchor)]
        if node.data == "paragraph":
            return [Paragraph(inline(" ".join(lines), self.attributes), pos)]
        if node.data == "listing":
            return listing(_code(lines, node.meta.line + 1), self.spec, Pos(node.meta.line + 1, 1))
        return [table(lines, " ".join(self.block_attributes), pos, self.spec,
                      lambda text: inline(text, self.attributes))]

    # -- lists ----------------------------------------------------------------

    def items(self, node: Tree[Token]) -> None:
        """Each item a ListItem; a sub-item of an item that is only a code is a condition of that code.

        AsciiDoc nests an item under the nearest open item of another marker, and a list goes on over blank
        lines, so the open items are kept from one list node to the next.
        """
        for item in node.children:
            if not isinstance(item, Tree):
                continue
            words = [str(token) for token in item.children if isinstance(token, Token)]
            bullet = _BULLET.match(words[0])
            marker = bullet.group(1) if bullet else "-"
            key = (marker[0], len(marker))
            text = inline(_BULLET.sub("", " ".join(words)), self.attributes)
            pos = Pos(item.meta.line, 1)
            sibling = next((i for i, o in enumerate(self.open) if o.marker == key), None)
            if sibling is not None:
                self.close_lists(sibling)
            parent = self.open[-1] if self.open else None
            if parent is not None and parent.code is not None:
                self.open[-1] = replace(parent, has_items=True)
                text = f"{parent.code} {_without_glue(text)}"
            code = _CODE_ONLY.fullmatch(text)
            self.open.append(_Open(key, code.group(1) if code else None, pos))
            if code is None:
                self.blocks.append(ListItem(text, pos))

    def close_lists(self, down_to: int = 0) -> None:
        """Close the open items from `down_to` on; an item that was only a code and got no sub-items is an
        item of its own after all."""
        for item in reversed(self.open[down_to:]):
            if item.code is not None and not item.has_items:
                self.blocks.append(ListItem(item.code, item.pos))
        del self.open[down_to:]


def _code(lines: list[Token], first: int) -> str:
    """A listing's text, with an empty line where the grammar dropped a preprocessor line, so that every
    line of the code keeps its number."""
    out: list[str] = []
    line = first
    for token in lines:
        at = token.line or line
        out.append("\n" * max(0, at - line))
        out.append(str(token))
        line = at + 1
    return "".join(out)


def _without_glue(text: str) -> str:
    for glue in _GLUE:
        if text.endswith(glue):
            return text[: -len(glue)].rstrip()
    return text


def _includes(text: str, blocks: list[Block]) -> tuple[list[Block], list[Omission]]:
    """Every include reported; one whose file is named after a function the text declares stands for that
    function's prototype (the spec build generates the file from the same declaration), which is put there."""
    prototypes: dict[str, Prototype] = {}
    for block in blocks:
        if isinstance(block, Prototype):
            prototypes.setdefault(block.function.name, block)
    remarks: list[Omission] = []
    stand_ins: list[Prototype] = []
    line, counted = 1, 0  # lines counted once, from one include to the next
    for match in _INCLUDE.finditer(text):
        target = match.group(1).strip()
        line, counted = line + text.count("\n", counted, match.start()), match.start()
        pos = Pos(line, 1)
        name = target.rsplit("/", 1)[-1].split(".", 1)[0]
        declared = prototypes.get(name)
        if declared is not None:
            stand_ins.append(Prototype(declared.function, pos))
            remarks.append(Omission(pos, Kind.INCLUDE, f"include::{target}[] is not read: it stands for the "
                                  f"prototype of {name}, which is read from line {declared.pos.line} instead"))
        else:
            remarks.append(Omission(pos, Kind.INCLUDE, f"include::{target}[] is not read: the generator reads each "
                                  f"spec file alone, so what {target} holds is not in the IR"))
    return _merged(blocks, stand_ins), remarks


def _merged(blocks: list[Block], stand_ins: list[Prototype]) -> list[Block]:
    """The stand-in prototypes put among the blocks by their lines (both lists are in text order)."""
    if not stand_ins:
        return blocks
    out: list[Block] = []
    waiting = iter(stand_ins)
    next_in = next(waiting, None)
    for block in blocks:
        while next_in is not None and next_in.pos.line < block.pos.line:
            out.append(next_in)
            next_in = next(waiting, None)
        out.append(block)
    if next_in is not None:
        out.append(next_in)
    out.extend(waiting)
    return out
