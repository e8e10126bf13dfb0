"""The last guard before writing: every generated module compiles; one compiled before is not compiled again."""

from __future__ import annotations

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
    monkeypatch.setattr(emit, "compile", counting, raising=False)
    return names


def check(files: dict[str, str], *, recheck: bool = False) -> None:
    emit.compile_check(files, recheck=recheck)


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


def test_the_first_module_that_would_not_compile_is_said_and_nothing_recorded(compiled: list[str],
                                                                             tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match=r"^pkg/b\.py would not compile \(invalid syntax, line 1\): a name"):
        check({"pkg/a.py": "A = 1\n", "pkg/b.py": "def (:\n", "pkg/c.py": "class\n"})
    assert not list((tmp_path / "cache").glob("compiled-*.txt")), "nothing recorded"


def test_an_input_error_of_the_ir_is_said_before_a_bug_in_the_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    """When an IR is refused (too big) and the docs meet a bug, the run says the input error, and no
    traceback."""
    from generator import pipeline
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
    with pytest.raises(InputError, match="too big"):
        emit.outputs(result.extensions, result.texts)
    monkeypatch.setattr(files, "yaml_text", made)
    with pytest.raises(RuntimeError, match="a bug in the docs"):  # alone, the bug is the bug
        emit.outputs(result.extensions, result.texts)
