"""The stages in order: detect, front-end, extract, merge (with recovery), cross-check, conditions.

    specs/*  -> detect -> frontends/<format> -> extract -> merge -> crosscheck -> conditions -> ir -> emit
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator import conditions, crosscheck
from generator.detect import NOTES, detect
from generator.diagnostics import Diagnostic, Sink
from generator.errors import InputError
from generator.extract import extract
from generator.facts import SourceFacts
from generator.frontends import FRONTENDS
from generator.knowledge import Knowledge, load
from generator.merge import merge_all
from generator.model import Extension
from generator.source import SpecFile


@dataclass
class Result:
    extensions: list[Extension]
    diagnostics: list[Diagnostic]
    skipped: list[str] = field(default_factory=list)  # files recognised as notes, not specs


def spec_files(specs: Path) -> list[Path]:
    """Every file under `specs` (hidden ones aside), in a fixed order; none at all is an input error."""
    if not specs.is_dir():
        raise InputError(str(specs), None, "no such folder of specs")
    files = sorted(
        (p for p in specs.rglob("*") if p.is_file() and not any(part.startswith(".") for part in p.parts)),
        key=lambda p: p.as_posix(),
    )
    if not files:
        raise InputError(str(specs), None, "this folder holds no spec")
    return files


def read(paths: list[Path], knowledge: Knowledge) -> tuple[list[SourceFacts], list[str]]:
    facts, skipped = [], []
    for path in paths:
        spec = SpecFile.read(path)
        form = detect(spec)
        if form == NOTES:
            skipped.append(spec.path)
            continue
        facts.append(extract(FRONTENDS[form](spec), knowledge))
    return facts, skipped


def run(specs: Path) -> Result:
    """All extensions described under `specs`, each with the diagnostics that concern it."""
    return run_files(spec_files(specs), str(specs))


def run_files(paths: list[Path], where: str = "<specs>") -> Result:
    """All extensions described in `paths`; the result does not depend on their order."""
    knowledge = load()
    facts, skipped = read(sorted(paths, key=lambda p: p.as_posix()), knowledge)
    if not facts:
        raise InputError(where, None, "this folder holds no spec, only notes")
    sink = Sink()
    extensions = merge_all(facts, knowledge, sink)
    crosscheck.check(extensions, facts, knowledge, sink)
    conditions.attach(extensions, knowledge, sink)
    for extension in extensions:
        extension.diagnostics = [d for d in sink.items if d.extension == extension.name]
    return Result(extensions, sorted(sink.items), skipped)
