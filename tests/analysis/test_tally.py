"""Per source file, what was read against what the IR keeps (generator/analysis/tally.py)."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

from generator import cli, pipeline
from generator.analysis import tally
from generator.base.diagnostics import Sink
from generator.base.errors import Gather
from generator.base.knowledge import Knowledge
from generator.base.source import spec_files
from generator.extraction.facts import SourceFacts
from generator.merging.draft import ErrorCondition, Extension, Function
from tests.support import ROOT, SPECS


@pytest.fixture(scope="module")
def seed_facts(knowledge: Knowledge) -> list[SourceFacts]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        facts = pipeline.read(sorted(spec_files(Path("specs")), key=lambda p: p.as_posix()), knowledge, Gather()).facts
    finally:
        os.chdir(cwd)
    return facts


def test_every_seed_keeps_all_it_was_read_to_hold(seed_result: pipeline.Result) -> None:
    sources = [s for e in seed_result.extensions for s in e.sources]
    assert len(sources) == len([p for p in SPECS.iterdir() if p.suffix == ".txt"])
    for source in sources:
        assert source.tally is not None
        counts = (source.tally.prototypes, source.tally.tokens, source.tally.conditions)
        assert all(count.kept == count.read for count in counts), (source.path, counts)
    assert sum(s.tally.conditions.read for s in sources if s.tally) > 100


def _one_condition_lost(result: pipeline.Result) -> tuple[list[Extension], Function, ErrorCondition]:
    """A copy of the seeds' extensions with the first condition (stated in one place only) taken out."""
    extensions = copy.deepcopy(result.extensions)
    function = next(f for f in extensions[0].functions if f.errors and not f.errors[0].also_in)
    return extensions, function, function.errors.pop(0)


def test_a_condition_read_and_not_kept_is_counted_and_said(seed_result: pipeline.Result,
                                                            seed_facts: list[SourceFacts]) -> None:
    extensions, function, lost = _one_condition_lost(seed_result)
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, [])
    source = next(s for s in extensions[0].sources if s.path == lost.source.path)
    assert source.tally is not None and source.tally.conditions.kept == source.tally.conditions.read - 1
    (note,) = [d for d in sink.finished() if d.kind == "not-kept"]
    assert note.where.pos.line == lost.source.pos.line and function.name in note.message


def test_a_fact_whose_loss_a_diagnostic_explains_gets_no_second_one(seed_result: pipeline.Result,
                                                                    seed_facts: list[SourceFacts]) -> None:
    extensions, _, lost = _one_condition_lost(seed_result)
    explained = Sink()
    explained.warning(lost.source, "some-kind", "why it is not kept")
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, explained.finished())
    assert not [d for d in sink.finished() if d.kind == "not-kept"]


def test_generate_v_prints_the_tally_of_each_file() -> None:
    lines = cli.tally_lines(pipeline.run(SPECS))
    assert len(lines) == len([p for p in SPECS.iterdir() if p.suffix == ".txt"])
    assert all(": note: " in line and "conditions" in line for line in lines)
