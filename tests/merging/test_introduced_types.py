"""The types an extension introduces: those its texts declare, and those it uses beyond core OpenCL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.ir import read
from tests.samples import WIDGET
from tests.support import CliRun, generate_texts


def _generated(tmp_path: Path, text: str) -> pipeline.Result:
    (tmp_path / "widget.txt").write_text(text, encoding="utf-8")
    return pipeline.run(tmp_path)


def test_an_undefined_type_used_only_behind_a_pointer_is_opaque(tmp_path: Path) -> None:
    text = WIDGET.replace("UINT level)", "UINT level,\n                          const cl_gizmo_acme *gizmos)", 1)
    result = _generated(tmp_path, text)
    (extension,) = result.extensions
    types = {t.name: (t.kind, t.c_type, t.defined) for t in extension.types}
    assert types["cl_gizmo_acme"] == ("opaque", None, False)
    assert any(d.kind == "undefined-type" and "cl_gizmo_acme" in d.message and "only pointers" in d.message
               for d in result.diagnostics)


def test_an_undefined_type_passed_by_value_is_not_opaque(tmp_path: Path) -> None:
    text = WIDGET.replace("UINT level)", "UINT level,\n                          cl_gizmo_acme gizmo)", 1)
    result = _generated(tmp_path, text)
    (extension,) = result.extensions
    assert {t.name: t.kind for t in extension.types}["cl_gizmo_acme"] == "typedef"


def test_a_callbacks_argument_types_are_types_the_extension_uses(tmp_path: Path) -> None:
    text = WIDGET.replace("UINT level)", "UINT level,\n                          void (CL_CALLBACK *notify)("
                          "cl_gizmo_acme *, void *))", 1)
    (extension,) = _generated(tmp_path, text).extensions
    assert {t.name: t.kind for t in extension.types}["cl_gizmo_acme"] == "opaque"


def test_every_typedef_of_the_text_is_kept_structs_with_their_members(tmp_path: Path) -> None:
    text = WIDGET.replace("New Tokens\n", "New Types\n\n    typedef struct _cl_thing_acme\n    {\n"
                          "        cl_uint kind;\n\n        cl_uint sizes[4];\n    } cl_thing_acme;\n\n"
                          "    typedef enum { CL_LOOK_A_ACME = 0x7010, CL_LOOK_B_ACME } cl_look_acme;\n\n"
                          "New Tokens\n", 1)
    result = _generated(tmp_path, text)
    (extension,) = result.extensions
    types = {t.name: t for t in extension.types}
    assert (types["cl_thing_acme"].c_type, types["cl_thing_acme"].members) == (
        "struct _cl_thing_acme", (("kind", "cl_uint"), ("sizes", "cl_uint [4]")))
    assert (types["cl_look_acme"].kind, types["cl_look_acme"].c_type) == ("enum", "int")
    assert {t.name: t.value for t in extension.tokens}["CL_LOOK_B_ACME"] == 0x7011


# -- a type declared twice: diagnostics naming both places, never "the first/last wins" in silence ----------

def _types(old: str) -> str:
    return WIDGET.replace("New Tokens\n", f"New Types\n\n{old}\nNew Tokens\n")


@pytest.mark.parametrize(("first", "second", "said"), [
    ("typedef cl_uint cl_widget_mode_acme;", "typedef cl_int cl_widget_mode_acme;",
     "`cl_int` but at {at} as `cl_uint`"),
    ("typedef struct _w { cl_uint a; } cl_widget_mode_acme;", "typedef struct _w { cl_int a; } cl_widget_mode_acme;",
     "`struct _w { cl_int a }` but at {at} as `struct _w { cl_uint a }`"),
])
def test_one_text_declaring_a_type_two_ways_is_an_input_error(first: str, second: str, said: str, tmp_path: Path,
                                                              main: Callable[..., CliRun]) -> None:
    """The last declaration won in silence. (A tagged type named, then spelt out, is one type.)"""
    run = generate_texts(tmp_path, main, {"w.txt": _types(f"    {first}\n\n    {second}\n")})
    assert run.status == 2, run.err
    assert run.err.splitlines()[0] == (f"specs/w.txt:19:5: error: type cl_widget_mode_acme is declared here as "
                                       f"{said.replace('{at}', 'specs/w.txt:17:5')}: which one the text means, it does "
                                       "not tell")
    completed = tmp_path / "completed"
    completed.mkdir()
    run = generate_texts(completed, main, {"w.txt": _types("    typedef struct _w cl_widget_mode_acme;\n\n"
                                                 "    typedef struct _w { cl_uint a; } cl_widget_mode_acme;\n")})
    assert run.status == 0, run.err
    (declared,) = [t for t in read.load(completed / "out" / "ir" / "cl_acme_widget.yaml").types
                   if t.name == "cl_widget_mode_acme"]
    assert declared.members == (("a", "cl_uint"),)


def test_another_text_declaring_a_type_otherwise_is_a_warning_and_the_first_is_used(
        tmp_path: Path, main: Callable[..., CliRun]) -> None:
    run = generate_texts(tmp_path, main, {"a.txt": _types("    typedef cl_uint cl_widget_mode_acme;\n"),
                                "b.txt": _types("    typedef cl_int cl_widget_mode_acme;\n")})
    assert run.status == 0, run.err
    assert ("specs/b.txt:17: warning: type cl_widget_mode_acme is declared here as `cl_int` but at specs/a.txt:17:5 "
            "as `cl_uint`, which is used") in run.err
    (declared,) = [t for t in read.load(tmp_path / "out" / "ir" / "cl_acme_widget.yaml").types
                   if t.name == "cl_widget_mode_acme"]
    assert declared.c_type == "cl_uint"
