"""The registry XML (generator/frontends/registry_xml.py): its facts with their lines, and hostile files refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.frontends import registry_xml
from generator.source import Pos, SpecFile

CL_XML = Path(__file__).resolve().parents[1] / "corpus" / "registry" / "cl.xml"


@pytest.fixture(scope="module")
def registry() -> registry_xml.Registry:
    return registry_xml.read(SpecFile.read(CL_XML))


def _line(name: str, tag: str) -> int:
    """The line of cl.xml that defines `name` (found by text, as a reader of the file would)."""
    lines = CL_XML.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if f'name="{name}"' in line and f"<{tag}" in line
                and ("value=" in line or "bitpos=" in line or tag != "enum"))


def test_enums_keep_their_value_group_and_line(registry: registry_xml.Registry) -> None:
    enum = registry.enums["CL_SEMAPHORE_TYPE_BINARY_KHR"]
    assert (enum.value, enum.group, enum.where.pos.line) == (1, "cl_semaphore_type_khr",
                                                            _line("CL_SEMAPHORE_TYPE_BINARY_KHR", "enum"))
    assert registry.enums["CL_INVALID_EGL_OBJECT_KHR"].value == -1093
    bit = next(e for e in registry.enums.values() if e.literal.startswith("(1 << "))
    assert bit.value == 1 << int(bit.literal[6:-1])


def test_commands_keep_their_prototype_and_line(registry: registry_xml.Registry) -> None:
    command = registry.commands["clCreateFromEGLImageKHR"]
    assert command.return_type == "cl_mem"
    assert command.params == (("context", "cl_context"), ("egldisplay", "CLeglDisplayKHR"),
                              ("eglimage", "CLeglImageKHR"), ("flags", "cl_mem_flags"),
                              ("properties", "const cl_egl_image_properties_khr*"), ("errcode_ret", "cl_int*"))
    text = CL_XML.read_text(encoding="utf-8").splitlines()
    assert "clCreateFromEGLImageKHR" in text[command.where.pos.line]  # the <proto> right under <command>


def test_extensions_list_what_they_require(registry: registry_xml.Registry) -> None:
    egl = registry.extensions["cl_khr_egl_image"]
    assert {"clCreateFromEGLImageKHR", "CL_INVALID_EGL_OBJECT_KHR", "CLeglImageKHR"} <= egl.names
    assert len(registry.extensions) > 100


def test_a_registry_is_recognised_by_its_content_not_its_name() -> None:
    assert registry_xml.recognises('<?xml version="1.0"?>\n<!-- hi -->\n<registry>\n</registry>\n')
    assert registry_xml.recognises("<registry/>")
    assert not registry_xml.recognises("Name Strings\n\n    <registry> is no spec\n")
    assert registry_xml.recognises('<!DOCTYPE x>\n<x/>')  # XML all the same: refused when read, at its fault
    with pytest.raises(InputError, match="root is not <registry>"):
        registry_xml.read(SpecFile.from_text("feed.xml", '<?xml version="1.0"?>\n<feed/>\n'))


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
])
def test_hostile_and_broken_files_are_input_errors_where_they_go_wrong(text: str, pos: Pos, words: str) -> None:
    with pytest.raises(InputError) as caught:
        registry_xml.read(SpecFile.from_text("specs/cl.xml", text))
    assert (caught.value.path, caught.value.pos) == ("specs/cl.xml", pos)
    assert words in caught.value.message


def test_values_that_are_no_integer_are_no_token_values() -> None:
    text = ('<registry><enums name="Constants"><enum value="((cl_float)1e10)" name="CL_HUGE"/>'
            '<enum name="CL_ALIAS" alias="CL_HUGE"/><enum bitpos="3" name="CL_BIT"/></enums></registry>')
    found = registry_xml.read(SpecFile.from_text("cl.xml", text))
    assert {name: e.value for name, e in found.enums.items()} == {"CL_BIT": 8}
