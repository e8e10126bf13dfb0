"""The programs of `examples/`, each run as a user runs it, on POCL through the ocl-icd loader, with the
generated package on the path: each goes as far as a machine without Direct3D allows and says what it found."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from tests.support import GENERATED, ROOT

EXAMPLES = ROOT / "examples"

#: What each example prints on POCL, and its exit status.
EXPECTED = {
    "list_platforms.py": (0, ["Portable Computing Language", "  device: ", "  Direct3D 10: not supported",
                              "  Direct3D 11: not supported"]),
    "checked_before_the_driver.py": (0, [
        "clCreateFromD3D11BufferKHR: CL_INVALID_VALUE (-30): checked before the call: 'values specified in flags "
        "are not valid' holds for flags=3",
        "cl_khr_d3d11_sharing.txt:430: * CL_INVALID_VALUE if values specified in _flags_ are not valid."]),
    "user_synchronised_context.py": (2, [
        "cl_khr_d3d11_sharing or cl_nv_d3d11_sharing is not supported by platform 'Portable Computing Language'",
        "This example needs Windows and an OpenCL driver that shares memory with Direct3D 11."]),
}


def test_every_example_is_run() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_example_runs_on_pocl_as_far_as_linux_allows(name: str, platform: Any) -> None:
    status, lines = EXPECTED[name]
    env = {**os.environ, "PYTHONPATH": str(GENERATED), "PYOPENCL_CTX": "0"}
    ran = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=False, timeout=120)
    assert ran.returncode == status, ran.stdout + ran.stderr
    shown = ran.stdout.splitlines()
    assert all(any(line.startswith(expected) for line in shown) for expected in lines), ran.stdout
    assert "Traceback" not in ran.stderr, ran.stderr
