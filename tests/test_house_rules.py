"""Everything comes from the text: no name the specs define appears in the generator. And the tests share
helpers through plain modules only."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import lark
import pytest

from generator.base.knowledge import load
from generator.pipeline import Result
from tests import scoring
from tests.support import ROOT

#: The project's own files there; caches a run leaves (`__pycache__`) are not code, and would make the
#: test list depend on what ran before.
CODE = [p for folder in ("generator", "grammar", "templates") for p in (ROOT / folder).rglob("*")
        if p.is_file() and p.suffix in (".py", ".lark", ".json", ".j2", ".jinja", ".md", ".txt")
        and "__pycache__" not in p.parts]


def spec_names(result: Result) -> set[str]:
    """Extension, function, token, type and table-key names, and the parameter names with an underscore."""
    names: set[str] = set()
    for extension in result.extensions:
        names.add(extension.name)
        for function in extension.functions:
            if not function.core:
                names.add(function.name)
                names.update(p.name for p in function.params if "_" in p.name and not p.name.startswith("num_"))
        names.update(t.name for t in extension.tokens)
        names.update(t.name for t in extension.types)
        names.update(row[0] for table in extension.tables for row in table.rows)
    return names


def corpus_names() -> set[str]:
    """The same kinds of names, as the corpus' truth lists them for each of its texts; parameter names that
    core OpenCL's functions use too (`param_name`) are the API's conventions, not names a text defines."""
    conventions = {name for function in load().core_functions.values() for name, _ in function.params}
    names: set[str] = set()
    for entry in scoring.truth():
        names.add(entry["extension"])
        for function in entry["functions"]:
            names.add(function["name"])
            names.update(p["name"] for p in function["params"] or [] if "_" in p["name"]
                         and not p["name"].startswith("num_") and p["name"] not in conventions)
        names.update(t["name"] for t in entry["tokens"])
    return names


def test_there_is_code_to_check() -> None:
    assert len(CODE) > 20


@pytest.mark.parametrize("path", CODE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_spec_name_in_code(path: Path, seed_result: Result) -> None:
    text = path.read_text(encoding="utf-8")
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
    found = words & (spec_names(seed_result) | corpus_names())
    assert not found, sorted(found)
    assert not re.search(r"d3d1\d|dxgi|direct3d", text, re.I)


def imported(tree: ast.AST) -> Iterator[str]:
    """Every name an import statement reaches: `from tests.x import y` reaches `tests.x` and `tests.x.y`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            yield base
            yield from (f"{base}.{alias.name}".lstrip(".") for alias in node.names)


def test_no_module_imports_a_test_module_or_a_conftest() -> None:
    """What tests share is in plain modules (tests/support.py, tests/package/standins.py, ...): pytest imports
    conftest files and test modules itself, and a test module imported for its helpers brings its tests along."""
    modules = sorted((ROOT / "tests").rglob("*.py"))
    found = {path.relative_to(ROOT).as_posix(): sorted(name for name in imported(ast.parse(path.read_bytes()))
                                                       if name.rsplit(".", 1)[-1].startswith(("test_", "conftest")))
             for path in modules}
    assert sum(path.name.startswith("test_") for path in modules) > 50
    assert {path: names for path, names in found.items() if names} == {}


@pytest.mark.parametrize("path", [p for p in CODE if p.suffix == ".py"], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_machinery_of_its_own_where_the_standard_library_does(path: Path) -> None:
    """Records are dataclasses (no code objects rebuilt per class) and a run is one process (no fork of its own,
    no prctl through ctypes): what saved milliseconds cost every maintainer more (issue 39)."""
    text = path.read_text(encoding="utf-8")
    assert not [word for word in ("CodeType", "co_varnames", "os.fork", "prctl") if word in text]


def test_lark_only_through_the_names_it_exports() -> None:
    """lark's parsers, lexers and grammar loader are its internals, which a minor release may change: the generator
    imports and uses only the names `lark` exports (`lark.__all__`), never a submodule (issue 39)."""
    public = set(lark.__all__)
    found: list[str] = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                found += [f"{where}: import {a.name}" for a in node.names if a.name.startswith("lark.")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "lark" and node.level == 0:
                found += [f"{where}: from {node.module} import {a.name}" for a in node.names
                          if node.module != "lark" or a.name not in public]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "lark" \
                    and node.attr not in public:
                found.append(f"{where}: lark.{node.attr}")
    assert found == []
