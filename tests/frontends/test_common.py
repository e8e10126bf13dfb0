"""Helpers every front-end shares (generator/frontends/common.py): classifying lines as tokens or code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.frontends import common
from generator.source import Pos, SpecFile
from tests.pathological import assert_linear

#: The patterns as they were, before their runs of blanks could be split two ways: the behaviour to keep.
_OLD_TOKEN_SHAPED = re.compile(r"^[ \t]*(\S.*?)[ \t]+(-?(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*"
                               r"|\([ \t]*\d+[ \t]*<<[ \t]*\d+[ \t]*\))[ \t]*$")
_OLD_DECLARATION_START = re.compile(r"^\s*(typedef\s|(const\s+)?[A-Za-z_]\w*(\s*\*)*\s+\**\s*[^\s(),;*]+\s*\()")

_pieces = st.lists(st.sampled_from([" ", "\t", "*", "a", "x1", "(", ")", ",", ";", "const", "typedef", "0x1F", "-",
                                    "12", "\f", "\u2003", "CL_A", "<<", "u"]), max_size=14).map("".join)


@pytest.mark.parametrize("shape", ["token-padded", "prose-padded", "declaration-padded", "condition-padded"])
def test_lines_padded_with_blanks_take_linear_time(shape: str, tmp_path: Path) -> None:
    """Each line of a paragraph is tried as a token definition and as the start of a declaration."""
    assert_linear(shape, tmp_path)


@settings(deadline=None)  # a slow moment of the machine is no failure
@given(_pieces)
def test_token_shaped_lines_read_as_before(line: str) -> None:
    old, new = _OLD_TOKEN_SHAPED.match(line), common._TOKEN_SHAPED.match(line)
    if old is None or new is None:
        assert old is new is None
    else:
        assert (old.span(1), old.span(2)) == (new.span(1), new.span(2))


@settings(deadline=None)  # a slow moment of the machine is no failure
@given(_pieces)
def test_declaration_starts_read_as_before(text: str) -> None:
    assert bool(_OLD_DECLARATION_START.match(text)) == bool(common.DECLARATION_START.match(text))


def test_define_lines_shifts_and_suffixes_are_token_definitions() -> None:
    text = "#define CL_A_X   0x40B6\n  # define CL_B_X (1 << 10)\nCL_C_X (1<<31)\nCL_D_X 4u"
    blocks = common.token_definitions(text, SpecFile.from_text("x.txt", text), Pos(3, 5))
    assert blocks is not None
    assert [(b.name, b.literal, b.pos) for b in blocks] == [  # type: ignore[union-attr]
        ("CL_A_X", "0x40B6", Pos(3, 13)), ("CL_B_X", "(1 << 10)", Pos(4, 12)), ("CL_C_X", "(1<<31)", Pos(5, 1)),
        ("CL_D_X", "4u", Pos(6, 1)),
    ]


def test_a_define_of_a_name_that_is_no_token_name_is_not_a_token() -> None:
    text = "#define WIDTH 1024\n#define HEIGHT 512"
    assert common.token_definitions(text, SpecFile.from_text("x.txt", text), Pos(1)) is None


def test_defines_among_declarations_are_tokens_and_declarations() -> None:
    text = ("typedef cl_bitfield cl_widget_bits_acme;\n\n"
            "#define CL_WIDGET_A_ACME   (1 << 0)\n#define CL_WIDGET_B_ACME 0x2")
    blocks = common.code_blocks(text, SpecFile.from_text("x.txt", text), Pos(10, 1))
    assert blocks is not None
    assert [(type(b).__name__, b.pos.line) for b in blocks] == [("Typedef", 10), ("TokenDef", 12), ("TokenDef", 13)]
    assert [(b.name, b.literal) for b in blocks[1:]] == [("CL_WIDGET_A_ACME", "(1 << 0)"),  # type: ignore[union-attr]
                                                         ("CL_WIDGET_B_ACME", "0x2")]


def test_defines_among_prose_are_no_code() -> None:
    text = "Some words here\n#define CL_WIDGET_A_ACME 1"
    assert common.code_blocks(text, SpecFile.from_text("x.txt", text), Pos(1)) is None
