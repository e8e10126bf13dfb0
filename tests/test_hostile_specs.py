"""Specs written to break the generator or the code it writes: each ends in a clear error or harmless output.

Every case is the NVIDIA D3D10 seed with one hostile edit, run through
`python -m generator generate` in this process. "Harmless" means: every
generated module compiles, importing the package runs nothing from the spec,
and the spec's text arrives intact where it belongs (a docstring, a tuple).
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.base.errors import InputError
from generator.base.source import MAX_BYTES
from generator.ir import read
from tests.support import ROOT, SPECS, CliRun

SEED = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
SEED_NAME = "cl_nv_d3d10_sharing.txt"

Generate = Callable[..., CliRun]


@pytest.fixture
def generate(tmp_path: Path, main: Callable[..., CliRun]) -> Generate:
    """Write `text` as the only spec (or `files`), run generate into tmp/out; the run's status and output."""

    def run(text: str | None = None, files: dict[str, str | bytes] | None = None) -> CliRun:
        specs = tmp_path / "specs"
        specs.mkdir(exist_ok=True)
        for name, data in (files or {SEED_NAME: text or ""}).items():
            path = specs / name
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)

    return run


def edited(old: str, new: str, count: int = 1) -> str:
    assert SEED.count(old) >= count, old
    return SEED.replace(old, new) if count == -1 else SEED.replace(old, new, count)


def error_at(run: CliRun, line: int, column: int | None = None) -> str:
    """The message of a run that failed cleanly at `line` (and `column`) of the spec."""
    assert run.status == 2, run.err
    first = run.err.splitlines()[0]
    match = re.match(rf"specs/{re.escape(SEED_NAME)}:(\d+):(\d+): error: (.*)", first)
    assert match, first
    assert int(match[1]) == line and (column is None or int(match[2]) == column), first
    assert "Traceback" not in run.err
    return match[3]


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "out"


@pytest.fixture
def imported(out: Path) -> Iterator[Callable[[str], Any]]:
    """Import a module of the package generated into `out` (and forget it afterwards)."""
    before = set(sys.modules)
    sys.path.insert(0, str(out))
    saved = {k: v for k, v in sys.modules.items() if k.split(".")[0] == "cl_d3d_sharing"}
    for name in saved:
        del sys.modules[name]
    yield lambda name: importlib.import_module(f"cl_d3d_sharing.{name}")
    sys.path.remove(str(out))
    for name in set(sys.modules) - before:
        del sys.modules[name]
    sys.modules.update(saved)


def compiles(out: Path) -> None:
    for path in (out / "cl_d3d_sharing").rglob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)


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


# -- prose that would close a string or a docstring ----------------------------------------------

PAYLOAD = '""" + __import__("os").system("touch PWNED") + """ \\ \'\'\' \\x00 {0} %s </script>'


def test_quotes_and_backslashes_in_prose_stay_text(generate: Generate, out: Path, tmp_path: Path,
                                                    imported: Callable[[str], Any],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    text = edited("if the function is executed successfully", f"if the function is executed successfully {PAYLOAD}",
                  count=-1)
    text = text.replace("The goal of this extension", f"The goal {PAYLOAD} of this extension", 1)
    text = text.replace("<resource> is not a Direct3D 10\n    buffer object",
                        f"<resource> is not a Direct3D 10\n    buffer object {PAYLOAD}", 1)
    assert text != SEED
    run = generate(text)
    assert run.status == 0, run.err
    compiles(out)
    monkeypatch.chdir(tmp_path)
    module = imported("nv_d3d10")
    assert not (tmp_path / "PWNED").exists(), "importing ran nothing from the spec"
    docs = " ".join(" ".join(str(getattr(module, name).__doc__ or "").split()) for name in dir(module))
    assert PAYLOAD in docs, "the prose arrives whole in a docstring"
    for page in (out / "docs").rglob("*.md"):
        assert "</script>" not in page.read_text(encoding="utf-8"), page


def test_a_file_name_with_quotes_and_backslashes_stays_text(generate: Generate, out: Path,
                                                             imported: Callable[[str], Any]) -> None:
    name = 'we"ird \'\'\' \\ """ $(touch PWNED).txt'
    run = generate(files={name: SEED})
    assert run.status == 0, run.err
    compiles(out)
    assert yaml.safe_load((out / "mkdocs.yml").read_text(encoding="utf-8"))
    module = imported("nv_d3d10")
    assert (f"specs/{name}",) == module.SOURCES


# -- values a C type cannot hold, and one name with two values ----------------------------------

@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("0x4010", "0x100000000", 73, "CL_D3D10_DEVICE_NV = 4294967296 does not fit cl_d3d10_device_source_nv"),
    ("0x4011", "-1", 74, "CL_D3D10_DXGI_ADAPTER_NV = -1 does not fit cl_d3d10_device_source_nv (0..4294967295)"),
    ("-1002", "-2147483649", 107, "CL_INVALID_D3D10_DEVICE_NV = -2147483649 does not fit cl_int"),
    ("0x4015", "0x1" + "0" * 40, 90, "CL_MEM_D3D10_RESOURCE_NV = 0x100000000000000000...00000000 (43 characters) "
     "does not fit a 64-bit C integer"),
])
def test_a_token_value_out_of_its_types_range_is_an_error(generate: Generate, old: str, new: str, line: int,
                                                           message: str) -> None:
    assert message in error_at(generate(edited(old, new)), line)


@pytest.mark.parametrize("literal", ["1" * 5000, "0x" + "F" * 5000, "-" + "9" * 4301])
def test_a_token_value_of_thousands_of_digits_is_an_error_at_the_token(generate: Generate, out: Path,
                                                                      literal: str) -> None:
    """Past Python's int-string limit (4,300 digits) the run ended in a ValueError traceback."""
    message = error_at(generate(edited("0x4010", literal)), 73, 9)
    assert message.startswith("CL_D3D10_DEVICE_NV = ") and "characters) does not fit a 64-bit C integer" in message
    assert not out.exists()


def test_the_extremes_of_a_tokens_type_are_accepted(generate: Generate, out: Path,
                                                     imported: Callable[[str], Any]) -> None:
    run = generate(edited("0x4011", "0xFFFFFFFF"))
    assert run.status == 0, run.err
    assert imported("nv_d3d10").CL_D3D10_DXGI_ADAPTER_NV == 0xFFFFFFFF


def test_one_text_giving_a_token_two_values_is_an_error(generate: Generate) -> None:
    run = generate(edited("CL_D3D10_DXGI_ADAPTER_NV               0x4011", "CL_D3D10_DEVICE_NV               0x4011"))
    message = error_at(run, 74, 9)
    assert "CL_D3D10_DEVICE_NV is defined again with another value: 0x4011 here, 0x4010 at " in message
    assert message.endswith(f"specs/{SEED_NAME}:73:9")


def test_one_text_giving_a_token_twice_the_same_value_is_a_note(generate: Generate, out: Path) -> None:
    run = generate(edited("CL_D3D10_DXGI_ADAPTER_NV               0x4011", "CL_D3D10_DEVICE_NV               0x4010"))
    assert run.status == 0, run.err
    diagnostics = read.load(out / "ir" / "cl_nv_d3d10_sharing.yaml").diagnostics
    assert any(d.kind == "repeated-token" for d in diagnostics)


# -- size and depth ------------------------------------------------------------------------------

def test_a_50_mb_spec_is_refused_where_it_passes_the_limit(generate: Generate, out: Path) -> None:
    line = "    The goal of this extension is to provide interoperability between OpenCL and Direct3D.\n"
    padding = line * (50_000_000 // len(line))
    text = SEED.replace("Overview\n\n", "Overview\n\n" + padding, 1)
    run = generate(text)
    assert run.status == 2 and "far more than any spec" in run.err
    head = text.encode("utf-8")[:MAX_BYTES]
    newline = b"\n"
    expected = f"{head.count(newline) + 1}:{MAX_BYTES - head.rfind(newline)}"
    assert run.err.startswith(f"specs/{SEED_NAME}:{expected}: error: "), run.err[:200]
    assert not out.exists()


def test_a_large_spec_under_the_limit_is_read(generate: Generate, out: Path) -> None:
    line = "    The goal of this extension is to provide interoperability between OpenCL and Direct3D.\n"
    run = generate(SEED.replace("Overview\n\n", "Overview\n\n" + line * (2_000_000 // len(line)), 1))
    assert run.status == 0, run.err
    assert (out / "ir" / "cl_nv_d3d10_sharing.yaml").exists()


@pytest.mark.parametrize("depth", [50, 3000])
def test_deeply_nested_lists_end_cleanly(generate: Generate, depth: int) -> None:
    """AsciiDoc lists nested `depth` levels deep, and a declaration with `depth` nested parentheses."""
    asciidoc = (SPECS / "cl_khr_d3d10_sharing.txt").read_text(encoding="utf-8")
    lists = "\n".join("*" * level + f" item {level}" for level in range(1, depth + 1))
    nested = f"cl_int clNested({'(' * depth}int x{')' * depth});"
    run = generate(files={"cl_khr_d3d10_sharing.txt": asciidoc + f"\n{lists}\n\n[source,c]\n----\n{nested}\n----\n"})
    assert run.status in (0, 2), run.err
    assert "Traceback" not in run.err and "RecursionError" not in run.err
    if run.status == 2:
        assert re.match(r"specs/cl_khr_d3d10_sharing\.txt:\d+:\d+: error: ", run.err), run.err[:300]


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


# -- YAML: the safe loader only ------------------------------------------------------------------

def test_an_ir_file_with_a_python_tag_is_refused_not_run(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(f"!!python/object/apply:os.system ['touch {tmp_path / 'PWNED'}']\n", encoding="utf-8")
    with pytest.raises(InputError, match="explicit tag"):
        read.load(hostile)
    assert not (tmp_path / "PWNED").exists()
    hostile.write_text("- a list, not an IR document\n", encoding="utf-8")
    with pytest.raises(InputError, match="is not of type object"):
        read.load(hostile)


UNSAFE_YAML = re.compile(r"yaml\.(unsafe_load|full_load|load_all)\(|yaml\.load\((?![^)]*Loader=SafeLoader)|"
                         r"Loader=yaml\.(Loader|FullLoader|UnsafeLoader)")


def test_yaml_is_read_with_the_safe_loader_only() -> None:
    sources = [*ROOT.joinpath("generator").rglob("*.py"), *ROOT.joinpath("data").rglob("*.py"),
               *ROOT.joinpath("templates").rglob("*.j2")]
    assert len(sources) > 20
    offending = [f"{p.relative_to(ROOT)}: {m.group()}" for p in sources
                 for m in UNSAFE_YAML.finditer(p.read_text(encoding="utf-8"))]
    assert offending == []
    assert UNSAFE_YAML.search("yaml.load(stream)") and UNSAFE_YAML.search("yaml.unsafe_load(s)"), "the check bites"


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


@pytest.mark.parametrize(("name", "shown", "why"), [
    ("cl\x1b[2Jnv.txt", "cl\\x1b[2Jnv.txt", "the character U+001B, which does not print as itself"),
    ("cl\nnv.txt", "cl\\x0anv.txt", "the character U+000A"),
    ("cl\u202envt.txt", "cl\\u202envt.txt", "the character U+202E"),
    (os.fsdecode(b"cl\xffnv.txt"), "cl\\xffnv.txt", "the byte \\xff, which is not UTF-8"),
])
def test_a_spec_file_name_that_does_not_print_as_itself_is_an_error(generate: Generate, out: Path, name: str,
                                                                    shown: str, why: str) -> None:
    """The name goes into the IR's `source:` fields, the docs and every message: a control character broke the IR
    schema (exit 3), a byte that is not UTF-8 the fingerprint (a traceback)."""
    run = generate(files={name: SEED})
    assert run.status == 2, run.err
    assert run.err.startswith(f"specs/{shown}: error: the file name holds {why}"), run.err
    assert run.err.replace("\n", "").isprintable(), "no raw control character reaches the terminal"
    assert not out.exists()


def test_the_error_of_every_bad_file_is_reported(generate: Generate, out: Path) -> None:
    """The first bad file stopped the run: the errors of the others were found one run at a time."""
    run = generate(files={"a.txt": edited("ID3D10Buffer *resource,", "ID3D10Buffer *res$ource,"),
                          "b\x1b.txt": SEED, "c.txt": edited("0x4011", "1" * 5000), "d.txt": SEED})
    assert run.status == 2
    heads = [line for line in run.err.splitlines() if ": error: " in line]
    assert [head.split(": error: ")[0] for head in heads] == ["specs/a.txt:35:26", "specs/b\\x1b.txt",
                                                              "specs/c.txt:74:9"]
    assert run.err.splitlines()[1:3] == ["            ID3D10Buffer *res$ource,", " " * 29 + "^"], "with the excerpt"
    assert run.err.endswith("3 errors\n") and "Traceback" not in run.err
    assert not out.exists()


def test_a_file_name_cannot_write_into_the_c_declarations(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """A path holding `*/` would close the comment it was quoted in and declare C of its own."""
    folder = tmp_path / "specs" / "a*"
    folder.mkdir(parents=True)
    (folder / " typedef int cl_injected_t; int clInjected(void);x.txt").write_text(SEED, encoding="utf-8")
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    package = tmp_path / "out" / "cl_d3d_sharing"
    declarations = [*package.glob("_cdef/*.h"), *package.glob("_*_ffi.py")]
    assert len(declarations) >= 4
    assert [p.name for p in declarations if "cl_injected_t" in p.read_text(encoding="utf-8")] == []


def test_a_generated_module_that_would_not_parse_is_never_written(monkeypatch: pytest.MonkeyPatch,
                                                                   generate: Generate, out: Path) -> None:
    """The last guard, for a name that got past every check: stand in for one with a broken template result."""
    from generator.emission import render

    real = render.render

    def broken(template: str, **context: object) -> str:
        text = real(template, **context)
        return text + "\ndef (:\n" if template == "package/extension.py.j2" else text

    monkeypatch.setattr("generator.emission.emit.render", broken)
    run = generate(SEED)
    assert run.status == 3 and "would not compile" in run.err, run.err
    assert not out.exists()


def test_a_parameter_declared_twice_is_an_error(generate: Generate) -> None:
    """Found by the fuzzer: duplicated lines gave a wrapper with two `flags` parameters, which Python refuses."""
    twice = "cl_mem_flags flags,\n        cl_mem_flags flags,\n        ID3D10Buffer"
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", twice))
    assert "parameter 'flags' clashes with the parameter at" in error_at(run, 32)


def test_a_type_defined_nowhere_is_an_error_at_its_function(generate: Generate) -> None:
    """Found by the fuzzer (a spec cut short): cffi refused the declarations, and the error named no spec."""
    run = generate(edited("cl_mem_flags flags,\n        ID3D10Buffer", "cl_widget_nv flags,\n        ID3D10Buffer"))
    assert "clCreateFromD3D10BufferNV: the type cl_widget_nv of parameter 'flags' is defined nowhere" in \
        error_at(run, 32)


@pytest.mark.parametrize("name", ["clTypeNV", "clLenNV", "clIssubclassNV", "clRangeNV"])
def test_a_function_whose_python_name_is_a_builtin_is_refused(generate: Generate, name: str) -> None:
    """Its snake_case name (`type`, `len`, ...) would hide the builtin from every wrapper of the module, which
    calls it: each call then ran the spec's function instead (a TypeError that named no parameter)."""
    run = generate(edited("clCreateFromD3D10BufferNV", name, -1))
    assert run.status == 2, run.err
    builtin = name.removeprefix("cl").removesuffix("NV").lower()
    assert f"would hide Python's builtin {builtin!r} from the generated module" in run.err
    assert "Traceback" not in run.err


_XML_BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE registry [\n <!ENTITY a "aaaaaaaaaa">\n'
             ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
             "<registry><comment>&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;</comment></registry>\n")


@pytest.mark.parametrize(("xml", "where", "words"), [
    (_XML_BOMB, ":2:1: error:", "document type declaration"),
    ('<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "http://example.com/r.dtd">\n<registry/>\n', ":2:1: error:",
     "document type declaration"),
    ("<registry>" + "<x>" * 5000 + "</x>" * 5000 + "</registry>", ":1:", "nest more than"),
    ("<registry>\n<enums>\n", ":3:1: error:", "not well-formed XML"),
])
def test_a_hostile_registry_xml_is_a_clean_input_error(xml: str, where: str, words: str, generate: Generate,
                                                        tmp_path: Path) -> None:
    result = generate(files={SEED_NAME: SEED, "cl.xml": xml})
    assert result.status == 2 and "Traceback" not in result.err
    assert f"cl.xml{where}" in result.err and words in result.err
    assert not (tmp_path / "out").exists()


def test_two_registry_files_are_an_input_error(generate: Generate, tmp_path: Path) -> None:
    result = generate(files={SEED_NAME: SEED, "a.xml": "<registry/>", "b.xml": "<registry/>"})
    assert result.status == 2 and "b.xml:1:1: error: a second registry XML" in result.err
    assert not (tmp_path / "out").exists()
