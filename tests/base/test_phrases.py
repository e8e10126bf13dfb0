"""The template phrases (generator/base/phrases.py), read in time linear in the sentence."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.base import phrases
from tests.pathological import assert_linear

#: The one pattern `accepted` replaces: the behaviour to keep.
_OLD_ACCEPTED = re.compile(
    rf"^Accepted as (?P<what>.*?) in the (?P<param>.*?)\s*parameters? of (?P<functions>{phrases._FUNCTIONS})")

_sentences = st.lists(st.sampled_from(["Accepted as ", " in the ", "parameter of ", "parameters of ", " ", "a", "f",
                                       ", ", " and ", "\n", "<p>", "x in the"]), max_size=12).map("".join)


def test_the_parts_of_an_accepted_sentence() -> None:
    found = phrases.accepted("Accepted as a widget mode in the <mode> parameter of clDoA and clDoB:")
    assert found == phrases.Accepted("a widget mode", "<mode>", "clDoA and clDoB")
    assert phrases.accepted("Accepted as a mode in the <mode> argument") is None


@settings(deadline=None)  # a slow moment of the machine is no failure
@given(_sentences)
def test_accepted_reads_as_the_single_pattern_did(tail: str) -> None:
    text = "Accepted as " + tail
    old, new = _OLD_ACCEPTED.match(text), phrases.accepted(text)
    assert (old and (old["what"], old["param"], old["functions"])) == (new and (new.what, new.param, new.functions))


def test_a_sentence_of_many_in_the_takes_linear_time(tmp_path: Path) -> None:
    assert_linear("accepted-phrase", tmp_path)


def test_names_in_a_list_with_or_without_a_serial_comma() -> None:
    assert phrases.split_names("clA, clB, and clC") == ["clA", "clB", "clC"]
    assert phrases.split_names("clA, clB and clC or clD") == ["clA", "clB", "clC", "clD"]


def test_returned_by_clauses_joined_by_by_and_from() -> None:
    text = ("Returned by clA when <s> is bad, by clB when <p> is X when <m> is old, "
            "and from clC when <i> is new, and by clD, clE, and clF when <a> is gone:")
    clauses = [(c["functions"], c["condition"]) for c in phrases.RETURNED_BY_CLAUSE.finditer(text)]
    assert clauses == [("clA", "<s> is bad"), ("clB", "<p> is X when <m> is old"), ("clC", "<i> is new"),
                       ("clD, clE, and clF", "<a> is gone")]


def test_error_list_openers() -> None:
    added = phrases.ADD_ERRORS.match("Add to the list of error codes for clA and clB:")
    assert added and phrases.split_names(added["functions"]) == ["clA", "clB"]
    replaced = phrases.REPLACE_ERROR.match("Replace the description of CL_X_Y error value under clA with:")
    assert replaced and (replaced["code"], replaced["functions"]) == ("CL_X_Y", "clA")
    bare = phrases.REPLACE_ERROR.match("Replace the description of CL_X_Y error code with:")
    assert bare and bare["functions"] is None
    listed = phrases.RETURNED_BY_LIST.match("The following values may be returned by clA:")
    assert listed and listed["functions"] == "clA"
    led = phrases.LEADS_ERRORS.search("In Section 5.3.3, page 102, append the following to the list of error "
                                      "conditions for clA and clB:")
    assert led and phrases.split_names(led["functions"]) == ["clA", "clB"]
    coded = phrases.LEADS_ERRORS.search("In chapter 5.1, add the following error codes to clA:")
    assert coded and coded["functions"] == "clA"
    assert not phrases.LEADS_ERRORS.search("In Section 5.3.1.1, page 94, add the following to Table 5.6:")


def test_vendor_titles_of_the_summary_and_token_sections() -> None:
    assert phrases.section_kind("New API Functions") == "summary"
    assert [phrases.section_kind(t) for t in ("New API Enums", "New API Tokens", "New Tokens")] == ["tokens"] * 3
    assert phrases.ERRORS_TITLE.match("Errors") and phrases.ERRORS_TITLE.match("Error Codes:")
    assert not phrases.ERRORS_TITLE.match("Errors are rare")


def test_accepted_as_or_by_the_parameter_or_argument_saying_no_what() -> None:
    bare = phrases.accepted("Accepted as the <param_name> parameter of clGetWidgetInfoACME:")
    assert bare is not None and (bare.what, bare.param, bare.functions) == ("", "<param_name>", "clGetWidgetInfoACME")
    by = phrases.accepted("Accepted by the <flags> argument of clA and clB")
    assert by is not None and (by.param, phrases.split_names(by.functions)) == ("<flags>", ["clA", "clB"])
    said = phrases.accepted("Accepted as a widget source in the <source> parameter of clA:")
    assert said is not None and (said.what, said.param) == ("a widget source", "<source>")
    alone = phrases.accepted("Accepted as <param_name> to the function clGetWidgetInfoACME:")  # cl_khr_icd's
    assert alone is not None and (alone.what, alone.param, alone.functions) == (
        "", "<param_name>", "clGetWidgetInfoACME")
