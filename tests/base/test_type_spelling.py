"""One spelling for each C type (generator/base/type_spelling.py), and what a spelling is made of."""

from __future__ import annotations

import pytest

from generator.base import type_spelling


def test_canonical_type_text() -> None:
    assert type_spelling.canonical_type_text("ID3D10Device*") == "ID3D10Device *"
    assert type_spelling.canonical_type_text("const  cl_event *") == "const cl_event *"
    assert type_spelling.canonical_type_text("cl_mem const*") == "const cl_mem *"


@pytest.mark.parametrize(("words", "split"), [
    (["const", "cl_mem", "*", "objects"], ("const cl_mem *", "objects")),
    (["unsigned", "int"], ("unsigned int", None)),  # a prefix and its type name nothing
    (["cl_uint", "*", "*", "out"], ("cl_uint * *", "out")),
    (["void"], ("void", None)),
])
def test_split_declarator(words: list[str], split: tuple[str, str | None]) -> None:
    assert type_spelling.split_declarator(words) == split


def test_what_a_spelling_is_made_of() -> None:
    callback = "void ( * )(void *, const char *, cl_uint)"
    assert type_spelling.parts(callback) == ["void", "void *", "const char *", "cl_uint"]
    assert [type_spelling.base_type(part) for part in type_spelling.parts(callback)] == ["void", "void", "char",
                                                                                           "cl_uint"]
    assert type_spelling.base_type("cl_uint [4]") == "cl_uint"
    assert type_spelling.base_type("const cl_mem *") == "cl_mem"
    assert type_spelling.parts("void ( * )(void)") == ["void"]


@pytest.mark.parametrize(("c_type", "problem"), [
    ("cl_event", None), ("unsigned long", None), ("struct _cl_x *", None), ("const *", "a parameter without a type"),
    ("", "a parameter without a type"), ("cl_event event_wa", "`cl_event event_wa` is not a C type"),
    ("unsigned struct", "`unsigned struct` is not a C type"),
])
def test_type_problem(c_type: str, problem: str | None) -> None:
    assert type_spelling.type_problem(c_type) == problem
