"""Reading facts from a document: a made-up extension read through the registry front-end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.base.knowledge import Knowledge
from generator.base.source import SpecFile
from generator.extraction.extract import extract
from generator.extraction.facts import SourceFacts
from generator.frontends import asciidoc, refpage, registry
from generator.ir import read
from tests.pathological import assert_linear
from tests.samples import WIDGET
from tests.support import SPECS, CliRun, seed


@pytest.fixture(scope="module")
def facts(knowledge: Knowledge) -> SourceFacts:
    return extract(registry.parse(SpecFile.from_text("widget.txt", WIDGET)), knowledge)


def test_metadata(facts: SourceFacts) -> None:
    assert (facts.extension, facts.revision, facts.has_summary) == ("cl_acme_widget", "Version 3, 2026", True)


def test_functions_and_their_roles(facts: SourceFacts) -> None:
    assert [(f.function.name, f.role) for f in facts.functions] == [("clDoWidgetACME", "summary"),
                                                                     ("clDoWidgetACME", "body")]


def test_token_groups(facts: SourceFacts) -> None:
    groups = {t.name: t.group for t in facts.tokens}
    fast = groups["CL_WIDGET_FAST_ACME"]
    assert fast and (fast.kind, fast.functions, fast.parameter) == ("accepted", ("clDoWidgetACME",), "mode")
    query = groups["CL_CONTEXT_WIDGET_ACME"]
    assert query and (query.functions, query.parameter) == (("clGetContextInfo",), "param_name")
    error = groups["CL_WIDGET_TOO_HIGH_ACME"]
    assert error and error.kind == "error"
    assert {t.name: t.value for t in facts.tokens}["CL_WIDGET_TOO_HIGH_ACME"] == -7001


def test_errors_with_their_owners(facts: SourceFacts) -> None:
    errors = [(e.function, e.code, e.origin) for e in facts.errors]
    assert errors == [
        ("clDoWidgetACME", "CL_WIDGET_TOO_HIGH_ACME", "token"),
        ("clGetContextInfo", "CL_INVALID_VALUE", "list"),
        ("clDoWidgetACME", "CL_INVALID_CONTEXT", "list"),
        ("clDoWidgetACME", "CL_INVALID_VALUE", "list"),
    ]
    assert facts.errors[0].text == "<level> is too high"


def test_a_return_sentence_naming_another_function(facts: SourceFacts) -> None:
    (claim,) = facts.claims
    assert (claim.named, claim.described, claim.where.pos.line) == ("clDoFrobACME", "clDoWidgetACME", 54)


def test_parameter_descriptions(facts: SourceFacts) -> None:
    assert [(d.function, d.parameters) for d in facts.param_docs] == [("clDoWidgetACME", ("context",)),
                                                                      ("clDoWidgetACME", ("mode",))]


def test_mentions_record_their_function(facts: SourceFacts) -> None:
    mention = next(m for m in facts.mentions if m.name == "CL_CONTEXT_WIDGETS_ACME")
    assert mention.described == "clGetContextInfo"


def test_a_page_without_prototype_describes_the_function_it_names_most(knowledge: Knowledge) -> None:
    facts = extract(refpage.parse(seed("clEnqueueReleaseD3D10ObjectsKHR.txt")), knowledge)
    assert facts.subject == "clEnqueueReleaseD3D10ObjectsKHR"
    assert facts.extension == "cl_khr_d3d10_sharing"
    assert {e.function for e in facts.errors} == {facts.subject}
    assert all(e.code is None for e in facts.errors)
    # parameter names with an underscore are marked, plain words like "event" are not
    assert facts.errors[0].text.startswith("<num_objects> is zero and <mem_objects>")
    assert "<event>" not in " ".join(d.text for d in facts.param_docs)


@pytest.mark.parametrize("shape", ["open-description", "parameter-list"])
def test_long_descriptions_and_parameter_lists_take_linear_time(shape: str, tmp_path: Path) -> None:
    """A description that goes on over many sentences is joined once; plain parameter names are found by
    looking each word up, not by trying every name at every place."""
    assert_linear(shape, tmp_path)


# -- the current AsciiDoc form, through the AsciiDoc front-end ----------------------------------------------

#: A made-up extension in the current Khronos AsciiDoc form: names are attribute references, the body's
#: prototype an include, the errors nested bullets.
ACME_ADOC = """\
[[cl_acme_gadget]]
== Gadgets

=== General Information

==== Version History

[cols="1,1,3",options="header",]
|====
| *Date*     | *Version* | *Description*
| 2021-04-22 | 1.0.0     | Initial version.
| 2023-01-02 | 1.1.0     | Gadgets may be blue.
|====

=== New API Functions

[source,opencl]
----
cl_int clMakeGadgetACME(
    cl_context context,
    cl_uint size);
----

=== New API Enums

Accepted value for the _param_name_ parameter to {clGetDeviceInfo}:

[source]
----
CL_DEVICE_GADGET_ACME    0x4F00
----

=== Modifications

The function

include::{generated}/api/protos/clMakeGadgetACME.txt[]

_size_ is the size of the gadget.

{clMakeGadgetACME} returns {CL_SUCCESS} if the function is executed successfully.
Otherwise, it returns one of the following errors:

* {CL_INVALID_CONTEXT} if _context_ is not a valid context.
* {CL_INVALID_VALUE}
** if _size_ is 0, or
** if _size_ is odd.

=== Sample Code

[source]
----
// make one
clMakeGadgetACME(context, &err);
----
"""


def _adoc(text: str, knowledge: Knowledge) -> SourceFacts:
    return extract(asciidoc.parse(SpecFile.from_text("gadget.asciidoc", text)), knowledge)


def test_the_current_asciidoc_form(knowledge: Knowledge) -> None:
    facts = _adoc(ACME_ADOC, knowledge)
    assert (facts.extension, facts.revision, facts.has_summary) == ("cl_acme_gadget", "1.1.0", True)
    assert [(f.function.name, f.role, f.where.pos.line) for f in facts.functions] == [
        ("clMakeGadgetACME", "summary", 19), ("clMakeGadgetACME", "body", 37)]
    assert [(t.name, t.value) for t in facts.tokens] == [("CL_DEVICE_GADGET_ACME", 0x4F00)]
    group = facts.tokens[0].group  # "Accepted value for the <p> parameter to f", the current texts' wording
    assert group is not None and (group.kind, group.functions, group.parameter) == (
        "accepted", ("clGetDeviceInfo",), "param_name")
    assert [(e.code, e.where.pos.line) for e in facts.errors] == [
        ("CL_INVALID_CONTEXT", 44), ("CL_INVALID_VALUE", 46), ("CL_INVALID_VALUE", 47)]
    assert [(d.function, d.parameters) for d in facts.param_docs] == [("clMakeGadgetACME", ("size",))]
    assert [(r.kind, r.where.pos.line) for r in facts.remarks] == [("include", 37)]
    assert not [m for m in facts.mentions if m.where.pos.line > 50]  # sample code mentions nothing
    assert not facts.tables  # the version history gives the revision; it is no table of the API


def test_a_listing_of_the_api_that_cannot_be_read_is_reported(knowledge: Knowledge) -> None:
    text = ("[[cl_acme_x]]\n== X\n\n=== New API Enums\n\n----\nCL_ACME_X\n----\n\n----\nCL_ACME_Y = 3 + x\n----\n\n"
            "=== Sample Code\n\n----\nfoo();\n----\n")
    facts = _adoc(text, knowledge)
    assert [(r.kind, r.where.pos.line) for r in facts.remarks] == [("unread-listing", 11)]
    assert [(t.name, t.value) for t in facts.tokens] == [("CL_ACME_X", None)]  # a name alone: its value elsewhere


def test_this_function_stands_for_the_function_just_named(knowledge: Knowledge) -> None:
    text = ("Name Strings\n\n    cl_acme_widget\n\nNew Procedures and Functions\n\n    None\n\n"
            "Additions to Chapter 5\n\n    Kernels are queued using clEnqueueNDRangeKernel(). This function\n"
            "    will return the usual error codes, augmented with the following for this kernel:\n\n"
            "      * CL_INVALID_WORK_DIMENSION if <work_dim> is not 2.\n")
    facts = extract(registry.parse(SpecFile.from_text("w.txt", text)), knowledge)
    assert [(e.function, e.code) for e in facts.errors] == [("clEnqueueNDRangeKernel", "CL_INVALID_WORK_DIMENSION")]


_HEADED = ("Name Strings\n\n    cl_acme_gauge\n\nNew Tokens\n\n"
           "    Accepted as the <param_name> parameter of clGetDeviceInfo.\n\n"
           "    Return the gauge's offset:\n\n        CL_DEVICE_GAUGE_OFFSET_ACME    0x4036\n\n"
           "    Return 1 if gauges are supported, 0 otherwise:\n\n        CL_DEVICE_GAUGE_ACME    0x4037\n\n"
           "    Accepted as the <param_name> parameter of clGetContextInfo:\n\n"
           "        CL_CONTEXT_GAUGE_ACME    0x4038\n\n"
           "    Gauges say nothing more:\n\n        CL_GAUGE_LOOSE_ACME    0x4039\n")


def test_a_group_sentence_ending_in_a_full_stop_heads_the_sentences_after_it(knowledge: Knowledge) -> None:
    found = extract(registry.parse(SpecFile.from_text("g.txt", _HEADED)), knowledge)
    groups = [(t.name, t.group.functions if t.group else None) for t in found.tokens]
    assert groups == [("CL_DEVICE_GAUGE_OFFSET_ACME", ("clGetDeviceInfo",)),
                      ("CL_DEVICE_GAUGE_ACME", ("clGetDeviceInfo",)),
                      ("CL_CONTEXT_GAUGE_ACME", ("clGetContextInfo",)),  # ends in ":": heads only its tokens
                      ("CL_GAUGE_LOOSE_ACME", None)]
    (remark,) = [r for r in found.remarks if r.kind == "ungrouped-tokens"]
    assert remark.note and remark.where.pos.line == _HEADED[:_HEADED.index("Gauges say")].count("\n") + 1


@pytest.mark.parametrize(("section", "first", "more"), [
    ("Dependencies", "    OpenCL 1.0 is required and a Direct3D 10 implementation supporting \n"
                     "    sharing of buffer and texture objects with OpenCL is required.\n",
     "This extension is written against the OpenCL 1.0 specification."),
    ("Version", "    Version 1, December 7, 2009\n", "Version 2, March 1, 2010: the formats table added."),
])
def test_every_paragraph_of_a_metadata_field_is_kept(tmp_path: Path, main: Callable[..., CliRun], section: str,
                                                     first: str, more: str) -> None:
    """A field of two paragraphs (a second dependency, a second version line) kept its first alone: the rest of
    the section vanished without a word, not even under `-v`. The IR and the extension's page keep them all (the
    revision stays the first paragraph)."""
    specs = tmp_path / "specs"
    specs.mkdir()
    text = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    assert f"{section}\n\n{first}" in text
    (specs / "cl_nv_d3d10_sharing.txt").write_text(text.replace(first, f"{first}\n    {more}\n", 1), encoding="utf-8")
    assert main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path).status == 0
    ir = read.load(tmp_path / "out" / "ir" / "cl_nv_d3d10_sharing.yaml")
    assert ir.metadata[section].endswith(f"\n\n{more}") and ir.revision == "Version 1, December 7, 2009"
    page = (tmp_path / "out" / "docs" / "nv_d3d10" / "index.md").read_text(encoding="utf-8")
    assert more.split(":")[0] in next(line for line in page.splitlines() if line.startswith(f"| {section} |"))


BOOK_PAGE = """= cl_acme_widget

=== New Commands

  * {clDoWidgetACME}

=== New Enums

  * {cl_widget_mode_acme_TYPE}
  ** {CL_WIDGET_FAST_ACME}
  * {cl_mem_info_TYPE}
  ** {CL_MEM_WIDGET_ACME}
  * New Error Codes
  ** {CL_WIDGET_TOO_HIGH_ACME}

=== Version History

  * Revision 1.0.0, 2020-04-21
  ** First assigned version.
  * Revision 1.1.0, 2024-01-02
  ** Clarified.
"""


def test_the_book_s_new_enums_group_tokens_by_type_and_the_latest_revision_is_kept(knowledge: Knowledge) -> None:
    found = extract(asciidoc.parse(SpecFile.from_text("page.asciidoc", BOOK_PAGE)), knowledge)
    assert [n.name for n in found.named_functions] == ["clDoWidgetACME"]
    groups = {t.name: t.group for t in found.tokens}
    assert {name: (g.c_type, g.kind) for name, g in groups.items() if g} == {
        "CL_WIDGET_FAST_ACME": ("cl_widget_mode_acme", "accepted"), "CL_MEM_WIDGET_ACME": ("cl_mem_info", "accepted"),
        "CL_WIDGET_TOO_HIGH_ACME": (None, "error")}
    assert all(t.value is None for t in found.tokens)  # the registry XML gives the values
    assert found.revision == "Revision 1.1.0, 2024-01-02"
