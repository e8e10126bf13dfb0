"""The classic registry text front-end (grammar/registry.lark)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.base.source import Pos, SpecFile
from generator.frontends import registry
from generator.frontends.document import Heading, ListItem, Paragraph, Prototype, Table, TokenDef, Typedef
from generator.ir import read
from tests.pathological import assert_linear
from tests.support import CliRun, parse_error, seed


@pytest.fixture(scope="module")
def blocks() -> list[object]:
    return list(registry.parse(seed("cl_nv_d3d10_sharing.txt")).blocks)


def test_headings_are_the_column_zero_lines(blocks: list[object]) -> None:
    titles = [b.title for b in blocks if isinstance(b, Heading)]
    assert titles[:2] == ["Name String", "Version"]
    assert "New Procedures and Functions" in titles and titles[-1] == "Revision History"


def test_prototypes_with_positions(blocks: list[object]) -> None:
    prototypes = [b for b in blocks if isinstance(b, Prototype)]
    assert len(prototypes) == 12  # six in the summary, six in the body
    first = prototypes[0]
    assert first.pos == Pos(23, 5)
    assert first.function.params[1].type == "cl_d3d10_device_source_nv"
    assert [p.type for p in prototypes[7].function.params][-1] == "int *"  # the body's erratum, as written


def test_token_definitions(blocks: list[object]) -> None:
    tokens = [b for b in blocks if isinstance(b, TokenDef)]
    assert len(tokens) == 13
    assert tokens[0] == TokenDef("CL_D3D10_DEVICE_NV", "0x4010", Pos(73, 9))


def test_bullets_become_list_items(blocks: list[object]) -> None:
    items = [b for b in blocks if isinstance(b, ListItem)]
    assert items[0].text.startswith("CL_INVALID_D3D10_DEVICE_NV if the value of the property")
    assert items[0].pos.line == 155


def test_tables_by_the_columns_of_their_underline(blocks: list[object]) -> None:
    tables = [b for b in blocks if isinstance(b, Table)]
    context = tables[0]
    assert context.header == ("cl_context_properties", "Value type", "Default value", "Description")
    # a key longer than its column still lands in the first cell
    assert context.rows[1].cells[:3] == ("CL_CONTEXT_D3D10_DEVICE_NV", "ID3D10Device*", "NULL")
    assert context.rows[1].cells[3].endswith("interoperabilty.")  # the quote closing the block is gone
    formats = tables[-1]
    assert len(formats.rows) == 36 and formats.rows[0].pos == Pos(533, 5)


def test_parameter_references_are_kept(blocks: list[object]) -> None:
    assert Paragraph("<platform> refers to the platform ID returned by clGetPlatformIDs.", Pos(267, 5)) in blocks


def test_heading_inside_a_paragraph_is_an_error() -> None:
    text = "Overview\n\n    Some text\nNew Tokens\n"
    message = parse_error(registry.parse, text, "bad.txt")
    assert message.startswith("bad.txt:4:1: error: unexpected heading 'New Tokens'")
    assert message.splitlines()[1].strip() == "New Tokens"
    assert message.splitlines()[2].strip() == "^"


def test_unterminated_table_is_an_error_at_the_end() -> None:
    text = "New Tokens\n\n    ------------------\n    A_B   1\n"
    message = parse_error(registry.parse, text, "bad.txt")
    assert message.startswith("bad.txt:4:12: error: unexpected end of input; expected one of")


def test_bad_prototype_points_into_the_file() -> None:
    text = "New Procedures and Functions\n\n    cl_int clFoo(cl_int a,, cl_int b)\n"
    message = parse_error(registry.parse, text, "bad.txt")
    assert message.startswith("bad.txt:3:27: error: unexpected ','")


def test_a_table_row_of_thousands_of_words_takes_linear_time(tmp_path: Path) -> None:
    """A cell gathers its words in a list, joined once (not a string copied once per word)."""
    assert_linear("table-row-words", tmp_path)


def _blocks(text: str) -> list[object]:
    return list(registry.parse(SpecFile.from_text("x.txt", text)).blocks)


def test_dash_numbered_and_quoted_bullets_become_list_items() -> None:
    text = ("Errors\n\n    clFoo returns one of:\n\n    - CL_INVALID_VALUE if <a> is zero.\n"
            "    - CL_INVALID_CONTEXT if <b> is not\n      a valid context.\n\n"
            "    1. CL_OUT_OF_RESOURCES if resources run out.\n    2) CL_OUT_OF_HOST_MEMORY if the host runs out.\n\n"
            '   "  * CL_INVALID_ARG_SIZE ... or if <c> is 0.\n      \u2022 CL_INVALID_KERNEL if <k> is bad."\n')
    items = [b for b in _blocks(text) if isinstance(b, ListItem)]
    assert [i.text for i in items] == [
        "CL_INVALID_VALUE if <a> is zero.", "CL_INVALID_CONTEXT if <b> is not a valid context.",
        "CL_OUT_OF_RESOURCES if resources run out.", "CL_OUT_OF_HOST_MEMORY if the host runs out.",
        "CL_INVALID_ARG_SIZE ... or if <c> is 0.", "CL_INVALID_KERNEL if <k> is bad.",
    ]
    assert [i.pos.line for i in items] == [5, 6, 9, 10, 12, 13]


def test_a_dash_word_is_not_a_bullet() -> None:
    blocks = _blocks("Overview\n\n    -cl-opt is an option\n    -1 is a value\n")
    assert [type(b) for b in blocks] == [Heading, Paragraph]


def test_a_rule_under_a_header_line_draws_a_pipe_table() -> None:
    text = ("Additions\n\n    flags       |  Description\n    ------------------------------\n"
            "    CL_MEM_A_X  | This flag says\n                | more.\n    CL_MEM_B_X  | Another.\n")
    table = next(b for b in _blocks(text) if isinstance(b, Table))
    assert table.header == ("flags", "Description")
    assert [r.cells for r in table.rows] == [("CL_MEM_A_X", "This flag says more."), ("CL_MEM_B_X", "Another.")]


def test_a_sentence_right_above_token_lines_stays_a_paragraph() -> None:
    text = ("New Tokens\n\n    To be used by clGetDeviceInfo:\n    #define CL_A_X    0x40B6\n"
            "    #define CL_B_X    (1 << 3)\n\n    Some prose that ends in 12\n    and goes on.\n")
    blocks = _blocks(text)
    assert blocks[1] == Paragraph("To be used by clGetDeviceInfo:", Pos(3, 5))
    assert blocks[2:4] == [TokenDef("CL_A_X", "0x40B6", Pos(4, 13)), TokenDef("CL_B_X", "(1 << 3)", Pos(5, 13))]
    assert blocks[4] == Paragraph("Some prose that ends in 12 and goes on.", Pos(7, 5))


def test_a_table_drawn_with_bars_and_bar_rules() -> None:
    text = ("Details\n\n  |----------------------------------------------|\n"
            "  | CL_A_NV   |  cl_uint  |  Returns the major    |\n"
            "  |           |           |  revision.            |\n"
            "  |----------------------------------------------|\n"
            "  | CL_B_NV   |  cl_bool  |  CL_TRUE if so.       |\n"
            "  |----------------------------------------------|   \n")
    (table,) = [b for b in _blocks(text) if isinstance(b, Table)]
    assert table.header is None and table.pos == Pos(3, 3)
    assert [(r.cells, r.pos) for r in table.rows] == [
        (("CL_A_NV", "cl_uint", "Returns the major revision."), Pos(4, 3)),
        (("CL_B_NV", "cl_bool", "CL_TRUE if so."), Pos(7, 3))]


def test_a_contributor_that_looks_like_a_prototype_is_prose() -> None:
    text = "Contributors\n\n    Jane Doe (Acme)\n    John Roe, Acme\n\nNew Procedures and Functions\n\n" \
           "    cl_int clDoACME(cl_uint count)\n"
    found = registry.parse(SpecFile("x.txt", text)).blocks
    assert [type(b).__name__ for b in found] == ["Heading", "Paragraph", "Heading", "Prototype"]


def test_a_struct_typedef_runs_across_the_blank_lines_between_its_members() -> None:
    text = ("New Types\n\n    typedef struct _cl_thing_acme\n    {\n        // the kind\n        cl_uint kind;\n\n"
            "        cl_uint size;\n\n    } cl_thing_acme;\n\n    Prose after it.\n")
    found = registry.parse(SpecFile("x.txt", text)).blocks
    assert [type(b).__name__ for b in found] == ["Heading", "Typedef", "Paragraph"]
    typedef = found[1]
    assert isinstance(typedef, Typedef) and typedef.pos == Pos(3, 5)
    assert [m.name for m in typedef.typedef.members] == ["kind", "size"]


def test_a_struct_of_many_members_takes_linear_time(tmp_path: Path) -> None:
    """The paragraphs of a struct are joined as they come, never joined again from the start."""
    assert_linear("struct-members", tmp_path)


#: A made-up text whose New Types listing has two evident slips: a one-line typedef without its `;`, and a
#: struct whose members are separated by commas. Each is read as meant, with a warning where it stands.
SLIPS = """\
Name String

    cl_acme_slips

New Types

    typedef cl_bitfield cl_slip_flags_acme

    typedef struct _cl_slip_pair_acme {
        cl_uint first,
        cl_uint second
    } cl_slip_pair_acme;

New Procedures and Functions

    cl_int clSlipACME(cl_context context,
                      cl_slip_flags_acme flags,
                      const cl_slip_pair_acme *pair);

New Tokens

    Accepted as <flags> of clSlipACME:

        CL_SLIP_FAST_ACME      (1 << 0)
"""


def test_a_declaration_with_an_evident_slip_is_read_with_a_warning_at_the_slip(
    main: Callable[..., CliRun], tmp_path: Path,
) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "slips.txt").write_text(SLIPS)
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"))
    assert run.status == 0, run.err
    assert "specs/slips.txt:7: warning: `;` missing at the end of this declaration" in run.err
    assert "specs/slips.txt:10: warning: a `,` between declarations: read as `;`" in run.err
    assert "specs/slips.txt:11: warning: `;` missing at the end of this declaration" in run.err
    ir = read.load(tmp_path / "out" / "ir" / "cl_acme_slips.yaml")
    assert {t.name: t.c_type for t in ir.types} == {"cl_slip_flags_acme": "cl_bitfield",
                                                     "cl_slip_pair_acme": "struct _cl_slip_pair_acme"}
    assert [p.type for p in ir.functions[0].params] == ["cl_context", "cl_slip_flags_acme",
                                                        "const cl_slip_pair_acme *"]
    assert [d.kind for d in ir.diagnostics].count("declaration-slip") == 3
