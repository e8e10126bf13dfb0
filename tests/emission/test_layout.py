"""The layout of generated code (`emission/layout.py`): within 120 columns, meaning what its one-line form means,
in the orders ruff checks; and a package made from texts with long sentences and names passes ruff."""

from __future__ import annotations

import ast
import json
import keyword
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.base.knowledge import Knowledge
from generator.emission.emit import package_files
from generator.emission.layout import (
    WIDTH,
    Bracket,
    Chain,
    Node,
    Prefixed,
    Text,
    call,
    chain,
    choose,
    flat,
    pieces,
    statement,
    tuple_of,
    width,
)
from generator.emission.sorting import dunder_all, imports
from generator.ir import files as ir
from generator.ir.read import from_dict
from generator.pipeline import Result
from tests.support import lint, packaged

NAMES = st.from_regex(r"[a-z_][a-z0-9_]{0,24}", fullmatch=True).filter(lambda n: not keyword.iskeyword(n))
TEXTS = st.text(st.characters(codec="utf-8"), max_size=400)


@given(TEXTS, st.integers(min_value=20, max_value=WIDTH))
def test_a_literal_cut_into_pieces_joins_to_its_text_and_fits(text: str, room: int) -> None:
    literals = pieces(text, room)
    assert "".join(ast.literal_eval(literal) for literal in literals) == text
    assert all(width(literal) <= room for literal in literals)


def _grown(inner: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    """Calls, tuples and dicts of expressions; operator chains of the others (`x and y`, `a if b else c`), as the
    code models build them (a chain inside a chain would need parentheses of its own)."""
    operand = inner.filter(lambda node: not isinstance(node, Chain))
    return st.one_of(
        st.tuples(NAMES, st.lists(inner, max_size=5)).map(lambda c: call(c[0], *c[1])),
        st.lists(inner, max_size=5).map(tuple_of),
        st.lists(st.tuples(NAMES, inner), max_size=3).map(
            lambda pairs: Bracket("{", tuple(Prefixed(f"{key!r}: ", value) for key, value in pairs), "}")),
        st.tuples(operand, st.lists(st.tuples(st.sampled_from(["and", "or", "+"]), operand), min_size=1,
                                    max_size=3)).map(lambda c: chain(c[0], *c[1])),
        st.tuples(st.lists(st.tuples(operand, operand), max_size=3), operand).map(lambda c: choose(*c)),
    )


EXPRESSIONS = st.recursive(st.one_of(NAMES, TEXTS.map(Text)), _grown, max_leaves=20)


# the recursive strategy's description is long, and hypothesis says so while it writes it
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=300, deadline=None)
@given(EXPRESSIONS, st.sampled_from([0, 4, 8, 12]), st.sampled_from(["", ":"]))
def test_a_statement_laid_out_means_its_one_line_form_within_the_width(node: Node, indent: int, tail: str) -> None:
    laid = statement(Prefixed("result = ", node), indent)
    one = f"result = {flat(node)}"
    assert ast.dump(ast.parse("\n".join(line[indent:] for line in laid))) == ast.dump(ast.parse(one))
    assert all(width(line) <= WIDTH for line in laid)
    if tail:
        head = statement(Prefixed("if ", node), indent, tail)
        assert ast.dump(ast.parse("\n".join(line[indent:] for line in head) + "\n    pass")) == \
            ast.dump(ast.parse(f"if {flat(node)}:\n    pass"))


def test_a_table_keeps_a_line_per_item_and_its_comments() -> None:
    table = Bracket("{", (Prefixed("-30: ", Bracket("(", ("a",), ")", single=True, broken=True, comment="X")),), "}",
                    broken=True)
    assert statement(Prefixed("T = ", table), 0) == ["T = {", "    -30: (  # X", "        a,", "    ),", "}"]


def test_a_comment_that_does_not_fit_goes_above_its_statement() -> None:
    assert statement("x = 1", 4, comment="short") == ["    x = 1  # short"]
    laid = statement("x = 1", 4, comment="word " * 40)
    assert laid[-1] == "    x = 1" and all(line.startswith("    # ") and len(line) <= WIDTH for line in laid[:-1])


def test_dunder_all_and_imports_are_in_ruffs_order() -> None:
    assert dunder_all(["b", "Zeta", "C_X", "a10", "a2", "EXTENSION", "A2B"]) == (
        "A2B", "C_X", "EXTENSION", "Zeta", "a2", "a10", "b")
    assert imports([(".", "errors", "_errors"), ("._state", "Tracker", None), ("._x10", "b", None),
                    ("._x2", "B", None), (".", "_library", None), ("._state", "Refused", "_Refused"),
                    ("._x2", "A_B", None)]) == [
        "from . import _library", "from . import errors as _errors", "from ._state import Refused as _Refused",
        "from ._state import Tracker", "from ._x2 import A_B, B", "from ._x10 import b"]
    names = [(".module", f"Name{i}", None) for i in range(20)]
    assert imports(names) == ["from .module import (", *(f"    Name{i}," for i in range(20)), ")"]


def lengthened(irs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seed IRs with sentences three times as long (quotes, backslashes and wide characters in them), and a
    token, a parameter and a function named at length: what a long-winded text would give."""
    text = json.dumps(irs)
    for old, new in (("CL_D3D11_DEVICE_KHR", "CL_D3D11_DEVICE_" + "VERY_" * 16 + "KHR"),
                     ("d3d_device_source", "d3d_device_source" + "_of_the_call" * 6),
                     ("clCreateFromD3D11BufferKHR", "clCreateFromD3D11" + "Shared" * 12 + "BufferKHR")):
        text = text.replace(old, new)
    longer = json.loads(text)
    for extension in longer:
        for function in extension["functions"]:
            for error in function["errors"]:
                error["condition"] = " ".join([error["condition"]] * 3) + ' «引用» \\ \'q\' "dq"'
    return list(longer)


def test_a_package_from_long_texts_passes_ruff(seed_result: Result, knowledge: Knowledge, tmp_path: Path) -> None:
    irs = lengthened([ir.to_dict(extension) for extension in seed_result.extensions])
    files = package_files(packaged([*map(from_dict, irs)], knowledge))
    for name, text in files.items():
        if name.endswith(".py"):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
    assert "Shared" * 12 in files["cl_d3d_sharing/khr_d3d11.py"], "the long names are in the code"
    assert lint(tmp_path) == []
