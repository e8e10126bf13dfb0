"""The hand-written guides: their Python examples compile and call the generated package as it is.

The Windows example cannot run here (no Direct3D on Linux), so these tests check what
can be checked without it: every block is valid Python, every name it takes from the
package exists, and every call into the package binds to the function's signature.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support import ROOT, generated_module

GUIDES = sorted((ROOT / "docs").glob("*.md"))


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def package_modules(tree: ast.AST) -> dict[str, ModuleType]:
    """The names a block imports from the package, as modules."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "cl_d3d_sharing":
            for alias in node.names:
                found[alias.asname or alias.name] = generated_module(alias.name)
    return found


def resolve(node: ast.expr, modules: dict[str, ModuleType]) -> Any:
    """The package object an attribute chain (`khr_d3d11.D3DDeviceSet.ALL`) names; None when it starts elsewhere."""
    if isinstance(node, ast.Name):
        return modules.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = resolve(node.value, modules)
        if owner is None:
            return None
        assert hasattr(owner, node.attr), f"{ast.unparse(node)} does not exist"
        return getattr(owner, node.attr)
    return None


def test_there_is_a_guide_with_examples() -> None:
    assert GUIDES and any(python_blocks(path) for path in GUIDES)


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: p.name)
def test_every_example_names_and_calls_the_package_as_it_is(path: Path) -> None:
    tree = ast.parse("\n".join(python_blocks(path)))
    modules = package_modules(tree)
    assert modules, "the examples import nothing from the package"
    calls = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            resolve(node, modules)
        if isinstance(node, ast.Call) and callable(function := resolve(node.func, modules)):
            if inspect.isclass(function) and issubclass(function, BaseException):
                continue
            placeholders = [object()] * len(node.args)
            inspect.signature(function).bind(*placeholders, **{k.arg: object() for k in node.keywords if k.arg})
            calls += 1
    assert calls >= 1


def test_resolve_rejects_a_name_the_package_lacks() -> None:
    tree = ast.parse("from cl_d3d_sharing import formats\nformats.NoSuchThing")
    modules = package_modules(tree)
    expression = tree.body[1]
    assert isinstance(expression, ast.Expr)
    with pytest.raises(AssertionError, match="does not exist"):
        resolve(expression.value, modules)


def test_what_the_readme_says_a_lookup_prints_is_what_it_prints() -> None:
    """`formats.dxgi_to_cl(28, khr)  # CLFormat(...)` in the README: the comment is the call's output."""
    formats, khr = generated_module("formats"), generated_module("khr_d3d11")
    lines = re.findall(r"^(formats\.\w+\(.*?\))\s+# (.+)$", (ROOT / "README.md").read_text(), re.M)
    assert lines
    for call, printed in lines:
        assert repr(eval(call, {"formats": formats, "khr": khr})) == printed
