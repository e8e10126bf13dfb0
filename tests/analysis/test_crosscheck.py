"""Every erratum that specs/README.md lists is reported, at the right file and line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.base.diagnostics import Diagnostic
from generator.pipeline import Result
from tests import samples
from tests.pathological import assert_linear


def found(result: Result, path: str, line: int, kind: str, *words: str) -> list[Diagnostic]:
    return [
        d for d in result.diagnostics
        if d.where.path == f"specs/{path}" and d.where.pos.line == line and d.kind == kind
        and all(w in d.message for w in words)
    ]


@pytest.mark.parametrize(
    ("path", "line", "kind", "words"),
    [
        # errcode_ret declared `int *` in the body, `cl_int *` in the summary
        ("cl_nv_d3d10_sharing.txt", 359, "prototype-conflict", ("errcode_ret", "`int *`", "`cl_int *`")),
        ("cl_nv_d3d10_sharing.txt", 411, "prototype-conflict", ("errcode_ret",)),
        ("cl_nv_d3d10_sharing.txt", 472, "prototype-conflict", ("errcode_ret",)),
        # clEnqueueReleaseD3D10ObjectsNV: `cl_mem *` in the summary, `const cl_mem *` in the body
        ("cl_nv_d3d10_sharing.txt", 668, "prototype-conflict", ("mem_objects", "`const cl_mem *`", "`cl_mem *`")),
        # the subresource query "returns" an ID3D10Resource*
        ("cl_nv_d3d10_sharing.txt", 218, "table-type", ("CL_IMAGE_D3D10_SUBRESOURCE_NV", "UINT")),
        # a non-existent CL_MEM_D3D10_SUBRESOURCE_NV, where the image query is meant
        ("cl_nv_d3d10_sharing.txt", 210, "undefined-token", ("CL_MEM_D3D10_SUBRESOURCE_NV",
                                                              "did you mean CL_IMAGE_D3D10_SUBRESOURCE_NV")),
        # a function clEnqueueReleaseExternalObjectsNV
        ("cl_nv_d3d10_sharing.txt", 714, "wrong-function", ("clEnqueueReleaseExternalObjectsNV",
                                                             "clEnqueueReleaseD3D10ObjectsNV")),
        # "setting CL_INVALID_D3D10_DEVICE_NV" where the property is meant
        ("cl_nv_d3d10_sharing.txt", 160, "not-a-property", ("CL_INVALID_D3D10_DEVICE_NV", "error code",
                                                             "CL_CONTEXT_D3D10_DEVICE_NV")),
        # the same in the collapsed D3D11 text (one line)
        ("cl_nv_d3d11_sharing.txt", 1, "prototype-conflict", ("errcode_ret",)),
        ("cl_nv_d3d11_sharing.txt", 1, "table-type", ("CL_IMAGE_D3D11_SUBRESOURCE_NV",)),
        ("cl_nv_d3d11_sharing.txt", 1, "undefined-token", ("CL_MEM_D3D11_SUBRESOURCE_NV",
                                                            "did you mean CL_IMAGE_D3D11_SUBRESOURCE_NV")),
        ("cl_nv_d3d11_sharing.txt", 1, "wrong-function", ("clEnqueueReleaseExternalObjectsNV",)),
        ("cl_nv_d3d11_sharing.txt", 1, "not-a-property", ("CL_INVALID_D3D11_DEVICE_NV",)),
        # KHR D3D11: "clGetDeviceIDsFromD3D10KHR returns" and CL_MEM_D3D11_SUBRESOURCE_KHR
        ("cl_khr_d3d11_sharing.txt", 324, "wrong-function", ("clGetDeviceIDsFromD3D10KHR",
                                                              "clGetDeviceIDsFromD3D11KHR")),
        ("cl_khr_d3d11_sharing.txt", 233, "undefined-token", ("CL_MEM_D3D11_SUBRESOURCE_KHR",
                                                               "CL_IMAGE_D3D11_SUBRESOURCE_KHR")),
        ("cl_khr_d3d11_sharing.txt", 245, "undefined-token", ("CL_MEM_D3D11_SUBRESOURCE_KHR",)),
        # the NV format tables have 36 rows, the KHR ones 37
        ("cl_nv_d3d10_sharing.txt", 531, "sibling-difference", ("DXGI_FORMAT_B8G8R8A8_UNORM", "CL_BGRA")),
        ("cl_nv_d3d11_sharing.txt", 1, "sibling-difference", ("DXGI_FORMAT_B8G8R8A8_UNORM",)),
        # the types the NV texts use without defining them
        ("cl_nv_d3d10_sharing.txt", 23, "undefined-type", ("cl_d3d10_device_source_nv", "cl_uint")),
        ("cl_nv_d3d11_sharing.txt", 1, "undefined-type", ("cl_d3d11_device_set_nv",)),
        # the damage: names lost in the collapsed text, codes lost in the D3D10 reference page
        ("cl_nv_d3d11_sharing.txt", 1, "recovered", ("lost its parameter names",)),
        ("clEnqueueReleaseD3D10ObjectsKHR.txt", 98, "recovered", ("lost their error codes", "6 of 6")),
    ],
)
def test_known_erratum_is_reported(
    seed_result: Result, path: str, line: int, kind: str, words: tuple[str, ...]
) -> None:
    assert found(seed_result, path, line, kind, *words)


def test_further_errata_found_by_the_same_rules(seed_result: Result) -> None:
    """Errata the README does not list, found by the same rules."""
    assert found(seed_result, "cl_nv_d3d10_sharing.txt", 276, "unknown-parameter", "cl_device_set", "d3d_device_set")
    assert found(seed_result, "cl_nv_d3d10_sharing.txt", 308, "undefined-type", "cl_d3d_device_source_nv")
    assert found(seed_result, "cl_khr_d3d11_sharing.txt", 71, "broken-markup", "d3d_device_set")
    assert found(seed_result, "clEnqueueReleaseD3D10ObjectsKHR.txt", 111, "condition-differs", "context", "device")
    assert found(seed_result, "clEnqueueAcquireD3D11ObjectsKHR.txt", 78, "condition-differs", "num_event_in_wait_list")
    assert found(seed_result, "clEnqueueAcquireD3D11ObjectsKHR.txt", 76, "repeated-condition")


def test_diagnostics_name_both_places_of_a_conflict(seed_result: Result) -> None:
    conflicts = [d for d in seed_result.diagnostics if d.kind == "prototype-conflict"]
    assert len(conflicts) == 8
    for conflict in conflicts:
        (other,) = conflict.related
        assert other.precise() != conflict.where.precise()  # distinct even on the collapsed text's one line
        assert other.precise() in conflict.message


#: Every warning the seed specs give; each is an erratum of the texts (README, "Errata found"). The KHR texts
#: leave their device set and source types undefined, which the registry XML the run leans on gives.
WARNINGS = {
    ("clEnqueueAcquireD3D11ObjectsKHR.txt", 76, "condition-differs"): 1,
    ("clEnqueueAcquireD3D11ObjectsKHR.txt", 78, "condition-differs"): 1,
    ("clEnqueueReleaseD3D10ObjectsKHR.txt", 111, "condition-differs"): 1,
    ("clEnqueueReleaseD3D10ObjectsKHR.txt", 118, "condition-differs"): 1,
    ("cl_khr_d3d10_sharing.txt", 182, "not-a-property"): 1,
    ("cl_khr_d3d10_sharing.txt", 233, "undefined-token"): 1,
    ("cl_khr_d3d10_sharing.txt", 245, "undefined-token"): 1,
    ("cl_khr_d3d10_sharing.txt", 339, "undefined-type"): 1,
    ("cl_khr_d3d10_sharing.txt", 354, "undefined-type"): 1,
    ("cl_khr_d3d10_sharing.txt", 823, "broken-markup"): 1,
    ("cl_khr_d3d11_sharing.txt", 71, "broken-markup"): 1,
    ("cl_khr_d3d11_sharing.txt", 183, "not-a-property"): 1,
    ("cl_khr_d3d11_sharing.txt", 233, "undefined-token"): 1,
    ("cl_khr_d3d11_sharing.txt", 245, "undefined-token"): 1,
    ("cl_khr_d3d11_sharing.txt", 324, "wrong-function"): 1,
    ("cl_khr_d3d11_sharing.txt", 339, "undefined-type"): 1,
    ("cl_khr_d3d11_sharing.txt", 354, "undefined-type"): 1,
    ("cl_khr_d3d11_sharing.txt", 823, "broken-markup"): 1,
    ("cl_nv_d3d10_sharing.txt", 23, "undefined-type"): 2,
    ("cl_nv_d3d10_sharing.txt", 160, "not-a-property"): 1,
    ("cl_nv_d3d10_sharing.txt", 210, "undefined-token"): 1,
    ("cl_nv_d3d10_sharing.txt", 218, "table-type"): 1,
    ("cl_nv_d3d10_sharing.txt", 276, "unknown-parameter"): 1,
    ("cl_nv_d3d10_sharing.txt", 308, "undefined-type"): 1,
    ("cl_nv_d3d10_sharing.txt", 317, "undefined-type"): 1,
    ("cl_nv_d3d10_sharing.txt", 359, "prototype-conflict"): 1,
    ("cl_nv_d3d10_sharing.txt", 411, "prototype-conflict"): 1,
    ("cl_nv_d3d10_sharing.txt", 472, "prototype-conflict"): 1,
    ("cl_nv_d3d10_sharing.txt", 668, "prototype-conflict"): 1,
    ("cl_nv_d3d10_sharing.txt", 714, "wrong-function"): 1,
    ("cl_nv_d3d11_sharing.txt", 1, "not-a-property"): 1,
    ("cl_nv_d3d11_sharing.txt", 1, "prototype-conflict"): 4,
    ("cl_nv_d3d11_sharing.txt", 1, "table-type"): 1,
    ("cl_nv_d3d11_sharing.txt", 1, "undefined-token"): 1,
    ("cl_nv_d3d11_sharing.txt", 1, "undefined-type"): 2,
    ("cl_nv_d3d11_sharing.txt", 1, "wrong-function"): 1,
}


def test_no_warning_but_the_errata(seed_result: Result) -> None:
    """No false alarm: the warnings are exactly the errata, one each."""
    found = Counter((d.where.path.removeprefix("specs/"), d.where.pos.line, d.kind) for d in seed_result.diagnostics
                    if d.severity == "warning")
    assert found == Counter(WARNINGS)


def test_every_diagnostic_belongs_to_an_extension(seed_result: Result) -> None:
    """All but what the run says of the registry XML it leans on (one file for every extension)."""
    names = {e.name for e in seed_result.extensions}
    assert {d.extension for d in seed_result.diagnostics if d.where.path != "data/registry/cl.xml"} <= names
    assert {d.severity for d in seed_result.diagnostics if d.extension is None} == {"note"}


def test_thousands_of_undefined_names_take_linear_time(tmp_path: Path) -> None:
    """Suggestions for undefined names stop at a budget instead of weighing every token for every name."""
    assert_linear("undefined-names", tmp_path)


def test_a_name_another_extension_defines_is_a_note_citing_the_registry(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    """A vendor text naming its base extension's tokens in its conditions: "defined by nothing" was wrong, and
    a warning the user could do nothing about."""
    text = samples.GADGET.replace("is not a valid display.", "is not a valid display, or <host> is\n"
                                  "        not CL_MEM_HOST_UNCACHED_QCOM.")
    specs = spec_dir({"cl_acme_gadget.txt": text})
    said = [d for d in pipeline.run(specs).diagnostics if "CL_MEM_HOST_UNCACHED_QCOM" in d.message]
    assert [(d.kind, d.severity) for d in said] == [("defined-elsewhere", "note")]
    assert "an enum required by cl_qcom_ext_host_ptr" in said[0].message
    assert said[0].related[0].path == "data/registry/cl.xml"
    (specs / "cl.xml").write_text(samples.OWN_XML, encoding="utf-8")  # a registry that does not define it
    said = [d for d in pipeline.run(specs).diagnostics if "CL_MEM_HOST_UNCACHED_QCOM" in d.message]
    assert [(d.kind, d.severity) for d in said] == [("undefined-token", "warning")]
