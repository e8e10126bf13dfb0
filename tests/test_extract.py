"""Reading facts from a document: a made-up extension read through the registry front-end."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.extract import extract
from generator.facts import SourceFacts
from generator.frontends import refpage, registry
from generator.knowledge import Knowledge
from generator.source import SpecFile
from tests.conftest import seed
from tests.pathological import assert_linear
from tests.samples import WIDGET


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
