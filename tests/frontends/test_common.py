"""Helpers every front-end shares (generator/frontends/common.py): classifying lines as tokens or code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile
from generator.frontends import common
from generator.frontends.document import Paragraph, TokenDef
from tests.pathological import assert_linear

#: The patterns as they were, before their runs of blanks could be split two ways: the behaviour to keep.
_OLD_TOKEN_SHAPED = re.compile(rf"^[ \t]*(\S.*?)[ \t]+{common._VALUE}[ \t]*$")
_OLD_DECLARATION_START = re.compile(r"^\s*(typedef\s|(const\s+)?[A-Za-z_]\w*(\s*\*)*\s+\**\s*[^\s(),;*]+\s*\()")

_pieces = st.lists(st.sampled_from([" ", "\t", "*", "a", "x1", "(", ")", ",", ";", "const", "typedef", "0x1F", "-",
                                    "12", "\f", "\u2003", "CL_A", "<<", "u", "(cl_bitfield)"]),
                          max_size=14).map("".join)


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


def test_shifts_of_a_cast_number_are_token_definitions() -> None:
    text = "CL_A_X ((cl_bitfield)1 << 31)\n#define CL_B_X (((cl_bitfield) 1) << 2)\nCL_C_X ((x)(1) << 2)"
    blocks = common.token_definitions(text, SpecFile.from_text("x.txt", text), Pos(1, 1))
    assert blocks is None  # the last line is no token definition: the block is no list of tokens
    blocks = common.token_definitions(text.rpartition("\n")[0], SpecFile.from_text("x.txt", text), Pos(1, 1))
    assert [(b.name, b.literal) for b in blocks or []] == [  # type: ignore[union-attr]
        ("CL_A_X", "((cl_bitfield)1 << 31)"), ("CL_B_X", "(((cl_bitfield) 1) << 2)")]


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


_SPEC = SpecFile("x.txt", "")


def test_a_block_mixing_defines_and_declarations_hands_the_defines_over_as_tokens() -> None:
    text = ("typedef cl_uint cl_mode_intel;\n\n#define CL_MODE_A_INTEL   0x4196\n"
            "#define CL_MODE_B_INTEL   (1 << 2) /* a bit */\n#ifdef X\n/* CL_MODE_C_INTEL - defined above */\n")
    blocks = common.code_blocks(text, _SPEC, Pos(10, 1), source=True)
    assert blocks is not None
    assert [type(b).__name__ for b in blocks] == ["Typedef", "TokenDef", "TokenDef"]
    assert [(b.name, b.literal, b.pos) for b in blocks if isinstance(b, TokenDef)] == [
        ("CL_MODE_A_INTEL", "0x4196", Pos(12, 9)), ("CL_MODE_B_INTEL", "(1 << 2)", Pos(13, 9))]


def test_a_define_of_no_integer_stays_text() -> None:
    (block,) = common.code_blocks("#define CL_WHOLE_ARM SIZE_MAX\n", _SPEC, Pos(1, 1), source=True) or []
    assert isinstance(block, Paragraph) and block.text == "CL_WHOLE_ARM SIZE_MAX"


def test_token_lines_in_a_source_block_are_tokens() -> None:
    blocks = common.code_blocks("CL_A_KHR   0x2044\nCL_B_KHR   0\n", _SPEC, Pos(1, 1), source=True) or []
    assert [(b.name, b.literal) for b in blocks if isinstance(b, TokenDef)] == [("CL_A_KHR", "0x2044"),
                                                                             ("CL_B_KHR", "0")]


def test_enumerators_are_tokens_counted_as_c_counts_them() -> None:
    blocks = common.code_blocks("typedef enum { CL_A = 4, CL_B, CL_C = (1 << 4), CL_D } cl_e;", _SPEC,
                                Pos(1, 1), source=True) or []
    assert [(b.name, b.literal) for b in blocks if isinstance(b, TokenDef)] == [
        ("CL_A", "4"), ("CL_B", "5"), ("CL_C", "(1 << 4)"), ("CL_D", "17")]


@pytest.mark.parametrize("text", [
    "int main(...) {\n    cl_platform_id platform = 0;\n}\n",
    "// Get the devices.\nclGetDeviceIDs(..., &devices, &count);\n",
])
def test_sample_code_is_no_declaration(text: str) -> None:
    assert common.code_blocks(text, _SPEC, Pos(1, 1), source=True) is None


def test_a_comment_heading_a_source_block_does_not_hide_its_declarations() -> None:
    blocks = common.code_blocks("// the new functions\ncl_int clFooKHR(cl_uint a);\n// end\n", _SPEC, Pos(1, 1),
                                source=True) or []
    assert [type(b).__name__ for b in blocks] == ["Prototype"]


def test_a_source_block_of_many_comments_and_defines_takes_linear_time(tmp_path: Path) -> None:
    assert_linear("code-comments", tmp_path)


def test_an_unfinished_typedef_is_an_error_not_prose() -> None:
    with pytest.raises(InputError) as caught:
        common.code_blocks("typedef struct _cl_thing_acme", _SPEC, Pos(75, 5))
    assert caught.value.pos is not None and caught.value.pos.line == 75


def test_token_names_with_lower_case_inside_a_part_are_token_definitions() -> None:
    text = "CL_ME_MB_TYPE_16x16_ACME   0x0\nCL_ME_MB_TYPE_8x8_ACME     0x1"
    blocks = common.token_definitions(text, SpecFile.from_text("x.txt", text), Pos(1))
    assert blocks is not None
    assert [(b.name, b.literal) for b in blocks] == [  # type: ignore[union-attr]
        ("CL_ME_MB_TYPE_16x16_ACME", "0x0"), ("CL_ME_MB_TYPE_8x8_ACME", "0x1")]
