"""The template model of the package, made from IR dictionaries."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import cffi
import pytest

from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.emission.c_types import model_types
from generator.emission.emit import package_files
from generator.emission.package import model_texts
from generator.emission.package_model import TypeDecl, declaration
from generator.ir import files as ir
from generator.ir.model import TypeInfo
from generator.ir.read import from_dict
from generator.ir.values import integer_range
from generator.pipeline import Result
from tests.pathological import assert_linear
from tests.support import packaged


@pytest.fixture(scope="module")
def irs(seed_result: Result) -> list[dict[str, Any]]:
    return [ir.to_dict(extension) for extension in seed_result.extensions]


def function(package: Any, extension: str, name: str) -> Any:
    module = next(e for e in package.extensions if e.extension == extension)
    return next(f for f in module.functions if f.name == name)


def test_parameters_are_classified_by_how_python_values_become_c(irs: list[dict[str, Any]],
                                                                 knowledge: Knowledge) -> None:
    package = packaged([*map(from_dict, irs)], knowledge)
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
    """`FunctionModel.transit`: a status call with one state check on its one effect's objects, of the kind
    `Tracker.transit` knows, is run by it in one step; any other stateful call keeps the long form."""
    for extension in ("cl_khr_d3d10_sharing", "cl_nv_d3d11_sharing"):
        package = packaged([*map(from_dict, irs)], knowledge)
        api, vendor = extension.split("_")[2].upper(), extension.split("_")[1].upper()
        kinds = {name: function(package, extension, name).transit
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
    changed = function(packaged([*map(from_dict, altered)], knowledge), altered[0]["name"],
                       acquire["name"])
    assert changed.effects[0].kind == "acquire" and changed.transit is None, "a check that does not fit"


def test_error_cases_keep_spec_order_and_every_condition(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    package = packaged([*map(from_dict, irs)], knowledge)
    buffer = function(package, "cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")
    resource = next(case for case in buffer.errors if case.name == "CL_INVALID_D3D11_RESOURCE_KHR")
    assert resource.value == -1007 and len(resource.conditions) == 2
    assert all(c.source.startswith("specs/cl_khr_d3d11_sharing.txt:") for c in resource.conditions)


def test_facades_group_vendors_khr_first(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    package = packaged([*map(from_dict, irs)], knowledge)
    assert [(f.module, [v.module for v in f.variants]) for f in package.facades] == [
        ("d3d10", ["khr_d3d10", "nv_d3d10"]), ("d3d11", ["khr_d3d11", "nv_d3d11"])]


def test_the_format_tables_become_one_mapping_module(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    (mapping,) = packaged([*map(from_dict, irs)], knowledge).mappings
    assert (mapping.module, mapping.forward, mapping.reverse, mapping.row_class) == (
        "formats", "dxgi_to_cl", "cl_to_dxgi", "CLFormat")
    assert [len(t.rows) for t in mapping.tables] == [37, 37, 36, 36]


def test_a_name_python_cannot_use_is_an_input_error(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    hostile = copy.deepcopy(irs)
    token = hostile[0]["tokens"][0]
    token["name"] = "CL_X\nimport os"
    with pytest.raises(InputError) as caught:
        packaged([*map(from_dict, hostile)], knowledge)
    assert caught.value.render().startswith(f"{token['source']}:1: error: token 'CL_X\\nimport os' cannot be")


def test_two_extensions_on_one_module_name_are_an_input_error(irs: list[dict[str, Any]],
                                                              knowledge: Knowledge) -> None:
    twins = copy.deepcopy(irs[:1]) * 2
    with pytest.raises(InputError, match="would both be module khr_d3d10"):
        packaged([*map(from_dict, twins)], knowledge)


def test_one_code_with_two_values_is_an_input_error(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    clash = copy.deepcopy(irs)
    code = next(t for t in clash[0]["tokens"] if t["group"] == "error_code")
    clash[1]["tokens"].append({**code, "value": code["value"] - 1})
    with pytest.raises(InputError, match=f"{code['name']} is {code['value'] - 1} here but {code['value']}"):
        packaged([*map(from_dict, clash)], knowledge)


def test_a_function_without_a_handle_takes_its_platform_by_keyword(irs: list[dict[str, Any]],
                                                                     knowledge: Knowledge) -> None:
    changed = copy.deepcopy(irs)
    changed[0]["functions"][0]["params"] = [p for p in changed[0]["functions"][0]["params"]
                                            if p["type"] != "cl_platform_id"]
    files = package_files(packaged([*map(from_dict, changed)], knowledge))
    module = files["cl_d3d_sharing/khr_d3d10.py"]
    compile(module, "khr_d3d10.py", "exec")
    assert "    *,\n    platform: Pointer,\n" in module


def test_spec_text_in_a_source_stays_inside_a_literal(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    import ast

    hostile = copy.deepcopy(irs)
    table = next(t for t in hostile[0]["tables"] if t["columns"][0] == "dxgi_format")
    table["source"] = "specs/x\rprint('PWNED'); #.txt:3"
    files = package_files(packaged([*map(from_dict, hostile)], knowledge))
    tree = ast.parse(files["cl_d3d_sharing/formats.py"])
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "print"]
    assert not calls
    assert repr(table["source"]) in files["cl_d3d_sharing/formats.py"]


def test_a_long_typedef_chain_is_ordered_without_recursion(knowledge: Knowledge) -> None:
    """Each type after the one it is made of: the walk recursed once per link (and forever on a loop)."""
    count = 5000
    where = Location("specs/x.txt", Pos(1, 1))
    types = [TypeInfo(f"cl_t{i}", "typedef", f"cl_t{i + 1}", where) for i in range(count)]
    ordered = model_types([*types, TypeInfo(f"cl_t{count}", "typedef", "cl_uint", where)], knowledge)
    assert [t.name for t in ordered] == [f"cl_t{i}" for i in range(count, -1, -1)]
    looped = model_types([replace(types[0], c_type="cl_t1"), replace(types[1], c_type="cl_t0")], knowledge)
    assert {t.name for t in looped} == {"cl_t0", "cl_t1"}


def test_a_struct_comes_after_the_types_of_its_members(knowledge: Knowledge) -> None:
    """A vendor's struct holding its base extension's struct by value (cl_qcom_android_native_buffer_host_ptr
    holds cl_mem_ext_host_ptr, which the registry defines): the cdef named the member's type before declaring
    it, and cffi refused the package."""
    where = Location("specs/x.txt", Pos(1, 1))
    types = [
        TypeInfo("cl_box_acme", "typedef", "struct _cl_box_acme", where,
                 members=(("part", "cl_part_acme"), ("next", "struct _cl_box_acme *"), ("count", "cl_uint"))),
        TypeInfo("cl_part_acme", "typedef", "struct _cl_part_acme", where, members=(("size", "cl_size_acme"),)),
        TypeInfo("cl_size_acme", "typedef", "cl_uint", where),
    ]
    ordered = model_types(types, knowledge)
    assert [t.name for t in ordered] == ["cl_size_acme", "cl_part_acme", "cl_box_acme"]
    ffi = cffi.FFI()
    ffi.cdef("typedef unsigned int cl_uint;\n" + "".join(f"{t.declaration};\n" for t in ordered))
    fields = dict(ffi.typeof("cl_box_acme").fields)
    assert fields["part"].type.cname == "cl_part_acme" and ffi.sizeof("cl_part_acme") == 4


def test_a_typedef_chain_longer_than_32_links_still_ends_in_its_integer_type() -> None:
    types: dict[str, str | None] = {f"cl_t{i}": f"cl_t{i + 1}" for i in range(40)}
    types["cl_t40"] = "uint32_t"
    assert integer_range("cl_t0", types) == (0, (1 << 32) - 1)


def test_every_name_that_would_break_a_module_is_reported(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    """The first name stopped the run: the others came out one run at a time."""
    hostile = copy.deepcopy(irs)
    khr10, khr11 = (next(ir for ir in hostile if ir["name"] == name)
                    for name in ("cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing"))
    for function, name in (("clCreateFromD3D10BufferKHR", "ffi"), ("clCreateFromD3D10Texture2DKHR", "len")):
        next(f for f in khr10["functions"] if f["name"] == function)["params"][-1]["name"] = name  # errcode_ret
    for token, name in (("CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR", "EXTENSION"), ("CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR",
                                                                              "ffi")):
        next(t for t in khr11["tokens"] if t["name"] == token)["name"] = name
    with pytest.raises(InputError) as caught:
        packaged([*map(from_dict, hostile)], knowledge)
    assert [error.message for error in caught.value.all] == [
        "parameter 'ffi' clashes with the generated module's own 'ffi'",
        "parameter 'len' clashes with the generated module's own 'len'",
        "token 'EXTENSION' clashes with the generated module's own 'EXTENSION'",
        "token 'ffi' clashes with the generated module's own 'ffi'",
    ]


@pytest.mark.parametrize("shape", ["many-functions", "many-groups"])
def test_thousands_of_functions_and_groups_take_linear_time(shape: str, tmp_path: Path) -> None:
    """A module's functions and enumerations are modelled and rendered with each looked up, not searched for."""
    assert_linear(shape, tmp_path)


def test_a_token_without_a_value_is_no_constant_or_member(irs: list[dict[str, Any]], knowledge: Knowledge) -> None:
    changed = copy.deepcopy(irs)
    checks = repr([f["errors"] for f in changed[0]["functions"]])
    token = next(t for t in changed[0]["tokens"] if t["name"] not in checks)  # a check needs its value
    token["value"] = None
    package = packaged([*map(from_dict, changed)], knowledge)
    module = next(e for e in package.extensions if e.extension == changed[0]["name"])
    assert token["name"] not in {c.c_name for c in module.constants}
    assert all(token["name"] != m.c_name for enum in module.enums for m in enum.members)
    assert len(module.constants) == len(irs[0]["tokens"]) - 1


def test_two_groups_making_one_class_name_are_one_class_with_both(irs: list[dict[str, Any]],
                                                                 knowledge: Knowledge) -> None:
    changed = copy.deepcopy(irs)
    first, second = changed[0]["token_groups"][:2]
    renamed = first["name"].replace("_", "__", 1)  # another group name, the same class name
    for token in changed[0]["tokens"]:
        if token["group"] == second["name"]:
            token["group"] = renamed
    second["name"] = renamed
    package = packaged([*map(from_dict, changed)], knowledge)
    module = next(e for e in package.extensions if e.extension == changed[0]["name"])
    grouped = {m.c_name for enum in module.enums for m in enum.members}
    assert {t["name"] for t in changed[0]["tokens"] if t["group"] in (first["name"], renamed)} <= grouped
    assert len(module.enums) == len(irs[0]["token_groups"]) - 1


@pytest.mark.parametrize(("decl", "expected"), [
    (TypeDecl("cl_gizmo", None), "typedef struct cl_gizmo cl_gizmo"),
    (TypeDecl("cl_count", "cl_uint"), "typedef cl_uint cl_count"),
    (TypeDecl("cl_notify_fn", "void ( * )(cl_event, void *)"), "typedef void ( * cl_notify_fn)(cl_event, void *)"),
    (TypeDecl("cl_thing", "struct _cl_thing", (("kind", "cl_uint"), ("sizes", "cl_uint [4]"), ("p", "void * [2]"))),
     "typedef struct _cl_thing { cl_uint kind; cl_uint sizes[4]; void *p[2]; } cl_thing"),
])
def test_type_declarations_of_the_cdef(decl: TypeDecl, expected: str) -> None:
    assert decl.declaration == expected
    assert declaration("cl_uint [2] [3]", "grid") == "cl_uint grid[2][3]"


def test_the_project_s_registry_is_carried_as_it_lies_under_data(irs: list[dict[str, Any]]) -> None:
    """The texts keep their places under the folder they were read from; the project's copy of the registry XML,
    read from data/, is carried at its place there, not at a common folder of both (which would move every
    text)."""
    extensions = [from_dict(entry) for entry in irs]
    texts = {source.path: "text" for extension in extensions for source in extension.sources}
    assert extensions[0].registry == "data/registry/cl.xml"
    texts["data/registry/cl.xml"] = "<registry/>"
    placed = {text.source: text.path for text in model_texts(extensions, texts)}
    assert placed["data/registry/cl.xml"] == "registry/cl.xml"
    assert placed["specs/cl_khr_d3d10_sharing.txt"] == "cl_khr_d3d10_sharing.txt"
    first = extensions[0]
    for clash in ("specs/registry/cl.xml", "specs/registry"):  # one path; a file where a folder must be
        clashing = [replace(first, sources=(*first.sources, replace(first.sources[0], path=clash)))]
        texts[clash] = "text"
        with pytest.raises(InputError, match=r"where it would carry the project's registry XML") as refused:
            model_texts(clashing, texts)
        assert refused.value.path == clash and refused.value.pos == Pos(1, 1)
