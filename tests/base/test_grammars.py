"""Every grammar loads as a conflict-free LALR parser."""

from __future__ import annotations

import pytest
from lark import Lark

from generator.base.grammars import GRAMMAR_DIR, grammar

NAMES = sorted(p.stem for p in GRAMMAR_DIR.glob("*.lark"))


def test_the_grammars() -> None:
    assert NAMES == ["asciidoc", "c_decl", "collapsed", "condition", "refpage", "registry"]


@pytest.mark.parametrize("name", NAMES)
def test_loads_strict_lalr(name: str) -> None:
    parser = grammar(name)  # strict: a shift/reduce conflict or a terminal collision would raise
    assert isinstance(parser, Lark)
    assert parser.options.parser == "lalr" and parser.options.propagate_positions
    assert parser.options.cache
