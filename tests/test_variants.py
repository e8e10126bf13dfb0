"""A new extension in any of the seed formats comes out right with no code change.

The variants are the seeds with every name the specs define renamed (vendor,
API, interfaces, types, functions, tokens) and every token value moved; the
expected IR is the reference truth renamed the same way.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline
from generator.emission import emit
from generator.ir import files as ir
from generator.writing import writer
from tests.support import SPECS, lint

VENDORS = {"nv": "acme", "khr": "qq"}
APIS = {"d3d10": "gfx3", "d3d11": "gfx4", "d3d_": "gfx_"}  # the last renames parameters (d3d_object)


def rename(text: str) -> str:
    for old, new in APIS.items():
        text = text.replace(old, new).replace(old.upper(), new.upper())
    for old, new in VENDORS.items():
        text = re.sub(rf"\bcl_{old}_", f"cl_{new}_", text)
        text = re.sub(rf"_{old}\b", f"_{new}", text)
        text = re.sub(rf"_{old.upper()}\b", f"_{new.upper()}", text)
        text = re.sub(rf"(?<=[a-z0-9]){old.upper()}\b", new.upper(), text)
    return text


def move_value(match: re.Match[str]) -> str:
    literal = match.group(0)
    if literal.startswith("0x"):
        return f"0x{int(literal, 16) + 0x1000:04X}"
    return str(int(literal) - 1000)


def move_values(text: str) -> str:
    """Token values: 0x40xx -> 0x50xx, -100x -> -200x (only where a token is defined)."""
    return re.sub(r"(?<=\s)(0x40[0-9A-Fa-f]{2}|-100[0-9])(?=\s|$)", move_value, text)


@pytest.fixture(scope="module")
def variant_result(tmp_path_factory: pytest.TempPathFactory) -> pipeline.Result:
    folder = tmp_path_factory.mktemp("variant") / "specs"
    folder.mkdir()
    for path in SPECS.iterdir():
        text = move_values(rename(path.read_text(encoding="utf-8")))
        (folder / rename(path.name)).write_text(text, encoding="utf-8")
    return pipeline.run(folder, lean=False)  # the registry XML knows the real names only: the texts alone


@pytest.fixture(scope="module")
def variant(variant_result: pipeline.Result) -> dict[str, dict[str, Any]]:
    return {e.name: ir.to_dict(e) for e in variant_result.extensions}


@pytest.fixture(scope="module")
def seeds() -> dict[str, dict[str, Any]]:
    return {e.name: ir.to_dict(e) for e in pipeline.run(SPECS, lean=False).extensions}


def value(v: int) -> int:
    return v + 0x1000 if v > 0 else v - 1000


def test_same_extensions_renamed(variant: dict[str, dict[str, Any]], truth: dict[str, Any]) -> None:
    assert sorted(variant) == sorted(rename(name) for name in truth)
    assert {v["vendor"] for v in variant.values()} == {"ACME", "QQ"}


@pytest.mark.parametrize("extension", ["cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing", "cl_khr_d3d10_sharing",
                                       "cl_khr_d3d11_sharing"])
def test_variant_matches_renamed_truth(
    extension: str, variant: dict[str, dict[str, Any]], truth: dict[str, Any]
) -> None:
    data = variant[rename(extension)]
    official = truth[extension]
    functions = {f["name"]: f for f in data["functions"]}
    assert [f["name"] for f in data["functions"] if not f.get("core")] == [rename(f["name"]) for f in
                                                                           official["functions"]]
    for expected in official["functions"]:
        ours = functions[rename(expected["name"])]
        assert [(p["name"], p["type"].removeprefix("const ")) for p in ours["params"]] == [
            (rename(p["name"]), rename(p["type"]).removeprefix("const ")) for p in expected["params"]]
        assert {e["code"] for e in ours["errors"]} == {rename(code) for code in expected["errors"]}
    assert {t["name"]: t["value"] for t in data["tokens"]} == {
        rename(t["name"]): value(t["value"]) for t in official["tokens"]}
    assert {t["name"]: t["c_type"] for t in data["types"] if t["kind"] == "enum"} == {
        rename(t["name"]): t["typedef"] for t in official["types"]}
    formats = next(t for t in data["tables"] if t["name"] == "dxgi_format_mapping")
    assert formats["rows"] == official["dxgi_formats"]


@pytest.mark.parametrize("extension", ["cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing", "cl_khr_d3d10_sharing",
                                       "cl_khr_d3d11_sharing"])
def test_variant_finds_the_same_errata(
    extension: str, variant: dict[str, dict[str, Any]], seeds: dict[str, dict[str, Any]]
) -> None:
    def kinds(data: dict[str, Any]) -> Counter[str]:
        return Counter(d["kind"] for d in data["diagnostics"])

    assert kinds(variant[rename(extension)]) == kinds(seeds[extension])


def test_recovery_still_works_renamed(variant: dict[str, dict[str, Any]]) -> None:
    collapsed = variant["cl_acme_gfx4_sharing"]
    conditions = [e for f in collapsed["functions"] for e in f["errors"]]
    assert sum(1 for e in conditions if e.get("recovered") == "parameter names") >= 30
    groups = {g["name"] for g in collapsed["token_groups"]}
    assert {"gfx_device_source", "gfx_device_set", "mem_info", "image_info", "command_type"} <= groups


def single(spec: str, tmp: Path, transform: Callable[[str], str]) -> dict[str, Any]:
    folder = tmp / "specs"
    folder.mkdir()
    (folder / "only.txt").write_text(transform((SPECS / spec).read_text(encoding="utf-8")), encoding="utf-8")
    (result,) = pipeline.run(folder).extensions
    return ir.to_dict(result)


@pytest.mark.parametrize("spec", ["cl_nv_d3d10_sharing.txt", "cl_khr_d3d11_sharing.txt"])
def test_a_lone_new_extension(spec: str, tmp_path: Path) -> None:
    """With no sibling to lean on, a complete text still gives the whole IR."""
    data = single(spec, tmp_path, lambda t: move_values(rename(t)))
    assert len([f for f in data["functions"] if not f.get("core")]) == 6
    assert all(t["group"] for t in data["tokens"])
    assert {e["code"] for f in data["functions"] for e in f["errors"]} > {"CL_INVALID_VALUE"}


def test_the_variant_package_works_with_its_new_names(variant_result: pipeline.Result, tmp_path: Path) -> None:
    """The renamed specs give a package with renamed modules, enums, functions and errors: no code change; ruff
    passes it as it passes the seeds' (its imports and `__all__` are ordered by the new names)."""
    writer.write(tmp_path / "out", emit.outputs(variant_result.extensions, variant_result.texts).files)
    assert lint(tmp_path / "out") == []
    script = """
import cl_d3d_sharing as cl, cl_d3d_sharing.qq_gfx4 as m, cl_d3d_sharing.gfx4 as facade, cl_d3d_sharing.errors as e
from cl_d3d_sharing import formats
print(sorted(cl.EXTENSIONS.values()))
print(m.EXTENSION, [v.EXTENSION for v in facade.VARIANTS])
print(int(m.CL_GFX4_DEVICE_QQ), m.GfxDeviceSource.GFX4_DEVICE.name)
print(callable(m.clGetDeviceIDsFromGFX4QQ), e.BY_NAME["CL_INVALID_GFX4_DEVICE_QQ"].code)
print(sorted(len(t) for t in formats.TABLES.values()))
for source in (0x4019, 0x5019):  # the seed's value is no longer valid, the moved one is
    try:
        m.clGetDeviceIDsFromGFX4QQ(None, source, None, 0x501B, 0, None, None)
    except e.CLError as error:
        print(type(error).__name__, error.checked, error.clause)
print(m.create_from_gfx4_buffer.__name__, m.acquired.__name__)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(tmp_path / "out")})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "['acme_gfx3', 'acme_gfx4', 'qq_gfx3', 'qq_gfx4']",
        "cl_qq_gfx4_sharing ['cl_acme_gfx4_sharing', 'cl_qq_gfx4_sharing']",  # no preferred vendor: by name
        f"{value(0x4019)} GFX4_DEVICE",
        f"True {value(-1006)}",
        "[36, 36, 37, 37]",
        "InvalidValueError True gfx_device_source is not a valid value",
        "InvalidValueError True both num_devices and devices are NULL",
        "create_from_gfx4_buffer acquired",
    ]


def test_the_same_checks_come_out_renamed(
    seeds: dict[str, dict[str, Any]], variant: dict[str, dict[str, Any]],
) -> None:
    """Every clause keeps its class and predicate (in the new names), every function its effects."""
    compared = 0
    for name, seed in seeds.items():
        renamed = variant[rename(name)]
        for old, new in zip(seed["functions"], renamed["functions"], strict=True):
            assert rename(old["name"]) == new["name"]
            assert [{k: v for k, v in e.items() if k not in ("source", "column")} for e in new.get("effects", [])] == \
                [{k: rename(v) for k, v in e.items() if k not in ("source", "column")} for e in old.get("effects", [])]
            for old_error, new_error in zip(old["errors"], new["errors"], strict=True):
                old_check, new_check = old_error.get("check", []), new_error.get("check", [])
                assert [(c["class"], rename(repr(c.get("predicate")))) for c in old_check] == \
                    [(c["class"], repr(c.get("predicate"))) for c in new_check]
                compared += len(new_check)
    assert compared > 250


def test_the_variant_docs_build_with_the_new_names(variant_result: pipeline.Result, tmp_path: Path) -> None:
    """The renamed specs give reference pages under the new names, and the site builds strictly from them."""
    out = tmp_path / "out"
    writer.write(out, emit.outputs(variant_result.extensions, variant_result.texts).files)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(out / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        capture_output=True, text=True, check=False, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300,
    )
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    page = (tmp_path / "site" / "qq_gfx4" / "clCreateFromGFX4BufferQQ" / "index.html").read_text(encoding="utf-8")
    assert "cl_mem clCreateFromGFX4BufferQQ" in " ".join(re.sub(r"<[^>]+>", "", page).split())
    index = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert "| `CL_GFX4_DEVICE` | `CL_GFX4_DEVICE_ACME = 0x5019` | `CL_GFX4_DEVICE_QQ = 0x5019` |" in index
