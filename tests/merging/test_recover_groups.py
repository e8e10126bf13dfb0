"""Token groups whose sentence lost its parameter get it back from a sibling."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator import pipeline
from generator.pipeline import Result
from tests.support import SPECS


def test_token_groups_get_their_parameter_back(seed_result: Result) -> None:
    collapsed = next(e for e in seed_result.extensions if e.name == "cl_nv_d3d11_sharing")
    group = next((g for g in collapsed.token_groups if g.name == "d3d_device_source"), None)
    assert group is not None and group.parameter == "d3d_device_source"
    assert group.recovered_from is not None and group.recovered_from.path == "specs/cl_nv_d3d10_sharing.txt"
    assert "the <d3d_device_source> parameter of clGetDeviceIDsFromD3D11NV" in group.sentence


def test_without_a_sibling_the_prototype_tells_the_parameter(tmp_path: Path) -> None:
    """The collapsed text alone: each group's function has one parameter its tokens fit (a type of the extension's
    own, or core OpenCL's enumeration typedef for a core function), taken with a note; none comes from a sibling."""
    shutil.copy(SPECS / "cl_nv_d3d11_sharing.txt", tmp_path)
    result = pipeline.run(tmp_path)
    (alone,) = result.extensions
    taken = {g.name: g.parameter for g in alone.token_groups if g.kind != "error"}
    assert taken == {"d3d_device_source": "d3d_device_source", "d3d_device_set": "d3d_device_set",
                     "context_properties": "properties", "mem_info": "param_name", "image_info": "param_name",
                     "command_type": "param_name"}
    assert all(g.recovered_from is None for g in alone.token_groups)
    notes = [d.message for d in result.diagnostics if d.kind == "recovered" and "tokens are passed in" in d.message]
    assert len(notes) == len(taken) and "taken to be <properties>, the one of clCreateContext that fits" in notes[2]
