"""The registry XML kept as an index (generator/frontends/registry_index.py): what it answers, read again from the
text name by name, is what a tree of the whole file says (ElementTree, the tests' independent reading)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.base.source import SpecFile
from generator.frontends import registry_xml
from generator.frontends.registry_index import Typedef, Words

_NAMES = st.sampled_from(["CL_A", "CL_B", "clF", "cl_t", "\u00e9_x", "x\U0001f600", "a b"])
_SPACE = st.sampled_from(["", " ", "\n", "  \n\t", "\u2003", "\n\n"])
_PIECE = st.sampled_from(["int", "typedef", "type", "def", "*", "&amp;", "&#x1F600;", "<!-- c -->",
                          "<![CDATA[ x ]]>", "\u00e9", ";", "const"])
_TEXT = st.lists(st.tuples(_SPACE, _PIECE, _SPACE).map("".join), max_size=4).map("".join)


@st.composite
def _registry(draw: st.DrawFn) -> str:
    def enum() -> str:
        value = draw(st.sampled_from([' value="1"', ' value="0x10"', ' bitpos="3"', ' alias="CL_A"',
                                      ' value="SIZE_MAX"']))
        return f'<enum name="{draw(_NAMES)}"{value}/>'

    def named(tag: str) -> str:
        return (f"<{tag}>{draw(_TEXT)}<type>{draw(_TEXT)}</type>{draw(_SPACE)}<name>{draw(_NAMES)}</name>"
                f"{draw(_TEXT)}</{tag}>")

    def command() -> str:
        params = "".join(named("param") for _ in range(draw(st.integers(0, 3))))
        return f"<command>{named('proto')}{draw(_TEXT)}{params}</command>"

    def type_() -> str:
        category = draw(st.sampled_from(["define", "struct", "basetype", "include"]))
        name = draw(st.sampled_from(["", f' name="{draw(_NAMES)}"']))
        members = "".join(named("member") for _ in range(draw(st.integers(0, 2))))
        return (f'<type category="{category}"{name}>{draw(_TEXT)}{draw(st.sampled_from(["", named("name")]))}'
                f"{draw(_TEXT)}{members}</type>")

    def extension() -> str:
        name = draw(st.sampled_from(["", ' name="cl_x"', ' name="cl_y"', ' name="cl_\u00e9"']))
        parts = []
        for _ in range(draw(st.integers(0, 2))):
            tag = draw(st.sampled_from(["require", "remove"]))
            comment = draw(st.sampled_from(["", ' comment="c"']))
            names = "".join(f'<{draw(st.sampled_from(["enum", "command", "type"]))} name="{draw(_NAMES)}"/>'
                            for _ in range(draw(st.integers(0, 3))))
            parts.append(f"<{tag}{comment}>{names}<comment>no name</comment></{tag}>")
        return f"<extension{name}>{''.join(parts)}</extension>"

    sections = {"enums": enum, "commands": command, "types": type_, "extensions": extension}
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        section = draw(st.sampled_from(sorted(sections)))
        items = "".join(sections[section]() + draw(_SPACE) for _ in range(draw(st.integers(0, 4))))
        parts.append(f'<{section} name="{draw(_NAMES)}">{draw(_SPACE)}{items}</{section}>')
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<registry>{draw(_SPACE).join(parts)}<comment>{draw(_TEXT)}' \
           "</comment></registry>\n"


def _words(element: ElementTree.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _reference(text: str) -> dict[str, Any]:
    """What the registry says, read from its tree: each name's first element, as the generator promises."""
    root = ElementTree.fromstring(text)
    enums: dict[str, tuple[str, str | None]] = {}
    commands: dict[str, str] = {}
    types: dict[str, str] = {}
    extensions: dict[str, list[tuple[str, str, str | None]]] = {}
    for part in root:
        for item in part:
            if (part.tag, item.tag) == ("enums", "enum") and ("value" in item.attrib or "bitpos" in item.attrib):
                literal = f"(1 << {item.attrib['bitpos']})" if "bitpos" in item.attrib else item.attrib["value"]
                enums.setdefault(item.attrib["name"], (literal, part.get("name")))
            elif (part.tag, item.tag) == ("commands", "command"):
                proto = item.find("proto")
                assert proto is not None
                name = proto.find("name")
                assert name is not None
                params = ", ".join(_words(p) for p in item.findall("param")) or "void"
                commands.setdefault("".join(name.itertext()).strip(), f"{_words(proto)}({params});")
            elif (part.tag, item.tag) == ("types", "type"):
                child = item.find("name")
                called = item.get("name") or ("".join(child.itertext()).strip() if child is not None else "")
                members = " ".join(f"{_words(m)};" for m in item.findall("member"))
                if called and item.get("category") == "struct":
                    types.setdefault(called, f"typedef struct {called} {{ {members} }} {called};")
                elif called and item.get("category") == "define" and _words(item).startswith("typedef "):
                    types.setdefault(called, _words(item))
            elif (part.tag, item.tag) == ("extensions", "extension") and "name" in item.attrib:
                extensions.setdefault(item.attrib["name"], [(r.attrib["name"], r.tag, require.get("comment"))
                                                            for require in item.findall("require")
                                                            for r in require if "name" in r.attrib])
    return {"enums": enums, "commands": commands, "types": types, "extensions": extensions}


@settings(max_examples=300, deadline=None)
@given(_registry())
def test_the_index_answers_as_the_tree_says(text: str) -> None:
    spec = SpecFile.from_text("cl.xml", text)
    registry = registry_xml.read(spec)
    expected = _reference(spec.text)  # the text as read: look-alike characters as a reader sees them
    assert {n: (e.literal, e.group) for n, e in registry.enums.items()} == expected["enums"]
    assert list(registry.enums) == list(expected["enums"]) and len(registry.enums) == len(expected["enums"])
    assert {n: c.declaration for n, c in registry.commands.items()} == expected["commands"]
    assert {n: t.declaration for n, t in registry.types.items()} == expected["types"]
    assert len(registry.types) == len(expected["types"]) and len(registry.commands) == len(expected["commands"])
    assert {n: [(r.name, r.kind, r.comment) for r in e.required] for n, e in registry.extensions.items()} == \
        expected["extensions"]
    for name in {r[0] for required in expected["extensions"].values() for r in required} | {"CL_NONE"}:
        assert [e.name for e in registry.requiring(name)] == [
            e for e, required in expected["extensions"].items() if name in {r[0] for r in required}]
        assert {e.name for e in registry.extensions.values() if e.requires(name)} == {
            e for e, required in expected["extensions"].items() if name in {r[0] for r in required}}
    lines = spec.text.split("\n")
    for records, tag in ((registry.enums, "enum"), (registry.commands, "command"), (registry.types, "type"),
                         (registry.extensions, "extension")):
        for record in records.values():  # each at the `<` of its element, counted in characters
            pos = record.where.pos
            assert lines[pos.line - 1][pos.column - 1:].startswith(f"<{tag}"), (record, lines[pos.line - 1])
    for extension in registry.extensions.values():
        for required in extension.required:
            pos = required.where.pos
            assert lines[pos.line - 1][pos.column - 1:].startswith(f"<{required.kind} name="), required


@given(st.lists(st.text(st.sampled_from("ab \n\t\u2003\u00a0x"), max_size=6), max_size=8))
def test_words_made_piece_by_piece_are_the_words_of_the_whole(pieces: list[str]) -> None:
    words = Words()
    for piece in pieces:
        words.add(piece)
    assert str(words) == " ".join("".join(pieces).split())


@given(st.lists(st.sampled_from(["type", "def", "typedef", " ", "\n", "x", "s", "typedefs"]), max_size=6))
def test_whether_words_begin_typedef_is_told_from_the_pieces(pieces: list[str]) -> None:
    typedef = Typedef()
    for piece in pieces:
        typedef.add(piece)
    assert bool(typedef.answer) == " ".join("".join(pieces).split()).startswith("typedef ")
