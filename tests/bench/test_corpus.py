"""The scaling corpus holds what the benchmark says: distinct extensions, each as rich as the seed it copies."""

from __future__ import annotations

from pathlib import Path

from generator import pipeline
from generator.base.knowledge import Knowledge
from generator.ir.model import Extension
from generator.merging.siblings import siblings
from tests.bench import corpus


def shape(extension: Extension) -> tuple[int, ...]:
    """How much the pipeline found: functions, parameters, tokens, error conditions, tables, table rows."""
    functions = [f for f in extension.functions if not f.core]
    return (len(functions), sum(len(f.params) for f in functions), len(extension.tokens),
            sum(len(f.errors) for f in functions), len(extension.tables), sum(len(t.rows) for t in extension.tables))


def test_copies_are_distinct_extensions_as_rich_as_their_seeds(tmp_path: Path, seed_result: pipeline.Result) -> None:
    corpus.make(tmp_path, 8)
    copies = pipeline.run(tmp_path).extensions
    seeds = {e.name: e for e in seed_result.extensions}
    assert sorted(e.name for e in copies) == sorted(
        f"cl_{vendor}q{n}_{api}q{n}_sharing" for n in (0, 1) for vendor in ("khr", "nv") for api in ("d3d10", "d3d11"))
    for copy in copies:
        vendor, api = copy.name.split("_")[1:3]
        seed = seeds[f"cl_{vendor[:-2]}_{api[:-2]}_sharing"]
        assert shape(copy) == shape(seed), copy.name
        assert all(f.name.endswith(vendor.upper()) for f in copy.functions if not f.core)


def test_siblings_stay_within_a_copy_set(tmp_path: Path, knowledge: Knowledge) -> None:
    """A set is a family like the seeds (vendor and API siblings); across sets nothing is related."""
    corpus.make(tmp_path, 12)
    names = [e.name for e in pipeline.run(tmp_path).extensions]
    for name in names:
        mark = name.split("_")[1][-2:]
        related = [r.source for r in siblings(name, names, knowledge)]
        assert len(related) == 2 and all(mark in other for other in related), (name, related)
