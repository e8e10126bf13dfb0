"""The stages of generator/, in pipeline order: no module imports a module of a later stage."""

from __future__ import annotations

import ast

from tests.support import ROOT

#: The subpackages in pipeline order; modules at the top of generator/ (the commands) come after them all.
STAGES = ("base", "frontends", "extraction", "merging", "analysis", "ir", "emission", "writing")
PACKAGE = ROOT / "generator"


def rank(module: str) -> int:
    """`generator.<stage>.x` -> the stage's place; `generator` and its attributes (`ROOT`) are base, its other
    modules the commands."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in STAGES:
        return STAGES.index(parts[1])
    return len(STAGES) if len(parts) > 1 and (PACKAGE / f"{parts[1]}.py").exists() else 0


def imports(path: str) -> set[str]:
    tree = ast.parse((PACKAGE.parent / path).read_text(encoding="utf-8"))
    found = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names if node.module == "generator")
    return {name for name in found if name.split(".")[0] == "generator"}


def test_every_stage_is_a_subpackage_and_every_module_is_in_one() -> None:
    assert {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(STAGES)
    assert {p.stem for p in PACKAGE.glob("*.py")} == {"__init__", "__main__", "cli", "coverage", "diff", "pipeline"}


def test_no_module_imports_a_later_stage() -> None:
    later = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        later += [(module, name) for name in imports(str(path.relative_to(PACKAGE.parent)))
                  if rank(name) > rank(module)]
    assert later == []
