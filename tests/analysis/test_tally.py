"""Per source file, what was read against what the IR keeps (generator/analysis/tally.py)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from generator import cli, pipeline
from generator.analysis import tally
from generator.base.diagnostics import Sink
from generator.base.errors import Gather
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.source import spec_files
from generator.extraction.facts import SourceFacts
from generator.ir.model import ErrorCondition, Extension, Function
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
    """The seeds' extensions with the first condition (stated in one place only) taken out."""
    first = result.extensions[0]
    at, function = next((i, f) for i, f in enumerate(first.functions) if f.errors and not f.errors[0].also_in)
    functions = (*first.functions[:at], replace(function, errors=function.errors[1:]), *first.functions[at + 1:])
    return [replace(first, functions=functions), *result.extensions[1:]], function, function.errors[0]


def test_a_condition_read_and_not_kept_is_counted_and_said(seed_result: pipeline.Result,
                                                            seed_facts: list[SourceFacts]) -> None:
    extensions, function, lost = _one_condition_lost(seed_result)
    sink = Sink()
    extensions = tally.attach(extensions, seed_facts, sink, [])
    source = next(s for s in extensions[0].sources if s.path == lost.source.path)
    assert source.tally is not None and source.tally.conditions.kept == source.tally.conditions.read - 1
    (note,) = [d for d in sink.finished() if d.kind == "not-kept"]
    assert note.where.pos.line == lost.source.pos.line and function.name in note.message


def test_a_fact_whose_loss_a_diagnostic_explains_gets_no_second_one(seed_result: pipeline.Result,
                                                                    seed_facts: list[SourceFacts]) -> None:
    extensions, _, lost = _one_condition_lost(seed_result)
    explained = Sink()
    explained.warning(lost.source, Kind.NOT_KEPT, "why it is not kept")
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, explained.finished())
    assert not [d for d in sink.finished() if d.kind == "not-kept"]


def test_generate_v_prints_the_tally_of_each_file() -> None:
    lines = cli.tally_lines(pipeline.run(SPECS))
    assert len(lines) == len([p for p in SPECS.iterdir() if p.suffix == ".txt"])
    assert all(": note: " in line and "conditions" in line for line in lines)


def _one_function_lost(result: pipeline.Result) -> tuple[list[Extension], Function]:
    """The seeds' extensions with one declared function taken out, as a stage that dropped it would."""
    extension = next(e for e in result.extensions if e.name == "cl_khr_d3d11_sharing")
    function = next(f for f in extension.functions if not f.foreign)
    kept = replace(extension, functions=tuple(f for f in extension.functions if f is not function))
    return [kept if e is extension else e for e in result.extensions], function


def test_a_declared_function_the_ir_lacks_is_a_warning_unless_one_names_it(seed_result: pipeline.Result,
                                                                           seed_facts: list[SourceFacts]) -> None:
    """The net under every place that drops a function: a note at -v (or another diagnostic on its line) was all
    the word there was."""
    extensions, lost = _one_function_lost(seed_result)
    noted = Sink()
    noted.note(lost.source, Kind.NOT_KEPT, f"{lost.name} is something")  # a note is no warning
    noted.warning(lost.source, Kind.VALUE_CLASH, "a warning about something else on that line")
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, noted.finished())
    dropped = [d for d in sink.finished() if d.kind == "function-dropped"]
    assert [(d.where, d.severity) for d in dropped] == [(lost.source, "warning")]
    assert dropped[0].message.startswith(f"{lost.name} is declared here but is not in the IR or the package")
    named = Sink()
    named.warning(lost.source, Kind.NOT_KEPT, f"{lost.name} is left out, because ...")
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, named.finished())
    assert not [d for d in sink.finished() if d.kind == "function-dropped"]


def test_a_source_the_ir_cites_nowhere_is_a_warning(seed_result: pipeline.Result,
                                                    seed_facts: list[SourceFacts]) -> None:
    page = next(e for e in seed_result.extensions if e.name == "cl_khr_d3d11_sharing")
    path = "specs/clEnqueueAcquireD3D11ObjectsKHR.txt"
    functions = tuple(replace(
        function,
        declared_at=tuple(w for w in function.declared_at if w.path != path),
        errors=tuple(replace(e, also_in=tuple(c for c in e.also_in if c.source.path != path))
                     for e in function.errors if e.source.path != path),
        params=tuple(replace(p, description_source=None) if p.description_source is not None
                     and p.description_source.path == path else p for p in function.params),
    ) for function in page.functions)
    extensions = [replace(page, functions=functions) if e is page else e for e in seed_result.extensions]
    sink = Sink()
    tally.attach(extensions, seed_facts, sink, [])
    (said,) = [d for d in sink.finished() if d.kind == "nothing-kept"]
    assert said.where.path == path and said.severity == "warning"
    assert said.message.startswith("read as refpage text of cl_khr_d3d11_sharing, but nothing it states is in the IR")
    sink = Sink()
    tally.attach(seed_result.extensions, seed_facts, sink, [])
    assert not [d for d in sink.finished() if d.kind in ("nothing-kept", "function-dropped")]
