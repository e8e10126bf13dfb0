"""Typedef chains (generator/merging/typedef_chains.py): followed without recursion, loops and depth refused."""

from __future__ import annotations

import pytest

from generator.base.c_decl import CTypedef
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.knowledge import load
from generator.base.source import Pos
from generator.extraction.facts import DeclaredType
from generator.merging import typedef_chains

USE = Location("specs/x.txt", Pos(1, 1))
LANGUAGE = load().c_language


def typedefs(*pairs: tuple[str, str]) -> dict[str, DeclaredType]:
    """`(name, c_type)` pairs as typedefs declared on lines 10, 11, ... of specs/x.txt."""
    return {name: DeclaredType(CTypedef(name, c_type, Pos(10 + i, 5)), Location("specs/x.txt", Pos(10 + i, 5)))
            for i, (name, c_type) in enumerate(pairs)}


def test_the_types_a_typedef_is_made_of_are_used_too() -> None:
    """A typedef of another typedef left the inner one out of the cdef: cffi refused it ("Missing type")."""
    declared = typedefs(("cl_a", "const cl_b *"), ("cl_b", "cl_c"), ("cl_c", "cl_uint"), ("cl_unused", "cl_int"))
    found = typedef_chains.with_parts({"cl_a": USE}, declared, LANGUAGE)
    assert found == {"cl_a": USE, "cl_b": declared["cl_a"].where, "cl_c": declared["cl_b"].where,
                     "cl_uint": declared["cl_c"].where}


def test_what_c_itself_makes_is_no_part_to_declare() -> None:
    declared = typedefs(("cl_a", "unsigned long"), ("cl_b", "struct cl_tag *"), ("cl_c", "cl_a"))
    found = typedef_chains.with_parts({"cl_b": USE, "cl_c": USE}, declared, LANGUAGE)
    assert found == {"cl_b": USE, "cl_c": USE, "cl_a": declared["cl_c"].where}


@pytest.mark.parametrize(("pairs", "line", "loop"), [
    ((("cl_a", "cl_a"),), 10, "typedef cl_a is made of itself (cl_a -> cl_a)"),
    ((("cl_a", "cl_b *"), ("cl_b", "const cl_a")), 11, "typedef cl_b is made of itself (cl_a -> cl_b -> cl_a)"),
    ((("cl_x", "cl_a"), ("cl_a", "cl_b"), ("cl_b", "cl_a")), 12,
     "typedef cl_b is made of itself (cl_a -> cl_b -> cl_a)"),
])
def test_a_loop_is_an_error_at_the_typedef_that_closes_it(pairs: tuple[tuple[str, str], ...], line: int,
                                                           loop: str) -> None:
    """Two typedefs of each other made the package's ordering recurse until Python's stack ran out."""
    with pytest.raises(InputError) as caught:
        typedef_chains.with_parts({"cl_x": USE}, typedefs(*pairs), LANGUAGE)
    assert (caught.value.pos, caught.value.message) == (Pos(line, 5), f"{loop}: it defines no type")


def test_a_long_loop_is_shown_by_its_ends() -> None:
    count = 5000
    declared = typedefs(*((f"cl_t{i}", f"cl_t{(i + 1) % count}") for i in range(count)))
    with pytest.raises(InputError) as caught:
        typedef_chains.check(declared, 12)
    assert caught.value.message == (f"typedef cl_t{count - 1} is made of itself (cl_t0 -> cl_t1 -> cl_t2 -> "
                                    f"... {count - 4} more ... -> cl_t{count - 1} -> cl_t0): it defines no type")


def test_each_loop_is_reported_once() -> None:
    declared = typedefs(("cl_a", "cl_b"), ("cl_b", "cl_a"), ("cl_c", "cl_c"), ("cl_d", "cl_a"))
    with pytest.raises(InputError) as caught:
        typedef_chains.check(declared, 12)
    assert [e.pos for e in caught.value.all] == [Pos(11, 5), Pos(12, 5)]


def test_pointer_levels_are_counted_down_the_chain() -> None:
    declared = typedefs(("cl_a", "cl_b * * * *"), ("cl_b", "cl_c * * * *"), ("cl_c", "cl_uint * * * *"),
                        ("cl_d", "cl_a *"))
    typedef_chains.check({k: v for k, v in declared.items() if k != "cl_d"}, 12)  # 12 levels: taken
    with pytest.raises(InputError) as caught:
        typedef_chains.check(declared, 12)
    assert caught.value.pos == Pos(13, 5)
    assert caught.value.message.startswith("typedef cl_d: 13 pointer levels, counted through the typedefs")


def test_a_chain_of_twenty_thousand_typedefs_is_followed_without_recursion() -> None:
    count = 20_000
    declared = typedefs(*((f"cl_t{i}", f"cl_t{i + 1}") for i in range(count)), (f"cl_t{count}", "cl_uint"))
    found = typedef_chains.with_parts({"cl_t0": USE}, declared, LANGUAGE)
    assert len(found) == count + 2
