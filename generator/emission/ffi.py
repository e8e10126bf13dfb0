"""cffi out-of-line ABI modules from the cdef texts, made at generation time.

The package then needs no C compiler to install or import: each module is plain
Python that hands cffi's backend the parsed declarations. Each extension's
module includes the core one, so handles are one type everywhere.
"""

from __future__ import annotations

import ast
import io
import pprint

import cffi
from cffi.recompiler import make_py_source

from generator.base.errors import InputError
from generator.emission.layout import STEP, WIDTH


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
    return laid_out(text.getvalue())


def laid_out(source: str) -> str:
    """cffi's module within the package's line length, its imports as ruff's isort orders them: cffi writes the
    parsed declarations as one literal per line, thousands of characters long; `pprint` writes the same values
    over lines (a bytes literal as adjacent literals, a tuple a few items a line). A keyword whose line fits is
    kept as cffi wrote it (`_version` in hexadecimal). The module means what cffi's did: the same imports and
    the same call with the same values."""
    tree = ast.parse(source)
    *imported, made = tree.body
    if not (isinstance(made, ast.Assign) and isinstance(made.value, ast.Call) and len(made.value.args) == 1
            and all(isinstance(node, ast.Import | ast.ImportFrom) for node in imported)):
        raise AssertionError("cffi's out-of-line module is no longer imports and one call")
    call = made.value
    written_lines = source.split("\n")  # cffi writes one keyword a line; `ast.get_source_segment` splits per call
    lines = [written_lines[0]]  # cffi's own comment: an auto-generated file
    for kind in (ast.Import, ast.ImportFrom):  # the third-party `_cffi_backend`, then the package's core module
        section = [ast.unparse(node) for node in imported if isinstance(node, kind)]
        lines += ["", *section] if section and len(lines) > 1 else section
    lines += ["", f"{ast.unparse(made.targets[0])} = {ast.unparse(call.func)}(",
              f"{' ' * STEP}{ast.unparse(call.args[0])},"]
    for keyword in call.keywords:
        lead = f"{' ' * STEP}{keyword.arg}="
        value = keyword.value
        end = value.end_col_offset if value.end_lineno == value.lineno else None
        if end is not None and len(lead) + end - value.col_offset < WIDTH:  # offsets count UTF-8 bytes
            written = written_lines[value.lineno - 1].encode()[value.col_offset:end].decode()
            lines.append(f"{lead}{written},")
            continue
        value_text = pprint.pformat(ast.literal_eval(value), width=WIDTH - len(lead) - 1, compact=True)
        lines += [lead + value_text.replace("\n", "\n" + " " * len(lead)) + ","]
    return "\n".join([*lines, ")", ""])
