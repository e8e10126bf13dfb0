"""C declarations that cffi would be the first to refuse, or recurse on: an error at the declaration.

Each case is the seed with one hostile edit, run through `python -m generator generate` (see `seed.py`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.seed import SEED_NAME, Generate, edited, error_at
from tests.support import ROOT, CliRun

# -- C declarations: what cffi would be the first to refuse, or recurse on -----------------------

def generate_in_child(tmp_path: Path, text: str) -> CliRun:
    """As `generate`, in a new interpreter bounded in time: for what could recurse past Python's stack or hang."""
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / SEED_NAME).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", "specs", "--out", "out"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    return CliRun(done.returncode, done.stdout, done.stderr)


NEW_TYPES = "New Types\n\n    typedef {a};\n\n    typedef {b};\n\nNew Tokens\n"


def with_typedefs(a: str, b: str, *, use_b: bool = True) -> str:
    """The seed with two typedefs (lines 70 and 72), `flags` of clCreateFromD3D10BufferNV of type cl_widget_a_nv
    and (`use_b`) `subresource` of clCreateFromD3D10Texture2DNV of type cl_widget_b_nv."""
    text = edited("New Tokens\n", NEW_TYPES.format(a=a, b=b))
    text = text.replace("cl_mem_flags flags,\n        ID3D10Buffer", "cl_widget_a_nv flags,\n        ID3D10Buffer", 1)
    return text.replace("UINT subresource", "cl_widget_b_nv subresource", 1) if use_b else text


@pytest.mark.parametrize(("a", "b", "line", "loop"), [
    ("cl_widget_b_nv cl_widget_a_nv", "cl_widget_a_nv cl_widget_b_nv", 72,
     "typedef cl_widget_b_nv is made of itself (cl_widget_a_nv -> cl_widget_b_nv -> cl_widget_a_nv)"),
    ("cl_widget_a_nv * cl_widget_a_nv", "cl_uint cl_widget_b_nv", 70,
     "typedef cl_widget_a_nv is made of itself (cl_widget_a_nv -> cl_widget_a_nv)"),
])
def test_a_typedef_cycle_is_an_error_at_the_typedef_that_closes_it(tmp_path: Path, a: str, b: str, line: int,
                                                                   loop: str) -> None:
    """Both types used: the package's ordering recursed until Python's stack ran out (a traceback); one used: cffi
    said "Missing type in declaration" of a cdef line, naming no spec."""
    run = generate_in_child(tmp_path, with_typedefs(a, b))
    assert error_at(run, line, 5) == f"{loop}: it defines no type"
    assert not (tmp_path / "out").exists()


def test_a_typedef_of_a_typedef_is_declared_after_it(generate: Generate, out: Path) -> None:
    """cffi refused the cdef ("Missing type in declaration"): only the types the prototypes use were declared."""
    run = generate(with_typedefs("cl_widget_b_nv * cl_widget_a_nv", "cl_uint cl_widget_b_nv", use_b=False))
    assert run.status == 0, run.err
    cdef = (out / "cl_d3d_sharing" / "_cdef" / "nv_d3d10.h").read_text(encoding="utf-8")
    assert cdef.index("typedef cl_uint cl_widget_b_nv;") < cdef.index("typedef cl_widget_b_nv * cl_widget_a_nv;")


@pytest.mark.parametrize("c_type", ["struct cl_widget_tag *", "unsigned int", "const volatile float"])
def test_a_typedef_of_what_c_itself_makes_is_declared_as_it_is(generate: Generate, out: Path, c_type: str) -> None:
    run = generate(with_typedefs(f"{c_type} cl_widget_a_nv", "cl_uint cl_widget_b_nv", use_b=False))
    assert run.status == 0, run.err
    cdef = (out / "cl_d3d_sharing" / "_cdef" / "nv_d3d10.h").read_text(encoding="utf-8")
    assert f"typedef {c_type} cl_widget_a_nv;" in cdef
    assert f"type {c_type.removeprefix('const ').rstrip(' *')} is used but never defined" not in run.err


def test_hundreds_of_pointer_levels_are_an_error_at_the_first_one_too_many(tmp_path: Path) -> None:
    """cffi walks a type one level per call: 500 levels exhausted Python's stack (a RecursionError traceback)."""
    run = generate_in_child(tmp_path, edited("ID3D10Buffer *resource,", "ID3D10Buffer " + "*" * 500 + "resource,"))
    assert error_at(run, 35, 34).startswith("500 pointer levels in the declaration of parameter resource of "
                                            "clCreateFromD3D10BufferNV; C declarations take 12 at most")


def test_pointer_levels_piled_up_through_typedefs_are_an_error(tmp_path: Path) -> None:
    run = generate_in_child(tmp_path, with_typedefs("cl_widget_b_nv " + "*" * 8 + " cl_widget_a_nv",
                                                    "cl_uint " + "*" * 8 + " cl_widget_b_nv"))
    assert error_at(run, 70, 5).startswith("typedef cl_widget_a_nv: 16 pointer levels, counted through the typedefs")


@pytest.mark.parametrize(("name", "column"), [("register", 22), ("restrict", 22), ("struct", 22), ("sizeof", 22),
                                              ("_Bool", 22), ("__stdcall", 22)])
def test_a_parameter_named_like_a_c_keyword_is_an_error_where_it_stands(generate: Generate, out: Path, name: str,
                                                                       column: int) -> None:
    """`register`, `restrict` passed: cffi read them as qualifiers of a nameless parameter (a wrong binding); for
    `struct`, `sizeof` it refused the cdef with an error that named no spec."""
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", f"cl_mem_flags {name},\n        ID3D10Buffer"))
    message = error_at(run, 34, column)
    assert message.startswith(f"{name!r} is ") and message.endswith("it cannot name a parameter of "
                                                                     "clCreateFromD3D10BufferNV")
    assert not out.exists()


def test_a_type_named_like_a_c_keyword_is_an_error_where_it_stands(generate: Generate) -> None:
    assert error_at(generate(with_typedefs("cl_uint register", "cl_uint cl_widget_b_nv")), 70, 21) == \
        "'register' is a C keyword; it cannot name a type"


@pytest.mark.parametrize(("c_type", "message"), [
    ("void", "takes a value of type void, which has no size"),
    ("const void", "takes a value of type const void, which has no size"),
    ("ID3D10Buffer", "takes a ID3D10Buffer by value, an opaque type whose size C does not know"),
])
def test_a_parameter_of_a_type_without_a_size_is_an_error(generate: Generate, c_type: str, message: str) -> None:
    """cffi took `void flags` in the cdef, and the generated package failed when it first called the function."""
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", f"{c_type} flags,\n        ID3D10Buffer"))
    assert error_at(run, 32) == f"clCreateFromD3D10BufferNV: parameter 'flags' {message}: C passes only a pointer to it"


def test_a_type_defined_nowhere_is_an_error_at_its_function(generate: Generate) -> None:
    """Found by the fuzzer (a spec cut short): cffi refused the declarations, and the error named no spec."""
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", "cl_widget_nv flags,\n        ID3D10Buffer"))
    assert "clCreateFromD3D10BufferNV: the type cl_widget_nv of parameter 'flags' is defined nowhere" in \
        error_at(run, 32)
