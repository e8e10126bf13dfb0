"""The extension modules: names, metadata, enums and tokens against the official headers (truth.yaml)."""

from __future__ import annotations

from enum import IntEnum

import cl_d3d_sharing
import pytest

from tests.package.standins import extension_module
from tests.support import load_truth

EXTENSIONS = sorted(load_truth())


def test_one_module_per_extension_named_as_the_contract_says() -> None:
    assert cl_d3d_sharing.EXTENSIONS == {
        "cl_khr_d3d10_sharing": "khr_d3d10", "cl_khr_d3d11_sharing": "khr_d3d11",
        "cl_nv_d3d10_sharing": "nv_d3d10", "cl_nv_d3d11_sharing": "nv_d3d11",
    }


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_the_module_records_extension_revision_and_generator(extension: str) -> None:
    module = extension_module(extension)
    assert extension == module.EXTENSION
    assert extension.split("_")[1].upper() == module.VENDOR
    assert module.GENERATOR_VERSION == cl_d3d_sharing.GENERATOR_VERSION
    assert cl_d3d_sharing.__version__.startswith(f"{cl_d3d_sharing.GENERATOR_VERSION}+")
    assert cl_d3d_sharing.REVISIONS[extension] == module.REVISION
    assert all(source.startswith("specs/") for source in module.SOURCES)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_every_token_has_its_official_value_under_its_c_name(extension: str) -> None:
    module = extension_module(extension)
    for token in load_truth()[extension]["tokens"]:
        value = getattr(module, token["name"])
        assert isinstance(value, IntEnum) and value == token["value"], token["name"]


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_one_enum_per_token_group_with_short_unique_names(extension: str) -> None:
    module = extension_module(extension)
    enums = {name: getattr(module, name) for name in ("D3DDeviceSource", "D3DDeviceSet", "ContextProperties",
                                                       "MemInfo", "ImageInfo", "CommandType", "ErrorCode")}
    suffix = "_" + module.VENDOR
    for enum in enums.values():
        for member in enum:
            assert not member.name.startswith("CL_") and not member.name.endswith(suffix)
            assert getattr(module, f"CL_{member.name}{suffix}") is member
    assert sum(len(enum) for enum in enums.values()) + (len(module.ContextInfo) if extension.startswith("cl_khr")
                                                        else 0) == len(load_truth()[extension]["tokens"])


def test_short_names_for_example() -> None:
    khr = extension_module("cl_khr_d3d11_sharing")
    assert khr.D3DDeviceSource.D3D11_DEVICE is khr.CL_D3D11_DEVICE_KHR
    assert khr.ErrorCode.D3D11_RESOURCE_ALREADY_ACQUIRED == -1008
    nv = extension_module("cl_nv_d3d10_sharing")
    assert nv.D3DDeviceSet.ALL_DEVICES_FOR_D3D10 == nv.CL_ALL_DEVICES_FOR_D3D10_NV


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_functions_have_docstrings_from_the_spec(extension: str) -> None:
    module = extension_module(extension)
    for function in load_truth()[extension]["functions"]:
        doc = getattr(module, function["name"]).__doc__
        assert doc and function["name"] in doc
        assert all(f"- {p['name']} (" in doc for p in function["params"])
        assert all(code in doc for code in function["errors"])
