"""Writing the output tree whole or not at all."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib.machinery
import os
import random
import resource
import select
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from generator.base.errors import InputError
from generator.writing import fingerprint, folders, ownership, writer
from tests.support import SPECS, footprint, hijacking, missing, snapshot, swapping


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_write_replaces_the_whole_tree_and_lists_it_in_its_manifest(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n", "ir/b.yaml": "b\n"})
    writer.write(out, {"ir/a.yaml": "new a\n"})
    assert listing(out) == [ownership.NAME, "ir/a.yaml"]
    assert (out / "ir" / "a.yaml").read_text() == "new a\n"
    manifest = ownership.read(out)
    assert manifest is not None and list(manifest.files) == ["ir/a.yaml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_on_linux_the_two_folders_are_exchanged_in_one_step(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "from_a").write_text("a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "from_b").write_text("b")
    parent = os.open(tmp_path, os.O_RDONLY)
    try:
        assert folders.exchange(parent, "a", parent, "b")
    finally:
        os.close(parent)
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["from_b"]
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["from_a"]


def test_a_failed_write_leaves_the_previous_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})

    def broken(*_: object, **__: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "somewhere")

    monkeypatch.setattr(folders, "put", broken)
    with pytest.raises(InputError, match="cannot write the output: No space left on device"):
        writer.write(out, {"ir/a.yaml": "changed\n"})
    monkeypatch.undo()
    assert (out / "ir" / "a.yaml").read_text() == "a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_stale_lists_differing_missing_and_extra_files(tmp_path: Path) -> None:
    files = {"a": "1", "b": "2"}
    files[ownership.NAME] = ownership.manifest("x", files)
    writer.write(tmp_path / "out", files)
    assert writer.stale(tmp_path / "out", files) == []
    assert writer.stale(tmp_path / "out", {"a": "changed", "c": "3", ownership.NAME: files[ownership.NAME]}) == [
        "a", "b", "c"]
    assert writer.stale(tmp_path / "missing", {"a": "1"}) == ["a"]


def test_an_out_moved_aside_by_a_killed_run_comes_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})
    out.rename(tmp_path / ".out-previous")  # killed between the two renames
    writer.recover(out)
    assert (out / "ir" / "a.yaml").read_text() == "a\n"


def test_a_generation_killed_at_any_moment_leaves_out_whole(tmp_path: Path) -> None:
    """SIGKILL at random moments of `generate`: OUT is always exactly the old tree or exactly the new one.

    Runs alternate between the seeds and a revision of them, so every run has a different tree to write. The
    moments are drawn within twice a run's time as last seen (a loaded machine slows every run), and kills go on
    past the first 20 until some have come before the swap and some after (at most 200: only a run that never
    swaps, or always has, gets there).
    """
    revised = tmp_path / "revised"
    shutil.copytree(SPECS, revised)
    seed = revised / "cl_nv_d3d10_sharing.txt"
    seed.write_text(seed.read_text(encoding="utf-8").replace("0x4010", "0x4030", 1), encoding="utf-8")
    out = tmp_path / "out"
    trees, durations = [], []
    for specs in (SPECS, revised):
        started = time.monotonic()
        subprocess.run(generate(specs, out), check=True, capture_output=True)
        durations.append(time.monotonic() - started)
        trees.append(snapshot(out))
    assert trees[0] != trees[1]
    moments = random.Random(20261121)
    kills = unchanged = 0
    while kills < 20 or unchanged in (0, kills):
        assert kills < 200, f"{unchanged} of {kills} kills left OUT unchanged"
        before = snapshot(out)
        started = time.monotonic()
        run = subprocess.Popen(generate((SPECS, revised)[kills % 2], out), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:  # about half the kills land before the swap
            run.wait(timeout=moments.uniform(0.0, 2 * statistics.median(durations[-3:])))
            durations.append(time.monotonic() - started)
        except subprocess.TimeoutExpired:
            run.send_signal(signal.SIGKILL)
            run.wait()
        after = snapshot(out)
        assert after in trees, f"kill {kills}: OUT is neither the old nor the new tree"
        unchanged += after == before
        kills += 1
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "revised"]  # nothing left behind


def generate(specs: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)]


def _first_line(stream: IO[str], bound: float = 60.0) -> str:
    """The next line a child writes, or "" when it writes none within `bound` seconds (a hang fails the test)."""
    ready, _, _ = select.select([stream], [], [], bound)
    return stream.readline() if ready else ""


def test_a_second_run_waits_while_another_holds_out_and_leaves_its_staging_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with writer.locked(out):  # this process is the first run, writing its staging folder
        live = tmp_path / ".out-staging-live"
        (live / "ir").mkdir(parents=True)
        (live / writer.MARK).touch()  # as a run's staging folder holds while it is written
        second = subprocess.Popen(generate(SPECS, out), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        try:
            assert _first_line(second.stderr) == f"{out}: waiting for another run writing it\n"  # type: ignore[arg-type]
            assert live.is_dir() and second.poll() is None
        except BaseException:
            second.kill()
            raise
    assert second.wait(timeout=120) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # the first run is over: its folder was left over


def test_two_real_runs_on_one_out_take_turns(tmp_path: Path) -> None:
    """The first run is stopped while it holds OUT (as on a slow disk); the second waits, then both succeed."""
    out = tmp_path / "out"
    first = subprocess.Popen(generate(SPECS, out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = os.open(tmp_path, os.O_RDONLY)
    try:
        while True:
            assert first.poll() is None, "the first run ended before it was seen holding OUT"
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(probe, fcntl.LOCK_UN)
            except BlockingIOError:
                os.kill(first.pid, signal.SIGSTOP)
                break
            time.sleep(0.002)
    finally:
        os.close(probe)
    second = subprocess.Popen(generate(SPECS, out), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        assert _first_line(second.stderr) == f"{out}: waiting for another run writing it\n"  # type: ignore[arg-type]
    finally:
        os.kill(first.pid, signal.SIGCONT)
    assert first.wait(timeout=120) == 0
    assert second.wait(timeout=120) == 0
    assert fingerprint.intact(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_full_disk_is_a_clean_error_and_out_stays(tmp_path: Path) -> None:
    """The file size limit (RLIMIT_FSIZE) makes the system refuse writes past 20 kB, as a full disk would."""
    out = tmp_path / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    before = snapshot(out)

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    done = subprocess.run([*generate(SPECS, out), "--force"], capture_output=True, text=True, check=False,
                          preexec_fn=small_disk, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"{out}: error: cannot write the output: File too large ("), done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("read_only", ["out", "its parent"])
def test_a_read_only_out_is_a_clean_error(tmp_path: Path, read_only: str) -> None:
    """A real read-only file system: a bind mount in a mount namespace of this user (util-linux `unshare`)."""
    if shutil.which("unshare") is None:
        missing("util-linux's unshare")
    parent = tmp_path / "parent"
    out = parent / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    before = snapshot(out)
    mounted = out if read_only == "out" else parent
    script = (f"mount --bind -o ro {shlex.quote(str(mounted))} {shlex.quote(str(mounted))} && "
              + shlex.join([*generate(SPECS, out), "--force"]))
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"{out}: error: cannot write the output: "), done.stderr
    assert "Traceback" not in done.stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in parent.iterdir()) == ["out"]


@pytest.mark.parametrize("name", ["gen", "*", "[ab]", "a?"])
def test_only_what_is_provably_the_generators_is_cleaned_up(tmp_path: Path, name: str) -> None:
    """A user's folders named like a killed run's leftovers stay, whatever OUT's name matches as a pattern;
    a staging folder still marked, or holding a tree its manifest covers, goes."""
    out = tmp_path / name
    mine = {f".{name}-staging-notes", ".thesis-staging-draft", ".a-staging-x", f".{name}-previous"}
    for folder in mine:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "chapter1.tex").write_text("years of work\n")
    killed = tmp_path / f".{name}-staging-killed"
    killed.mkdir()
    (killed / writer.MARK).touch()
    assert sorted(writer.recover(out)) == sorted(tmp_path / f for f in mine if f.startswith(f".{name}-"))
    assert {p.name for p in tmp_path.iterdir()} == mine
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    assert {p.name for p in tmp_path.iterdir()} == mine | {name}
    assert all((tmp_path / f / "chapter1.tex").read_text() == "years of work\n" for f in mine)


def test_an_out_moved_aside_is_put_back_only_when_it_is_the_generators(tmp_path: Path) -> None:
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})
    out.rename(tmp_path / ".out-previous")
    (tmp_path / ".out-previous" / "thesis.tex").write_text("mine\n")  # not what the generator wrote
    assert writer.recover(out) == [tmp_path / ".out-previous"]
    assert not out.exists() and (tmp_path / ".out-previous" / "thesis.tex").exists()


def test_a_file_saved_into_out_during_the_run_puts_out_back(tmp_path: Path) -> None:
    """The run is stopped once its staging folder is there (the check of OUT is behind it), a file is saved
    into OUT, the run goes on: OUT is put back with the file, and the run says so (it used to delete it)."""
    out = tmp_path / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    before = snapshot(out)
    for _ in range(30):  # the staging folder lives for some tens of milliseconds: catch it
        run = subprocess.Popen([*generate(SPECS, out), "--force"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        while run.poll() is None and not list(tmp_path.glob(".out-staging-*")):
            time.sleep(0.0005)
        if run.poll() is None:
            run.send_signal(signal.SIGSTOP)
            (out / "NOTES.md").write_text("mine\n")
            run.send_signal(signal.SIGCONT)
            _, err = run.communicate(timeout=120)
            break
        run.communicate()
    else:
        pytest.fail("the run's staging folder was never seen")
    assert run.returncode == 2, err
    assert "changed while this run wrote it (NOTES.md appeared); put back as it was" in err
    assert snapshot(out) == before | {"NOTES.md": b"mine\n"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_read_only_out_is_replaced_and_stays_read_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    os.chmod(out, 0o555)
    subprocess.run([*generate(SPECS, out), "--force"], check=True, capture_output=True)
    assert out.stat().st_mode & 0o777 == 0o555
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # the old tree was removed, read-only or not
    os.chmod(out, 0o755)


def test_out_keeps_its_owner(tmp_path: Path) -> None:
    """A run as root on a user's OUT gives the new tree that user (as anyone else, OUT is this user's)."""
    out = tmp_path / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    owner = (65534, 65534) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    os.chown(out, *owner)
    subprocess.run([*generate(SPECS, out), "--force"], check=True, capture_output=True)
    assert {(p.stat().st_uid, p.stat().st_gid) for p in [out, *out.rglob("*")]} == {owner}


def test_where_folders_cannot_be_exchanged_out_goes_aside_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two renames used off Linux: the new tree in place, nothing left; a user's `.out-previous` in the
    way stops the run with OUT as it was."""
    monkeypatch.setattr(folders, "exchange", lambda a_folder, a, b_folder, b: False)
    out = tmp_path / "out"
    writer.write(out, {"ir/a.yaml": "a\n"})
    writer.write(out, {"ir/a.yaml": "b\n"})
    assert (out / "ir" / "a.yaml").read_text() == "b\n" and sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    (tmp_path / ".out-previous").mkdir()
    (tmp_path / ".out-previous" / "mine.txt").write_text("mine\n")
    with pytest.raises(InputError, match="is in the way of replacing OUT and is not the generator's"):
        writer.write(out, {"ir/a.yaml": "c\n"})
    assert (out / "ir" / "a.yaml").read_text() == "b\n" and (tmp_path / ".out-previous" / "mine.txt").exists()


#: Names a leftover staging folder holds (an attacker can make one, marked, with the names of a user's files).
VICTIMS = ["canary.txt", "README.md", "LICENSE", "docs/thesis.tex", *(f"file-{i:03}" for i in range(300))]


def lay(folder: Path, names: list[str], text: str) -> None:
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def outside_with_canaries(tmp_path: Path) -> Path:
    """A user's folder beside the one OUT lies in: files a run must never delete, change, chmod or chown, named
    as a leftover's files are, and named as the generator names its own (a staging folder, OUT, its files)."""
    outside = tmp_path / "outside"
    (outside / "out").mkdir(parents=True)
    lay(outside, [*VICTIMS, writer.MARK], "mine\n")
    (outside / "out" / "thesis.tex").write_text("years of work\n")
    lay(outside / ".out-staging-k", VICTIMS, "mine too\n")  # named like a leftover, and not the generator's
    os.chmod(outside, 0o751)
    return outside


def marked(folder: Path) -> Callable[[], None]:
    """Put back a staging folder of a killed run at `folder` (marked: the generator's to remove) when it is gone."""

    def refill() -> None:
        if not os.path.lexists(folder):
            folder.mkdir()
            lay(folder, [*VICTIMS, writer.MARK], "")

    return refill


def test_a_leftover_swapped_for_a_link_to_a_users_folder_is_never_followed(tmp_path: Path) -> None:
    """A second process keeps swapping a killed run's staging folder (marked) with a link to a user's folder
    while `generate` runs again and again: the folder is removed when it is the real one, and nothing under the
    link is ever deleted or has its mode changed (the clean-up chmod-ed and emptied it)."""
    work = tmp_path / "work"
    work.mkdir()
    outside = outside_with_canaries(tmp_path)
    subprocess.run(generate(SPECS, work / "out"), check=True, capture_output=True)
    before = footprint(outside)
    leftover = work / ".out-staging-k"
    (work / ".aside").symlink_to(outside)
    with swapping(leftover, work / ".aside", marked(leftover)) as swaps:
        for _ in range(20):
            done = subprocess.run(generate(SPECS, work / "out"), capture_output=True, text=True, check=False)
            assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert swaps() > 0
    assert footprint(outside) == before
    assert fingerprint.intact(work / "out")


def test_outs_parent_swapped_for_a_link_to_a_users_folder_leads_nowhere(tmp_path: Path) -> None:
    """A second process keeps swapping the folder that holds OUT (and a killed run's staging folder) with a link
    to a user's folder holding an OUT and a staging folder of its own: each run works in the folder it opened,
    and nothing of the user's is ever deleted, replaced, or has its mode changed."""
    outside = outside_with_canaries(tmp_path)
    work = tmp_path / "work"
    (work / "a").mkdir(parents=True)
    subprocess.run(generate(SPECS, work / "a" / "out"), check=True, capture_output=True)
    (work / "b").symlink_to(outside)
    before = footprint(outside)

    def refill() -> None:  # a killed run's staging folder in the real folder, whichever name it has now
        for name in ("a", "b"):
            if not (work / name).is_symlink():
                marked(work / name / ".out-staging-k")()

    with swapping(work / "a", work / "b", refill) as swaps:
        for round_ in range(20):
            done = subprocess.run([*generate(SPECS, work / "a" / "out"), *(["--force"] if round_ % 5 == 4 else [])],
                                  capture_output=True, text=True, check=False)
            assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
        assert swaps() > 0
    assert footprint(outside) == before


def test_a_staging_folder_swapped_for_a_link_at_the_swap_never_becomes_out(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The race the test below loses only now and then, made to land every time: another user who can write OUT's
    parent moves the staging folder away and puts a link to a folder of theirs in its place just before the swap.
    The swap took the staging folder by its name, so OUT became that link (a package the user then imports from
    the attacker's folder); it takes the new tree from the staging folder's descriptor now."""
    out = tmp_path / "out"
    writer.write(out, {"a.txt": "one\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text("the attacker's\n")
    real_exchange, real_rename = folders.exchange, folders.rename_new

    def attack() -> None:
        for parent in (tmp_path, tmp_path / "fresh"):
            for entry in os.listdir(parent) if parent.is_dir() else ():
                if entry.startswith(".out-staging-") and not (parent / entry).is_symlink():
                    (parent / entry).rename(parent / f"moved{entry}")
                    (parent / entry).symlink_to(outside)

    def exchange(*args: object) -> bool:
        attack()
        return real_exchange(*args)  # type: ignore[arg-type]

    def rename_new(*args: object) -> None:
        attack()
        real_rename(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(folders, "exchange", exchange)
    monkeypatch.setattr(folders, "rename_new", rename_new)
    before = footprint(outside)
    with contextlib.suppress(InputError):
        writer.write(out, {"a.txt": "two\n"})
    assert not out.is_symlink() and (out / "a.txt").read_text() in ("one\n", "two\n")
    assert footprint(outside) == before
    (tmp_path / "fresh").mkdir()
    with contextlib.suppress(InputError):
        writer.write(tmp_path / "fresh" / "out", {"a.txt": "new\n"})  # no OUT yet: a rename, not an exchange
    fresh = tmp_path / "fresh" / "out"
    assert not fresh.is_symlink() and (not fresh.exists() or (fresh / "a.txt").read_text() == "new\n")


def test_a_staging_folder_swapped_for_a_link_while_written_is_not_written_through(tmp_path: Path) -> None:
    """A second process moves each staging folder away as soon as it appears and puts a link to a user's folder in
    its place: the run goes on writing the folder it made (not the user's README.md and LICENSE through the
    link), sees it moved, and stops with OUT as it was."""
    work = tmp_path / "work"
    work.mkdir()
    outside = outside_with_canaries(tmp_path)
    subprocess.run(generate(SPECS, work / "out"), check=True, capture_output=True)
    before, old = footprint(outside), snapshot(work / "out")
    with hijacking(work, ".out-staging-", outside) as taken:
        for _ in range(3):
            done = subprocess.run([*generate(SPECS, work / "out"), "--force"], capture_output=True, text=True,
                                  check=False)
            assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
        assert taken() > 0
    assert footprint(outside) == before
    assert snapshot(work / "out") == old


@pytest.mark.parametrize("edit", ["a module", "an IR file and a page", "a file this run no longer writes"])
def test_a_generated_file_edited_by_hand_is_replaced_with_a_warning_naming_it(tmp_path: Path, edit: str) -> None:
    """An edit is lost when OUT is replaced: the run names each edited file (it replaced them in silence); a file
    deleted, or left as written, is not named."""
    specs = tmp_path / "specs"
    shutil.copytree(SPECS, specs)
    out = tmp_path / "out"
    subprocess.run(generate(specs, out), check=True, capture_output=True)
    (out / "docs" / "index.md").unlink()  # deleted: nothing is lost
    edited = {"a module": ["cl_d3d_sharing/errors.py"],
              "an IR file and a page": ["docs/nv_d3d10/index.md", "ir/cl_khr_d3d11_sharing.yaml"],
              "a file this run no longer writes": ["ir/cl_nv_d3d10_sharing.yaml"]}[edit]
    for name in edited:
        with open(out / name, "a", encoding="utf-8") as stream:
            stream.write("# my note\n")
    if edit == "a file this run no longer writes":
        (specs / "cl_nv_d3d10_sharing.txt").unlink()
    done = subprocess.run(generate(specs, out), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "edited since it was generated" in line]
    assert warned == [f"{out / name}: warning: edited since it was generated; replaced, and the edit is lost"
                      for name in edited]
    assert all(b"# my note" not in data for data in snapshot(out).values())


def test_check_compares_what_out_holds_not_the_hash_it_came_from(tmp_path: Path) -> None:
    """The manifest's first line is the inputs' hash, library versions included: another machine's differs while
    every file is the same, and `check` (which compares the files) passes; a file's line in it still counts."""
    out = tmp_path / "out"
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    manifest = out / ownership.NAME
    first, rest = manifest.read_text().split("\n", 1)
    manifest.write_text(f"inputs {'0' * 64}\n{rest}")
    check = [sys.executable, "-m", "generator", "check", "--specs", str(SPECS), "--out", str(out)]
    assert subprocess.run(check, capture_output=True, check=False).returncode == 0
    manifest.write_text(f"{first}\n{rest.replace('  ', '   ', 1)}")
    assert subprocess.run(check, capture_output=True, check=False).returncode == 1


#: Entries planted in a generated OUT that are no regular file of its own, each as (its path, how it is made):
#: Python follows a linked `__pycache__` to the bytecode there, imports an extension module a link names before
#: the source beside it, and hangs reading a FIFO named as a module's bytecode.
PLANTED_ENTRIES: dict[str, tuple[str, Callable[[Path, Path], object]]] = {
    "a __pycache__ linked to a folder of bytecode": (
        "cl_d3d_sharing/__pycache__", lambda at, elsewhere: at.symlink_to(elsewhere, target_is_directory=True)),
    "an extension module linked beside a source": (
        f"cl_d3d_sharing/errors{importlib.machinery.EXTENSION_SUFFIXES[0]}",
        lambda at, elsewhere: at.symlink_to(elsewhere / "x.so")),
    "a FIFO named as bytecode": (
        f"cl_d3d_sharing/__pycache__/errors.{sys.implementation.cache_tag}.pyc", lambda at, _: os.mkfifo(at)),
    "a link among the pages": ("docs/extra.md", lambda at, elsewhere: at.symlink_to(elsewhere / "x.md")),
    "a file the build folder's copy does not stand for": (
        "build/lib/cl_d3d_sharing/backdoor.py", lambda at, _: at.write_text("print('ran')\n")),
}


@pytest.mark.parametrize("kind", list(PLANTED_ENTRIES))
def test_check_names_an_entry_generate_would_refuse(tmp_path: Path, kind: str) -> None:
    """`check` passed an OUT holding a link, a FIFO or a file of the build folder that no generated file stands
    for (it looked at regular files alone), where `generate` refuses that OUT as not its own."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run(generate(SPECS, out), check=True, capture_output=True)
    name, plant = PLANTED_ENTRIES[kind]
    (out / name).parent.mkdir(parents=True, exist_ok=True)
    plant(out / name, elsewhere)
    check = [sys.executable, "-m", "generator", "check", "--specs", str(SPECS), "--out", str(out)]
    done = subprocess.run(check, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 1, done.stderr
    assert f"{out / name}: not what `generate` would write" in done.stderr.splitlines()
    refused = subprocess.run(generate(SPECS, out), capture_output=True, text=True, check=False, timeout=600)
    assert refused.returncode == 2 and name in refused.stderr
