"""Every grammar loads as a conflict-free LALR parser."""

from __future__ import annotations

import pytest
from lark import Lark

from generator.base.grammars import GRAMMAR_DIR, PLACED_RULES, grammar

NAMES = sorted(p.stem for p in GRAMMAR_DIR.glob("*.lark"))


def test_the_grammars() -> None:
    assert NAMES == ["asciidoc", "asciidoc_preprocessor", "c_decl", "collapsed", "condition", "refpage", "registry"]


@pytest.mark.parametrize("name", NAMES)
def test_loads_strict_lalr(name: str) -> None:
    parser = grammar(name)  # strict: a shift/reduce conflict or a terminal collision would raise
    assert isinstance(parser, Lark)
    assert parser.options.parser == "lalr"
    assert parser.options.propagate_positions == (name in PLACED_RULES)
    assert parser.options.cache


def test_the_tokens_of_a_grammar_without_placed_rules_still_say_where_they_stand() -> None:
    """Only rules lose their places; the readers of these grammars take every place from a token."""
    tree = grammar("registry").parse("Name\n\n    cl_khr_widget\n\n")
    tokens = list(tree.scan_values(lambda v: True))
    assert tokens and all((t.line or 0) >= 1 and (t.column or 0) >= 1 for t in tokens)
    assert not hasattr(tree.meta, "line")
