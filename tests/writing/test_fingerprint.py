"""Incremental generation: an unchanged run parses nothing; any change to an input or to OUT makes it run again."""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.writing import fingerprint, ownership, writer
from tests.support import ROOT, SPECS, CliRun, snapshot, swapping


@pytest.fixture
def generated(tmp_path: Path, main: Callable[..., CliRun]) -> Path:
    """A fresh OUT made from a copy of the seeds (`tmp_path/specs`)."""
    shutil.copytree(SPECS, tmp_path / "specs")
    out = tmp_path / "out"
    assert main("generate", "--specs", str(tmp_path / "specs"), "--out", str(out))[0] == 0
    return out


def parsing_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, any parse is a test failure."""

    def refuse(*_: object, **__: object) -> pipeline.Result:
        raise AssertionError("parsed although nothing changed")

    monkeypatch.setattr(pipeline, "run", refuse)


def test_a_second_run_with_no_change_parses_nothing_and_says_so(
    generated: Path, main: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = {p: p.read_bytes() for p in generated.rglob("*") if p.is_file()}
    parsing_fails(monkeypatch)
    status, _, err = main("generate", "--specs", str(generated.parent / "specs"), "--out", str(generated))
    assert status == 0
    assert err == f"{generated}: current (no input changed since it was written); nothing parsed\n"
    assert {p: p.read_bytes() for p in generated.rglob("*") if p.is_file()} == before


def test_going_without_the_project_s_registry_is_an_input_of_its_own(
    generated: Path, main: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--no-registry` changes what is read: OUT made leaning on the project's registry XML is not current for a
    run without it, and the other way round."""
    specs = str(generated.parent / "specs")
    assert "registry: data/registry/cl.xml" in (generated / "ir" / "cl_khr_d3d10_sharing.yaml").read_text()
    status, _, err = main("generate", "--specs", specs, "--out", str(generated), "--no-registry")
    assert status == 0 and "current" not in err
    assert "registry:" not in (generated / "ir" / "cl_khr_d3d10_sharing.yaml").read_text()
    assert not (generated / "cl_d3d_sharing" / "specs" / "registry").exists()
    parsing_fails(monkeypatch)
    assert main("generate", "--specs", specs, "--out", str(generated), "--no-registry")[0] == 0
    with pytest.raises(AssertionError, match="parsed although nothing changed"):
        main("generate", "--specs", specs, "--out", str(generated))


def test_importing_the_package_in_place_changes_nothing(
    generated: Path, main: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python writes bytecode under OUT when the package is imported from there; that is not an edit."""
    subprocess.run([sys.executable, "-c", "import cl_d3d_sharing.khr_d3d10"], cwd=generated, check=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    assert list(generated.rglob("*.pyc"))
    parsing_fails(monkeypatch)
    assert main("generate", "--specs", str(generated.parent / "specs"), "--out", str(generated))[0] == 0
    monkeypatch.undo()  # `check` always parses: it compares OUT with what would be written
    assert main("check", "--specs", str(generated.parent / "specs"), "--out", str(generated))[0] == 0


@pytest.mark.parametrize("change", ["spec edited", "spec added", "output edited", "output deleted", "manifest edited"])
def test_any_change_makes_it_run_again(
    generated: Path, main: Callable[..., CliRun], change: str,
) -> None:
    specs = generated.parent / "specs"
    if change == "spec edited":
        spec = specs / "cl_nv_d3d10_sharing.txt"
        spec.write_text(spec.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    elif change == "spec added":
        shutil.copy(specs / "README.md", specs / "NOTES.md")  # read, recognised as notes, skipped
    elif change == "output edited":
        (generated / "ir" / "cl_nv_d3d10_sharing.yaml").write_text("name: broken\n", encoding="utf-8")
    elif change == "output deleted":
        (generated / "docs" / "index.md").unlink()
    else:
        manifest = generated / fingerprint.NAME
        manifest.write_text(manifest.read_text(encoding="utf-8").replace("inputs ", "inputs 0", 1), encoding="utf-8")
    status, _, err = main("generate", "--specs", str(specs), "--out", str(generated))
    assert status == 0 and "nothing parsed" not in err
    assert fingerprint.current(generated, fingerprint.of_folder(specs) or "")


def test_force_parses_anyway(generated: Path, main: Callable[..., CliRun]) -> None:
    status, _, err = main("generate", "--specs", str(generated.parent / "specs"), "--out", str(generated), "--force")
    assert status == 0 and "nothing parsed" not in err


def test_the_hash_names_each_spec_by_its_place_under_the_specs_folder(tmp_path: Path) -> None:
    """The same files under another folder give the same hash; a renamed file does not."""
    for name in ("a", "b"):
        shutil.copytree(SPECS, tmp_path / name)
    a, b = tmp_path / "a", tmp_path / "b"
    assert fingerprint.of_folder(a) == fingerprint.of_folder(b)
    first = sorted(b.glob("*.txt"))[0]
    first.rename(b / f"renamed-{first.name}")
    assert fingerprint.of_folder(a) != fingerprint.of_folder(b)


def test_the_committed_output_is_whole_and_carries_a_hash_of_its_inputs() -> None:
    """Its files are as its manifest lists them (whether the hash is this machine's depends on the library
    versions installed, which the hash covers: `check`, which compares the files, is the test of currency)."""
    listed = ownership.read(ROOT / "generated")
    assert listed is not None and re.fullmatch("[0-9a-f]{64}", listed.inputs)
    assert fingerprint.intact(ROOT / "generated")


def test_a_run_with_nothing_to_write_still_clears_what_a_killed_run_left(
    generated: Path, main: Callable[..., CliRun], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A staging folder still marked as being written, and one whose tree its manifest covers (killed after
    the mark was taken off), are the generator's; a user's folder of the same name pattern is not."""
    unfinished = generated.parent / f".{generated.name}-staging-killed"
    (unfinished / "ir").mkdir(parents=True)
    (unfinished / writer.MARK).touch()
    finished = generated.parent / f".{generated.name}-staging-whole"
    shutil.copytree(generated, finished)
    mine = generated.parent / f".{generated.name}-staging-notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("mine\n")
    parsing_fails(monkeypatch)
    run = main("generate", "--specs", str(generated.parent / "specs"), "--out", str(generated))
    assert run.status == 0
    assert not unfinished.exists() and not finished.exists()
    assert (mine / "todo.txt").read_text() == "mine\n"
    assert f"{mine}: warning: left by an interrupted run, or not" in run.err


@pytest.mark.parametrize("kind", ["a sparse 6 GiB spec", "a spec linked to /proc/self/pagemap",
                                  "a huge file in OUT"])
def test_inputs_are_hashed_without_reading_more_than_a_spec_may_hold(tmp_path: Path, kind: str) -> None:
    """The hash read every input whole before anything checked its size: in a process limited to 1 GiB of
    memory that was a MemoryError (or an OSError from /proc); now a clean error, or a run that costs time."""
    shutil.copytree(SPECS, tmp_path / "specs")
    out = tmp_path / "out"
    if kind == "a sparse 6 GiB spec":
        with open(tmp_path / "specs" / "huge.txt", "wb") as stream:
            stream.truncate(6 << 30)
    elif kind == "a spec linked to /proc/self/pagemap":
        (tmp_path / "specs" / "pagemap.txt").symlink_to("/proc/self/pagemap")
    else:
        assert subprocess.run(generate_command(tmp_path / "specs", out), capture_output=True).returncode == 0
        with open(out / "docs" / "index.md", "wb") as stream:
            stream.truncate(6 << 30)

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run([*generate_command(tmp_path / "specs", out), "--timings", str(tmp_path / "t.json")],
                          capture_output=True, text=True, preexec_fn=limited, check=False)
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-2000:]
    if kind == "a huge file in OUT":
        assert done.returncode == 0, done.stderr[-2000:]  # OUT is not as written: generated again
        assert (out / "docs" / "index.md").stat().st_size < 1 << 20
    else:
        assert done.returncode == 2, done.stderr[-2000:]
        assert "error: " in done.stderr.splitlines()[0]


def generate_command(specs: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)]


def project_copy(tmp_path: Path) -> Path:
    """The project's inputs copied (the generator's code, grammars, templates, `data/`, `docs/`, the specs), so a
    test can change them: `python -m generator` run from the copy imports and reads the copy."""
    copy = tmp_path / "project"
    for folder in ("generator", "grammar", "templates", "data", "docs", "specs"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def command(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                          check=False, env=env)


@pytest.mark.parametrize("change", ["run from another folder", "the specs folder moved",
                                    "a licence text of data/ edited"])
def test_generate_never_says_current_where_check_finds_stale_files(tmp_path: Path, change: str) -> None:
    """What OUT depends on is in the hash: where the specs lie (their paths were written into OUT, and the hash
    named them relative to the folder) and every file of the project (a `.txt` under `data/` was not hashed, and
    OUT/LICENSE is copied from it)."""
    project = project_copy(tmp_path) if change == "a licence text of data/ edited" else ROOT
    specs = tmp_path / "texts"
    shutil.copytree(SPECS, specs)
    out = tmp_path / "out"
    assert command("generate", "--specs", str(specs), "--out", str(out), cwd=project).returncode == 0
    where, given = project, str(specs)
    if change == "run from another folder":
        where, given = tmp_path, "texts"
    elif change == "the specs folder moved":
        given = str(specs.rename(tmp_path / "moved"))
    else:
        licence = project / "data" / "licences" / "Apache-2.0.txt"
        licence.write_text(licence.read_text(encoding="utf-8") + "\nA clause added.\n", encoding="utf-8")
    done = command("generate", "--specs", given, "--out", str(out), cwd=where)
    assert done.returncode == 0, done.stderr[-2000:]
    if "nothing parsed" in done.stderr:
        check = command("check", "--specs", given, "--out", str(out), cwd=where)
        assert check.returncode == 0, check.stderr
    else:
        assert change == "a licence text of data/ edited"  # the same texts from elsewhere: the same output


@pytest.mark.parametrize(("library", "distribution"), [("jinja2", "Jinja2"), ("cffi", "cffi"), ("lark", "lark"),
                                                       ("yaml", "PyYAML"), ("markupsafe", "MarkupSafe")])
def test_another_version_of_a_library_whose_work_is_written_is_not_current(
    tmp_path: Path, main: Callable[..., CliRun], library: str, distribution: str,
) -> None:
    """A library's version is in the hash: Jinja2 renders every template, cffi writes the cffi modules (its
    version is in them), lark parses, PyYAML writes the IR. The same library reported at another version (its
    metadata found first on the path) makes the next run parse again."""
    out = tmp_path / "out"
    assert main("generate", "--specs", str(SPECS), "--out", str(out)).status == 0
    other = tmp_path / "site" / f"{distribution}-99.0.dist-info"
    other.mkdir(parents=True)
    (other / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 99.0\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}  # the metadata alone: the code is the same
    done = command("generate", "--specs", str(SPECS), "--out", str(out), cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "nothing parsed" not in done.stderr
    again = command("generate", "--specs", str(SPECS), "--out", str(out), cwd=ROOT, env=env)
    assert "nothing parsed" in again.stderr, again.stderr[-2000:]


def test_a_spec_changed_while_a_run_reads_it_never_leaves_out_looking_current(tmp_path: Path) -> None:
    """A second process keeps swapping a spec between two revisions while `generate --force` runs; then OUT is
    tried with the spec at each revision: `generate` must call OUT current for exactly one, and OUT must then be
    exactly what that revision makes. The hash was made by reading the specs again, in a second process at
    another moment: a run could record the hash of one revision over the output of the other."""
    specs = tmp_path / "specs"
    specs.mkdir()
    spec = specs / "cl_nv_d3d10_sharing.txt"
    original = (SPECS / spec.name).read_bytes()
    texts = {"old": original, "new": original.replace(b"0x4010", b"0x4030", 1)}
    made = {}
    for revision, text in texts.items():
        spec.write_bytes(text)
        assert command("generate", "--specs", str(specs), "--out", str(tmp_path / revision), cwd=ROOT).returncode == 0
        made[revision] = snapshot(tmp_path / revision)
    assert made["old"] != made["new"]
    rounds = 6
    for round_ in range(rounds):
        out = tmp_path / f"out-{round_}"
        spec.write_bytes(texts["old"])
        (specs / ".other").write_bytes(texts["new"])
        with swapping(spec, specs / ".other", pause=0.0005) as swaps:
            done = command("generate", "--specs", str(specs), "--out", str(out), "--force", cwd=ROOT)
            assert done.returncode == 0, done.stderr[-2000:]
            assert swaps() > 0
        (specs / ".other").unlink()
        shutil.copytree(out, tmp_path / "tried")
        current = []
        for revision, tried in (("old", out), ("new", tmp_path / "tried")):
            spec.write_bytes(texts[revision])
            done = command("generate", "--specs", str(specs), "--out", str(tried), cwd=ROOT)
            if "nothing parsed" in done.stderr:
                current.append(revision)
                assert snapshot(tried) == made[revision], f"OUT called current for {revision}, not what it was made of"
        assert len(current) == 1, current
        shutil.rmtree(tmp_path / "tried")
