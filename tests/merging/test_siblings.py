"""Sibling extensions and the renaming between them."""

from __future__ import annotations

from generator.base.knowledge import Knowledge
from generator.merging.siblings import renaming, siblings


def test_vendor_siblings_rename_suffixes(knowledge: Knowledge) -> None:
    rename = renaming("cl_acme_gfx3_sharing", "cl_khr_gfx3_sharing", knowledge)
    assert rename is not None and rename.vendor
    assert rename("clGetDevicesFromGFX3ACME") == "clGetDevicesFromGFX3KHR"
    assert rename("CL_GFX3_DEVICE_ACME") == "CL_GFX3_DEVICE_KHR"
    assert rename("cl_gfx3_source_acme") == "cl_gfx3_source_khr"
    assert rename("CL_INVALID_VALUE") == "CL_INVALID_VALUE"


def test_version_siblings_rename_the_differing_part(knowledge: Knowledge) -> None:
    rename = renaming("cl_acme_gfx3_sharing", "cl_acme_gfx4_sharing", knowledge)
    assert rename is not None and not rename.vendor
    assert rename("clGetDevicesFromGFX3ACME") == "clGetDevicesFromGFX4ACME"
    assert rename("cl_gfx3_source_acme") == "cl_gfx4_source_acme"


def test_not_siblings(knowledge: Knowledge) -> None:
    assert renaming("cl_acme_gfx3_sharing", "cl_khr_gfx4_sharing", knowledge) is None
    assert renaming("cl_acme_gfx3_sharing", "cl_acme_gfx3_other_sharing", knowledge) is None


def test_same_vendor_siblings_come_first(knowledge: Knowledge) -> None:
    found = siblings("cl_acme_gfx3_sharing", ["cl_khr_gfx3_sharing", "cl_acme_gfx4_sharing", "cl_zz_gfx9_x"],
                     knowledge)
    assert [r.source for r in found] == ["cl_acme_gfx4_sharing", "cl_khr_gfx3_sharing"]


def test_the_index_finds_what_comparing_every_pair_finds(knowledge: Knowledge) -> None:
    """Siblings come from an index of names by each part left out; it must miss and add nothing."""
    names = [f"cl_{vendor}_{api}_{what}" for vendor in ("khr", "nv", "amd", "nv2") for api in ("d3d10", "d3d11", "gl")
             for what in ("sharing", "interop")] + ["cl_khr_gl", "cl_nv_d3d10_sharing_extra", "not_an_extension"]
    for name in names:
        every_pair = sorted((r for other in names if other != name and (r := renaming(other, name, knowledge))),
                            key=lambda r: (r.vendor, r.source))
        assert siblings(name, names, knowledge) == every_pair
        assert siblings(name, reversed(names), knowledge) == every_pair
