"""The stages of generator/ in pipeline order, its top (the commands) last: no module imports a later stage."""

from __future__ import annotations

import ast

from tests.support import ROOT

STAGES = ("base", "frontends", "extraction", "merging", "analysis", "ir", "emission", "writing")
COMMANDS = {"__main__", "baseline", "cli", "coverage", "diff", "pipeline"}
#: The IR's records and their YAML form, declared once: the front half makes and amends them, so they rank with
#: base; writing and reading the IR (`ir.files`, `ir.read`) is the ir stage.
DECLARATIONS = {"generator.ir.model", "generator.ir.codec"}


def rank(module: str) -> int:
    """`generator.<stage>...` -> the stage's place; `generator` and its attributes (`ROOT`) are base."""
    if module in DECLARATIONS:
        return 0
    part = [*module.split("."), ""][1]
    return STAGES.index(part) if part in STAGES else len(STAGES) if part in COMMANDS else 0


def test_no_module_imports_a_later_stage() -> None:
    assert {p.parent.name for p in (ROOT / "generator").glob("*/__init__.py")} == set(STAGES)
    assert {p.stem for p in (ROOT / "generator").glob("*.py")} == COMMANDS | {"__init__"}
    later = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (source := node.module or "").startswith("generator"):
                names = [f"generator.{a.name}" for a in node.names] if source == "generator" else [source]
                later += [(module, name) for name in names if rank(name) > rank(module)]
    assert later == []
