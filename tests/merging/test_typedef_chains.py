"""Typedef chains (generator/merging/typedef_chains.py): followed without recursion, loops and depth refused."""

from __future__ import annotations

import pytest

from generator.base.c_decl import CParam, CTypedef
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


def structs(*held: tuple[str, str]) -> dict[str, DeclaredType]:
    """`(name, member type)` pairs as structs of one member, declared on lines 10, 11, ... of specs/x.txt."""
    return {name: DeclaredType(CTypedef(name, f"struct _{name}", Pos(10 + i, 5), "struct",
                                        (CParam("inner", member),)),
                               Location("specs/x.txt", Pos(10 + i, 5)))
            for i, (name, member) in enumerate(held)}


def test_structs_held_by_value_past_c_s_nesting_are_refused_at_the_first_too_deep() -> None:
    """A thousand structs each holding the next took cffi past Python's stack: a traceback, exit 1."""
    most = LANGUAGE.struct_nesting
    chain = [(f"cl_s{i}", f"cl_s{i + 1}") for i in range(most + 9)] + [(f"cl_s{most + 9}", "cl_uint")]
    with pytest.raises(InputError, match=rf"typedef cl_s9: structs held by value {most + 1} deep; C declarations "
                       rf"take {most} at most") as refused:
        typedef_chains.with_parts({"cl_s0": USE}, structs(*chain), LANGUAGE)
    assert refused.value.pos == Pos(19, 5)
    pointed = [(name, f"{member} *" if i == most - 1 else member) for i, (name, member) in enumerate(chain)]
    assert "cl_s0" in typedef_chains.with_parts({"cl_s0": USE}, structs(*pointed), LANGUAGE)  # a pointer: no depth
    aliased = [("cl_s0", "cl_alias"), ("cl_alias", "cl_s0")]  # a typedef that only renames is followed through
    with pytest.raises(InputError, match=r"typedef cl_s0 holds itself by value \(cl_s0 -> cl_s0\)"):
        typedef_chains.with_parts({"cl_s0": USE}, {**structs(aliased[0]), **typedefs(("cl_alias", "cl_s0"))},
                                  LANGUAGE)
