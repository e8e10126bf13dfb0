"""The registry XML read event by event (generator/frontends/registry_reading.py): what a reading is told, where,
and that reading an element stops at its end. The protections are tested on whole files in test_registry_xml.py."""

from __future__ import annotations

import gc
from xml.parsers import expat

from generator.base.source import Pos, SpecFile
from generator.frontends.registry_reading import End, Here, Source, Start, Text, attributes_at, read_whole, walk

_TEXT = '<registry>\n  <enums name="g">\u00e9<enum name="CL_A" value="1"/></enums>\n  <tail>x</tail>\n</registry>\n'


class _Told:
    """A reading that writes down what it is told, each start with its place."""

    def __init__(self) -> None:
        self.told: list[tuple[object, ...]] = []

    def start(self, depth: int, tag: str, attributes: dict[str, str], here: Here) -> None:
        self.told.append(("start", depth, tag, attributes, here.pos()))

    def end(self, depth: int, tag: str) -> None:
        self.told.append(("end", depth, tag))

    def text(self, depth: int, data: str) -> None:
        self.told.append(("text", depth, data))


def test_a_reading_of_the_whole_file_is_told_each_event_with_its_depth_and_place() -> None:
    told = _Told()
    read_whole(Source(SpecFile.from_text("cl.xml", _TEXT)), told)
    assert told.told == [
        ("start", 0, "registry", {}, Pos(1, 1)), ("text", 0, "\n  "),
        ("start", 1, "enums", {"name": "g"}, Pos(2, 3)), ("text", 1, "\u00e9"),
        ("start", 2, "enum", {"name": "CL_A", "value": "1"}, Pos(2, 20)), ("end", 2, "enum"), ("end", 1, "enums"),
        ("text", 0, "\n  "), ("start", 1, "tail", {}, Pos(3, 3)), ("text", 1, "x"), ("end", 1, "tail"),
        ("text", 0, "\n"), ("end", 0, "registry")]


def test_a_walk_from_an_element_gives_its_events_at_their_places_and_stops_at_its_end() -> None:
    text = _TEXT.replace("<tail>x</tail>", "<tail>x</tail")  # ill-formed after the element walked
    source = Source(SpecFile.from_text("cl.xml", text))
    data = text.encode()  # a text not all ASCII is read from its UTF-8 bytes until `Source.settle`
    events = list(walk(source, data.index(b"<enums"), Pos(2, 3)))
    assert events == [Start(0, "enums", {"name": "g"}, Pos(2, 3), data.index(b"<enums")), Text(0, "\u00e9"),
                      Start(1, "enum", {"name": "CL_A", "value": "1"}, Pos(2, 20), data.index(b"<enum ")),
                      End(1, "enum"), End(0, "enums")]


def test_a_walk_left_before_its_element_ends_lets_its_parser_go() -> None:
    """`attributes_at` takes a walk's first event and leaves it, in the middle of an element longer than the first
    chunk: the handlers, closures over the parser, are let go then, so that a run without the cycle collector
    (`generate`'s) does not keep a parser per record read again."""
    text = '<registry><enums name="g">' + '<enum name="CL_A" value="1"/>' * 400 + "</enums></registry>"
    source = Source(SpecFile.from_text("cl.xml", text))
    enabled = gc.isenabled()
    gc.disable()
    try:
        before = sum(type(o) is expat.XMLParserType for o in gc.get_objects())  # not isinstance: any object may lie
        for _ in range(20):
            assert attributes_at(source, text.index("<enums")) == {"name": "g"}
        assert sum(type(o) is expat.XMLParserType for o in gc.get_objects()) == before
    finally:
        if enabled:
            gc.enable()
