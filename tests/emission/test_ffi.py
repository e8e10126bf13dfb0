"""cffi out-of-line modules made at generation time."""

from __future__ import annotations

import pytest

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
