"""The template filters that keep spec text out of code."""

from __future__ import annotations

import ast
import time

import pytest

from generator.emission.render import docstring, py, render
from tests.pathological import RATIO_BOUND


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


def test_a_docstring_of_many_lines_takes_linear_time() -> None:
    """A paragraph's lines are joined once per item, not copied once per line: 8 times the lines take far less
    than 20 times as long (a scaling ratio in one run; quadratic work would take 64 times)."""
    def seconds(lines: int) -> float:
        text = "\n".join(["word"] * lines)
        started = time.perf_counter()
        assert docstring(text).count("word") == lines
        return time.perf_counter() - started

    small, large = seconds(50_000), seconds(400_000)
    if large >= RATIO_BOUND * small:  # a burst of the machine's other work: measure again, keep the faster
        small, large = min(small, seconds(50_000)), min(large, seconds(400_000))
    assert large < RATIO_BOUND * small
