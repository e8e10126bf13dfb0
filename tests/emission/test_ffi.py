"""cffi out-of-line modules made at generation time."""

from __future__ import annotations

import ast
import io

import cffi
import pytest
from cffi.recompiler import make_py_source

from generator.base.errors import InputError
from generator.emission.ffi import out_of_line


def test_each_extension_module_includes_the_core_one() -> None:
    sources = out_of_line("pkg", "typedef int cl_int; typedef struct _h * cl_h;",
                          {"ext": "typedef cl_int (__stdcall *f_fn)(cl_h);"})
    assert sorted(sources) == ["_core_ffi.py", "_ext_ffi.py"]
    assert "from pkg._core_ffi import ffi as _ffi0" in sources["_ext_ffi.py"]
    namespace: dict[str, object] = {}
    exec(compile(sources["_core_ffi.py"], "_core_ffi.py", "exec"), namespace)
    ffi = namespace["ffi"]
    assert ffi.sizeof("cl_int") == 4  # type: ignore[attr-defined]


def test_declarations_c_cannot_parse_are_an_input_error() -> None:
    with pytest.raises(InputError, match="the declarations of ext do not parse as C"):
        out_of_line("pkg", "typedef int cl_int;", {"ext": "typedef cl_int (*f_fn)(unknown_t x);"})


def test_the_modules_are_cffis_laid_out_within_the_line_length() -> None:
    """cffi writes each table of declarations on one line; the package's module is the same call with the same
    values, over lines of at most 120 characters."""
    core = "typedef int cl_int; " + " ".join(f"typedef struct _h{i} * cl_handle_{i};" for i in range(200))
    ext = " ".join(f"typedef cl_int (*f{i}_fn)(cl_handle_{i});" for i in range(100))
    sources = out_of_line("pkg", core, {"ext": ext})
    for name, cdef, include in (("_core_ffi", core, None), ("_ext_ffi", ext, core)):
        builder = cffi.FFI()
        if include is not None:
            included = cffi.FFI()
            included.cdef(include)
            included.set_source("pkg._core_ffi", None)
            builder.include(included)
        builder.cdef(cdef)
        builder.set_source(f"pkg.{name}", None)
        written = io.StringIO()
        make_py_source(builder, f"pkg.{name}", written)
        assert max(len(line) for line in written.getvalue().splitlines()) > 1000
        assert max(len(line) for line in sources[f"{name}.py"].splitlines()) <= 120
        assert _call(sources[f"{name}.py"]) == _call(written.getvalue())


def _call(source: str) -> tuple[object, ...]:
    """The module's imports, and the call that makes its `ffi` with the value of each argument."""
    *imports, made = ast.parse(source).body
    assert isinstance(made, ast.Assign) and isinstance(made.value, ast.Call)
    values = {keyword.arg: ast.literal_eval(keyword.value) if _literal(keyword.value) else ast.dump(keyword.value)
              for keyword in made.value.keywords}
    return [ast.dump(node) for node in imports], ast.dump(made.value.func), ast.dump(made.value.args[0]), values


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True
