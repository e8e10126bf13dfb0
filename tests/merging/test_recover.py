"""What damaged sources lost comes back, with where it came from."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.ir import read
from generator.ir.model import Extension
from generator.pipeline import Result
from tests.support import SPECS, CliRun


def extension(result: Result, name: str) -> Extension:
    return next(e for e in result.extensions if e.name == name)


def test_collapsed_text_gets_its_parameter_names_back(seed_result: Result) -> None:
    collapsed = extension(seed_result, "cl_nv_d3d11_sharing")
    acquire = collapsed.function("clEnqueueAcquireD3D11ObjectsNV")
    assert acquire is not None
    invalid_value = next(e for e in acquire.errors if e.code == "CL_INVALID_VALUE")
    assert invalid_value.condition == ("<num_objects> is zero and <mem_objects> is not a NULL value or if "
                                       "<num_objects> > 0 and <mem_objects> is NULL")
    assert invalid_value.recovered == "parameter names"
    assert invalid_value.recovered_from is not None
    assert re.fullmatch(r"specs/cl_(nv_d3d10|khr_d3d11)_sharing.txt", invalid_value.recovered_from.path)


def test_every_condition_of_the_collapsed_text_names_its_parameters(seed_result: Result) -> None:
    collapsed = extension(seed_result, "cl_nv_d3d11_sharing")
    gaps = re.compile(r"\b(if|of|in|by|and|when|to) (is|are|was|has|and|>)\b|^(is|are|was) ")
    for function in collapsed.functions:
        for error in function.errors:
            assert not gaps.search(error.condition), (function.name, error.condition)


def test_descriptions_without_subject_find_their_parameter(seed_result: Result) -> None:
    collapsed = extension(seed_result, "cl_nv_d3d11_sharing")
    texture = collapsed.function("clCreateFromD3D11Texture3DNV")
    assert texture is not None
    subresource = next(p for p in texture.params if p.name == "subresource")
    assert subresource.description == "<subresource> is the subresource of <resource> to share."
    assert subresource.recovered_from is not None


def test_reference_page_codes_are_recovered(seed_result: Result) -> None:
    khr = extension(seed_result, "cl_khr_d3d10_sharing")
    release = khr.function("clEnqueueReleaseD3D10ObjectsKHR")
    assert release is not None
    from_page = [(e.code, a) for e in release.errors for a in e.also_in
                 if a.source.path == "specs/clEnqueueReleaseD3D10ObjectsKHR.txt"]
    assert sorted(code for code, _ in from_page) == sorted([
        "CL_INVALID_VALUE", "CL_INVALID_MEM_OBJECT", "CL_INVALID_COMMAND_QUEUE", "CL_INVALID_CONTEXT",
        "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR", "CL_INVALID_EVENT_WAIT_LIST"])
    assert all(a.recovered_from and a.recovered_from.path == "specs/cl_khr_d3d10_sharing.txt" for _, a in from_page)


def test_a_man_page_corroborates_the_spec(seed_result: Result) -> None:
    khr = extension(seed_result, "cl_khr_d3d11_sharing")
    acquire = khr.function("clEnqueueAcquireD3D11ObjectsKHR")
    assert acquire is not None
    corroborated = [e.code for e in acquire.errors if e.also_in]
    assert len(corroborated) == 8  # the page's eight conditions, its repeated one included
    assert all(a.recovered_from is None for e in acquire.errors for a in e.also_in)


def test_a_text_that_declares_no_function_and_names_no_parameter_lost_nothing(tmp_path: Path) -> None:
    (tmp_path / "cl_acme_widget.txt").write_text(
        "Name Strings\n\n    cl_acme_widget\n\nNew Tokens\n\n    New image channel orders:\n\n"
        "    CL_WIDGET_ORDER_ACME        0x40D0\n\n"
        "Additions to Chapter 5\n\n    Append the following to the list of error conditions for clCreateImage:\n\n"
        "    \"CL_INVALID_VALUE if the channel order is CL_WIDGET_ORDER_ACME and the image is 3D.\"\n")
    result = pipeline.run(tmp_path)
    assert not [d for d in result.diagnostics if d.kind == "recovered"]
    assert [e.code for f in extension(result, "cl_acme_widget").functions for e in f.errors] == ["CL_INVALID_VALUE"]


def test_a_condition_that_lost_its_code_for_good_is_named_and_coverage_fails(
        tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """A condition of the reference page that lost its code, which no other text states: it cannot be kept, so it
    is a warning at default verbosity naming the function and the condition, and `coverage` lists it."""
    specs = tmp_path / "specs"
    specs.mkdir()
    page = (SPECS / "clEnqueueReleaseD3D10ObjectsKHR.txt").read_text(encoding="utf-8")
    page = page.replace("command_queue\nis not a valid command-queue.", "command_queue\nis out of moon dust.", 1)
    (specs / "page.txt").write_text(page, encoding="utf-8")
    shutil.copy(SPECS / "cl_khr_d3d10_sharing.txt", specs)
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    line = page.split("is out of moon dust.")[0].count("\n")
    assert (f"specs/page.txt:{line}: warning: clEnqueueReleaseD3D10ObjectsKHR: the condition 'command_queue is out "
            "of moon dust' lost its error code and no other source states it") in run.err
    coverage = main("coverage", "--specs", str(specs), "--out", str(tmp_path / "cover"), cwd=tmp_path)
    assert coverage.status == 1
    assert ("[DAMAGED] (code lost): the condition 'command_queue is out of moon dust' lost its error code and no "
            "other source states it: it is not in the IR's conditions, and `coverage` names it  "
            f"(specs/page.txt:{line})") in coverage.out


@pytest.mark.parametrize("texts", [("cl_nv_d3d11_sharing.txt",),
                                   ("cl_nv_d3d11_sharing.txt", "cl_nv_d3d10_sharing.txt")])
def test_descriptions_the_collapsed_text_alone_cannot_restore_are_named(
        tmp_path: Path, main: Callable[..., CliRun], texts: tuple[str, ...]) -> None:
    """Alone, the collapsed text's 31 parameter descriptions lost their subjects and were left out of the IR with a
    note only `-v` shows ("restored them in 0 ... from nowhere"). Each function is now a warning at default
    verbosity naming the parameters left without a description; beside its sibling, nothing is."""
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in texts:
        shutil.copy(SPECS / name, specs)
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    said = [line for line in run.err.splitlines() if "no sibling extension restores them" in line]
    ir = read.load(tmp_path / "out" / "ir" / "cl_nv_d3d11_sharing.yaml")
    bare = {f.name: [p.name for p in f.params if p.description is None] for f in ir.functions if not f.foreign}
    if len(texts) > 1:  # restored; the release function's command_queue is described by neither text
        assert said == [] and {name: names for name, names in bare.items() if names} == {
            "clEnqueueReleaseD3D11ObjectsNV": ["command_queue"]}
        return
    assert sum(map(len, bare.values())) == 33 and len(said) == len(bare) == 6
    buffer = next(line for line in said if ": clCreateFromD3D11BufferNV: " in line)
    assert buffer == ("specs/cl_nv_d3d11_sharing.txt:1:793: warning: clCreateFromD3D11BufferNV: this text's "
                      "descriptions do not name their parameters (its `<name>` markup is lost) and no sibling "
                      "extension restores them: context, flags, resource and errcode_ret have no description in the "
                      "IR, the docs or the docstrings")
    assert any(d.kind == "unrestored-description" for d in ir.diagnostics)


def test_another_texts_condition_for_a_code_that_matches_none_is_named(tmp_path: Path,
                                                                       main: Callable[..., CliRun]) -> None:
    """Two full texts of one extension giving one code two conditions: the second joined the first in silence, and
    its check was compiled into the package from the text that is not followed."""
    text = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    old = "      * CL_INVALID_VALUE if values specified in <flags> are not valid.\n"
    assert text.count(old) == 1
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "a.txt").write_text(text, encoding="utf-8")
    (specs / "b.txt").write_text(text.replace(old, "      * CL_INVALID_VALUE if <flags> is zero.\n"), encoding="utf-8")
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    assert ("specs/b.txt:386: warning: clCreateFromD3D10BufferNV CL_INVALID_VALUE: this text's condition 'flags is "
            "zero' is none of those specs/a.txt:386:7 gives for this code ('values specified in flags are not valid'); "
            "both are kept, and each is checked where it can be [see specs/a.txt:386:7]") in run.err.splitlines()
