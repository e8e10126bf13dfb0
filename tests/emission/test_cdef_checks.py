"""The C declarations handed to cffi (generator/emission/cdef_checks.py): names C takes, types declared and complete."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from generator.base.errors import InputError
from generator.base.knowledge import Knowledge
from generator.ir.read import from_dict
from tests.support import packaged


def model_error(irs: list[dict[str, Any]], knowledge: Knowledge) -> InputError:
    with pytest.raises(InputError) as caught:
        packaged([from_dict(data) for data in irs], knowledge)
    return caught.value


def own_function(ir: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in ir["functions"] if f["name"] == name)


@pytest.fixture
def nv10(seed_irs: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy of the NVIDIA D3D10 extension's IR, to damage."""
    return copy.deepcopy(next(ir for ir in seed_irs if ir["name"] == "cl_nv_d3d10_sharing"))


@pytest.mark.parametrize(("name", "why"), [
    ("register", "a C keyword"),
    ("offsetof", "a C keyword"),
    ("__x", "an identifier C reserves for the implementation"),
])
def test_a_parameter_c_reserves_is_an_error_at_its_function(nv10: dict[str, Any], knowledge: Knowledge, name: str,
                                                             why: str) -> None:
    """Whatever way a name reaches the IR (a recovered parameter name, an IR read back), cffi never sees it."""
    function = own_function(nv10, "clCreateFromD3D10BufferNV")
    function["params"][3]["name"] = name  # errcode_ret, which no check reads
    error = model_error([nv10], knowledge)
    assert error.render().startswith(f"{function['source']}:1: error: parameter of clCreateFromD3D10BufferNV "
                                     f"{name!r} is {why}")
    assert error.message.endswith("; the C declarations cannot use it as a name")


@pytest.mark.parametrize(("c_type", "message"), [
    ("void", "parameter 'flags' takes a value of type void, which has no size"),
    ("const void", "parameter 'flags' takes a value of type const void, which has no size"),
    ("ID3D10Buffer", "parameter 'flags' takes a ID3D10Buffer by value, an opaque type whose size C does not know"),
])
def test_a_value_of_a_type_without_a_size_is_an_error(nv10: dict[str, Any], knowledge: Knowledge, c_type: str,
                                                      message: str) -> None:
    """cffi took `void flags` in the cdef; the generated package failed only when it made the function's type."""
    own_function(nv10, "clCreateFromD3D10BufferNV")["params"][1]["type"] = c_type
    assert model_error([nv10], knowledge).message == f"clCreateFromD3D10BufferNV: {message}: C passes only a " \
                                                     "pointer to it"


def test_a_value_of_a_typedef_of_void_is_an_error(nv10: dict[str, Any], knowledge: Knowledge) -> None:
    nv10["types"].append({"name": "cl_nothing_nv", "kind": "typedef", "c_type": "void",
                          "source": "specs/cl_nv_d3d10_sharing.txt:70"})
    own_function(nv10, "clCreateFromD3D10BufferNV")["params"][1]["type"] = "cl_nothing_nv"
    assert model_error([nv10], knowledge).message == ("clCreateFromD3D10BufferNV: parameter 'flags' takes a value of "
                                                      "type cl_nothing_nv (a typedef of void), which has no size: C "
                                                      "passes only a pointer to it")


def test_a_typedef_of_a_type_declared_nowhere_is_an_error_at_the_typedef(nv10: dict[str, Any],
                                                                         knowledge: Knowledge) -> None:
    typedef = next(t for t in nv10["types"] if t["name"] == "cl_d3d10_device_source_nv")
    typedef["c_type"] = "cl_widget_nv"
    error = model_error([nv10], knowledge)
    assert error.render().startswith(f"{typedef['source']}:1: error: typedef cl_d3d10_device_source_nv: the type "
                                     "cl_widget_nv of its definition is defined nowhere")


def test_every_fault_of_the_declarations_is_reported(nv10: dict[str, Any], knowledge: Knowledge) -> None:
    own_function(nv10, "clCreateFromD3D10BufferNV")["params"][3]["name"] = "register"
    own_function(nv10, "clCreateFromD3D10Texture2DNV")["params"][3]["type"] = "void"
    next(t for t in nv10["types"] if t["name"] == "cl_d3d10_device_set_nv")["c_type"] = "cl_widget_nv"
    error = model_error([nv10], knowledge)
    assert [e.message.split(":")[0] for e in error.all] == [
        "typedef cl_d3d10_device_set_nv", "parameter of clCreateFromD3D10BufferNV 'register' is a C keyword; the C "
        "declarations cannot use it as a name", "clCreateFromD3D10Texture2DNV"]


@pytest.mark.parametrize(("name", "message"), [
    ("clCreateFromD3D10BufferNV_fn", "function pointer type of clCreateFromD3D10BufferNV "
                                     "'clCreateFromD3D10BufferNV_fn' is declared twice in the C declarations: also as "
                                     "the type at {source}"),
    ("clGetPlatformIDs", "type 'clGetPlatformIDs' is declared twice in the C declarations: also as a core OpenCL "
                         "function"),
])
def test_a_type_named_like_another_c_declaration_is_an_error(nv10: dict[str, Any], knowledge: Knowledge, name: str,
                                                             message: str) -> None:
    """cffi refused the cdef ("multiple declarations of typedef ..."), naming no spec."""
    typedef = next(t for t in nv10["types"] if t["name"] == "cl_d3d10_device_set_nv")
    for function in nv10["functions"]:
        for param in function["params"]:
            param["type"] = param["type"].replace("cl_d3d10_device_set_nv", name)
    typedef["name"] = name
    assert model_error([nv10], knowledge).message == message.format(source=typedef["source"])


def test_a_type_declared_nowhere_says_where_knowledge_of_it_would_go(nv10: dict[str, Any],
                                                                     knowledge: Knowledge) -> None:
    typedef = next(t for t in nv10["types"] if t["name"] == "cl_d3d10_device_source_nv")
    typedef["c_type"] = "cl_widget_nv"
    message = model_error([nv10], knowledge).message
    assert "data/platform_types.json" in message and "data/make_data.py" in message


def test_an_opaque_type_is_declared_by_name_and_passed_behind_a_pointer(nv10: dict[str, Any],
                                                                        knowledge: Knowledge) -> None:
    nv10["types"].append({"name": "cl_gizmo_nv", "kind": "opaque", "c_type": None, "defined": False,
                          "source": nv10["types"][0]["source"]})
    function = own_function(nv10, "clCreateFromD3D10BufferNV")
    function["params"][0]["type"] = "cl_gizmo_nv *"
    packaged([from_dict(nv10)], knowledge)  # the cdef takes it
    function["params"][0]["type"] = "cl_gizmo_nv"
    assert "an opaque type whose size C does not know" in model_error([nv10], knowledge).message
