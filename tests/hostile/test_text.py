"""Prose that would close a string or a docstring, values a C type cannot hold, and texts too large or too
deep: harmless output or an error at the place.

Each case is the seed with one hostile edit, run through `python -m generator generate` (see `seed.py`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.base.source import MAX_BYTES
from generator.ir import read
from tests.hostile.seed import SEED, SEED_NAME, Generate, compiles, edited, error_at
from tests.support import SPECS

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
