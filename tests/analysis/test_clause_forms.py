"""Conditions read as clause forms (generator/analysis/clause_forms.py, grammar/condition.lark): the grammar's
forms, its transformer, and the cut of a condition into the runs that parse."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

from generator.analysis import clause_forms
from generator.analysis.clause_forms import (
    Allowed,
    AllTests,
    BothNull,
    Comparison,
    InvalidFlags,
    InvalidHandle,
    InvalidValue,
    Null,
    Tracked,
    Wrapping,
)
from generator.base.grammars import grammar
from tests.pathological import assert_linear

# -- the grammar ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "form"), [
    ("<n> is zero and <p> is not a NULL value", AllTests((Comparison("n", "==", "0"), Null("p", negated=True)))),
    ("<p> is NULL", AllTests((Null("p"),))),
    ("<n> is equal to 5 and <n> >= 2 and <s> is not a valid value and values specified in <f> are not valid",
     AllTests((Comparison("n", "==", "5"), Comparison("n", ">=", "2"), InvalidValue("s"), InvalidFlags("f")))),
    ("both <a> and <b> are NULL", BothNull(("a", "b"))),
    ("any of <m> are currently acquired by OpenCL", Tracked("m", True, ())),
    ("any of <m> are not currently acquired by OpenCL", Tracked("m", False, ())),
    ("memory objects in <m> have previously been acquired using clA but have not been released using clR",
     Tracked("m", True, ("clA", "clR"))),
    ("memory objects in <m> have not previously been acquired using clA, or have been released using clR "
     "since the last time that they were acquired", Tracked("m", False, ("clA", "clR"))),
    ("memory objects in <m> have not previously clA, or have been released using clR since they were acquired",
     Tracked("m", False, ("clA", "clR"))),
    ("memory objects in <m> have not previously been acquired using clA", Tracked("m", False, ("clA",))),
    ("memory objects in <m> have not previously been acquired using clA, or have been released using clR "
     "since <e> was set", Tracked("m", False, ("clA", "clR"), ("e",))),
    ("a cl_mem from <r> has already been created using clC", Wrapping("r", None, ("clC",))),
    ("a cl_mem from subresource <s> of <r> has already been created using clC", Wrapping("r", "s", ("clC",))),
    ("<context> is not a valid context", InvalidHandle("context", "context")),
    ("<memobj> is a not a valid memory object", InvalidHandle("memobj", "memory object")),
    ("memory objects in <m> are not valid OpenCL memory objects", InvalidHandle("m", "OpenCL memory objects")),
    ("<s> is not a valid subresource index for <r>", InvalidHandle("s", "subresource index for <r>")),
    ("Only CL_A, CL_B and CL_C values specified in table 5.3 can be used.", Allowed(("CL_A", "CL_B", "CL_C"))),
    ("Only CL_A and CL_B values can be used", Allowed(("CL_A", "CL_B"))),
    ("Only CL_A values can be used.", Allowed(("CL_A",))),
    # The stray ">" of one AsciiDoc text.
    ("<e> is not NULL and <n>> is 0", AllTests((Null("e", negated=True), Comparison("n", "==", "0")))),
])
def test_read_clause_forms(text: str, form: clause_forms.Form) -> None:
    assert clause_forms.read_clause(text) == form


@pytest.mark.parametrize("text", [
    "no OpenCL devices that correspond to <d3d_object> were found",
    "<n> is zero, or if <p> is NULL",
    "<n> is zero or if <p> is NULL",
    "<resource> is a multisampled texture",
    "",
])
def test_read_clause_rejects(text: str) -> None:
    assert clause_forms.read_clause(text) is None


def tree_names(parser: Lark) -> set[str]:
    """The names a node of a parse tree can carry: an alternative's alias, else its rule's name, unless lark
    inlines the node (a `_rule`, and a `?rule` alternative that always makes one child)."""
    names: set[str] = set()
    for rule in parser.rules:
        if rule.alias:
            names.add(rule.alias)
            continue
        if rule.origin.name.startswith("_"):
            continue
        if rule.options.expand1 and len(rule.expansion) == 1:
            (symbol,) = rule.expansion
            dropped = symbol.is_term and getattr(symbol, "filter_out", False) and not rule.options.keep_all_tokens
            if not symbol.name.startswith("_") and not dropped:
                continue
        names.add(rule.origin.name)
    return names


def test_the_transformer_has_a_method_for_every_node_of_the_grammar() -> None:
    """A rule or alias added to grammar/condition.lark without a method of `Forms` fails here, rather than
    leaving a `Tree` where a record belongs."""
    names = tree_names(grammar("condition"))
    assert {"start", "all", "null", "wrapped", "allowed", "words"} <= names
    assert not {"clause", "test"} & names  # every alternative of the two `?rule`s has an alias
    methods = {name for name, value in vars(clause_forms.Forms).items() if callable(value) and not name.startswith("_")}
    assert methods == names


# -- cutting a condition into clauses ------------------------------------------


def test_a_condition_of_thousands_of_clauses_takes_linear_time(tmp_path: Path) -> None:
    """Cutting a condition into clauses reads it once, not once per connective and start."""
    assert_linear("clause-chain", tmp_path)


@pytest.mark.parametrize("condition", [
    "<p> is NULL, or if <n> is 0",
    "<p> is NULL, or if <n> is 0, <q> is NULL",
    "Only CL_A, CL_B and CL_C values can be used, or if <p> is NULL",
    "memory objects in <m> have not previously been acquired using F, or have been released using G since",
    "a, b, c, d",
    ", , <p> is NULL,",
    "<p> is NULL, or if <n> is zero and <q> is not NULL, or if <m> is 0 and <n> >= 1, or if <q> is NULL",
    # Clauses of more pieces than the pass's first window.
    "Only A, B, C, D, E, F, G, H, I, J, K and L values can be used, or if <p> is NULL",
    "Only A, B, C, D, E, F, G, H, I, J, K and L values, or <p> is NULL",
    "Only A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z, and AA values, or if",
    # The parser's table ends a clause after "using F" here too, though only "but ..." can follow.
    "memory objects in <m> have previously been acquired using F, or if <p> is NULL",
    "memory objects in <m> have not previously been acquired using F, or have been released using G since then, "
    "or if memory objects in <m> have previously been acquired using F, or <n> is 0",
])
def test_whole_clauses_are_the_runs_that_parse(condition: str) -> None:
    """The pieces found in one pass are those whose run from the start parses on its own; those the parser's
    table alone finds include them, and the longest run is found either way."""
    pieces = clause_forms.Pieces.of(condition)
    for start in range(len(pieces.texts)):
        whole = [end for end in range(start, len(pieces.texts)) if clause_forms.read_clause(pieces.join(start, end))]
        assert clause_forms.whole_clauses(pieces, start) == whole
        assert set(whole) <= set(clause_forms.whole_clauses(pieces, start, exact=False))
        end, form = clause_forms._longest(pieces, start)
        longest = whole[-1] if whole else start
        assert end >= longest
        assert form == (clause_forms.read_clause(pieces.join(start, end)) if end == longest else None)
