"""The stages in order: detect, front-end, extract, merge (with recovery), cross-check, conditions, tally.

    specs/*  -> detect -> frontends/<format> -> extract -> merge -> crosscheck -> conditions -> tally -> ir -> emit
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator import conditions, crosscheck, tally, timing
from generator.detect import NOTES, detect
from generator.diagnostics import Diagnostic, Sink
from generator.errors import Gather, InputError
from generator.extract import extract
from generator.facts import SourceFacts
from generator.frontends import FRONTENDS
from generator.knowledge import Knowledge, load
from generator.merge import merge_all
from generator.model import Extension
from generator.source import SpecFile, spec_files


@dataclass
class Result:
    extensions: list[Extension]
    diagnostics: list[Diagnostic]
    skipped: list[str] = field(default_factory=list)  # files recognised as notes, not specs


def read(paths: list[Path], knowledge: Knowledge, errors: Gather) -> tuple[list[SourceFacts], list[str]]:
    """The facts of every file; a file that fails does not stop the others, its error is gathered in `errors`."""
    facts: list[SourceFacts] = []
    skipped: list[str] = []
    for path in paths:
        with errors.attempt():
            found = read_one(path, knowledge)
            if isinstance(found, str):
                skipped.append(found)
            else:
                facts.append(found)
    return facts, skipped


def read_one(path: Path, knowledge: Knowledge) -> SourceFacts | str:
    """The facts of one file, or its path when it is a note and no spec."""
    with timing.stage("read"):
        spec = SpecFile.read(path)
    with timing.stage("detect"):
        form = detect(spec)
    if form == NOTES:
        return spec.path
    with timing.stage(f"front-end {form}"):
        document = FRONTENDS[form](spec)
    with timing.stage("extract"):
        return extract(document, knowledge)


def later_stages(facts: list[SourceFacts], knowledge: Knowledge, sink: Sink) -> list[Extension]:
    with timing.stage("merge"):
        extensions = merge_all(facts, knowledge, sink)
    with timing.stage("cross-check"):
        crosscheck.check(extensions, facts, knowledge, sink)
    with timing.stage("conditions"):
        conditions.attach(extensions, knowledge, sink)
    with timing.stage("tally"):
        tally.attach(extensions, facts, sink, list(sink.items))
    return extensions


def run(specs: Path) -> Result:
    """All extensions described under `specs`, each with the diagnostics that concern it."""
    return run_files(spec_files(specs), str(specs))


def run_files(paths: list[Path], where: str = "<specs>") -> Result:
    """All extensions described in `paths`; the result does not depend on their order."""
    with timing.stage("knowledge"):
        knowledge = load()
    errors = Gather()
    facts, skipped = read(sorted(paths, key=lambda p: p.as_posix()), knowledge, errors)
    if not facts and not errors.errors:
        raise InputError(where, None, "this folder holds no spec, only notes")
    sink = Sink()
    extensions: list[Extension] = []
    with errors.attempt():  # the files that were read go on, so that one run reports the errors of every stage
        extensions = later_stages(facts, knowledge, sink)
    errors.check()
    by_extension: dict[str | None, list[Diagnostic]] = {}
    found = sink.finished()
    for diagnostic in found:
        by_extension.setdefault(diagnostic.extension, []).append(diagnostic)
    for extension in extensions:
        extension.diagnostics = by_extension.get(extension.name, [])
    return Result(extensions, sorted(found), skipped)
