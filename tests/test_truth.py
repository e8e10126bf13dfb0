"""The IR of the seed specs against the official headers and registry (tests/data/truth.yaml)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from generator.ir import files as ir
from generator.pipeline import Result

EXTENSIONS = ["cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing", "cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing"]


@pytest.fixture(scope="module")
def irs(seed_result: Result) -> dict[str, dict[str, Any]]:
    return {e.name: ir.to_dict(e) for e in seed_result.extensions}


def own_functions(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["name"]: f for f in data["functions"] if not f.get("core")}


def test_every_extension_has_one_ir(irs: dict[str, dict[str, Any]]) -> None:
    assert sorted(irs) == sorted(EXTENSIONS)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_functions_have_the_official_prototypes(
    extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]
) -> None:
    functions = own_functions(irs[extension])
    expected = truth[extension]["functions"]
    assert list(functions) == [f["name"] for f in expected]
    for official in expected:
        ours = functions[official["name"]]
        assert ours["return_type"] == official["return"]
        assert [p["name"] for p in ours["params"]] == [p["name"] for p in official["params"]]
        for mine, theirs in zip(ours["params"], official["params"], strict=True):
            if official["name"].startswith("clEnqueueRelease") and extension.startswith("cl_nv"):
                # NVIDIA's header and the spec summary say `cl_mem *`, the spec body `const cl_mem *`
                assert mine["type"].removeprefix("const ") == theirs["type"].removeprefix("const ")
            else:
                assert mine["type"] == theirs["type"], (official["name"], mine["name"])


def test_all_24_functions_match(irs: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    matched = 0
    for extension in EXTENSIONS:
        functions = own_functions(irs[extension])
        for official in truth[extension]["functions"]:
            ours = functions.get(official["name"])
            if ours and [(p["name"], p["type"].removeprefix("const ")) for p in ours["params"]] == [
                (p["name"], p["type"].removeprefix("const ")) for p in official["params"]
            ]:
                matched += 1
    assert matched == 24


def test_the_nv_release_const_difference_is_reported(irs: dict[str, dict[str, Any]]) -> None:
    for extension in ("cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing"):
        messages = [d["message"] for d in irs[extension]["diagnostics"] if d["kind"] == "prototype-conflict"]
        assert any("Release" in m and "mem_objects" in m and "const cl_mem *" in m for m in messages)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_tokens_have_the_official_values(
    extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]
) -> None:
    ours = {t["name"]: t["value"] for t in irs[extension]["tokens"]}
    assert ours == {t["name"]: t["value"] for t in truth[extension]["tokens"]}


def test_all_54_tokens_match(irs: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    pairs = {(e, t["name"], t["value"]) for e in EXTENSIONS for t in irs[e]["tokens"]}
    official = {(e, t["name"], t["value"]) for e in EXTENSIONS for t in truth[e]["tokens"]}
    assert len(official) == 54
    assert pairs == official


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_error_code_sets(extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    functions = {f["name"]: f for f in irs[extension]["functions"]}
    for official in truth[extension]["functions"]:
        assert {e["code"] for e in functions[official["name"]]["errors"]} == set(official["errors"])
    core = truth[extension]["core_function_errors"]
    for name, codes in core.items():
        codes = core[codes["same_as"]] if isinstance(codes, dict) else codes
        assert functions[name].get("core") is True
        assert {e["code"] for e in functions[name]["errors"]} == set(codes), name


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_types_the_extension_introduces(
    extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]
) -> None:
    """The types of the device set and source: the NV texts leave them undefined (guessed as enumerations),
    the registry XML defines the KHR ones (typedefs)."""
    enums = {t["name"]: t["c_type"] for t in irs[extension]["types"] if t["kind"] in ("enum", "typedef")}
    assert enums == {t["name"]: t["typedef"] for t in truth[extension]["types"]}


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_format_tables(extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    table = next(t for t in irs[extension]["tables"] if t["name"] == "dxgi_format_mapping")
    assert table["columns"] == ["dxgi_format", "channel_order", "channel_type"]
    assert table["rows"] == truth[extension]["dxgi_formats"]
    assert len(table["rows"]) == (36 if extension.startswith("cl_nv") else 37)
    assert all(re.fullmatch(r"specs/\S+\.txt:\d+", s) for s in table["row_sources"])


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_query_value_types(extension: str, irs: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    """Each query or property token's value type, as the spec's tables give it."""
    types = {row[0]: row[t["columns"].index("type")] for t in irs[extension]["tables"] if "type" in t["columns"]
             for row in t["rows"]}
    for token, expected in truth[extension]["query_types"].items():
        if "SUBRESOURCE" in token:
            continue  # see test_subresource_query_type
        assert types[token] == expected.split(" (")[0], token


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_subresource_query_type(extension: str, irs: dict[str, dict[str, Any]]) -> None:
    table = next(t for t in irs[extension]["tables"] if t["name"] == "image_info")
    (row,) = table["rows"]
    kinds = {d["kind"] for d in irs[extension]["diagnostics"] if d["source"] == table["row_sources"][0]}
    if extension.startswith("cl_nv"):
        assert row[1].startswith("ID3D1") and row[1].endswith("Resource *")  # the NV erratum, kept as written
        assert "table-type" in kinds
    else:
        assert row[1] == "UINT"
        assert "undefined-token" in kinds  # the KHR row names CL_MEM_..._SUBRESOURCE_KHR
