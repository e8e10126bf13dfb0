"""Bytecode under OUT: `check` fails on a `.pyc` that is not the generated source compiled, and `generate` does
not call such an OUT current; the bytecode Python leaves by importing the package in place is fine."""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import SPECS, CliRun

TAG = sys.implementation.cache_tag
PLANTED = 'print("PLANTED CODE RAN")\n'


def pyc(code: str, source: Path | None = None) -> bytes:
    """A timestamp `.pyc` of `code`, its header claiming `source`'s modification time and size (so that Python
    takes it for that source's bytecode and runs it instead)."""
    mtime, size = (int(source.stat().st_mtime), source.stat().st_size) if source else (0, 0)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (mtime & 0xFFFFFFFF).to_bytes(4, "little")
    return header + (size & 0xFFFFFFFF).to_bytes(4, "little") + marshal.dumps(compile(code, "x.py", "exec"))


def imported(out: Path, *options: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Import modules of the package from OUT, as a user of it in place does (writing bytecode)."""
    return subprocess.run([sys.executable, *options, "-c", "import cl_d3d_sharing.errors, cl_d3d_sharing.khr_d3d10"],
                          cwd=out, capture_output=True, text=True, check=check,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


PLANTS: dict[str, tuple[str, Callable[[Path], bytes]]] = {
    "other code with the source's time and size": (
        f"cl_d3d_sharing/__pycache__/errors.{TAG}.pyc", lambda out: pyc(PLANTED, out / "cl_d3d_sharing/errors.py")),
    "other code for python -OO": (
        f"cl_d3d_sharing/__pycache__/errors.{TAG}.opt-2.pyc",
        lambda out: pyc(PLANTED, out / "cl_d3d_sharing/errors.py")),
    "bytecode of a module the generator does not write": (
        f"cl_d3d_sharing/__pycache__/backdoor.{TAG}.pyc", lambda _: pyc(PLANTED)),
    "bytecode of another Python": ("cl_d3d_sharing/__pycache__/errors.cpython-399.pyc", lambda _: b"\x00" * 40),
    "no bytecode at all": (f"cl_d3d_sharing/__pycache__/formats.{TAG}.pyc", lambda _: b"not bytecode"),
    "bytecode of the build folder's copy": (
        f"build/lib/cl_d3d_sharing/__pycache__/errors.{TAG}.pyc", lambda _: pyc(PLANTED)),
}


@pytest.mark.parametrize("kind", list(PLANTS))
def test_bytecode_that_is_not_the_source_compiled_fails_check_and_is_not_current(
    tmp_path: Path, main: Callable[..., CliRun], kind: str,
) -> None:
    """The bytecode Python leaves by importing the package in place (plain, -O, -OO, hash-based) is its sources
    compiled and is not named; the planted file is, and OUT is then not current (it was: bytecode was not
    looked at)."""
    out = tmp_path / "out"
    assert main("generate", "--specs", str(SPECS), "--out", str(out)).status == 0
    for options in ([], ["-O"], ["-OO"]):
        imported(out, *options)
    subprocess.run([sys.executable, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], "
                    "invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)", "cl_d3d_sharing/formats.py"],
                   cwd=out, check=True)
    name, make = PLANTS[kind]
    (out / name).parent.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(make(out))
    if kind == "other code with the source's time and size":  # Python runs it in place of the source
        assert "PLANTED CODE RAN" in imported(out, check=False).stdout
    run = main("check", "--specs", str(SPECS), "--out", str(out))
    assert run.status == 1, run.err
    assert run.err.splitlines() == [line for line in run.err.splitlines() if line.startswith(f"{out / name}: ")]
    assert f"{out / name}: bytecode that is not the generated source compiled (" in run.err
    again = main("generate", "--specs", str(SPECS), "--out", str(out))
    assert again.status == 0 and "nothing parsed" not in again.err, again.err
    assert not (out / name).exists()  # OUT was written anew
