"""The last guard before writing: every generated module compiles; one compiled before is not compiled again."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from generator.base.errors import SchemaError
from generator.emission import emit
from tests.support import SPECS


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The names `emit` compiles, in this process, with its record of compiled modules in a fresh folder."""
    names: list[str] = []

    def counting(text: str, name: str, *args: Any, **kwargs: Any) -> Any:
        names.append(name)
        return compile(text, name, *args, **kwargs)

    monkeypatch.setattr(emit, "TEMPLATE_CACHE", tmp_path / "cache")
    monkeypatch.setattr(emit, "FORK", False)
    monkeypatch.setattr(emit, "compile", counting, raising=False)
    return names


def check(files: dict[str, str], *, recheck: bool = False) -> None:
    emit.CompileCheck(files, recheck=recheck).finish()


def test_a_module_compiled_before_is_not_compiled_again(compiled: list[str]) -> None:
    files = {"pkg/a.py": "A = 1\n", "pkg/b.py": "B = 2\n", "pkg/c.h": "int c;\n"}
    check(files)
    assert sorted(compiled) == ["pkg/a.py", "pkg/b.py"]
    compiled.clear()
    check(files | {"pkg/b.py": "B = 3\n"})
    assert compiled == ["pkg/b.py"], "only the changed module"


def test_recheck_compiles_even_the_modules_compiled_before(compiled: list[str]) -> None:
    """What `generate --force` asks: nothing taken from earlier runs (and `make bench` times a whole run so)."""
    files = {"pkg/a.py": "A = 1\n", "pkg/b.py": "B = 2\n"}
    check(files)
    compiled.clear()
    check(files, recheck=True)
    assert sorted(compiled) == ["pkg/a.py", "pkg/b.py"]
    compiled.clear()
    check(files)
    assert compiled == [], "the record is still kept"


def test_a_module_that_would_not_compile_is_refused_even_beside_known_ones(compiled: list[str]) -> None:
    check({"pkg/a.py": "A = 1\n"})
    with pytest.raises(SchemaError, match=r"pkg/b\.py would not compile"):
        check({"pkg/a.py": "A = 1\n", "pkg/b.py": "def (:\n"})
    compiled.clear()
    with pytest.raises(SchemaError):
        check({"pkg/b.py": "def (:\n"})
    assert compiled == ["pkg/b.py"], "a refused module is never recorded"


def test_a_nul_in_a_module_is_refused_like_a_syntax_error(compiled: list[str]) -> None:
    with pytest.raises(SchemaError, match=r"pkg/a\.py would not compile"):
        check({"pkg/a.py": "A = '\0'\n"})


def test_an_unwritable_record_only_means_compiling_again(compiled: list[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setattr(emit, "TEMPLATE_CACHE", tmp_path / "file" / "cache")
    for _ in range(2):
        check({"pkg/a.py": "A = 1\n"})
    assert compiled == ["pkg/a.py", "pkg/a.py"]


# -- the check in a child process ---------------------------------------------------


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The record's folder; the check forks, as on Linux."""
    if not hasattr(os, "fork"):
        pytest.skip("this system cannot fork; the check runs in the process there")
    monkeypatch.setattr(emit, "TEMPLATE_CACHE", tmp_path / "cache")
    monkeypatch.setattr(emit, "FORK", True)
    return tmp_path / "cache"


def test_the_child_answers_with_the_first_error(forking: Path) -> None:
    pending = emit.CompileCheck({"pkg/a.py": "A = 1\n", "pkg/b.py": "def (:\n", "pkg/c.py": "class\n"})
    with pytest.raises(SchemaError, match=r"^pkg/b\.py would not compile \(invalid syntax, line 1\): a name"):
        pending.finish()
    assert not list(forking.glob("compiled-*.txt")), "nothing recorded"


def test_the_parent_records_what_the_child_compiled(forking: Path) -> None:
    check({"pkg/a.py": "A = 1\n"})
    (record,) = forking.glob("compiled-*.txt")
    assert len(record.read_text().split()) == 1


def test_a_child_that_dies_without_answering_fails_the_run(forking: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emit, "first_error", lambda modules: os._exit(3))  # runs in the child only
    with pytest.raises(SchemaError, match="ended without an answer"):
        check({"pkg/a.py": "A = 1\n"})


@pytest.mark.parametrize("why", ["another thread runs", "the system refuses a fork"])
def test_with_no_child_to_be_had_the_check_runs_here(forking: Path, monkeypatch: pytest.MonkeyPatch, why: str) -> None:
    """No child at all is not a child that died: the check is done in this process (it failed the run with
    'ended without an answer' whenever a second thread was alive, as in a program that calls the generator)."""
    def refused() -> int:
        raise BlockingIOError("fork: resource temporarily unavailable")

    waiting = threading.Event()
    other = threading.Thread(target=waiting.wait)
    if why == "another thread runs":
        other.start()
    else:
        monkeypatch.setattr(os, "fork", refused)
    try:
        check({"pkg/a.py": "A = 1\n"})
        with pytest.raises(SchemaError, match=r"^pkg/b\.py would not compile"):
            check({"pkg/b.py": "def (:\n"})
    finally:
        waiting.set()
        if other.is_alive():
            other.join()


def test_a_child_the_system_reaped_is_judged_by_its_answer(forking: Path) -> None:
    """With SIGCHLD ignored the system reaps the child and its status is gone: a whole answer still counts, and no
    answer still fails the run."""
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        check({"pkg/a.py": "A = 1\n"})
        pending = emit.CompileCheck({"pkg/b.py": "def (:\n"})
        with pytest.raises(SchemaError, match="would not compile"):
            pending.finish()
    finally:
        signal.signal(signal.SIGCHLD, previous)


def test_a_run_that_fails_meanwhile_leaves_no_child(forking: Path) -> None:
    pending = emit.CompileCheck({"pkg/a.py": "A = 1\n"})
    assert pending._child is not None
    running = pending._child._child  # the child's (process, pipe)
    assert running is not None
    process = running[0]
    pending.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(process, os.WNOHANG)  # reaped already
    pending.close()  # twice is harmless


def test_the_ir_and_the_docs_made_in_a_child_are_those_made_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """`outputs` makes the IR's text and the docs in a forked child while it renders the package: the files are
    the same, to the byte and in the same order, as when one process makes them all."""
    from generator import pipeline
    from generator.base import forked

    result = pipeline.run(SPECS)
    beside = emit.outputs(result.extensions, result.texts).files
    monkeypatch.setattr(forked, "FORK", False)
    here = emit.outputs(result.extensions, result.texts).files
    assert list(beside.items()) == list(here.items())


@pytest.mark.parametrize("fork", [True, False])
def test_an_input_error_of_the_ir_is_said_before_a_bug_in_the_docs(monkeypatch: pytest.MonkeyPatch,
                                                                   fork: bool) -> None:
    """The docs and the IR's texts are made beside each other; when an IR is refused (too big) and the docs meet
    a bug, the run says the input error, as when the texts were made first, and no traceback."""
    from generator import pipeline
    from generator.base import forked
    from generator.base.errors import InputError
    from generator.base.source import Pos
    from generator.ir import files

    result = pipeline.run(SPECS)
    made = files.yaml_text

    def refused(data: dict[str, Any]) -> str:
        if data["name"] == "cl_khr_d3d11_sharing":
            raise InputError("specs/x.txt", Pos(1, 1), "the IR of cl_khr_d3d11_sharing would be too big")
        return made(data)

    def broken(*args: object) -> object:
        raise RuntimeError("a bug in the docs")

    monkeypatch.setattr(files, "yaml_text", refused)
    monkeypatch.setattr(emit, "model_docs", broken)
    monkeypatch.setattr(forked, "FORK", fork)
    with pytest.raises(InputError, match="too big"):
        emit.outputs(result.extensions, result.texts)
    monkeypatch.setattr(files, "yaml_text", made)
    with pytest.raises(RuntimeError, match="a bug in the docs"):  # alone, the bug is the bug
        emit.outputs(result.extensions, result.texts)
