"""`generate` replaces only a folder it can prove it wrote; anywhere else it refuses and changes nothing."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.writing import fingerprint, ownership
from tests.support import ROOT, SPECS, CliRun, Unprivileged, missing, snapshot

Main = Callable[..., CliRun]


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    shutil.copytree(SPECS, tmp_path / "specs")
    return tmp_path / "specs"


def refused(run: CliRun, out: str, why: str) -> None:
    assert run.status == 2, run.err
    assert run.err.startswith(f"{out}: error: ") and why in run.err, run.err
    assert "Traceback" not in run.err


def tree(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder`: files with their bytes, links with their targets, folders."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        found[relative] = f"-> {os.readlink(path)}" if path.is_symlink() else (
            path.read_bytes() if path.is_file() else "folder")
    return found


@pytest.mark.parametrize(("where", "why"), [
    ("specs", "is the specs folder or holds it"),
    (".", "is the current folder or holds it"),
    ("..", "is the current folder or holds it"),
    ("/", "is the current folder or holds it"),
    ("specs/out", "lies inside the specs folder"),
    ("specs/new/deeper/out", "lies inside the specs folder"),
])
def test_a_folder_the_run_reads_or_stands_in_is_refused(specs: Path, main: Main, where: str, why: str) -> None:
    work = specs.parent / "work"
    work.mkdir()
    (work / "notes.txt").write_text("mine\n")
    before = tree(specs.parent)
    cwd = work if where in {".", "..", "/"} else specs.parent
    run = main("generate", "--specs", str(specs), "--out", where, cwd=cwd)
    refused(run, where, why)
    assert tree(specs.parent) == before


def test_a_folder_holding_the_specs_is_refused_even_with_a_manifest(specs: Path, main: Main) -> None:
    """The project root holds the specs; a manifest planted there proves nothing about the specs beside it."""
    (specs.parent / ownership.NAME).write_text("inputs x\n")
    before = tree(specs.parent)
    refused(main("generate", "--specs", str(specs), "--out", str(specs.parent), cwd=ROOT), str(specs.parent),
            "is the specs folder or holds it")
    assert tree(specs.parent) == before


def test_the_project_itself_is_refused(specs: Path, main: Main) -> None:
    before = {p.name for p in ROOT.iterdir()}
    refused(main("generate", "--specs", str(specs), "--out", str(ROOT), cwd=specs.parent), str(ROOT),
            "holds the generator itself")
    assert {p.name for p in ROOT.iterdir()} == before


@pytest.mark.parametrize("kind", ["file", "link to a folder", "link to nothing", "link to a file"])
def test_an_out_that_is_no_folder_of_its_own_is_refused(specs: Path, main: Main, kind: str) -> None:
    out = specs.parent / "out"
    target = specs.parent / "elsewhere"
    if kind == "file":
        out.write_text("a file of mine\n")
    elif kind == "link to a folder":
        target.mkdir()
        (target / "mine.txt").write_text("mine\n")
        out.symlink_to(target)
    elif kind == "link to a file":
        target.write_text("mine\n")
        out.symlink_to(target)
    else:
        out.symlink_to(target)
    before = tree(specs.parent)
    refused(main("generate", "--specs", str(specs), "--out", "out", cwd=specs.parent), "out",
            "is not a folder" if kind == "file" else "is a symbolic link")
    assert tree(specs.parent) == before


@pytest.mark.parametrize("plant", [
    "a file and no manifest", "a file its manifest does not list", "a folder", "a symbolic link",
    "a manifest naming a file outside OUT", "a manifest that is not the generator's", "a manifest that is a link",
    "a cache folder holding a file of mine", "byproducts and no manifest",
])
def test_an_out_holding_what_the_generator_did_not_write_is_refused(specs: Path, main: Main, plant: str) -> None:
    out = specs.parent / "out"
    assert main("generate", "--specs", str(specs), "--out", str(out)).status == 0
    manifest = out / ownership.NAME
    if plant == "a file and no manifest":
        manifest.unlink()
        (out / "thesis.tex").write_text("years of work\n")
    elif plant == "a file its manifest does not list":
        (out / "docs" / "thesis.tex").write_text("years of work\n")
    elif plant == "a folder":
        (out / "photos").mkdir()
    elif plant == "a symbolic link":
        (out / "home").symlink_to(Path.home())
    elif plant == "a manifest naming a file outside OUT":
        (specs.parent / "secret").write_text("mine\n")
        manifest.write_text(manifest.read_text() + f"{'0' * 64}  ../secret\n")
    elif plant == "a manifest that is not the generator's":
        manifest.write_text(manifest.read_text().replace("  ", " ", 1))
    elif plant == "a manifest that is a link":
        (specs.parent / "elsewhere.sha256").write_bytes(manifest.read_bytes())
        manifest.unlink()
        manifest.symlink_to(specs.parent / "elsewhere.sha256")
    elif plant == "byproducts and no manifest":  # byproducts of what? a folder of results named like them
        shutil.rmtree(out)
        (out / "results.egg-info").mkdir(parents=True)
        (out / "results.egg-info" / "measurements.csv").write_text("1,2\n")
        (out / "__pycache__").mkdir()
        (out / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"")
    else:
        (out / "cl_d3d_sharing" / "__pycache__").mkdir()
        (out / "cl_d3d_sharing" / "__pycache__" / "notes.txt").write_text("mine\n")
    before = tree(specs.parent)
    run = main("generate", "--specs", str(specs), "--out", "out", "--force", cwd=specs.parent)
    refused(run, "out", "holds files the generator did not write")
    assert tree(specs.parent) == before


def test_the_refusal_names_what_it_found(specs: Path, main: Main) -> None:
    out = specs.parent / "out"
    out.mkdir()
    for number in range(8):
        (out / f"mine{number}.txt").write_text("mine\n")
    run = main("generate", "--specs", str(specs), "--out", "out", cwd=specs.parent)
    assert "(mine0.txt, mine1.txt, mine2.txt, mine3.txt, mine4.txt and 3 more; it has no manifest)" in run.err


@pytest.mark.parametrize("state", ["absent", "empty", "its own", "its own, edited", "its own, installed"])
def test_a_new_or_empty_folder_or_its_own_is_written(specs: Path, main: Main, state: str) -> None:
    out = specs.parent / "deep" / "out"
    if state == "empty":
        out.mkdir(parents=True)
    elif state.startswith("its own"):
        assert main("generate", "--specs", str(specs), "--out", str(out)).status == 0
    if state == "its own, edited":  # generated files are the generator's, edits and all (`check` tells)
        (out / "ir" / "cl_nv_d3d10_sharing.yaml").write_text("edited\n")
        (out / "docs" / "index.md").unlink()
    if state == "its own, installed":  # the README's `pip install OUT`; importing leaves bytecode
        installed = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
             "--disable-pip-version-check", "--target", str(specs.parent / "site"), str(out)],
            capture_output=True, text=True, check=False)
        assert installed.returncode == 0, installed.stderr
        subprocess.run([sys.executable, "-c", "import cl_d3d_sharing.khr_d3d10"], cwd=out, check=True,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
        assert list(out.rglob("*.pyc"))
    run = main("generate", "--specs", str(specs), "--out", str(out), "--force")
    assert run.status == 0, run.err
    assert fingerprint.intact(out)


def test_out_keeps_its_permissions(specs: Path, main: Main) -> None:
    out = specs.parent / "out"
    out.mkdir(mode=0o750)
    os.chmod(out, 0o750)  # whatever the umask
    for _ in range(2):
        assert main("generate", "--specs", str(specs), "--out", str(out), "--force").status == 0
        assert out.stat().st_mode & 0o7777 == 0o750


def test_a_new_out_gets_what_the_umask_gives(specs: Path, main: Main) -> None:
    old = os.umask(0o027)
    try:
        assert main("generate", "--specs", str(specs), "--out", str(specs.parent / "out")).status == 0
    finally:
        os.umask(old)
    assert (specs.parent / "out").stat().st_mode & 0o777 == 0o750


def test_a_manifest_is_read_back_as_written(tmp_path: Path) -> None:
    assert ownership.read(tmp_path) is None
    files = {"a/b.txt": "b\n", "c": "", ownership.NAME: "not listed in itself"}
    (tmp_path / ownership.NAME).write_text(ownership.manifest("1234", files))
    found = ownership.read(tmp_path)
    assert found is not None and found.inputs == "1234" and sorted(found.files) == ["a/b.txt", "c"]


@pytest.mark.parametrize("name", ["../x", "/etc/passwd", "a//b", "./a", "a/../../b", "a\\b", "tab\there", ""])
def test_a_manifest_naming_anything_but_a_plain_path_under_out_proves_nothing(tmp_path: Path, name: str) -> None:
    (tmp_path / ownership.NAME).write_text(f"inputs x\n{'0' * 64}  {name}\n")
    assert ownership.read(tmp_path) is None
    (tmp_path / ownership.NAME).write_text(f"inputs x\n{'0' * 64}  a/b\n")
    assert ownership.read(tmp_path) == ownership.Manifest("x", {"a/b": "0" * 64})


def test_check_and_generate_ignore_the_byproducts_of_using_the_package(specs: Path, main: Main) -> None:
    out = specs.parent / "out"
    assert main("generate", "--specs", str(specs), "--out", str(out)).status == 0
    (out / "build" / "lib" / "cl_d3d_sharing").mkdir(parents=True)
    shutil.copy(out / "cl_d3d_sharing" / "errors.py", out / "build" / "lib" / "cl_d3d_sharing" / "errors.py")
    (out / "build" / "bdist.linux-x86_64").mkdir()
    (out / "cl_d3d_sharing.egg-info").mkdir()
    (out / "cl_d3d_sharing.egg-info" / "PKG-INFO").write_text("Name: cl-d3d-sharing\n")
    before = snapshot(out)
    assert main("check", "--specs", str(specs), "--out", str(out)).status == 0
    assert main("generate", "--specs", str(specs), "--out", str(out)).status == 0  # current: nothing parsed
    assert snapshot(out) == before


def test_a_build_folder_holding_other_files_is_not_a_byproduct(specs: Path, main: Main) -> None:
    out = specs.parent / "out"
    assert main("generate", "--specs", str(specs), "--out", str(out)).status == 0
    (out / "build").mkdir()
    (out / "build" / "Makefile").write_text("all:\n")
    refused(main("generate", "--specs", str(specs), "--out", "out", "--force", cwd=specs.parent), "out",
            "build/Makefile")


def generate_as(user: Unprivileged, specs: Path, out: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(user.generator("generate", "--specs", str(specs), "--out", out, "--force"),
                          cwd=user.folder, capture_output=True, text=True, check=False, env=user.env)


@pytest.mark.parametrize("where", ["a folder it cannot list", "a listed folder it cannot enter"])
def test_a_folder_that_cannot_be_read_whole_is_refused(specs: Path, unprivileged: Unprivileged, where: str) -> None:
    """What a folder holds that cannot be read is unknown: it was taken for empty and replaced (0300), or the
    run ended in a traceback (a listed folder of mode 0600)."""
    shared = unprivileged.folder / "specs"
    shutil.copytree(specs, shared)
    for path in [shared, *shared.iterdir()]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    out = unprivileged.folder / "out"
    if where == "a folder it cannot list":
        out.mkdir()
        (out / "diary.txt").write_text("mine\n")
        os.chmod(out, 0o300)
    else:
        assert generate_as(unprivileged, shared, "out").returncode == 0
        os.chmod(out / "docs", 0o600)
    before = snapshot(out) if where != "a folder it cannot list" else None
    done = generate_as(unprivileged, shared, "out")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("out: error: cannot be read whole (Permission denied"), done.stderr
    os.chmod(out, 0o755)
    os.chmod(out / "docs", 0o755) if (out / "docs").exists() else None
    assert sorted(p.name for p in unprivileged.folder.iterdir()) == ["out", "specs"]
    if before is None:
        assert (out / "diary.txt").read_text() == "mine\n"
    else:
        assert snapshot(out) == before


def test_specs_named_through_a_parent_folder_are_read(specs: Path, main: Main) -> None:
    """`--specs ../specs`: the parts of the path given are not the specs' own names (a hidden file is)."""
    work = specs.parent / "work"
    work.mkdir()
    run = main("generate", "--specs", "../specs", "--out", "out", cwd=work)
    assert run.status == 0, run.err
    assert fingerprint.intact(work / "out")


@pytest.mark.parametrize("target", ["itself", "its parent"])
def test_a_link_loop_is_a_clean_error(specs: Path, main: Main, target: str) -> None:
    loop = specs.parent / "loop"
    loop.symlink_to("loop")
    out = "loop" if target == "itself" else "loop/out"
    run = main("generate", "--specs", str(specs), "--out", out, cwd=specs.parent)
    assert run.status == 2 and run.err.startswith(f"{out}: error: "), run.err
    run = main("generate", "--specs", "loop", "--out", "out", cwd=specs.parent)
    assert run.status == 2 and run.err.startswith("loop: error: "), run.err
    assert not (specs.parent / "out").exists()


def test_the_specs_folder_under_another_name_is_still_the_specs_folder(specs: Path) -> None:
    """A bind mount shows the specs folder under a second path (in a mount namespace of this user)."""
    if shutil.which("unshare") is None:
        missing("util-linux's unshare")
    alias = specs.parent / "alias"
    alias.mkdir()
    script = (f"mount --bind {shlex.quote(str(specs))} {shlex.quote(str(alias))} && " + shlex.join(
        [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(alias / "out")]))
    before = tree(specs)
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2, done.stderr
    assert "lies inside the specs folder" in done.stderr
    assert tree(specs) == before
