"""`pip install ./generated` gives a package that imports, typed, on a machine without OpenCL; it leaves the folder
as it was, and `python -m build` makes an sdist and a wheel that `twine check` passes, without a warning."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support import GENERATED


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    source = build / "generated"
    subprocess.run(["cp", "-r", str(GENERATED), str(source)], check=True)
    before = sorted(source.rglob("*"))
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--target", str(target), str(source)],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert sorted(source.rglob("*")) == before, "installing left files behind"
    return target


def test_build_makes_what_twine_accepts_without_a_warning(tmp_path: Path) -> None:
    source, dist = tmp_path / "generated", tmp_path / "dist"
    subprocess.run(["cp", "-r", str(GENERATED), str(source)], check=True)
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0 and "warn" not in (built.stdout + built.stderr).lower(), built.stdout + built.stderr
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dist.iterdir())],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    with zipfile.ZipFile(next(dist.glob("*.whl"))) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode("utf-8")
    readme = metadata.partition("\n\n")[2]
    named = re.findall(r"`([\w.]+/[\w./]*)`", readme)  # the paths the README points to
    assert named and all(any(n.startswith(path) for n in names) for path in named), (named, readme)


def test_it_imports_and_names_its_extension_without_opencl(installed: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed), "CL_D3D_SHARING_OPENCL_LIBRARY": "/no/OpenCL/here.so"}
    result = subprocess.run(
        [sys.executable, "-c", "import cl_d3d_sharing.khr_d3d11 as m; print(m.EXTENSION); print(m.__file__)"],
        capture_output=True, text=True, env=env, cwd=installed.parent, check=False)
    assert result.returncode == 0, result.stderr
    name, path = result.stdout.split()
    assert name == "cl_khr_d3d11_sharing"
    assert path.startswith(str(installed))


def test_its_citations_lead_to_the_texts_it_carries(installed: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    program = ("from cl_d3d_sharing import khr_d3d11 as m\n"
               "c = m._CONDITIONS['clEnqueueAcquireD3D11ObjectsKHR'][-30][0]\n"
               "print(c.file); print(c.file.read_text().splitlines()[c.line - 1])")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env,
                            cwd=installed.parent, check=False)
    assert result.returncode == 0, result.stderr
    path, line = result.stdout.splitlines()
    assert path.startswith(str(installed / "cl_d3d_sharing" / "specs")) and "CL_INVALID_VALUE" in line


def test_it_ships_its_type_marker_and_cdefs(installed: Path) -> None:
    package = installed / "cl_d3d_sharing"
    assert (package / "py.typed").exists()
    assert sorted(p.name for p in (package / "_cdef").iterdir()) == [
        "core.h", "khr_d3d10.h", "khr_d3d11.h", "nv_d3d10.h", "nv_d3d11.h"]
    assert not (installed / "ir").exists(), "only the package is installed"
    licences = next(installed.glob("cl_d3d_sharing-*.dist-info")) / "licenses"
    assert "Creative Commons Attribution 4.0" in " ".join((licences / "NOTICE").read_text().split())
