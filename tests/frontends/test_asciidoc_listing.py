"""AsciiDoc listings (generator/frontends/asciidoc_listing.py): declarations, tokens, both, or code."""

from __future__ import annotations

import pytest

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile
from generator.frontends.asciidoc_listing import listing
from generator.frontends.document import Paragraph, Prototype, TokenDef, Typedef

_SPEC = SpecFile.from_text("x.adoc", "")


def test_tokens() -> None:
    code = "CL_A_KHR    0x2044\nCL_B_KHR  0\n"
    assert listing(code, _SPEC, Pos(10, 1)) == [TokenDef("CL_A_KHR", "0x2044", Pos(10, 1)),
                                                  TokenDef("CL_B_KHR", "0", Pos(11, 1))]


def test_a_typedef_then_its_values_with_comments_between() -> None:
    code = "typedef cl_uint cl_abc_info;\n\nCL_ABC_ONE    0x1\n/* CL_ABC_TWO - defined above */\nCL_ABC_THREE 3\n"
    blocks = listing(code, _SPEC, Pos(5, 1))
    assert [type(b).__name__ for b in blocks] == ["Typedef", "TokenDef", "TokenDef"]
    assert isinstance(blocks[0], Typedef) and blocks[0].typedef.name == "cl_abc_info"
    assert [b.pos.line for b in blocks] == [5, 7, 9]


def test_prototypes_with_a_calling_convention_word() -> None:
    """A header's decoration (data/opencl_core.json `decorations`) is read past, as the C grammar reads it."""
    code = "// the function\ncl_int CL_API_CALL clFoo(\n    cl_int x);\n"
    (block,) = listing(code, _SPEC, Pos(3, 1))
    assert isinstance(block, Prototype) and block.function.name == "clFoo" and block.pos.line == 4


def test_prototypes_with_an_unknown_word_are_an_error_where_it_stands() -> None:
    code = "// the function\ncl_int NOT_A_DECORATION clFoo(\n    cl_int x);\n"
    with pytest.raises(InputError) as caught:  # the C grammar, not this module, judges the words
        listing(code, _SPEC, Pos(3, 1))
    assert caught.value.render().startswith("x.adoc:4:")


def test_prototypes_after_tokens_keep_their_lines() -> None:
    code = "CL_ABC 1\n\ncl_int clFoo(cl_int x);\n\ncl_int clBar(void);\n"
    blocks = listing(code, _SPEC, Pos(20, 1))
    assert [(type(b).__name__, b.pos.line) for b in blocks] == [("TokenDef", 20), ("Prototype", 22),
                                                                 ("Prototype", 24)]
    assert isinstance(blocks[2], Prototype) and blocks[2].function.name == "clBar"


@pytest.mark.parametrize("code", [
    "// Get the devices.\nclGetDeviceIDs(..., &devices, &count);\n",
    "cl_semaphore_khr sema = clCreateSemaphore(context,\n    props, &err);\n",
    "struct _cl_<object>\n{\n    struct _cl_icd_dispatch *dispatch;\n};\n",
    "int main(void) {\n    return 0;\n}\n",
])
def test_sample_code_is_code_to_read(code: str) -> None:
    (block,) = listing(code, _SPEC, Pos(1, 1))
    assert isinstance(block, Paragraph) and block.code


def test_a_damaged_prototype_is_an_error_not_code() -> None:
    with pytest.raises(InputError):
        listing("cl_int clFoo(cl_int *)x)\n", _SPEC, Pos(1, 1))


def test_an_empty_listing_holds_nothing() -> None:
    assert listing("\n\n", _SPEC, Pos(1, 1)) == []


def test_a_preprocessor_line_that_defines_no_token_stays_code_of_its_own() -> None:
    code = "typedef cl_uint cl_abc_flags;\n\n#if ABC\n#define CL_ABC_BIT NOT_A_VALUE\n"
    blocks = listing(code, _SPEC, Pos(1, 1))
    assert [type(b).__name__ for b in blocks] == ["Typedef", "Paragraph", "Paragraph"]
    assert blocks[1] == Paragraph("#if ABC", Pos(3, 1), code=True)


def test_a_typedef_with_braces_is_declarations_not_code() -> None:
    """Whether the C grammar reads it is for the grammar to say; it is never taken for sample code."""
    code = "typedef struct _cl_abc {\n    cl_uint a;\n} cl_abc;\n"
    try:
        blocks = listing(code, _SPEC, Pos(1, 1))
    except InputError as error:
        assert error.render().startswith("x.adoc:1:")
    else:
        assert not any(isinstance(b, Paragraph) for b in blocks)
