"""Whose error conditions a text states, in every layout of the registry template
(generator/extraction/error_lists.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.base.knowledge import Knowledge
from generator.base.source import SpecFile
from generator.extraction.extract import extract
from generator.extraction.facts import SourceFacts
from generator.frontends import registry
from tests import samples
from tests.support import calls_counted

_HEAD = ("Name Strings\n\n    cl_acme_widget\n\n"
         "New Procedures and Functions\n\n    cl_int clDoWidgetACME(cl_context context, cl_uint level);\n\n"
         "New Tokens\n\n    Accepted as the <level> parameter of clDoWidgetACME:\n\n"
         "        CL_WIDGET_MODE_ACME        0x4001\n\n    Returned by clDoWidgetACME when it fails:\n\n"
         "        CL_WIDGET_FAILED_ACME      -7001\n\n"
         "Additions to Chapter 5\n\n        cl_int clDoWidgetACME(cl_context context, cl_uint level);\n\n")


def _facts(body: str, knowledge: Knowledge) -> SourceFacts:
    return extract(registry.parse(SpecFile.from_text("w.txt", _HEAD + body)), knowledge)


def _errors(body: str, knowledge: Knowledge) -> list[tuple[str, str | None, int]]:
    offset = _HEAD.count("\n")
    return [(e.function, e.code, e.where.pos.line - offset) for e in _facts(body, knowledge).errors
            if e.origin == "list"]


def test_dash_bullets_after_a_returns_sentence(knowledge: Knowledge) -> None:
    body = ("    clDoWidgetACME returns CL_SUCCESS if it works. Otherwise, it returns one of the following errors:\n\n"
            "    - CL_INVALID_CONTEXT if <context> is not a valid context.\n"
            "    - CL_INVALID_VALUE if <level> is 0 or\n      <level> > 4.\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_CONTEXT", 3),
                                        ("clDoWidgetACME", "CL_INVALID_VALUE", 4)]


def test_paragraphs_led_by_a_code_after_a_may_be_returned_sentence(knowledge: Knowledge) -> None:
    body = ("    The following values may be returned by clDoWidgetACME:\n\n    CL_SUCCESS - The command succeeded.\n\n"
            "    CL_INVALID_VALUE - The level is unknown. On old implementations, these cases return\n"
            "        CL_INVALID_PROPERTY instead.\n\n    CL_WIDGET_FAILED_ACME - The widget broke.\n\n"
            "    CL_WIDGET_MODE_ACME - A mode, not an error.\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_VALUE", 5),
                                        ("clDoWidgetACME", "CL_INVALID_PROPERTY", 5),
                                        ("clDoWidgetACME", "CL_WIDGET_FAILED_ACME", 8)]


def test_return_sentences_inside_a_description(knowledge: Knowledge) -> None:
    body = ("    clDoWidgetACME returns CL_SUCCESS if the function is executed successfully. It returns\n"
            "    CL_INVALID_CONTEXT if <context> is not a valid context.\n\n"
            "    If <level> is not supported, it will return CL_INVALID_VALUE.\n\n"
            "    Using the widget while it is busy, the call attempting to use it will return CL_INVALID_OPERATION.\n")
    facts = _facts(body, knowledge)
    assert [(e.code, e.text) for e in facts.errors if e.origin == "list"] == [
        ("CL_INVALID_CONTEXT", "<context> is not a valid context"), ("CL_INVALID_VALUE", "<level> is not supported")]
    assert [r.kind for r in facts.remarks] == ["unowned-condition"]  # the other call's code: said, not dropped


def test_core_functions_led_by_their_name(knowledge: Knowledge) -> None:
    body = ("Changes to Section 5.1\n\n    clCreateCommandQueue - This call will return CL_INVALID_DEVICE if the\n"
            "        device was not used to create the context. On success, the queue runs.\n\n"
            "    clBuildProgram - This call will return CL_INVALID_DEVICE if the device is a sub-device. This\n"
            "        function will return CL_INVALID_BINARY if the binary is bad.\n")
    assert [(f, c) for f, c, _ in _errors(body, knowledge)] == [
        ("clCreateCommandQueue", "CL_INVALID_DEVICE"), ("clBuildProgram", "CL_INVALID_DEVICE"),
        ("clBuildProgram", "CL_INVALID_BINARY")]


def test_additions_to_the_lists_of_several_functions(knowledge: Knowledge) -> None:
    body = ("Additions to Chapter 4\n\n"
            "    Add to the list of errors for clCreateContext and clCreateContextFromType:\n\n"
            '   "*   CL_INVALID_PROPERTY if <pfn_notify> is NULL."\n\n'
            "    Add to the list of error codes for clSetKernelArg:\n\n"
            '   "  * CL_INVALID_ARG_SIZE ... or if the argument is a widget and\n        <arg_size> is 0.\n'
            '      * CL_WIDGET_FAILED_ACME for an argument that is a broken widget."\n\n'
            "    Add to the list of errors for clGetMemObjectInfo:\n\n"
            '    "CL_INVALID_MEM_OBJECT if <memobj> is a widget."\n')
    assert _errors(body, knowledge) == [
        ("clCreateContext", "CL_INVALID_PROPERTY", 5), ("clCreateContextFromType", "CL_INVALID_PROPERTY", 5),
        ("clSetKernelArg", "CL_INVALID_ARG_SIZE", 9), ("clSetKernelArg", "CL_WIDGET_FAILED_ACME", 11),
        ("clGetMemObjectInfo", "CL_INVALID_MEM_OBJECT", 15)]
    facts = _facts(body, knowledge)
    assert next(e for e in facts.errors if e.code == "CL_INVALID_ARG_SIZE").text == (
        "the argument is a widget and <arg_size> is 0")


def test_replaced_and_removed_descriptions(knowledge: Knowledge) -> None:
    body = ("Additions to Chapter 9\n\n    Replace the description of CL_INVALID_VALUE error value under\n"
            "    clCreateFromWidgetACME with:\n\n    \"CL_INVALID_VALUE if <flags> is 3.\"\n\n"
            "    Replace the description of CL_INVALID_PROPERTY error code with:\n\n"
            '    "errcode_ret returns CL_INVALID_PROPERTY if <properties> is bad."\n\n'
            "    Remove the following description of CL_INVALID_PROPERTY error code:\n\n"
            '    "CL_INVALID_OPERATION if two widgets are given."\n')
    facts = _facts(body, knowledge)
    assert [(e.function, e.code) for e in facts.errors if e.origin == "list"] == [
        ("clCreateFromWidgetACME", "CL_INVALID_VALUE")]
    assert [(r.kind, r.note) for r in facts.remarks] == [("unowned-condition", False), ("struck-condition", True)]


def test_code_paragraphs_with_no_function_are_reported(knowledge: Knowledge) -> None:
    body = "Additions to Chapter 6\n\n    CL_INVALID_VALUE is generated if the widget is upside down.\n"
    facts = _facts(body, knowledge)
    assert not [e for e in facts.errors if e.origin == "list"]
    assert [r.kind for r in facts.remarks] == ["unowned-condition"]


def test_is_generated_paragraphs_in_a_function_description(knowledge: Knowledge) -> None:
    body = ("    CL_INVALID_CONTEXT is generated if <context> is not valid.\n\n"
            "    CL_OUT_OF_HOST_MEMORY is generated if the host runs out.\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_CONTEXT", 1),
                                        ("clDoWidgetACME", "CL_OUT_OF_HOST_MEMORY", 3)]


def test_an_errors_section_belongs_to_the_function_described(knowledge: Knowledge) -> None:
    body = ("    clDoWidgetACME does things.\n\nErrors\n\n    CL_INVALID_CONTEXT on an invalid context.\n\n"
            "    CL_INVALID_VALUE when <level> is 0.\n\nIssues\n\n    CL_INVALID_OPERATION if we forgot?\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_CONTEXT", 5),
                                        ("clDoWidgetACME", "CL_INVALID_VALUE", 7)]


def test_an_indented_errors_line_in_a_summary_of_one_function(knowledge: Knowledge) -> None:
    facts = extract(registry.parse(SpecFile.from_text("w.txt", (
        "Name Strings\n\n    cl_acme_widget\n\nNew Procedures and Functions\n\n"
        "    cl_int clDoWidgetACME(cl_context context);\n\n    Errors\n\n"
        "      CL_INVALID_CONTEXT on invalid context.\n\n      CL_OUT_OF_HOST_MEMORY when out of memory.\n"))),
        knowledge)
    assert [(e.function, e.code, e.where.pos.line) for e in facts.errors] == [
        ("clDoWidgetACME", "CL_INVALID_CONTEXT", 11), ("clDoWidgetACME", "CL_OUT_OF_HOST_MEMORY", 13)]


def test_a_heading_naming_the_lists_it_adds_to(knowledge: Knowledge) -> None:
    body = ("Additions to Section 5.3.1 at the end of the list of\nerrors returned by clCreateImage2D and "
            "clCreateImage3D:\n\n    CL_INVALID_VALUE if <flags> has CL_WIDGET_MODE_ACME set.\n")
    assert _errors(body, knowledge) == [("clCreateImage2D", "CL_INVALID_VALUE", 4),
                                        ("clCreateImage3D", "CL_INVALID_VALUE", 4)]


_TWO = _HEAD.replace("    cl_int clDoWidgetACME(cl_context context, cl_uint level);\n\nNew Tokens",
                     "    cl_int clDoWidgetACME(cl_context context, cl_uint level);\n"
                     "    cl_int clUndoWidgetACME(cl_context context);\n\nNew Tokens", 1)


def test_several_subjects_that_will_return_share_the_list(knowledge: Knowledge) -> None:
    body = ("    clUndoWidgetACME and clDoWidgetACME will return CL_SUCCESS if they work.\n"
            "    Otherwise, they will return one of the following error values:\n\n"
            "    * CL_INVALID_CONTEXT if <context> is not a valid context.\n")
    facts = extract(registry.parse(SpecFile.from_text("w.txt", _TWO + body)), knowledge)
    assert sorted((e.function, e.code) for e in facts.errors if e.origin == "list") == [
        ("clDoWidgetACME", "CL_INVALID_CONTEXT"), ("clUndoWidgetACME", "CL_INVALID_CONTEXT")]


def test_a_may_be_returned_sentence_with_a_qualifier_opens_the_list(knowledge: Knowledge) -> None:
    body = ("    The following errors may be returned by clDoWidgetACME for these new <level> values:\n\n"
            "    * CL_INVALID_VALUE if <level> is CL_WIDGET_MODE_ACME and nothing supports it.\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_VALUE", 3)]


def test_an_item_shaped_as_a_condition_in_a_functions_description_is_its_own_and_said(knowledge: Knowledge) -> None:
    """No sentence says whose list it is: it stands in clDoWidgetACME's description (a note says so)."""
    body = "    Some words about widgets.\n\n    * CL_INVALID_VALUE if <level> is 7.\n"
    facts = _facts(body, knowledge)
    assert [(e.function, e.code) for e in facts.errors if e.origin == "list"] == [("clDoWidgetACME",
                                                                                    "CL_INVALID_VALUE")]
    assert [r.kind for r in facts.remarks] == ["inferred-owner"] and "describes" in facts.remarks[0].message


def test_lists_led_by_append_the_following_to_the_list_of_error_conditions(knowledge: Knowledge) -> None:
    # each lead-in names the next list's owner, after a "In Section ..., page ...," preamble or none; "add the
    # following to Table 5.6" names none, so its quote goes back to the function described
    body = ("    In Section 5.3.1, page 93, append the following to the list of error\n"
            "    conditions for clDoWidgetACME:\n\n"
            "    \"CL_INVALID_VALUE if <level> is 5.\"\n\n"
            "    In Section 5.3.3, append the following to the list of error conditions for clCreateImage:\n\n"
            "    \"CL_INVALID_IMAGE_SIZE if the image is too wide.\"\n\n"
            "    In chapter 5.1, add the following error codes to clCreateCommandQueue:\n\n"
            "    CL_INVALID_QUEUE_PROPERTIES if the device cannot.\n\n"
            "    In Section 5.3.4, add the following to Table 5.6:\n\n"
            "    \"CL_INVALID_OPERATION if the table says so.\"\n")
    assert _errors(body, knowledge) == [("clDoWidgetACME", "CL_INVALID_VALUE", 4),
                                        ("clCreateImage", "CL_INVALID_IMAGE_SIZE", 8),
                                        ("clCreateCommandQueue", "CL_INVALID_QUEUE_PROPERTIES", 12),
                                        ("clDoWidgetACME", "CL_INVALID_OPERATION", 16)]


_CONTEXTS = ("Additions to Chapter 4\n\n    Add to the list of errors for clCreateContext:\n\n"
             "    \"CL_INVALID_OPERATION if two widgets are given.\"\n\n"
             "Additions to Chapter 9\n\n    Widgets are no interop.\n\n")


def test_a_new_description_naming_no_function_goes_to_the_function_named_last_whose_parameter_it_names(
        knowledge: Knowledge) -> None:
    body = _CONTEXTS + ("    Replace the description of CL_INVALID_PROPERTY error code with:\n\n"
                        "    \"errcode_ret returns CL_INVALID_PROPERTY if a widget is in properties.\"\n")
    facts = _facts(body, knowledge)
    assert [(e.function, e.code) for e in facts.errors if e.origin == "list"] == [
        ("clCreateContext", "CL_INVALID_OPERATION"), ("clCreateContext", "CL_INVALID_PROPERTY")]
    (note,) = facts.remarks
    assert (note.kind, note.note) == ("inferred-owner", True)
    assert "clCreateContext, named last (line" in note.message and "errcode_ret, properties" in note.message


def test_a_new_description_naming_no_parameter_of_the_function_named_last_is_not_kept(knowledge: Knowledge) -> None:
    body = _CONTEXTS + ("    Replace the description of CL_INVALID_PROPERTY error code with:\n\n"
                        "    \"CL_INVALID_PROPERTY if a widget is upside down.\"\n")
    facts = _facts(body, knowledge)
    assert [e.code for e in facts.errors if e.origin == "list"] == ["CL_INVALID_OPERATION"]
    assert [(r.kind, r.note) for r in facts.remarks] == [("unowned-condition", False)]


def test_a_new_description_announced_and_never_given_is_reported(knowledge: Knowledge) -> None:
    body = _CONTEXTS + "    Replace the description of CL_INVALID_PROPERTY error code with:\n\nIssues\n\n    None.\n"
    facts = _facts(body, knowledge)
    (remark,) = facts.remarks
    assert remark.kind == "unowned-condition" and "not followed by a condition" in remark.message


# -- the owner of a list found from the text's structure, whatever its lead-in says ---------------------------

_TWO = ("Name Strings\n\n    cl_acme_pair\n\n"
        "New Procedures and Functions\n\n    cl_int clPushACME(cl_command_queue queue, cl_uint count);\n"
        "    cl_int clPullACME(cl_command_queue queue, cl_uint count);\n\n"
        "Additions to Chapter 5\n\n")


def _pair_errors(body: str, knowledge: Knowledge) -> tuple[list[tuple[str, str | None]], list[str]]:
    facts = extract(registry.parse(SpecFile.from_text("p.txt", _TWO + body)), knowledge)
    return ([(e.function, e.code) for e in facts.errors if e.origin == "list"],
            [f"{r.kind}: {r.message}" for r in facts.remarks])


def test_a_list_led_in_with_a_plural_verb_belongs_to_every_function_named(knowledge: Knowledge) -> None:
    body = ("    clPushACME and clPullACME return CL_SUCCESS if the command is queued successfully.\n"
            "    Otherwise, they return one of the following errors:\n\n"
            "    * CL_INVALID_COMMAND_QUEUE if <queue> is not a valid command-queue.\n"
            "    * CL_INVALID_VALUE if <count> is 0.\n")
    errors, remarks = _pair_errors(body, knowledge)
    assert errors == [("clPushACME", "CL_INVALID_COMMAND_QUEUE"), ("clPullACME", "CL_INVALID_COMMAND_QUEUE"),
                      ("clPushACME", "CL_INVALID_VALUE"), ("clPullACME", "CL_INVALID_VALUE")]
    assert not any(r.startswith("unowned-condition") for r in remarks)


def test_a_list_whose_lead_in_no_phrase_knows_belongs_to_the_function_it_names(knowledge: Knowledge) -> None:
    body = ("    The clEnqueueNDRangeKernel function returns the usual error codes, augmented with the\n"
            "    following specific error codes for this kernel:\n\n"
            "    - CL_INVALID_WORK_DIMENSION if work_dim is not 2.\n"
            "    - CL_INVALID_GLOBAL_OFFSET if the offsets are not multiples of 16.\n")
    errors, remarks = _pair_errors(body, knowledge)
    assert errors == [("clEnqueueNDRangeKernel", "CL_INVALID_WORK_DIMENSION"),
                      ("clEnqueueNDRangeKernel", "CL_INVALID_GLOBAL_OFFSET")]
    assert any(r.startswith("inferred-owner") and "clEnqueueNDRangeKernel" in r for r in remarks), remarks


def test_a_list_led_in_by_a_pronoun_belongs_to_the_function_named_before(knowledge: Knowledge) -> None:
    body = ("    clPullACME takes <count> items off the queue.\n\n"
            "    When it cannot, it fails with one of these:\n\n"
            "    * CL_INVALID_VALUE if <count> is 0.\n")
    errors, remarks = _pair_errors(body, knowledge)
    assert errors == [("clPullACME", "CL_INVALID_VALUE")]
    assert any(r.startswith("inferred-owner") for r in remarks)


def test_a_list_with_no_lead_in_in_a_text_of_one_function_is_that_functions(knowledge: Knowledge) -> None:
    text = ("Name Strings\n\n    cl_acme_one\n\nNew Procedures and Functions\n\n"
            "    cl_int clOneACME(cl_context context);\n\nAdditions to Chapter 5\n\n"
            "    A context may be shared.\n\n"
            "    * CL_INVALID_CONTEXT if <context> is not a valid context.\n")
    facts = extract(registry.parse(SpecFile.from_text("o.txt", text)), knowledge)
    assert [(e.function, e.code) for e in facts.errors] == [("clOneACME", "CL_INVALID_CONTEXT")]
    assert any(r.kind == "inferred-owner" and "the one function" in r.message for r in facts.remarks)


def test_a_list_no_structure_owns_is_still_said(knowledge: Knowledge) -> None:
    body = ("    The following may happen:\n\n    * CL_INVALID_VALUE if the moon is full.\n")
    errors, remarks = _pair_errors(body, knowledge)
    assert errors == [] and any(r.startswith("unowned-condition") for r in remarks)


@pytest.mark.parametrize("lead", [
    "Unlike clGetContextInfo, clDoWidgetACME reports errors as follows:",
    "When called after clCreateContext, clDoWidgetACME may return:",
    "clGetContextInfo does not report these, but clDoWidgetACME does:",
    "If clUndoWidgetACME fails, clDoWidgetACME reports:",
    "clDoWidgetACME, unlike clUndoWidgetACME, yields one of these errors:",
])
def test_a_function_named_in_a_clause_before_the_subject_owns_nothing(lead: str, knowledge: Knowledge) -> None:
    body = f"    {lead}\n\n    * CL_INVALID_CONTEXT if <context> is not a valid context.\n"
    assert [(f, c) for f, c, _ in _errors(body, knowledge)] == [("clDoWidgetACME", "CL_INVALID_CONTEXT")]


def test_a_pronoun_never_stands_for_a_function_of_another_part_of_the_text(knowledge: Knowledge) -> None:
    body = ("    clPullACME takes items off the queue.\n\nAnother Section\n\n"
            "    The errors it can report are:\n\n    * CL_INVALID_VALUE if <count> is 0.\n")
    errors, remarks = _pair_errors(body, knowledge)
    assert errors == [] and any(r.startswith("unowned-condition") for r in remarks)


def test_the_lead_in_is_read_once_for_all_the_items_of_its_list(knowledge: Knowledge) -> None:
    """A long lead-in before thousands of items was read again for each (minutes: a hang)."""
    lead = "    " + " ".join(["Widgets are made in levels."] * 200) + " The errors are:\n\n"
    items = "".join(f"    * CL_INVALID_VALUE if <count> is {i}.\n" for i in range(300))
    with calls_counted() as calls:
        _pair_errors(lead + items, knowledge)
    assert sum(n for name, n in calls.items() if name.endswith("(_lead_owners)")) == 1


def test_an_item_the_2017_asciidoc_adds_to_a_core_function_s_list_is_kept(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    """`* +CL_X+ if ...` after "To the error section for *+clFoo+*, the following is added:": the code's literal
    monospace hid it, and the item was dropped with no word."""
    (extension,) = pipeline.run(spec_dir({"cl_khr_lanes.txt": samples.LANES_2017})).extensions
    function = extension.function("clCreateCommandQueueWithProperties")
    assert function is not None and function.foreign
    assert [(e.code, e.condition) for e in function.errors] == [
        ("CL_INVALID_QUEUE_PROPERTIES", "the CL_QUEUE_LANES_KHR property is specified and the queue is a "
         "CL_QUEUE_ON_DEVICE")]


def test_items_after_a_prototype_only_a_generated_include_gives_are_each_said(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    """The current AsciiDoc form declares a function by `include::{generated}/api/protos/NAME.txt[]`, which a text
    alone does not hold: when neither the text nor the registry XML gives the prototype, the list of errors after
    it is said to be left out, at the list and at each of its items."""
    text = """\
[[cl_acme_gizmo2]]
== cl_acme_gizmo2

=== New API Functions

A gizmo may be made using the function

include::{generated}/api/protos/clMakeGizmoACME.txt[]

{clMakeGizmoACME} returns {CL_SUCCESS} if the function is executed successfully.
Otherwise, it returns one of the following errors:

* {CL_INVALID_CONTEXT} if _context_ is not a valid context.
* {CL_OUT_OF_HOST_MEMORY} if there is a failure to allocate resources.
"""
    result = pipeline.run(spec_dir({"cl_acme_gizmo2.asciidoc": text}))
    said = {(d.where.pos.line, d.kind) for d in result.diagnostics if d.where.pos is not None}
    assert {(2, "nothing-kept"), (8, "include"), (13, "unknown-function"), (14, "not-kept")} <= said
