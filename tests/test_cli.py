"""`python -m generator generate|check` as users and CI run them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.ir import read
from generator.writing import writer
from tests.support import ROOT, SPECS, CliRun, snapshot


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The command itself, in a new interpreter."""
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                          check=False)


def test_generated_folder_is_current() -> None:
    """generated/ is committed and is exactly what `make generate` writes."""
    result = run("check")
    assert result.returncode == 0, result.stderr


def test_generate_writes_one_valid_ir_per_extension(tmp_path: Path) -> None:
    result = run("generate", "--specs", str(SPECS), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "out" / "ir").iterdir())
    assert [f.name for f in files] == [
        "cl_khr_d3d10_sharing.yaml", "cl_khr_d3d11_sharing.yaml", "cl_nv_d3d10_sharing.yaml",
        "cl_nv_d3d11_sharing.yaml"]
    for file in files:
        assert read.load(file).name == file.stem
    warnings = result.stderr.splitlines()
    assert warnings and all(": warning: " in line and line.split(":")[1].isdigit() for line in warnings)


def test_notes_are_printed_on_request(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    quiet = main("generate", "--out", str(tmp_path / "a")).err
    verbose = main("generate", "--out", str(tmp_path / "b"), "-v").err
    assert ": note: " not in quiet and ": note: " in verbose


def test_output_is_byte_identical_across_runs(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    main("generate", "--out", str(tmp_path / "one"))
    main("generate", "--out", str(tmp_path / "two"))
    assert snapshot(tmp_path / "one") == snapshot(tmp_path / "two")


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("broken.txt", "Name String\n\n    cl_foo_bar\n\nNew Procedures and Functions\n\n"
                       "    cl_int clFoo(cl_int a,, cl_int b)\n", "broken.txt:7:27"),
        ("mystery.txt", "Just some words.\n", "mystery.txt:1:1"),
        ("binary.txt", "abc\x01def", "binary.txt:1:4"),
        ("nameless.txt", "Overview\n\n    Text with no extension string.\n\nNew Tokens\n\n    Accepted as a thing in "
                         "the <x> parameter of clFoo:\n\n        CL_FOO_BAR  1\n", "nameless.txt:1:1"),
    ],
)
def test_bad_input_is_exit_2_and_leaves_out_alone(
    name: str, text: str, where: str, spec_dir: Callable[[dict[str, str]], Path], tmp_path: Path,
    main: Callable[..., CliRun],
) -> None:
    folder = spec_dir({name: text})
    for seed in SPECS.iterdir():
        shutil.copy(seed, folder / seed.name)
    out = tmp_path / "out"
    writer.write(out, {"ir/old.yaml": "previous output\n"})
    before = snapshot(out)
    status, _, stderr = main("generate", "--specs", "specs", "--out", "out", cwd=tmp_path)
    assert status == 2
    assert stderr.splitlines()[0].startswith(f"specs/{where}: error: "), stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "specs"]  # no staging folder left behind


def test_check_names_stale_files(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    out = tmp_path / "out"
    assert main("generate", "--out", str(out))[0] == 0
    assert main("check", "--out", str(out))[0] == 0
    (out / "ir" / "cl_nv_d3d10_sharing.yaml").write_text("edited\n")
    (out / "ir" / "extra.yaml").write_text("not generated\n")
    status, _, stderr = main("check", "--out", str(out))
    assert status == 1
    assert "cl_nv_d3d10_sharing.yaml" in stderr and "extra.yaml" in stderr
    assert "cl_khr_d3d10_sharing.yaml" not in stderr


def test_an_input_error_is_a_message_not_a_traceback(spec_dir: Callable[[dict[str, str]], Path]) -> None:
    folder = spec_dir({"mystery.txt": "Just some words.\n"})
    result = run("generate", "--specs", str(folder), "--out", str(folder.parent / "out"))
    assert result.returncode == 2
    assert result.stderr.startswith("specs/mystery.txt:1:1: error: cannot recognise the format")
    assert "Traceback" not in result.stderr


def test_output_is_byte_identical_whatever_the_hash_seed(tmp_path: Path) -> None:
    """Nothing in the output depends on set or dict order of strings (which PYTHONHASHSEED changes)."""
    snapshots = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / f"seed-{seed}"
        done = subprocess.run([sys.executable, "-m", "generator", "generate", "--out", str(out)], cwd=ROOT,
                              capture_output=True, text=True, check=False,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert done.returncode == 0, done.stderr
        snapshots.append(snapshot(out))
    assert snapshots[0] == snapshots[1] == snapshots[2]
    assert len(snapshots[0]) > 50


def test_the_same_texts_read_from_two_folders_give_byte_identical_output(
    tmp_path: Path, main: Callable[..., CliRun],
) -> None:
    """Citations name the specs folder `specs/`, wherever it lies and whatever it is called: no path of the
    machine in OUT (the IR, NOTICE, errors.py, the modules, the docs held `/tmp/...`), nor in the messages."""
    first, second = tmp_path / "a" / "texts", tmp_path / "elsewhere" / "deeper" / "revision-2"
    shutil.copytree(SPECS, first)
    shutil.copytree(SPECS, second)
    one = main("generate", "--specs", str(first), "--out", str(tmp_path / "one"), cwd=ROOT)
    two = main("generate", "--specs", "revision-2", "--out", str(tmp_path / "two"), cwd=second.parent)
    assert one.status == two.status == 0, one.err + two.err
    assert snapshot(tmp_path / "one") == snapshot(tmp_path / "two")
    assert not [name for name, data in snapshot(tmp_path / "one").items()
                if str(tmp_path).encode() in data or str(ROOT).encode() in data]
    assert one.err == two.err and str(tmp_path) not in one.err
    assert all(line.startswith("specs/") for line in one.err.splitlines())


def test_no_path_is_printed_with_a_raw_control_character(tmp_path: Path) -> None:
    """A path the run names that holds a terminal's escape or a line break (OUT's own name, a file planted in OUT,
    a hidden file among the specs, a planted bytecode's name) is printed escaped, each message on its one line:
    the generator's own messages printed them raw (an escape sequence the terminal obeyed, a message cut in two)."""
    specs, out = tmp_path / "specs", tmp_path / "out\x1b[31m\nred"
    shutil.copytree(SPECS, specs)
    (specs / ".hidden\x1b[2J").write_text("x")
    steps = [run("generate", "--specs", str(specs), "--out", str(out), "-v")]
    with open(out / "README.md", "a", encoding="utf-8") as stream:
        stream.write("an edit\n")
    (out / "cl_d3d_sharing" / "__pycache__").mkdir()
    (out / "cl_d3d_sharing" / "__pycache__" / "x\x1b[0m.cpython-311.pyc").write_bytes(b"planted")
    steps.append(run("check", "--specs", str(specs), "--out", str(out)))
    steps.append(run("generate", "--specs", str(specs), "--out", str(out)))  # replaces the edit
    (out / "planted\x1b[1m").write_text("x")
    steps.append(run("generate", "--specs", str(specs), "--out", str(out)))  # refused: the planted file
    assert [step.returncode for step in steps] == [0, 1, 0, 2], [step.stderr[-2000:] for step in steps]
    shown = str(out).replace("\x1b", "\\x1b").replace("\n", "\\x0a")
    for step in steps:
        assert "\x1b" not in step.stderr + step.stdout
        assert all(line.startswith(("specs/", "data/registry/", shown, "    ", "API changes", "  "))
                   or line.endswith(" errors") for line in step.stderr.splitlines()), step.stderr
    assert "specs/.hidden\\x1b[2J: note: hidden" in steps[0].stderr
    assert f"{shown}/README.md: not what `generate` would write" in steps[1].stderr
    assert f"{shown}/cl_d3d_sharing/__pycache__/x\\x1b[0m.cpython-311.pyc: bytecode that is not" in steps[1].stderr
    assert f"{shown}/README.md: warning: edited since it was generated" in steps[2].stderr
    assert f"{shown}: error: holds files the generator did not write (planted\\x1b[1m;" in steps[3].stderr
