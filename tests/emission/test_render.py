"""The template filters that keep spec text out of code."""

from __future__ import annotations

import ast
import textwrap
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.emission.render import _wrap, docstring, py, render, toml
from tests.pathological import FLOOR, RATIO_BOUND
from tests.support import calls_counted, grown


@pytest.mark.parametrize("text", [
    'ends with a quote"', 'has """ three quotes', "a backslash \\ and \\n", "'''single'''",
    'x"""; import os; """',
    "line one\n\nline two", "- item one\n- item two " + "long " * 40,
])
def test_a_docstring_is_one_string_literal_holding_the_text(text: str) -> None:
    literal = docstring(text, 4)
    tree = ast.parse(f"def f():\n    {literal}\n")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef) and len(function.body) == 1
    value = ast.literal_eval(literal)
    assert " ".join(value.split()) == " ".join(text.split())


@pytest.mark.parametrize("value", ["x'y\"z", "a\\b", "\n", None, 3, -1, True])
def test_py_literals_round_trip(value: object) -> None:
    assert ast.literal_eval(py(value)) == value


def test_py_refuses_other_objects() -> None:
    with pytest.raises(TypeError):
        py([1])


def test_templates_fail_on_undefined_names() -> None:
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        render("package/errors.py.j2")


def test_a_docstring_of_many_lines_takes_linear_work() -> None:
    """8 times the lines: no function called more than RATIO_BOUND times as often (quadratic work, 64 times).
    Counted, not timed; the copying of a line's text inside one call, which no count sees (each item's lines
    were once copied per line), is timed by `make bench --only linear`."""
    def counted(lines: int) -> dict[str, int]:
        text = "\n".join(["word"] * lines)
        with calls_counted() as calls:
            assert docstring(text).count("word") == lines
        return calls

    assert grown(counted(50_000), counted(400_000), RATIO_BOUND, FLOOR) == []


_WORDS = st.lists(st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=30)
                  | st.sampled_from(["-", "- ", "a-b", "x" * 120]), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_WORDS, st.booleans(), st.integers(5, 100))
def test_a_wrapped_item_is_what_textwrap_makes_of_it(words: list[str], bullet: bool, width: int) -> None:
    """Words are never broken, hyphens neither; a bullet's continuation lines stand under its text."""
    item = ("- " if bullet else "") + " \u00a0 ".join(words)
    indent = "  " if item.startswith("- ") else ""
    expected = "\n".join(textwrap.wrap(" ".join(item.split()), width, subsequent_indent=indent,
                                       break_long_words=False, break_on_hyphens=False)) or item
    assert _wrap(item, width) == expected


@given(st.text())
def test_a_toml_string_reads_back_as_the_text(text: str) -> None:
    assert tomllib.loads(f"value = {toml(text)}")["value"] == text


def test_a_toml_string_escapes_only_what_toml_requires() -> None:
    assert toml("cffi>=1.16 & <2") == '"cffi>=1.16 & <2"'
    assert toml('a "b" \\ \x7f \U0001F600') == '"a \\"b\\" \\\\ \\u007F \U0001F600"'
