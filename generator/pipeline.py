"""The stages in order: detect, front-end, extract, merge (with recovery), cross-check, conditions, tally.

    specs/*  -> detect -> frontends/<format> -> extract -> merge -> crosscheck -> conditions -> tally -> ir -> emit
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.base import forked, timing
from generator.base.diagnostics import Diagnostic, Location, Sink
from generator.base.errors import Gather, InputError
from generator.base.knowledge import Knowledge, load
from generator.base.records import mutable
from generator.base.source import Pos, SpecFile, spec_files
from generator.extraction.extract import extract
from generator.extraction.facts import SourceFacts
from generator.frontends import FRONTENDS, registry_xml
from generator.frontends.detect import NOTES, detect
from generator.frontends.registry_xml import Registry

if TYPE_CHECKING:
    from generator.merging.draft import Extension


@mutable
class Result:
    extensions: list[Extension]
    diagnostics: list[Diagnostic]
    skipped: list[str] = field(default_factory=list)  # files recognised as notes, not specs
    texts: dict[str, str] = field(default_factory=dict)  # each text read (specs, registry XML) by its shown path


@mutable
class Read:
    """What the files under `--specs` hold: each text's facts, the registry XML, and the notes passed over."""

    facts: list[SourceFacts] = field(default_factory=list)
    registry: Registry | None = None
    skipped: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)


def read(paths: list[Path], knowledge: Knowledge, errors: Gather, first: Callable[[], object] | None = None) -> Read:
    """The facts of every file; a file that fails does not stop the others, its error is gathered in `errors`.
    The files are read in two processes where that pays (`forked.in_two`, which runs `first` in this one before
    it reads any); the result is the same."""
    found = Read()
    answers = forked.in_two(lambda path: read_one(path, knowledge), paths, [_cost(p) for p in paths], first)
    for answer in answers:
        with errors.attempt():
            if isinstance(answer, InputError):
                raise answer
            spec, one = answer
            if not isinstance(one, str):
                found.texts[spec.path] = spec.text
            if isinstance(one, str):
                found.skipped.append(one)
            elif isinstance(one, Registry):
                if found.registry is not None:
                    raise InputError(one.path, Pos(1, 1), f"a second registry XML; {found.registry.path} is one "
                                     "already, and which of two to believe the run cannot tell")
                found.registry = one
            else:
                found.facts.append(one)
    return found


#: How much of a text's start tells whether it has line breaks.
_HEAD = 4096


def _cost(path: Path) -> int:
    """What reading the file will roughly cost, for the order in which the two processes take the files
    (heaviest first, so that they end together): its size, twice over for a text with no line break in its
    head, which is read word by word (a collapsed text costs about twice as much per byte as one read line by
    line, and taken last it would keep one process going long after the other)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return 0  # a FIFO or a device: never opened here (reading it will say why)
        with path.open("rb") as file:
            head = file.read(_HEAD)
            size = os.fstat(file.fileno()).st_size
    except OSError:
        return 0  # reading it will say why
    return size * 2 if len(head) == _HEAD and b"\n" not in head else size


def read_one(path: Path, knowledge: Knowledge) -> tuple[SpecFile, SourceFacts | Registry | str]:
    """The file as read, and its facts, the registry XML, or its path when it is a note and no spec."""
    with timing.stage("read"):
        spec = SpecFile.read(path)
    if registry_xml.recognises(spec.text):
        with timing.stage("front-end registry XML"):
            return spec, registry_xml.read(spec)
    with timing.stage("detect"):
        form = detect(spec)
    if form == NOTES:
        return spec, spec.path
    with timing.stage(f"front-end {form}"):
        document = FRONTENDS[form](spec)
    with timing.stage("extract"):
        return spec, extract(document, knowledge)


#: The modules of `later_stages`: reading needs none of them, so `run_files` imports them while a second process
#: reads, and the two processes share that twentieth of a run.
LATER_STAGES = ("generator.merging.draft", "generator.merging.merge", "generator.analysis.crosscheck",
                "generator.analysis.registry_check", "generator.analysis.conditions", "generator.analysis.tally")


def later_stages(facts: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                 registry: Registry | None = None) -> list[Extension]:
    from generator.analysis import conditions, crosscheck, registry_check, tally  # see LATER_STAGES
    from generator.merging.merge import merge_all

    with timing.stage("merge"):
        extensions = merge_all(facts, knowledge, sink, registry)
    if registry is not None:
        described = len(registry.extensions)  # counted, not listed: a registry may name a great many
        ignored = described - sum(1 for name in {e.name for e in extensions} if name in registry.extensions)
        sink.note(Location(registry.path, Pos(1, 1)), "registry-extensions",
                  f"the registry XML describes {described} extensions; the {ignored} that no "
                  "text here describes are not generated")
    with timing.stage("cross-check"):
        crosscheck.check(extensions, facts, knowledge, sink)
        if registry is not None:
            registry_check.check(extensions, facts, registry, knowledge, sink)
    with timing.stage("conditions"):
        conditions.attach(extensions, knowledge, sink)
    with timing.stage("tally"):
        tally.attach(extensions, facts, sink, list(sink.items))
    return extensions


def run(specs: Path, first: Callable[[], object] | None = None) -> Result:
    """All extensions described under `specs`, each with the diagnostics that concern it. `first`: work of the
    caller's that this process does while a second one starts reading (`read`)."""
    return run_files(spec_files(specs), str(specs), first)


def run_files(paths: list[Path], where: str = "<specs>", first: Callable[[], object] | None = None) -> Result:
    """All extensions described in `paths`; the result does not depend on their order."""
    with timing.stage("knowledge"):
        knowledge = load()
    errors = Gather()

    def first_here() -> None:
        with timing.stage("import"):
            for module in LATER_STAGES:
                importlib.import_module(module)
        from generator.analysis import conditions

        conditions.prepare()
        if first is not None:
            first()

    found = read(sorted(paths, key=lambda p: p.as_posix()), knowledge, errors, first_here)
    facts, skipped = found.facts, found.skipped
    if not facts and not errors.errors:
        raise InputError(where, None, "this folder holds no spec, only notes" if found.registry is None else
                         "this folder holds the registry XML but no text describing an extension of it")
    sink = Sink()
    extensions: list[Extension] = []
    with errors.attempt():  # the files that were read go on, so that one run reports the errors of every stage
        extensions = later_stages(facts, knowledge, sink, found.registry)
    errors.check()
    by_extension: dict[str | None, list[Diagnostic]] = {}
    diagnostics = sink.finished()
    for diagnostic in diagnostics:
        by_extension.setdefault(diagnostic.extension, []).append(diagnostic)
    for extension in extensions:
        extension.diagnostics = by_extension.get(extension.name, [])
    return Result(extensions, sorted(diagnostics), skipped, found.texts)
