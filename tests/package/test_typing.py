"""A program using the package, checked with `mypy --strict`: it passes, and a misspelt function does not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import GENERATED

PROGRAM = """
from typing import Any

import pyopencl

from cl_d3d_sharing import d3d11, errors, khr_d3d11


def run(platform: int, devices: list[Any], d3d_device: int, queue: Any, mems: list[Any]) -> str:
    module = d3d11.variant(platform)
    context = module.create_context(devices, context_d3d11_device=d3d_device, as_pyopencl=True)
    resource = module.mem_d3d11_resource(mems[0])
    own = khr_d3d11.create_context(devices, as_pyopencl=True)  # a pyopencl.Context, as mypy knows
    pyopencl.CommandQueue(own, own.devices[0])
    subresource: int = khr_d3d11.image_d3d11_subresource(mems[0])
    khr_d3d11.get_device_ids_from_d3d11(platform, khr_d3d11.D3DDeviceSource.D3D11_DEVICE, d3d_device,
                                        khr_d3d11.D3DDeviceSet.ALL_DEVICES_FOR_D3D11)
    event = module.enqueue_acquire_d3d11_objects(queue, mems)
    with module.acquired(queue, mems, wait_for=[event]):
        pass
    try:
        module.enqueue_release_d3d11_objects(queue, mems)
    except errors.CLError as error:
        return error.routine
    return f"{module.EXTENSION} {context} {resource} {subresource}"
"""


@pytest.mark.parametrize(("wrong", "says"), [(None, None), ("enqueue_acquire_d3d11_object(", "has no attribute"),
                                            ("wait_for=[event]", "Unexpected keyword argument"),
                                            ("D3DDeviceSource.D3D11_DEVICE", "No overload variant"),
                                            ("own.devices[0]", '"Context" has no attribute')])
def test_mypy_strict_checks_a_program_through_the_variant_protocol(
    tmp_path: Path, wrong: str | None, says: str | None,
) -> None:
    text = PROGRAM
    if wrong == "enqueue_acquire_d3d11_object(":
        text = text.replace("enqueue_acquire_d3d11_objects(", wrong)
    elif wrong == "D3DDeviceSource.D3D11_DEVICE":  # the set where the source belongs
        text = text.replace(wrong, "D3DDeviceSet.PREFERRED_DEVICES_FOR_D3D11")
    elif wrong == "own.devices[0]":  # what `as_pyopencl=True` returns is PyOpenCL's class, not Any
        text = text.replace(wrong, "own.device_list[0]")
    elif wrong is not None:
        text = text.replace(wrong, "waitfor=[event]")
    (tmp_path / "program.py").write_text(text)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         str(tmp_path / "program.py")],
        capture_output=True, text=True, check=False, env={"MYPYPATH": str(GENERATED), "PATH": ""}, cwd=tmp_path)
    if says is None:
        assert checked.returncode == 0, checked.stdout
    else:
        assert checked.returncode == 1 and says in checked.stdout, checked.stdout
