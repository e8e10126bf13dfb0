"""Names in a spec that no C compiler, no Python module or no file system could take, or that would take
the place of the generated package's own: each is an error where it stands.

Each case is the seed with one hostile edit, run through `python -m generator generate` (see `seed.py`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.seed import SEED, Generate, compiles, edited, error_at
from tests.support import SPECS

# -- names that are no C identifiers ---------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "line", "column", "message"), [
    ("clCreateFromD3D10BufferNV(", "clCreateFrom-D3D10BufferNV(", 32, 25, "unexpected operator '-'"),
    ("ID3D10Buffer *resource,", "ID3D10Buffer *res$ource,", 35, 26, "unexpected character '$'"),
    ("cl_mem  clCreateFromD3D10BufferNV(", "cl_mem  clCreateFromD3D10BufferNVé(", 32, 38, "unexpected character 'é'"),
    ("    cl_int clGetDeviceIDsFromD3D10NV(", "    cl_int clGetDeviceIDsFromD3D10NV\"+os(", 23, 37,
     "unexpected character '\"'"),
])
def test_a_name_that_is_no_c_identifier_is_an_error_where_it_stands(
    generate: Generate, out: Path, old: str, new: str, line: int, column: int, message: str
) -> None:
    assert message in error_at(generate(edited(old, new)), line, column)
    assert not out.exists(), "nothing written"


@pytest.mark.parametrize("name", ["ffi", "class", "cl_d3d10_device_nv", "CL_D3D10_DEVICE_NV;import os"])
def test_a_token_line_whose_name_is_no_token_name_is_an_error(generate: Generate, name: str) -> None:
    """Read as prose, the block's other tokens would be lost without a word; it stops at the line instead."""
    run = generate(edited("CL_D3D10_DEVICE_NV                     0x4010", f"{name}                     0x4010"))
    assert "is not a token name" in error_at(run, 73, 9)


# -- names Python could not use, or that would hide the generated code's own ----------------------

@pytest.mark.parametrize(("name", "message"), [
    ("lambda", "parameter 'lambda' cannot be a Python name"),
    ("None", "parameter 'None' cannot be a Python name"),
    ("ffi", "parameter 'ffi' clashes with the generated module's own 'ffi'"),
    ("code", "parameter 'code' clashes with the generated module's own 'code'"),
    ("len", "parameter 'len' clashes with the generated module's own 'len'"),
    ("_marshal", "parameter '_marshal' starts with an underscore"),
    ("c_resource", "parameter 'c_resource' clashes with the wrapper's own variable for parameter 'resource'"),
])
def test_a_parameter_that_would_break_its_wrapper_is_an_error(generate: Generate, name: str, message: str) -> None:
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", f"cl_mem_flags {name},\n        ID3D10Buffer"))
    assert message in error_at(run, 32)


def test_a_function_whose_python_name_is_taken_is_an_error(generate: Generate) -> None:
    """`clConditionsNV` would become `conditions`, which the module already defines."""
    run = generate(edited("clGetDeviceIDsFromD3D10NV", "clConditionsNV", count=-1))
    assert "Python function 'conditions' clashes with the generated module's own 'conditions'" in error_at(run, 23)


def test_two_functions_with_one_python_name_are_an_error(generate: Generate) -> None:
    """`clCreateFromD3D10Buffer_NV` and `clCreateFromD3D10BufferNV` both snake to `create_from_d3d10_buffer`."""
    text = edited("    cl_mem  clCreateFromD3D10Texture2DNV(", "    cl_mem  clCreateFromD3D10Buffer_NV(")
    run = generate(text)
    assert run.status == 2 and "Traceback" not in run.err
    assert "clashes with the Python function at" in run.err.splitlines()[0], run.err


# -- names that become file names -----------------------------------------------------------------

@pytest.mark.parametrize(("old", "longer", "line", "column", "what"), [
    ("clCreateFromD3D10BufferNV", "clCreateFromD3D10BufferNV" + "X" * 300, 32, 5, "function"),
    ("cl_nv_d3d10_sharing", "cl_nv_d3d10" + "x" * 300 + "_sharing", 3, 5, "extension"),
])
def test_a_name_too_long_for_a_file_name_is_an_error_where_it_stands(generate: Generate, out: Path, old: str,
                                                                      longer: str, line: int, column: int,
                                                                      what: str) -> None:
    """The docs page `<module>/<function>.md` or the module `<extension>.py` could not be written: an OSError
    traceback (File name too long) from the writer."""
    message = error_at(generate(edited(old, longer, count=-1)), line, column)
    assert message.startswith(f"{what} {longer[:40]}... is {len(longer)} bytes long; it names generated files, and "
                              "223 bytes is the most")
    assert not out.exists()


@pytest.mark.parametrize(("old", "longest"), [
    ("clCreateFromD3D10BufferNV", "clCreateFromD3D10BufferNV" + "X" * (223 - 25)),
    ("cl_nv_d3d10_sharing", "cl_nv_d3d10" + "x" * (223 - 19) + "_sharing"),
])
def test_the_longest_name_a_file_takes_is_generated(generate: Generate, out: Path, old: str, longest: str) -> None:
    assert len(longest) == 223
    run = generate(edited(old, longest, count=-1))
    assert run.status == 0, run.err
    compiles(out)
    assert max(len(part) for path in out.rglob("*") for part in path.relative_to(out).parts) <= 255


# -- names that would take the place of the package's own (found by the template review) ---------

def test_an_extension_whose_module_would_replace_a_package_module_is_an_error(generate: Generate) -> None:
    """Two vendors' `cl_<vendor>_errors_sharing` would make a facade module `errors`, replacing errors.py."""
    khr = (SPECS / "cl_khr_d3d10_sharing.txt").read_text(encoding="utf-8")
    run = generate(files={"nv.txt": SEED.replace("cl_nv_d3d10_sharing", "cl_nv_errors_sharing"),
                          "khr.txt": khr.replace("cl_khr_d3d10_sharing", "cl_khr_errors_sharing")})
    assert run.status == 2, run.err
    assert "facade module 'errors' clashes with the generated module's own 'errors'" in run.err.splitlines()[0]


def test_an_error_code_whose_class_would_replace_cl_error_is_an_error(generate: Generate) -> None:
    """`CL_C_L` would become `class CLError(CLError)`, and `except CLError` would stop catching core errors."""
    run = generate(SEED.replace("CL_INVALID_D3D10_DEVICE_NV", "CL_C_L"))
    assert "exception class of CL_C_L 'CLError' clashes with the generated module's own 'CLError'" in \
        error_at(run, 107)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("cl_context context,\n        cl_mem_flags flags,\n        ID3D10Buffer",
     "cl_uint platform,\n        cl_mem_flags flags,\n        ID3D10Buffer", "parameter 'platform' clashes"),
    ("cl_mem_flags flags,\n        ID3D10Buffer", "cl_mem_flags as_pyopencl,\n        ID3D10Buffer",
     "parameter 'as_pyopencl' clashes"),
    ("cl_mem_flags flags,\n        ID3D10Buffer", "cl_mem_flags wait_for,\n        ID3D10Buffer",
     "parameter 'wait_for' clashes"),
    ("cl_mem_flags flags,\n        ID3D10Buffer", "cl_mem_flags clGetDeviceIDsFromD3D10NV,\n        ID3D10Buffer",
     "parameter 'clGetDeviceIDsFromD3D10NV' clashes"),
    ("cl_mem_flags flags,\n        ID3D10Buffer", "cl_mem_flags get_device_ids_from_d3d10,\n        ID3D10Buffer",
     "parameter 'get_device_ids_from_d3d10' clashes"),
])
def test_a_parameter_named_like_a_keyword_or_function_of_the_module_is_an_error(
    generate: Generate, old: str, new: str, message: str
) -> None:
    assert message in error_at(generate(edited(old, new)), 32)


def test_a_parameter_declared_twice_is_an_error(generate: Generate) -> None:
    """Found by the fuzzer: duplicated lines gave a wrapper with two `flags` parameters, which Python refuses."""
    twice = "cl_mem_flags flags,\n        cl_mem_flags flags,\n        ID3D10Buffer"
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", twice))
    assert "parameter 'flags' clashes with the parameter at" in error_at(run, 32)


@pytest.mark.parametrize("name", ["clTypeNV", "clLenNV", "clIssubclassNV", "clRangeNV"])
def test_a_function_whose_python_name_is_a_builtin_is_refused(generate: Generate, name: str) -> None:
    """Its snake_case name (`type`, `len`, ...) would hide the builtin from every wrapper of the module, which
    calls it: each call then ran the spec's function instead (a TypeError that named no parameter)."""
    run = generate(edited("clCreateFromD3D10BufferNV", name, -1))
    assert run.status == 2, run.err
    builtin = name.removeprefix("cl").removesuffix("NV").lower()
    assert f"would hide Python's builtin {builtin!r} from the generated module" in run.err
    assert "Traceback" not in run.err
