"""The last guard before writing: every generated module compiles; one compiled before is not compiled again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator import emit
from generator.errors import SchemaError


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The names `emit` compiles, with its record of compiled modules in a fresh folder."""
    names: list[str] = []

    def counting(text: str, name: str, *args: Any, **kwargs: Any) -> Any:
        names.append(name)
        return compile(text, name, *args, **kwargs)

    monkeypatch.setattr(emit, "TEMPLATE_CACHE", tmp_path / "cache")
    monkeypatch.setattr(emit, "compile", counting, raising=False)
    return names


def test_a_module_compiled_before_is_not_compiled_again(compiled: list[str]) -> None:
    files = {"pkg/a.py": "A = 1\n", "pkg/b.py": "B = 2\n", "pkg/c.h": "int c;\n"}
    emit._check_compiles(files)
    assert sorted(compiled) == ["pkg/a.py", "pkg/b.py"]
    compiled.clear()
    emit._check_compiles(files | {"pkg/b.py": "B = 3\n"})
    assert compiled == ["pkg/b.py"], "only the changed module"


def test_a_module_that_would_not_compile_is_refused_even_beside_known_ones(compiled: list[str]) -> None:
    emit._check_compiles({"pkg/a.py": "A = 1\n"})
    with pytest.raises(SchemaError, match=r"pkg/b\.py would not compile"):
        emit._check_compiles({"pkg/a.py": "A = 1\n", "pkg/b.py": "def (:\n"})
    compiled.clear()
    with pytest.raises(SchemaError):
        emit._check_compiles({"pkg/b.py": "def (:\n"})
    assert compiled == ["pkg/b.py"], "a refused module is never recorded"


def test_an_unwritable_record_only_means_compiling_again(compiled: list[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setattr(emit, "TEMPLATE_CACHE", tmp_path / "file" / "cache")
    for _ in range(2):
        emit._check_compiles({"pkg/a.py": "A = 1\n"})
    assert compiled == ["pkg/a.py", "pkg/a.py"]
