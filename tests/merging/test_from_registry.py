"""What a text leaves out, taken from the registry XML (generator/merging/from_registry.py): the prototypes of functions
it only names, the definitions of types it never gives; and, with no registry, a warning for each."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import ROOT, pipeline
from generator.base import shipped_registry
from generator.base.errors import InputError
from generator.ir import read
from tests import samples, scoring
from tests.samples import GADGET, OWN_XML, WIDGET_XML
from tests.support import CliRun

#: The sample extension, with a second function only named (as cl_arm_shared_virtual_memory names its nine).
NAMED = samples.WIDGET.replace("New Tokens\n", "    clUndoWidgetACME\n\nNew Tokens\n", 1)
UNDO = """\
    <command>
      <proto><type>cl_int</type> <name>clUndoWidgetACME</name></proto>
      <param><type>cl_context</type> <name>context</name></param>
      <param>const <type>cl_widget_mode_acme</type>* <name>modes</name>[]</param>
    </command>
  </commands>"""


def test_a_function_only_named_takes_the_registry_s_prototype(spec_dir: Callable[[dict[str, str]], Path]) -> None:
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": NAMED, "cl.xml": WIDGET_XML.replace("  </commands>", UNDO)}))
    undo = result.extensions[0].function("clUndoWidgetACME")
    assert undo is not None and undo.return_type == "cl_int"
    assert [(p.name, p.type) for p in undo.params] == [
        ("context", "cl_context"), ("modes", "const cl_widget_mode_acme * *")]
    assert undo.source.pos is not None and undo.source.pos.line == 15  # where the text names it
    assert undo.prototype_source is not None and undo.prototype_source.path.endswith("cl.xml")
    notes = [d for d in result.diagnostics if d.kind == "from-registry" and "clUndoWidgetACME" in d.message]
    assert len(notes) == 1 and notes[0].related == (undo.prototype_source,)


def test_without_a_registry_a_function_only_named_is_left_out_with_one_warning(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": NAMED}), lean=False)
    assert result.extensions[0].function("clUndoWidgetACME") is None
    said = [d for d in result.diagnostics if "clUndoWidgetACME" in d.message]
    assert [(d.kind, d.severity) for d in said] == [("unprototyped-function", "warning")]
    assert "no registry XML was given" in said[0].message


def test_a_type_no_text_defines_is_the_registry_s(spec_dir: Callable[[dict[str, str]], Path]) -> None:
    specs = spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": WIDGET_XML})
    mode = next(t for t in pipeline.run(specs).extensions[0].types if t.name == "cl_widget_mode_acme")
    assert (mode.kind, mode.c_type, mode.defined) == ("typedef", "cl_uint", True)
    assert mode.source.path.endswith("cl.xml")
    (specs / "cl.xml").unlink()
    without = pipeline.run(specs, lean=False)
    assert next(t for t in without.extensions[0].types if t.name == "cl_widget_mode_acme").defined is False


def test_a_registry_declaration_that_is_not_c_is_a_warning_not_a_refusal(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    broken = WIDGET_XML.replace("<name>cl_widget_mode_acme</name>;", "<name>cl_widget_mode_acme</name>")
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": broken}))
    unreadable = [d for d in result.diagnostics if d.kind == "registry-unreadable"]
    assert len(unreadable) == 1 and "cl_widget_mode_acme" in unreadable[0].message
    assert unreadable[0].where.path.endswith("cl.xml")


def test_the_corpus_functions_only_named_get_the_truth_s_registry_prototypes(tmp_path: Path) -> None:
    entry = next(e for e in scoring.truth() if e["file"] == "cl_arm_shared_virtual_memory.registry.txt")
    shutil.copy(scoring.CORPUS / entry["file"], tmp_path)
    shutil.copy(scoring.CORPUS / "registry" / "cl.xml", tmp_path)
    extension = pipeline.run(tmp_path).extensions[0]
    named = [f for f in entry["functions"] if f["params"] is None]
    assert len(named) == 9
    for want in named:
        got = extension.function(want["name"])
        assert got is not None and got.prototype_source is not None, want["name"]
        assert got.source.pos is not None and abs(got.source.pos.line - want["line"]) <= 10
        registered = want["registry"]
        assert scoring.canonical_type(got.return_type) == scoring.canonical_type(registered["return_type"])
        assert [(p.name, scoring.canonical_type(p.type)) for p in got.params] == [
            (p["name"], scoring.canonical_type(p["type"])) for p in registered["params"]], want["name"]


def test_a_registry_prototype_that_declares_no_one_function_is_a_warning_not_silence(
        spec_dir: Callable[[dict[str, str]], Path], main: Callable[..., CliRun]) -> None:
    """`cl_int x; cl_int clUndoWidgetACME(...)` is C, but no one function: the named function left the package with
    no word."""
    two = UNDO.replace("<proto><type>cl_int</type> <name>", "<proto><type>cl_int</type> x; <type>cl_int</type> <name>")
    specs = spec_dir({"cl_acme_widget.txt": NAMED, "cl.xml": WIDGET_XML.replace("  </commands>", two)})
    run = main("generate", "--specs", str(specs), "--out", str(specs.parent / "out"), cwd=specs.parent)
    assert run.status == 0, run.err
    assert ("specs/cl_acme_widget.txt:15: warning: clUndoWidgetACME is named as a new function, but no text gives "
            "its prototype and the registry XML's cannot be read as one: it is left out [see specs/cl.xml:") in run.err
    assert [f.name for f in read.load(specs.parent / "out" / "ir" / "cl_acme_widget.yaml").functions
            if not f.core] == ["clDoWidgetACME"]


SHIPPED = "data/registry/cl.xml"


def test_with_no_registry_among_the_texts_the_project_s_copy_gives_types_and_values(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    result = pipeline.run(spec_dir({"cl_acme_gadget.txt": GADGET}))
    (gadget,) = result.extensions
    assert gadget.registry == SHIPPED
    types = {t.name: t for t in gadget.types}
    for name in ("CLeglDisplayKHR", "cl_mem_ext_host_ptr"):
        assert types[name].defined and types[name].source.path == SHIPPED, name
    assert types["CLeglDisplayKHR"].c_type == "void *"
    flag = gadget.token("CL_MEM_EXT_HOST_PTR_QCOM")
    assert flag is not None and flag.value == 1 << 29
    assert flag.value_source is not None and flag.value_source.path == SHIPPED
    assert SHIPPED in result.texts  # the package carries what its IR cites
    said = {(d.kind, d.severity) for d in result.diagnostics}
    assert {("registry-shipped", "note"), ("registry-no-extension", "note")} <= said
    assert not [d for d in result.diagnostics if d.severity == "warning"]


def test_without_the_project_s_registry_such_a_text_is_refused_at_the_type(
        spec_dir: Callable[[dict[str, str]], Path], main: Callable[..., CliRun]) -> None:
    specs = spec_dir({"cl_acme_gadget.txt": GADGET})
    out = specs.parent / "out"
    run = main("generate", "--specs", str(specs), "--out", str(out), "--no-registry", cwd=specs.parent)
    assert run.status == 2 and not out.exists()
    assert run.err.startswith("specs/cl_acme_gadget.txt:11:1: error: clAttachGadgetACME: the type CLeglDisplayKHR "
                              "of parameter 'display' is defined nowhere")
    run = main("generate", "--specs", str(specs), "--out", str(out), cwd=specs.parent)
    assert run.status == 0, run.err
    assert (out / "cl_d3d_sharing" / "specs" / "registry" / "cl.xml").read_bytes() == \
        (ROOT / SHIPPED).read_bytes()


def test_a_registry_among_the_texts_replaces_the_project_s(spec_dir: Callable[[dict[str, str]], Path]) -> None:
    result = pipeline.run(spec_dir({"cl_acme_gadget.txt": GADGET, "cl.xml": OWN_XML}))
    (gadget,) = result.extensions
    assert gadget.registry == "specs/cl.xml" and SHIPPED not in result.texts
    display = next(t for t in gadget.types if t.name == "CLeglDisplayKHR")
    assert (display.c_type, display.source.path) == ("cl_uint", "specs/cl.xml")
    flag = gadget.token("CL_MEM_EXT_HOST_PTR_QCOM")
    assert flag is not None and flag.value == 0x4000
    assert "registry-shipped" not in {d.kind for d in result.diagnostics}
    absent = [d for d in result.diagnostics if d.kind == "registry-no-extension"]
    assert [d.severity for d in absent] == ["warning"]  # the user's registry should know what the user generates
    # said once for the extension, not once more for each of its names the registry lacks
    assert not [d for d in result.diagnostics if d.kind == "registry-missing"]


def test_the_project_s_copy_is_refused_when_it_is_not_the_one_described(
        spec_dir: Callable[[dict[str, str]], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    (data / "registry").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "registry.yaml", data)
    (data / "registry" / "cl.xml").write_text(OWN_XML, encoding="utf-8")
    monkeypatch.setattr(shipped_registry, "DATA_DIR", data)
    with pytest.raises(InputError, match="is not the file this describes") as refused:
        pipeline.run(spec_dir({"cl_acme_gadget.txt": GADGET}))
    assert refused.value.path == "data/registry.yaml"
