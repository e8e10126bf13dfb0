"""The format tables as data, against the official tables and Microsoft's numeric DXGI_FORMAT values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cl_d3d_sharing import formats

from tests.package.standins import extension_module
from tests.support import load_truth

DXGIFORMAT_H = Path("/usr/share/mingw-w64/include/dxgiformat.h")


@pytest.mark.parametrize(("extension", "rows"), [("cl_nv_d3d10_sharing", 36), ("cl_nv_d3d11_sharing", 36),
                                                 ("cl_khr_d3d10_sharing", 37), ("cl_khr_d3d11_sharing", 37)])
def test_each_table_is_the_official_one(extension: str, rows: int) -> None:
    table = formats.table(extension)
    expected = load_truth()[extension]["dxgi_formats"]
    assert len(table) == len(expected) == rows
    assert [[f"DXGI_FORMAT_{k.name}", f"CL_{v.channel_order.name}", f"CL_{v.channel_type.name}"]
            for k, v in table.items()] == expected


def test_lookup_by_member_number_name_or_c_name() -> None:
    expected = formats.CLFormat(formats.ChannelOrder.RGBA, formats.ChannelType.UNORM_INT8)
    for value in (formats.DXGIFormat.R8G8B8A8_UNORM, 28, "R8G8B8A8_UNORM", "DXGI_FORMAT_R8G8B8A8_UNORM"):
        assert formats.dxgi_to_cl(value, "cl_khr_d3d11_sharing") == expected
    module = extension_module("cl_nv_d3d10_sharing")
    assert formats.dxgi_to_cl(28, module) == formats.dxgi_to_cl(28, "nv_d3d10") == expected


def test_the_reverse_lookup() -> None:
    found = formats.cl_to_dxgi("CL_RGBA", formats.ChannelType.UNORM_INT8, "cl_khr_d3d10_sharing")
    assert formats.DXGIFormat.R8G8B8A8_UNORM in found
    assert formats.cl_to_dxgi("RGBA", "FLOAT", "cl_nv_d3d11_sharing") == (formats.DXGIFormat.R32G32B32A32_FLOAT,)


def test_the_khr_and_nv_tables_differ_by_one_row() -> None:
    khr, nv = formats.table("cl_khr_d3d11_sharing"), formats.table("cl_nv_d3d11_sharing")
    assert set(nv) < set(khr) and len(set(khr) - set(nv)) == 1


def test_formats_without_a_row_say_so() -> None:
    with pytest.raises(KeyError, match=r"BC1_UNORM \(71\) has no row"):
        formats.dxgi_to_cl(71, "cl_khr_d3d11_sharing")
    with pytest.raises(KeyError, match="is no dxgi_format"):
        formats.dxgi_to_cl(123456, "cl_khr_d3d11_sharing")
    with pytest.raises(KeyError, match="no dxgi_format table for 'cl_khr_gl_sharing'"):
        formats.dxgi_to_cl(28, "cl_khr_gl_sharing")
    with pytest.raises(TypeError):
        formats.dxgi_to_cl(2.0, "cl_khr_gl_sharing")  # type: ignore[arg-type]


def test_every_numeric_value_is_microsofts(headers: None) -> None:
    text = DXGIFORMAT_H.read_text()
    official = {name: int(value, 0) for name, value in re.findall(r"(DXGI_FORMAT_\w+) = (0x[0-9a-fA-F]+|\d+)", text)}
    ours = {f"DXGI_FORMAT_{member.name}" if not member.name.startswith("DXGI_") else member.name: int(member)
            for member in formats.DXGIFormat.__members__.values()}
    assert ours == official


@pytest.mark.parametrize("extension", [42, [1], 2.5, None])
def test_a_table_asked_for_by_no_name_is_a_type_error(extension: object) -> None:
    with pytest.raises(TypeError, match="an extension string, a module name or an extension's module"):
        formats.dxgi_to_cl(28, extension)


@pytest.mark.parametrize("facade", ["d3d10", "d3d11"])
def test_a_facade_is_no_extension_and_the_error_says_which_modules_are(facade: str) -> None:
    """A facade covers two extensions, whose tables differ: it was refused as "not a module", a module."""
    module = __import__(f"cl_d3d_sharing.{facade}", fromlist=["variant"])
    with pytest.raises(TypeError) as caught:
        formats.dxgi_to_cl(28, module)
    assert "or an extension's module (khr_d3d10, khr_d3d11, nv_d3d10, nv_d3d11: one with an EXTENSION), " \
           f"not <module 'cl_d3d_sharing.{facade}'" in str(caught.value)
