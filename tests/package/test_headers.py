"""The cdefs agree with the official headers: KHR compiled against Debian's opencl-c-headers, NV against the truth.

The C test includes the Khronos header and then the generated cdef with each
function-pointer type renamed, and asserts with `_Static_assert` that every
renamed type is compatible with the header's and every token has the header's
value. `d3d10.h`/`d3d11.h` are stubs declaring the opaque COM interfaces.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.package.standins import extension_module
from tests.support import GENERATED, load_truth

CDEF = GENERATED / "cl_d3d_sharing" / "_cdef"
STUB = """\
typedef unsigned int UINT;
typedef enum DXGI_FORMAT {{ DXGI_FORMAT_UNKNOWN = 0 }} DXGI_FORMAT;
typedef struct IDXGIAdapter IDXGIAdapter;
{interfaces}
"""


@pytest.fixture
def compiler(compiler: str, headers: None) -> str:
    """gcc (or another `cc`), with the official headers to compile against."""
    return compiler


def c_test(extension: str) -> str:
    module = extension_module(extension)
    header = module.EXTENSION.removeprefix("cl_khr_").removesuffix("_sharing")  # d3d10, d3d11
    ours = (CDEF / "core.h").read_text() + (CDEF / f"{module.__name__.rsplit('.', 1)[1]}.h").read_text()
    ours = re.sub(r"\*(\w+_fn)\)", r"*ours_\1)", ours)
    lines = ["#define __stdcall", f"#include <CL/cl_{header}.h>", ours]
    for function in load_truth()[extension]["functions"]:
        name = function["name"]
        lines.append(f"_Static_assert(__builtin_types_compatible_p(ours_{name}_fn, {name}_fn), \"{name}\");")
    for constant in dir(module):
        if constant.startswith("CL_"):
            lines.append(f"_Static_assert({constant} == {int(getattr(module, constant))}, \"{constant}\");")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("extension", ["cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing"])
def test_khr_cdef_compiles_against_the_khronos_header(extension: str, tmp_path: Path, compiler: str) -> None:
    cc = compiler
    version = extension.removeprefix("cl_khr_d3d").removesuffix("_sharing")
    interfaces = "\n".join(f"typedef struct ID3D{version}{kind} ID3D{version}{kind};"
                           for kind in ("Buffer", "Texture2D", "Texture3D", "Device", "Resource"))
    (tmp_path / f"d3d{version}.h").write_text(STUB.format(interfaces=interfaces))
    source = tmp_path / "check.c"
    source.write_text(c_test(extension))
    result = subprocess.run([cc, "-std=c11", "-pedantic-errors", "-Werror", "-fsyntax-only", "-I", str(tmp_path),
                             str(source)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert source.read_text().count("_Static_assert") >= 6 + 14


def test_a_wrong_cdef_fails_the_c_test(tmp_path: Path, compiler: str) -> None:
    """The test can fail: a parameter type changed in the cdef breaks compatibility."""
    cc = compiler
    (tmp_path / "d3d11.h").write_text(STUB.format(interfaces="\n".join(
        f"typedef struct ID3D11{k} ID3D11{k};" for k in ("Buffer", "Texture2D", "Texture3D", "Device", "Resource"))))
    text = c_test("cl_khr_d3d11_sharing").replace("UINT subresource", "cl_ulong subresource", 1)
    (tmp_path / "check.c").write_text(text)
    result = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-I", str(tmp_path), str(tmp_path / "check.c")],
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "clCreateFromD3D11Texture2DKHR" in result.stderr


def prototypes(path: Path) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """name -> (return type, [(type, name)]) of the function-pointer typedefs of a generated cdef."""
    found = {}
    for ret, name, params in re.findall(r"typedef (\w+) \(__stdcall \*(\w+)_fn\)\((.*?)\);", path.read_text(), re.S):
        parsed = []
        for param in params.split(","):
            c_type, pname = re.fullmatch(r"\s*(.*?)\s*\*?(\w+)\s*", param).groups()  # type: ignore[union-attr]
            stars = param.count("*")
            parsed.append(((c_type.rstrip(" *") + " *" * stars).strip(), pname))
        found[name] = (ret, parsed)
    return found


@pytest.mark.parametrize("extension", ["cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing"])
def test_nv_cdef_and_values_match_nvidias_header(extension: str) -> None:
    truth: dict[str, Any] = load_truth()[extension]
    module = extension_module(extension)
    found = prototypes(CDEF / f"{module.__name__.rsplit('.', 1)[1]}.h")
    assert list(found) == [f["name"] for f in truth["functions"]]
    for function in truth["functions"]:
        ret, params = found[function["name"]]
        assert ret == function["return"]
        assert params == [(p["type"], p["name"]) for p in function["params"]]  # const included
    for token in truth["tokens"]:
        assert int(getattr(module, token["name"])) == token["value"], token["name"]
    cdef = (CDEF / f"{module.__name__.rsplit('.', 1)[1]}.h").read_text()
    for info in truth["types"]:
        assert f"typedef {info['typedef']} {info['name']};" in cdef
