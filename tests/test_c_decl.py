"""C prototypes and typedefs (grammar/c_decl.lark), in the canonical type spelling."""

from __future__ import annotations

import pytest

from generator import c_decl
from generator.errors import InputError
from generator.source import Pos, SpecFile

SPEC = SpecFile("x.h", "")


def parse(text: str) -> list[c_decl.CDeclaration]:
    return c_decl.parse(text, SPEC, Pos(1, 1))


def test_prototype_over_several_lines() -> None:
    (function,) = parse("cl_int clFoo(cl_command_queue queue,\n    const cl_mem *objects,\n    cl_event *event)")
    assert isinstance(function, c_decl.CFunction)
    assert (function.name, function.return_type) == ("clFoo", "cl_int")
    assert [(p.name, p.type) for p in function.params] == [
        ("queue", "cl_command_queue"), ("objects", "const cl_mem *"), ("event", "cl_event *")]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("const cl_mem *mem_objects", ("const cl_mem *", "mem_objects")),
        ("cl_mem const* mem_objects", ("const cl_mem *", "mem_objects")),
        ("void **p", ("void * *", "p")),
        ("unsigned int count", ("unsigned int", "count")),
        ("unsigned int", ("unsigned int", None)),
        ("cl_int *", ("cl_int *", None)),
        ("ID3D10Buffer*resource", ("ID3D10Buffer *", "resource")),
    ],
)
def test_canonical_spelling(words: str, expected: tuple[str, str | None]) -> None:
    (function,) = parse(f"void f({words})")
    assert isinstance(function, c_decl.CFunction)
    assert (function.params[0].type, function.params[0].name) == expected


def test_void_parameter_list_and_several_declarations() -> None:
    first, second, third = parse("cl_mem f(void); typedef cl_uint cl_thing_khr; int g(int a)")
    assert isinstance(first, c_decl.CFunction) and first.params == ()
    assert second == c_decl.CTypedef("cl_thing_khr", "cl_uint", Pos(1, 17))
    assert isinstance(third, c_decl.CFunction) and third.pos == Pos(1, 47)


def test_canonical_type_text() -> None:
    assert c_decl.canonical_type_text("ID3D10Device*") == "ID3D10Device *"
    assert c_decl.canonical_type_text("const  cl_event *") == "const cl_event *"


def test_error_position_is_shifted_to_the_file() -> None:
    spec = SpecFile("specs/x.txt", "line one\n    cl_int f(cl_int a b c,)")
    with pytest.raises(InputError) as caught:
        c_decl.parse("cl_int f(cl_int a b c,)", spec, Pos(2, 5))
    assert caught.value.render() == (
        "specs/x.txt:2:27: error: unexpected ')'; expected one of '*', 'const', identifier\n"
        "        cl_int f(cl_int a b c,)\n"
        "                              ^"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("int f(cl_event event_wa t_list)", "1:7: error: `cl_event event_wa` is not a C type in the prototype of f"),
        ("int f(const)", "1:7: error: a parameter without a type in the prototype of f"),
        ("struct f(int a)", "1:1: error: function prototype without a name"),
        ("long long int f(int a)", None),
    ],
)
def test_words_that_make_no_type(text: str, message: str | None) -> None:
    if message is None:
        assert c_decl.parse(text, SpecFile("x.h", text), Pos(1, 1))
        return
    with pytest.raises(InputError) as caught:
        c_decl.parse(text, SpecFile("x.h", text), Pos(1, 1))
    assert str(caught.value).startswith(f"x.h:{message}")
