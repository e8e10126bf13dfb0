"""The registry XML (generator/frontends/registry_xml.py): its facts with their lines, and hostile files refused."""

from __future__ import annotations

import contextlib
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from generator.base.errors import InputError
from generator.base.source import MAX_BYTES, Pos, SpecFile
from generator.frontends import registry_xml
from tests.support import Peak, peak_memory

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CL_XML = CORPUS / "registry" / "cl.xml"


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
    prototype = registry.prototype("clCreateFromEGLImageKHR")
    assert prototype is not None and prototype.return_type == "cl_mem"
    assert [(p.name, p.type) for p in prototype.params] == [
        ("context", "cl_context"), ("egldisplay", "CLeglDisplayKHR"), ("eglimage", "CLeglImageKHR"),
        ("flags", "cl_mem_flags"), ("properties", "const cl_egl_image_properties_khr *"), ("errcode_ret", "cl_int *")]
    text = CL_XML.read_text(encoding="utf-8").splitlines()
    assert "clCreateFromEGLImageKHR" in text[command.where.pos.line]  # the <proto> right under <command>


def test_callbacks_and_arrays_are_read_as_a_text_s_prototype_would_be(registry: registry_xml.Registry) -> None:
    prototype = registry.prototype("clEnqueueSVMFreeARM")
    assert prototype is not None
    types = {p.name: p.type for p in prototype.params}
    assert types["svm_pointers"] == "void * *"
    assert types["pfn_free_func"].startswith("void ( * )(cl_command_queue, cl_uint, void * *, void *)")


def test_typedefs_and_structs_are_parsed_when_asked(registry: registry_xml.Registry) -> None:
    flags = registry.typedef("cl_svm_mem_flags_arm")
    assert flags is not None and flags.c_type == "cl_bitfield"
    lines = CL_XML.read_text(encoding="utf-8").splitlines()
    assert "<name>cl_svm_mem_flags_arm</name>;" in lines[registry.types["cl_svm_mem_flags_arm"].where.pos.line - 1]
    struct = registry.typedef("cl_mem_ext_host_ptr")
    assert struct is not None and struct.record == "struct"
    assert [(m.name, m.type) for m in struct.members] == [
        ("allocation_type", "cl_uint"), ("host_cache_policy", "cl_uint")]
    assert registry.typedef("CL/cl.h") is None and "CL/cl.h" not in registry.types  # includes declare nothing


def test_a_declaration_that_is_not_c_is_an_error_at_its_line() -> None:
    text = ('<registry>\n<types>\n<type category="define">typedef <type>cl_bitfield</type> <name>cl_broken_khr</name>'
            '</type>\n</types>\n</registry>')  # the registry's own erratum: no semicolon
    found = registry_xml.read(SpecFile.from_text("cl.xml", text))
    with pytest.raises(InputError, match=r"declaration of cl_broken_khr .* is not valid C") as caught:
        found.typedef("cl_broken_khr")
    assert caught.value.pos == Pos(3, 1)


def test_extensions_require_names_under_their_comment(registry: registry_xml.Registry) -> None:
    icd = registry.extensions["cl_khr_icd"]
    suffix = next(r for r in icd.required if r.name == "CL_PLATFORM_ICD_SUFFIX_KHR")
    assert (suffix.kind, suffix.comment) == ("enum", "cl_platform_info")
    assert [e.name for e in registry.requiring("CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR")] == [
        "cl_khr_external_memory_dma_buf"]


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


def test_values_that_are_no_integer_are_kept_without_one() -> None:
    text = ('<registry><enums name="Constants"><enum value="((cl_float)1e10)" name="CL_HUGE"/>'
            '<enum name="CL_ALIAS" alias="CL_HUGE"/><enum bitpos="3" name="CL_BIT"/></enums></registry>')
    found = registry_xml.read(SpecFile.from_text("cl.xml", text))
    assert {name: e.value for name, e in found.enums.items()} == {"CL_HUGE": None, "CL_BIT": 8}
    assert found.enums["CL_HUGE"].literal == "((cl_float)1e10)"


def _filled(unit: Callable[[int], str], before: str = "", after: str = "", size: int = MAX_BYTES) -> str:
    """A registry of at most `size` bytes: `before`, as many of `unit(0)`, `unit(1)`, ... as fit, `after`."""
    head, tail = f'<?xml version="1.0" encoding="UTF-8"?>\n<registry>\n{before}', f"{after}</registry>\n"
    parts, used, i = [head], len(head.encode()) + len(tail.encode()), 0
    while used + len(piece := unit(i)) <= size and piece:
        parts.append(piece)
        used, i = used + len(piece), i + 1
    return "".join(parts) + tail


def _commands(count: int) -> str:
    """`count` commands, each required by the extension the text describes."""
    return _filled(lambda i: "", "<commands>" + "".join(f"<command><proto>int <name>f{i}</name></proto></command>"
                                                        for i in range(count)) + "</commands><extensions>"
                   "<extension name='cl_khr_icd'><require>" + "".join(f'<command name="f{i}"/>' for i in range(count))
                   + "</require></extension></extensions>", size=0)


class Hostile(NamedTuple):
    text: Path  # the spec read beside it
    registry: Callable[[int], str]  # the registry XML of at most so many bytes
    status: int
    said: str  # on stderr


#: Registries of 8 MiB, each a form that once took 0.4 to 2 GiB to read or generate from.
HOSTILE = {
    "two million empty elements": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size: _filled(
        lambda i: "<a/>", size=size), 0, "the registry XML has no extension cl_khr_icd"),
    "lines of text 31 elements deep": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size: _filled(
        lambda i: "a\n", "<a>" * 31, "</a>" * 31, size), 0, "the registry XML has no extension cl_khr_icd"),
    "enums in a text beyond the BMP": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size: _filled(
        lambda i: f'<enum value="{i}" name="CL_E{i}"/>', '<!-- \U0001f600 --><enums name="g">', "</enums>", size),
        0, "the registry XML has no extension cl_khr_icd"),
    "100,000 commands the text's extension requires": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size:
        _commands(size * 100_000 // MAX_BYTES), 0, "more commands that no text here introduces, not listed one by one"),
    "a typedef of 8 MiB the text uses": Hostile(CORPUS / "cl_khr_egl_image.adoc2024.asciidoc", lambda size: _filled(
        lambda i: f"x{i} ", '<types><type category="define">typedef <name>CLeglDisplayKHR</name> ', "</type></types>",
        size), 0, "is longer than the 16384 characters a declaration is read at; it is not used"),
    "a tag of a million attributes": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size: _filled(
        lambda i: f' a{i}=""', "<x", "/>", size), 2, "a tag of more than 255 attributes"),
    # each definition read again made an expat parser whose handlers refer to it: a cycle, never freed in a run
    # without the cycle collector (4.9 GiB); each error on the one long line held a copy of it (144 MiB)
    "a name the text uses, defined 150,000 times": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size:
        _filled(lambda i: f'<enum value="{i}" name="CL_PLATFORM_ICD_SUFFIX_KHR"/>', '<enums name="g">', "</enums>"
                "<extensions><extension name='cl_khr_icd'><require><enum name='CL_PLATFORM_ICD_SUFFIX_KHR'/>"
                "</require></extension></extensions>", size), 2, "more names this run uses two unlike definitions"),
    "150,000 names no text uses, each defined twice": Hostile(CORPUS / "cl_khr_icd.adoc2024.asciidoc", lambda size:
        _filled(lambda i: f'<enum value="{i}" name="CL_X{i // 2}"/>', '<enums name="g">', "</enums>", size), 0,
        "more names no extension generated here uses two unlike definitions"),
}


def _generate(folder: Path, text: Path, registry: str | None) -> Peak:
    (folder / "specs").mkdir(parents=True)
    (folder / "specs" / text.name).write_bytes(text.read_bytes())
    if registry is not None:
        (folder / "specs" / "cl.xml").write_text(registry, encoding="utf-8")
    return peak_memory([sys.executable, "-m", "generator", "generate", "--specs", "specs", "--out", "out"], folder)


@pytest.fixture(scope="module")
def without_registry(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Peak]:
    """Each text generated alone: the run's memory before the registry adds to it."""
    texts = {hostile.text for hostile in HOSTILE.values()}
    return {text: _generate(tmp_path_factory.mktemp("alone"), text, None) for text in texts}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_generate_holds_at_most_ten_times_the_registry_s_size(
    name: str, tmp_path: Path, without_registry: dict[Path, Peak],
) -> None:
    """`generate` on the text and an 8 MiB registry of the form (in a real child, its peak counted by the kernel):
    it ends as it should, at its peak holding at most ten times the registry's size more than it does without it.
    The output is what the texts make of the registry, not the registry's size over again: the package carries
    the registry's text (which it cites), the IR and the docs hold what the texts use of it."""
    hostile = HOSTILE[name]
    registry = hostile.registry(MAX_BYTES)
    size = len(registry.encode())
    done = _generate(tmp_path, hostile.text, registry)
    assert done.status == hostile.status and hostile.said in done.err, done.err[-2000:]
    alone = without_registry[hostile.text]
    assert done.memory <= alone.memory + 10 * size, f"{done.memory / 2**20:.0f} MiB, {alone.memory / 2**20:.0f} " \
                                                      f"MiB without the registry of {size / 2**20:.1f} MiB"
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in written if "/specs/" not in p.as_posix()) < 4 * 2**20
    assert len(done.err) < 64 * 1024


@pytest.mark.parametrize("name", list(HOSTILE))
def test_reading_a_registry_holds_a_few_times_its_size(name: str) -> None:
    """The reader alone, at 1 MiB (tracemalloc counts every allocation, slowly): what it keeps and what it makes
    on the way, the text aside, stay within three times the file's size and the events of one chunk of it."""
    registry = HOSTILE[name].registry(2**20)
    spec = SpecFile.from_text("cl.xml", registry)
    tracemalloc.start()
    with contextlib.suppress(InputError):
        registry_xml.read(spec)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= 3 * len(registry.encode()) + 2 * 2**20, f"{peak / 2**20:.1f} MiB"


def test_a_declaration_longer_than_any_is_not_parsed_and_not_quoted_whole() -> None:
    text = ('<registry>\n<types>\n<type category="define">typedef <type>int</type> <name>cl_long_t</name>'
            + " x" * 10_000 + ";</type>\n</types>\n</registry>")
    found = registry_xml.read(SpecFile.from_text("cl.xml", text))
    assert found.types["cl_long_t"].declaration.startswith("typedef int cl_long_t x x")
    with pytest.raises(InputError, match="is longer than the 16384 characters a declaration is read at") as caught:
        found.typedef("cl_long_t")
    assert caught.value.pos == Pos(3, 1) and len(caught.value.message) < 400


def test_each_row_of_the_whole_file_reading_keeps_its_line_and_column(tmp_path: Path) -> None:
    """The first reading tells each element's place only when it keeps a row (`registry_reading.Here`): every kind
    of row, one after a non-ASCII name on its line, has the line and the character column of its `<`."""
    text = ('<?xml version="1.0"?>\n<registry>\n  <enums name="g">\n'
            '    <enum value="1" name="CL_\u00c9"/>  <enum value="2" name="CL_B"/>\n  </enums>\n  <commands>\n'
            "    <command><proto><type>cl_int</type> <name>clF</name></proto>"
            "<param><type>int</type> <name>x</name></param></command>\n  </commands>\n  <extensions>\n"
            '    <extension name="cl_x"><require><enum name="CL_B"/> <command name="clF"/></require></extension>\n'
            "  </extensions>\n</registry>\n")
    path = tmp_path / "cl.xml"
    path.write_text(text, encoding="utf-8")
    registry = registry_xml.read(SpecFile.read(path))
    assert [registry.enums["CL_\u00c9"].where.pos, registry.enums["CL_B"].where.pos] == [Pos(4, 5), Pos(4, 36)]
    assert (registry.commands["clF"].where.pos, registry.extensions["cl_x"].where.pos) == (Pos(7, 5), Pos(10, 5))
    assert [(r.name, r.where.pos) for r in registry.extensions["cl_x"].required] == [
        ("CL_B", Pos(10, 37)), ("clF", Pos(10, 57))]
