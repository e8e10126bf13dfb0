"""The prose against the registry XML (generator/analysis/registry_check.py): each kind of difference on a made-up
pair, and on the corpus every finding true of the two texts and every difference its truth records found."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline
from generator.base.diagnostics import Diagnostic
from tests import samples, scoring
from tests.samples import WIDGET_XML


@pytest.fixture
def widget_findings(spec_dir: Callable[[dict[str, str]], Path]) -> list[Diagnostic]:
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": WIDGET_XML}))
    return [d for d in result.diagnostics if d.kind.startswith("registry-") and d.kind != "registry-extensions"]


def _found(findings: list[Diagnostic]) -> set[tuple[str, int | None, str]]:
    return {(d.kind, d.where.pos.line if d.where.pos else None, d.message) for d in findings}


def test_each_difference_is_a_finding_at_the_prose_citing_the_registry(widget_findings: list[Diagnostic]) -> None:
    found = _found(widget_findings)
    assert ("registry-prototype", 11, "clDoWidgetACME: the name of parameter 1 is `context` here but `ctx` in the "
            "registry XML") in found
    assert ("registry-prototype", 11, "clDoWidgetACME: the type of parameter 3 (level) is `UINT` here but "
            "`cl_uint` in the registry XML") in found
    assert any(k == "registry-conflict" and line == 20 and "CL_WIDGET_SLOW_ACME is 0x7002 here but 0x7009" in m
               for k, line, m in found)
    assert ("registry-missing", 29, "CL_WIDGET_TOO_HIGH_ACME is defined here, but the registry XML has no such "
            "enum") in found
    assert ("registry-extra", 3, "the registry's cl_acme_widget requires the enum CL_WIDGET_EXTRA_ACME, which no "
            "text here defines") in found
    assert ("registry-extra", 3, "the registry's cl_acme_widget requires the command clUndoWidgetACME, which no "
            "text here declares") in found
    assert any(k == "registry-elsewhere" and "CL_CONTEXT_WIDGET_ACME" in m and "required by cl_acme_context" in m
               for k, _, m in found)
    assert any(k == "registry-unvalued" and "`SIZE_MAX`" in m and "not compared" in m for k, _, m in found)
    xml_lines = WIDGET_XML.splitlines()
    for finding in widget_findings:  # each names both places: the prose, and the registry's line of the thing
        assert finding.where.path.endswith("cl_acme_widget.txt"), finding
        assert finding.related and finding.related[0].path.endswith("cl.xml")
        assert finding.related[0].pos is not None
        at = finding.related[0].pos.line
        lines = " ".join(xml_lines[at - 1 : at + 1])  # an element's line, or a <command>'s and its <proto>'s
        names = re.findall(r"\b(?:CL_|cl[A-Z])\w+", finding.message)
        assert finding.kind == "registry-missing" or any(name in lines for name in names), (finding, lines)


def test_what_agrees_is_not_reported(widget_findings: list[Diagnostic]) -> None:
    assert not [d for d in widget_findings if "CL_WIDGET_FAST_ACME" in d.message]
    assert not [d for d in widget_findings if "parameter 2" in d.message]


def test_an_extension_the_registry_lacks_is_said_once(spec_dir: Callable[[dict[str, str]], Path]) -> None:
    xml = WIDGET_XML.replace('name="cl_acme_widget"', 'name="cl_acme_gadget"')
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": xml}))
    kinds = [d.kind for d in result.diagnostics if d.kind.startswith("registry-")]
    assert kinds.count("registry-no-extension") == 1 and "registry-extra" not in kinds


def test_what_an_extension_requires_beyond_the_texts_is_listed_ten_times_then_counted(
    spec_dir: Callable[[dict[str, str]], Path],
) -> None:
    """An extension requiring thousands of names no text introduces made as many warnings, and an IR of 65 MiB."""
    extra = "".join(f'<command name="clExtra{i}ACME"/><enum name="CL_EXTRA_{i}_ACME"/>' for i in range(30))
    opening = '<require comment="cl_widget_mode_acme">'
    xml = WIDGET_XML.replace(opening, opening + extra)
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": xml}))
    extras = [d.message for d in result.diagnostics if d.kind == "registry-extra"]
    assert len(extras) == 22 and len({*extras}) == 22, extras
    assert sum("requires the command clExtra" in m for m in extras) == 10  # clUndoWidgetACME comes last
    assert sum("requires the enum CL_EXTRA_" in m for m in extras) == 10
    assert "the registry's cl_acme_widget requires 21 more commands that no text here introduces, not listed one by " \
           "one" in extras
    assert "the registry's cl_acme_widget requires 21 more enums that no text here introduces, not listed one by " \
           "one" in extras


# -- the corpus ----------------------------------------------------------------

CORPUS = scoring.CORPUS
GENERATING = [e for e in scoring.truth() if e["expected"] == "generate"]


@pytest.fixture(scope="module")
def corpus_findings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Diagnostic]]:
    """Each generating text of the corpus with the registry XML beside it: the registry findings of its run."""
    folder = tmp_path_factory.mktemp("registry-check")

    def one(entry: dict[str, Any]) -> list[Diagnostic]:
        specs = folder / entry["file"]
        specs.mkdir()
        shutil.copy(CORPUS / entry["file"], specs)
        shutil.copy(CORPUS / "registry" / "cl.xml", specs)
        return [d for d in pipeline.run(specs).diagnostics if d.kind.startswith("registry-")
                and d.kind != "registry-extensions"]

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip((e["file"] for e in GENERATING), pool.map(one, GENERATING), strict=True))


@pytest.fixture(scope="module")
def registry_xml() -> ElementTree.Element:
    """The registry read by the standard library's own parser: the tests' independent reading of it."""
    return ElementTree.parse(CORPUS / "registry" / "cl.xml").getroot()


def _requires(root: ElementTree.Element, extension: str) -> set[str]:
    return {r.attrib["name"] for e in root.iter("extension") if e.attrib.get("name") == extension
            for r in e.iter() if r.tag in ("enum", "command") and "name" in r.attrib}


def _expected_from_truth(entry: dict[str, Any], extensions: set[str]) -> set[tuple[str, str]]:
    """(kind, subject) of each difference the truth records between the text and cl.xml; a function the
    registry lacks is said once for the whole extension when the registry lacks the extension (`extensions`:
    those it has)."""
    expected = set()
    for function in entry["functions"]:
        if function.get("in_registry") is False:
            expected.add(("registry-missing", function["name"]) if entry["extension"] in extensions else
                         ("registry-no-extension", entry["extension"]))
        registered = function.get("registry")
        if registered and function["params"]:
            for index, (ours, theirs) in enumerate(zip(function["params"], registered["params"], strict=True), 1):
                if ours["name"] != theirs["name"]:
                    expected.add(("registry-prototype", f"{function['name']} name {index}"))
                if scoring.canonical_type(ours["type"]) != scoring.canonical_type(theirs["type"]):
                    expected.add(("registry-prototype", f"{function['name']} type {index}"))
    for token in entry["tokens"]:
        if token.get("registry_name"):
            expected.add(("registry-missing", token["name"]))
        elif "registry_value" not in token:  # cl.xml's value is no integer (the truth's note says which)
            expected.add(("registry-unvalued", token["name"]))
    return expected


_PARAMETER = re.compile(r"^(\w+): the (name|type) of parameter (\d+)")


def _subject(finding: Diagnostic) -> str:
    if match := _PARAMETER.match(finding.message):
        return f"{match[1]} {match[2]} {match[3]}"
    if finding.kind == "registry-no-extension":
        return str(re.findall(r"has no extension (\S+?):", finding.message)[0])
    return str(re.findall(r"\b(?:CL_[A-Z0-9_]+|cl[A-Z]\w+)", finding.message)[0])


@pytest.mark.parametrize("entry", GENERATING, ids=lambda e: e["file"])
def test_every_difference_the_truth_records_is_found(entry: dict[str, Any],
                                                     corpus_findings: dict[str, list[Diagnostic]],
                                                     registry_xml: ElementTree.Element) -> None:
    found = {(d.kind, _subject(d)) for d in corpus_findings[entry["file"]]}
    assert _expected_from_truth(entry, {e.attrib["name"] for e in registry_xml.iter("extension")}) <= found


@pytest.mark.parametrize("entry", GENERATING, ids=lambda e: e["file"])
def test_every_finding_is_true_of_the_two_texts(entry: dict[str, Any], corpus_findings: dict[str, list[Diagnostic]],
                                                registry_xml: ElementTree.Element) -> None:
    """What the truth does not record (what the registry's extension requires beyond the text, and where it
    files a name), checked here by reading both files independently."""
    text = (CORPUS / entry["file"]).read_text(encoding="utf-8")
    extensions = {e.attrib["name"] for e in registry_xml.iter("extension")}
    expected = _expected_from_truth(entry, extensions)
    for finding in corpus_findings[entry["file"]]:
        subject = _subject(finding)
        if (finding.kind, subject) in expected:
            continue
        if finding.kind == "registry-no-extension":
            assert subject == entry["extension"] and subject not in extensions
        elif finding.kind == "registry-extra":
            assert subject in _requires(registry_xml, entry["extension"]) and subject not in text, finding
        elif finding.kind == "registry-elsewhere":
            others = re.search(r"required by (.+)$", finding.message)
            assert others and subject in text and subject not in _requires(registry_xml, entry["extension"])
            assert all(subject in _requires(registry_xml, other) for other in others[1].split(", ")), finding
        elif finding.kind == "registry-function":  # conditions added to another extension's command
            commands = {c.findtext("proto/name") for c in registry_xml.iter("command")}
            assert subject in text and subject in commands and subject not in _requires(registry_xml,
                                                                                         entry["extension"])
        elif finding.kind == "registry-missing" and "has no such command" in finding.message:
            commands = {c.findtext("proto/name") for c in registry_xml.iter("command")}
            assert subject in text and subject not in commands
        else:
            pytest.fail(f"a finding neither the truth records nor this test can check: {finding}")


def test_the_corpus_has_findings_of_every_kind(corpus_findings: dict[str, list[Diagnostic]]) -> None:
    kinds = {d.kind for findings in corpus_findings.values() for d in findings}
    assert {"registry-prototype", "registry-missing", "registry-extra", "registry-elsewhere",
            "registry-no-extension", "registry-unvalued"} <= kinds


# -- a name the registry XML defines twice ---------------------------------------------------------------------

def _line(text: str, piece: str, nth: int = 1) -> int:
    """The line of the `nth` occurrence of `piece` in `text`."""
    at = -1
    for _ in range(nth):
        at = text.index(piece, at + 1)
    return text.count("\n", 0, at) + 1


@pytest.mark.parametrize(("anchor", "twice", "piece", "what"), [
    ('    <enum value="0x7004" name="CL_WIDGET_EXTRA_ACME"/>\n',
     '    <enum value="0x7010" name="CL_WIDGET_EXTRA_ACME"/>\n', 'name="CL_WIDGET_EXTRA_ACME"',
     "the value of CL_WIDGET_EXTRA_ACME twice: `0x7010` here but `0x7004` at specs/cl.xml:"),
    ('  </commands>\n',
     '    <command>\n      <proto><type>cl_int</type> <name>clDoWidgetACME</name></proto>\n'
     '      <param><type>cl_context</type> <name>ctx</name></param>\n    </command>\n', "<command>",
     "the prototype of clDoWidgetACME twice: `cl_int clDoWidgetACME(cl_context ctx);` here but "),
    ('  </types>\n',
     '    <type category="define">typedef <type>cl_int</type> <name>cl_widget_mode_acme</name>;</type>\n',
     'category="define"', "the definition of type cl_widget_mode_acme twice: `typedef cl_int cl_widget_mode_acme;` "),
    ('  </extensions>\n', '    <extension name="cl_acme_widget" supported="opencl"><require>'
     '<command name="clDoWidgetACME"/></require></extension>\n', '<extension name="cl_acme_widget"',
     "the names required by extension cl_acme_widget twice: `clDoWidgetACME` here but "),
])
def test_two_unlike_definitions_of_a_name_the_run_uses_are_an_input_error(
        anchor: str, twice: str, piece: str, what: str, spec_dir: Callable[[dict[str, str]], Path],
        main: Callable[..., Any]) -> None:
    """Which one the IR should hold nothing tells: the first no longer wins in silence."""
    xml = WIDGET_XML.replace(anchor, anchor + twice if anchor.startswith("    <") else twice + anchor, 1)
    specs = spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": xml})
    run = main("generate", "--specs", str(specs), "--out", str(specs.parent / "out"), cwd=specs.parent)
    assert run.status == 2, run.err
    first = run.err.splitlines()[0]
    assert first.startswith(f"specs/cl.xml:{_line(xml, piece, 2)}:") and f"the registry XML gives {what}" in first
    assert first.endswith("which one the IR should hold, nothing tells")


def test_unlike_definitions_of_a_name_no_extension_uses_are_a_warning_and_alike_ones_a_note(
        spec_dir: Callable[[dict[str, str]], Path], main: Callable[..., Any]) -> None:
    xml = WIDGET_XML.replace('  </enums>\n', '    <enum value="0x7005" name="CL_WIDGET_OTHER_ACME"/>\n'
                             '    <enum value="0x7006" name="CL_WIDGET_OTHER_ACME"/>\n  </enums>\n', 1)
    specs = spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": xml})
    run = main("generate", "--specs", str(specs), "--out", str(specs.parent / "out"), "-v", cwd=specs.parent)
    assert run.status == 0, run.err
    second, third = _line(xml, 'name="CL_WIDGET_OTHER_ACME"', 2), _line(xml, 'name="CL_WIDGET_OTHER_ACME"', 3)
    assert (f"specs/cl.xml:{second}: note: the value of CL_WIDGET_OTHER_ACME is given again here, as at "
            f"specs/cl.xml:{second - 1}:5") in run.err  # the first, just above
    assert (f"specs/cl.xml:{third}: warning: the registry XML gives the value of CL_WIDGET_OTHER_ACME twice: "
            f"`0x7006` here but `0x7005` at specs/cl.xml:{second - 1}:5") in run.err


def test_thousands_of_names_defined_twice_are_listed_ten_times_then_counted(
        spec_dir: Callable[[dict[str, str]], Path], main: Callable[..., Any]) -> None:
    """A hostile registry's duplicates are bounded in the output, as `registry-extra` is; none is dropped unsaid."""
    twice = "".join(f'    <enum value="{n + k}" name="CL_SPARE_{n}_ACME"/>\n' for n in range(3000) for k in (0, 1))
    xml = WIDGET_XML.replace('  </enums>\n', twice + '  </enums>\n', 1)
    specs = spec_dir({"cl_acme_widget.txt": samples.WIDGET, "cl.xml": xml})
    run = main("generate", "--specs", str(specs), "--out", str(specs.parent / "out"), cwd=specs.parent)
    assert run.status == 0, run.err
    assert run.err.count("warning: the registry XML gives the value of CL_SPARE_") == 10
    assert "warning: the registry XML gives 2990 more names no extension generated here uses two unlike " \
        "definitions, not listed one by one" in run.err
