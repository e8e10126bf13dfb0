"""The first reading of the registry XML (generator/frontends/registry_scan.py): a row for each named element,
and hostile or broken files refused where they go wrong."""

from __future__ import annotations

import pytest

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile
from generator.frontends import registry_scan, registry_xml
from generator.frontends.registry_reading import Source


def test_each_named_element_has_a_row_and_a_required_name_its_extension_s() -> None:
    """Values and bit positions only (an alias has no value of its own); commands, and typedefs (not a
    `#define`) and structs, by their names; what an extension requires, owned by the extension's row; an unnamed
    extension's, by none."""
    text = ('<registry>\n  <enums name="g">\n    <enum value="1" name="CL_A"/>\n    <enum bitpos="2" name="CL_B"/>\n'
            '    <enum name="CL_ALIAS" alias="CL_A"/>\n  </enums>\n  <types>\n'
            '    <type category="define">typedef <type>cl_uint</type> <name>cl_x</name>;</type>\n'
            '    <type category="struct" name="cl_s"><member><type>int</type> <name>m</name></member></type>\n'
            '    <type name="cl_uint"/>\n    <type category="define">#define <name>CL_API_ENTRY</name></type>\n'
            '  </types>\n  <commands>\n'
            "    <command><proto><type>cl_int</type> <name>clF</name></proto>"
            "<param><type>int</type> <name>x</name></param></command>\n  </commands>\n  <extensions>\n"
            '    <extension name="cl_x"><require><enum name="CL_B"/> <command name="clF"/></require></extension>\n'
            '    <extension><require><enum name="CL_A"/></require></extension>\n'
            "  </extensions>\n</registry>\n")
    tables = registry_scan.scan(Source(SpecFile.from_text("specs/cl.xml", text)))
    assert [len(t) for t in tables.all()] == [2, 1, 2, 1, 2]
    assert [tables.enums.pos(row) for row in (*tables.enums.rows("CL_A"), *tables.enums.rows("CL_B"))] == [
        Pos(3, 5), Pos(4, 5)]
    assert not list(tables.enums.rows("CL_ALIAS")) and list(tables.types.rows("cl_s"))
    assert not list(tables.types.rows("CL_API_ENTRY"))
    (required,) = tables.requires.rows("CL_B")
    assert tables.requires.owners[required] == 0  # the extension's row
    assert not list(tables.requires.rows("CL_A"))


_BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE registry [\n <!ENTITY a "aaaaaaaaaa">\n'
         ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
         "<registry><comment>&c;</comment></registry>\n")
_EXTERNAL = ('<?xml version="1.0"?>\n<!DOCTYPE registry [\n <!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n'
             "<registry><comment>&secret;</comment></registry>\n")


@pytest.mark.parametrize(("text", "pos", "words"), [
    (_BOMB, Pos(2, 1), "document type declaration"),
    (_EXTERNAL, Pos(2, 1), "document type declaration"),
    ("<registry>" + "<a>" * 40 + "</a>" * 40 + "</registry>", Pos(1, 11 + 3 * 31), "nest more than 32"),
    ("<registry>\n  <enums>\n    <enum value='1'/>\n  </enums>\n</registry>", Pos(3, 5), "without a name"),
    ("<registry>\n  <enums>\n</registry>", Pos(3, 3), "not well-formed XML: mismatched tag"),
    ("<registry>\n  <commands><command><param/></command></commands>\n</registry>", Pos(2, 13), "without a <proto>"),
    ("<registry>&undefined;</registry>", Pos(1, 11), "not well-formed XML: undefined entity"),
    ("<registry/>\n<registry/>", Pos(2, 1), "not well-formed XML: junk after document element"),
    ("<registry>\n  <a" + ' b=">"' * 256 + "/></registry>", Pos(2, 3), "a tag of more than 255 attributes"),
    ("<registry " + " ".join(f"a{i}='{i}'" for i in range(300)) + ">\n</registry>", Pos(1, 1),
     "a tag of more than 255 attributes"),
])
def test_hostile_and_broken_files_are_input_errors_where_they_go_wrong(text: str, pos: Pos, words: str) -> None:
    """The scan's, and so the registry's as `registry_xml.read` (what a run calls) reads it."""
    for read in (lambda spec: registry_scan.scan(Source(spec)), registry_xml.read):
        with pytest.raises(InputError) as caught:
            read(SpecFile.from_text("specs/cl.xml", text))
        assert (caught.value.path, caught.value.pos) == ("specs/cl.xml", pos)
        assert words in caught.value.message


def test_a_row_s_start_is_a_character_offset_into_the_text() -> None:
    """expat counts bytes; a record is read again from the text, which counts characters: after non-ASCII text
    (here 40 characters of two bytes and 10 of three) the two differ, and each start must be the element's `<`."""
    text = ("<registry>\n  <comment>" + "\u00e9" * 40 + "\u20ac" * 10 + "</comment>\n  <enums name=\"g\">\n"
            '    <enum value="1" name="CL_\u00c9"/> <enum value="2" name="CL_B"/>\n  </enums>\n  <commands>\n'
            "    <command><proto><type>cl_int</type> <name>clF</name></proto></command>\n  </commands>\n</registry>\n")
    tables = registry_scan.scan(Source(SpecFile.from_text("specs/cl.xml", text)))
    starts = [*tables.enums.starts, *tables.commands.starts]
    assert [text[start:start + 6] for start in starts] == ["<enum ", "<enum ", "<comma"]
