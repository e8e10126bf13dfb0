"""cffi out-of-line ABI modules from the cdef texts, made at generation time.

The package then needs no C compiler to install or import: each module is plain
Python that hands cffi's backend the parsed declarations. Each extension's
module includes the core one, so handles are one type everywhere.
"""

from __future__ import annotations

import io

import cffi
from cffi.recompiler import make_py_source

from generator.base.errors import InputError


def out_of_line(package: str, core_cdef: str, extension_cdefs: dict[str, str]) -> dict[str, str]:
    """`_core_ffi` and `_<module>_ffi` of the package: module file name -> Python source."""
    core = _ffi(f"{package}._core_ffi", core_cdef, "core declarations")
    sources = {"_core_ffi.py": _source(core)}
    for module, cdef in sorted(extension_cdefs.items()):
        builder = _ffi(f"{package}._{module}_ffi", cdef, f"declarations of {module}", include=core)
        sources[f"_{module}_ffi.py"] = _source(builder)
    return sources


def _ffi(name: str, cdef: str, what: str, include: cffi.FFI | None = None) -> cffi.FFI:
    builder = cffi.FFI()
    if include is not None:
        builder.include(include)
    try:
        builder.cdef(cdef)
    except (cffi.CDefError, cffi.FFIError) as error:  # a type the specs declare that C cannot parse
        raise InputError(name, None, f"the {what} do not parse as C: {error}") from None
    builder.set_source(name, None)
    return builder


def _source(builder: cffi.FFI) -> str:
    text = io.StringIO()
    make_py_source(builder, builder._assigned_source[0], text)  # type: ignore[attr-defined]
    return text.getvalue()
