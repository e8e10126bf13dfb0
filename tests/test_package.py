"""The template model of the package, made from IR dictionaries."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from generator import ir
from generator.emit import package_files
from generator.errors import InputError
from generator.knowledge import Knowledge, load_package
from generator.package import model_package
from generator.pipeline import Result
from tests.pathological import assert_linear


@pytest.fixture(scope="module")
def irs(seed_result: Result) -> list[dict[str, Any]]:
    return [ir.to_dict(extension) for extension in seed_result.extensions]


def function(package: Any, extension: str, name: str) -> Any:
    module = next(e for e in package.extensions if e.extension == extension)
    return next(f for f in module.functions if f.name == name)


def test_parameters_are_classified_by_how_python_values_become_c(irs: list[dict[str, Any]],
                                                                 knowledge: Knowledge) -> None:
    package = model_package(irs, knowledge, load_package())
    acquire = function(package, "cl_khr_d3d11_sharing", "clEnqueueAcquireD3D11ObjectsKHR")
    assert [(p.kind, p.element, p.exact) for p in acquire.params] == [
        ("handle", None, True), ("integer", None, False), ("array", "cl_mem", False),
        ("integer", None, False), ("array", "cl_event", False), ("pointer", None, True)]
    assert (acquire.anchor, acquire.anchor_kind, acquire.result) == ("command_queue", "queue", "status")
    create = function(package, "cl_khr_d3d11_sharing", "clCreateFromD3D11Texture2DKHR")
    assert [p.kind for p in create.params] == ["handle", "integer", "pointer", "integer", "error_out"]
    assert [p.exact for p in create.params][2] is False, "an interface pointer takes any pointer"
    assert (create.error_param, create.result, create.pointer_type) == (
        "errcode_ret", "handle", "clCreateFromD3D11Texture2DKHR_fn")


def test_acquire_and_release_take_the_one_call_state_form(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    """`FunctionModel.transition`: a status call with one state check on its one effect's objects, of the kind
    `Tracker.transit` knows, is run by it in one step; any other stateful call keeps the long form."""
    for extension in ("cl_khr_d3d10_sharing", "cl_nv_d3d11_sharing"):
        package = model_package(irs, knowledge, load_package())
        api, vendor = extension.split("_")[2].upper(), extension.split("_")[1].upper()
        kinds = {name: function(package, extension, name).transition
                 for name in (f"clEnqueueAcquire{api}Objects{vendor}", f"clEnqueueRelease{api}Objects{vendor}",
                              f"clCreateFrom{api}Buffer{vendor}", f"clGetDeviceIDsFrom{api}{vendor}")}
        assert [(e.kind, e.objects) if e else None for e in kinds.values()] == [
            ("acquire", "mem_objects"), ("release", "mem_objects"), None, None]
    altered = copy.deepcopy(irs)
    acquire = next(f for f in altered[0]["functions"] if f["name"].startswith("clEnqueueAcquire"))
    for error in acquire["errors"]:
        for clause in error.get("check", ()):
            if clause.get("predicate") == {"acquired": "mem_objects"}:
                clause["predicate"] = {"released": "mem_objects"}
    changed = function(model_package(altered, knowledge, load_package()), altered[0]["name"], acquire["name"])
    assert changed.effects[0].kind == "acquire" and changed.transition is None, "a check that does not fit"


def test_error_cases_keep_spec_order_and_every_condition(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    package = model_package(irs, knowledge, load_package())
    buffer = function(package, "cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    resource = next(case for case in buffer.errors if case.name == "CL_INVALID_D3D11_RESOURCE_KHR")
    assert resource.value == -1007 and len(resource.conditions) == 2
    assert all(c.source.startswith("specs/cl_khr_d3d11_sharing.txt:") for c in resource.conditions)


def test_facades_group_vendors_khr_first(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    package = model_package(irs, knowledge, load_package())
    assert [(f.module, [v.module for v in f.variants]) for f in package.facades] == [
        ("d3d10", ["khr_d3d10", "nv_d3d10"]), ("d3d11", ["khr_d3d11", "nv_d3d11"])]


def test_the_format_tables_become_one_mapping_module(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    (mapping,) = model_package(irs, knowledge, load_package()).mappings
    assert (mapping.module, mapping.forward, mapping.reverse, mapping.row_class) == (
        "formats", "dxgi_to_cl", "cl_to_dxgi", "CLFormat")
    assert [len(t.rows) for t in mapping.tables] == [37, 37, 36, 36]


def test_a_name_python_cannot_use_is_an_input_error(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    hostile = copy.deepcopy(irs)
    token = hostile[0]["tokens"][0]
    token["name"] = "CL_X\nimport os"
    with pytest.raises(InputError) as caught:
        model_package(hostile, knowledge, load_package())
    assert caught.value.render().startswith(f"{token['source']}:1: error: token 'CL_X\\nimport os' cannot be")


def test_two_extensions_on_one_module_name_are_an_input_error(irs: list[dict[str, Any]],
                                                              knowledge: Knowledge) -> None:
    twins = copy.deepcopy(irs[:1]) * 2
    with pytest.raises(InputError, match="would both be module khr_d3d10"):
        model_package(twins, knowledge, load_package())


def test_one_code_with_two_values_is_an_input_error(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    clash = copy.deepcopy(irs)
    code = next(t for t in clash[0]["tokens"] if t["group"] == "error_code")
    clash[1]["tokens"].append({**code, "value": code["value"] - 1})
    with pytest.raises(InputError, match=f"{code['name']} is {code['value'] - 1} here but {code['value']}"):
        model_package(clash, knowledge, load_package())


def test_a_function_without_a_handle_takes_its_platform_by_keyword(irs: list[dict[str, Any]],
                                                                     knowledge: Knowledge) -> None:
    changed = copy.deepcopy(irs)
    changed[0]["functions"][0]["params"] = [p for p in changed[0]["functions"][0]["params"]
                                            if p["type"] != "cl_platform_id"]
    files = package_files(model_package(changed, knowledge, load_package()))
    module = files["cl_d3d_sharing/khr_d3d10.py"]
    compile(module, "khr_d3d10.py", "exec")
    assert "    *,\n    platform: Pointer,\n" in module


def test_spec_text_in_a_source_stays_inside_a_literal(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    import ast

    hostile = copy.deepcopy(irs)
    table = next(t for t in hostile[0]["tables"] if t["columns"][0] == "dxgi_format")
    table["source"] = "specs/x\rprint('PWNED'); #.txt:3"
    files = package_files(model_package(hostile, knowledge, load_package()))
    tree = ast.parse(files["cl_d3d_sharing/formats.py"])
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "print"]
    assert not calls
    assert repr(table["source"]) in files["cl_d3d_sharing/formats.py"]


@pytest.mark.parametrize("shape", ["many-functions", "many-groups"])
def test_thousands_of_functions_and_groups_take_linear_time(shape: str, tmp_path: Path) -> None:
    """A module's functions and enumerations are modelled and rendered with each looked up, not searched for."""
    assert_linear(shape, tmp_path)
