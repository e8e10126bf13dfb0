"""The stages in order: detect, front-end, extract, merge (with recovery), cross-check, conditions, tally.

    specs/*  -> detect -> frontends/<format> -> extract -> merge -> crosscheck -> conditions -> tally -> ir -> emit
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path

from generator.analysis import conditions, crosscheck, damaged, registry_check, tally
from generator.base import shipped_registry, timing
from generator.base.diagnostics import Diagnostic, Location, Sink
from generator.base.errors import Gather, InputError, printable
from generator.base.kinds import CHARACTERS, Kind
from generator.base.knowledge import Knowledge, load
from generator.base.normalise import describe
from generator.base.records import frozen, mutable
from generator.base.source import Pos, SpecFile, spec_files
from generator.extraction.extract import extract
from generator.extraction.facts import Remark, SourceFacts
from generator.frontends import FRONTENDS, registry_xml
from generator.frontends.book.recognise import Checkout, recognise
from generator.frontends.detect import NOTES, POINTERS, detect, note_like
from generator.frontends.registry_xml import Registry
from generator.ir.model import Extension
from generator.merging.merge import merge_all


@mutable
class Result:
    extensions: list[Extension]
    diagnostics: list[Diagnostic]
    skipped: list[str] = field(default_factory=list)  # files recognised as notes, not specs
    texts: dict[str, str] = field(default_factory=dict)  # each text read (specs, registry XML) by its shown path
    digests: dict[str, str] = field(default_factory=dict)  # each file read (notes too) by its shown path: sha256
    hidden: list[str] = field(default_factory=list)  # entries under --specs not read: their names begin with a dot


@mutable
class Read:
    """What the files under `--specs` hold: each text's facts, the registry XML, and the notes passed over."""

    facts: list[SourceFacts] = field(default_factory=list)
    registry: Registry | None = None
    skipped: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)
    passed_over: list[Skipped] = field(default_factory=list)  # a spec format fits them, but they read as notes
    digests: dict[str, str] = field(default_factory=dict)


@frozen
class Skipped:
    """A file taken for a Markdown note although spec format `form` fits it: reading it so found nothing of a
    spec, and it has more of a note's marks. Said in a warning, since a damaged spec could look so."""

    path: str
    form: str


def read(paths: list[Path], knowledge: Knowledge, errors: Gather, root: Path | None = None) -> Read:
    """The facts of every file; a file that fails does not stop the others, its error is gathered in `errors`.
    `root`: the `--specs` folder the files lie under (`SpecFile.read`)."""
    found = Read()
    for path in paths:
        with errors.attempt():
            spec, one = read_one(path, knowledge, root)
            found.digests[spec.path] = spec.digest
            if not isinstance(one, str | Skipped):
                found.texts[spec.path] = spec.text
            if isinstance(one, str):
                found.skipped.append(one)
            elif isinstance(one, Skipped):
                found.passed_over.append(one)
            elif isinstance(one, Registry):
                if found.registry is not None:
                    raise InputError(one.path, Pos(1, 1), f"a second registry XML; {found.registry.path} is one "
                                     "already, and which of two to believe the run cannot tell")
                found.registry = one
            else:
                found.facts.append(one)
    return found


def read_one(path: Path, knowledge: Knowledge,
             root: Path | None = None) -> tuple[SpecFile, SourceFacts | Registry | str | Skipped]:
    """The file as read, and its facts, the registry XML, or its path when it is a note and no spec (`Skipped`
    when a spec format fits it, too)."""
    with timing.stage("read"):
        spec = SpecFile.read(path, root)
    if registry_xml.recognises(spec.text):
        with timing.stage("front-end registry XML"):
            return spec, registry_xml.read(spec)
    with timing.stage("detect"):
        form = detect(spec)
    if form == NOTES:
        return spec, spec.path
    if form == POINTERS:
        return spec, Skipped(spec.path, form)
    try:
        with timing.stage(f"front-end {form}"):
            document = FRONTENDS[form](spec)
        with timing.stage("extract"):
            facts = extract(document, knowledge)
    except InputError as error:
        raise _unreadable_named(spec, error) from None
    if facts.states_nothing() and note_like(spec, form):
        return spec, Skipped(spec.path, form)  # a README that a spec format fits by chance
    said(spec, facts)
    return spec, facts


def _unreadable_named(spec: SpecFile, error: InputError) -> InputError:
    """`error`, saying which character the U+FFFD it stands at replaced (a name holding one is refused there)."""
    for found in spec.normalised:
        for line, column, character in found.replaced:
            if error.pos == Pos(line, column) and error.path == spec.path:
                return InputError(error.path, error.pos, f"{error.message} (U+FFFD stands here for "
                                  f"{describe(character)}, which may show the text otherwise than it reads)",
                                  error.line_text)
    return error


def said(spec: SpecFile, facts: SourceFacts) -> None:
    """What reading the text normalised or could not read (`base/normalise.py`), as remarks of its facts: merge
    reports them with the extension's findings."""
    if spec.legacy is not None:
        encoding, first = spec.legacy
        facts.remarks.append(Remark(Location(spec.path, first), Kind.LEGACY_ENCODING, f"not UTF-8 text: each byte "
                                    f"that is not UTF-8 (the first here) is read as {encoding}, the rest as UTF-8; "
                                    "the package carries the text as read, in UTF-8", note=True))
    for found in spec.normalised:
        facts.remarks.append(Remark(Location(spec.path, Pos(found.line, found.column)), CHARACTERS[found.kind],
                                    found.message(), note=not found.warning))
    facts.unreadable = tuple((Location(spec.path, Pos(line, column)), character)
                             for found in spec.normalised for line, column, character in found.replaced)


def later_stages(facts: list[SourceFacts], knowledge: Knowledge, sink: Sink,
                 registry: Registry | None = None) -> list[Extension]:
    with timing.stage("merge"):
        extensions = merge_all(facts, knowledge, sink, registry)
    if registry is not None:
        registry_check.duplicates(extensions, registry, sink)
        for found in registry.spec.normalised:
            report = sink.warning if found.warning else sink.note
            report(Location(registry.path, Pos(found.line, found.column)), CHARACTERS[found.kind], found.message())
        described = len(registry.extensions)  # counted, not listed: a registry may name a great many
        ignored = described - sum(1 for name in {e.name for e in extensions} if name in registry.extensions)
        if registry.shipped is None and ignored:  # the project's copy is read for its knowledge, not its list
            sink.note(Location(registry.path, Pos(1, 1)), Kind.REGISTRY_EXTENSIONS,
                      f"the registry XML describes {described} extension{'s' * (described != 1)}; "
                      + (f"the {ignored} that no text here describes are" if ignored > 1 else
                         "the one that no text here describes is") + " not generated")
    with timing.stage("cross-check"):
        crosscheck.check(extensions, facts, knowledge, sink, registry)
        if registry is not None:
            registry_check.check(extensions, facts, registry, knowledge, sink)
    with timing.stage("conditions"):
        extensions = damaged.mark(extensions, facts, sink)
        extensions = conditions.attach(extensions, knowledge, sink)
    with timing.stage("tally"):
        extensions = tally.attach(extensions, facts, sink, list(sink.items))
    return extensions


def run(specs: Path, extensions: tuple[str, ...] = (), lean: bool = True) -> Result:
    """All extensions described under `specs`, each with the diagnostics that concern it; of a Khronos checkout,
    the `extensions` named. `lean`: read the project's registry XML when `specs` holds none (`--no-registry`
    is False)."""
    found = recognise(specs)
    if found is not None:
        return run_checkout(found, extensions)
    if extensions:
        raise InputError(str(specs), None, "--extension chooses what to generate from a Khronos checkout (a book "
                         "and xml/ with its registry XML); this folder is not one, and every extension its texts "
                         "describe is generated")
    hidden: list[str] = []
    result = run_files(spec_files(specs, hidden), str(specs), specs, lean)
    result.hidden = hidden
    return result


def run_checkout(found: Checkout, extensions: tuple[str, ...]) -> Result:
    """The `extensions` of a Khronos checkout, cut out of its book (`generator/frontends/book`: imported here, a
    run over spec texts has no use for it)."""
    from generator.frontends.book import checkout

    if not extensions:
        raise InputError(found.books[0], None, "this folder is a Khronos checkout (a book and its registry XML "
                         f"{found.registry}): name the extensions to generate with --extension NAME, as many as "
                         "wanted (the names its registry XML lists among its extensions)")
    with timing.stage("knowledge"):
        knowledge = load()
    read = checkout.read(found, list(extensions))
    for name in extensions:  # nothing generated could be named after a string the API's naming does not fit
        if knowledge.extension_parts(name) is None:
            entry = read.registry.extensions.get(name)
            where = entry.where if entry is not None else Location(found.registry, Pos(1, 1))
            raise InputError(where.path, where.pos, f"--extension {printable(name)}: not an extension string as "
                             "the API names them (data/conventions.yaml), so nothing generated could be named after it")
    checkout.refuse_undescribed(read)
    facts = []
    for document in read.documents:
        with timing.stage("extract"):
            facts.append(extract(document, knowledge))
    sink = Sink()
    extensions_made = later_stages(facts, knowledge, sink, read.registry)
    return _finished(extensions_made, sink, [], read.texts, read.digests)


def _shipped(texts: dict[str, str], sink: Sink) -> Registry:
    """The project's copy of the registry XML, read for a run whose texts come without one; `texts` gets it,
    for the package carries every text its IR cites."""
    with timing.stage("front-end registry XML"):
        spec, described, registry = _read_shipped()
    texts[spec.path] = spec.text
    sink.note(Location(spec.path, Pos(1, 1)), Kind.REGISTRY_SHIPPED, f"no registry XML among the texts: the project's "
              f"copy ({described.described()}) gives what they leave out and is compared with them; a registry XML "
              "among the texts replaces it, --no-registry goes without")
    return registry


#: The copy as last read, by the provenance it was read by.
_SHIPPED: dict[shipped_registry.Provenance, tuple[SpecFile, shipped_registry.Provenance, Registry]] = {}


def _read_shipped() -> tuple[SpecFile, shipped_registry.Provenance, Registry]:
    """The copy, read once a process while it stays the file its provenance describes (`shipped_registry.read`
    checks that it is): reading it is 60 ms of the 62 that a small text takes, and the tests generate thousands
    of times."""
    described = shipped_registry.provenance()
    if described in _SHIPPED and shipped_registry.unchanged(described):
        return _SHIPPED[described]
    spec, described = shipped_registry.read()
    read = spec, described, replace(registry_xml.read(spec), shipped=described.described())
    _SHIPPED.clear()
    _SHIPPED[described] = read
    return read


def _finished(extensions: list[Extension], sink: Sink, skipped: list[str], texts: dict[str, str],
              digests: dict[str, str]) -> Result:
    """The result, each extension with the diagnostics that concern it."""
    by_extension: dict[str | None, list[Diagnostic]] = {}
    diagnostics = sink.finished()
    for diagnostic in diagnostics:
        by_extension.setdefault(diagnostic.extension, []).append(diagnostic)
    extensions = [replace(extension, diagnostics=tuple(by_extension.get(extension.name, [])))
                  for extension in extensions]
    return Result(extensions, sorted(diagnostics), skipped, texts, digests)


def run_files(paths: list[Path], where: str = "<specs>", root: Path | None = None, lean: bool = True) -> Result:
    """All extensions described in `paths`; the result does not depend on their order. Under `root`, the
    `--specs` folder, each is named `specs/<its path under root>`; without, as named on the command line.
    `lean`: with no registry XML among `paths`, read the one the project ships (`base/shipped_registry.py`)."""
    with timing.stage("knowledge"):
        knowledge = load()
    errors = Gather()

    found = read(sorted(paths, key=lambda p: p.as_posix()), knowledge, errors, root)
    facts, skipped = found.facts, found.skipped
    if not facts and not errors.errors:
        raise InputError(where, None, "this folder holds no spec, only notes" if found.registry is None else
                         "this folder holds the registry XML but no text describing an extension of it")
    sink = Sink()
    registry = found.registry
    if registry is None and lean and facts:
        with errors.attempt():
            registry = _shipped(found.texts, sink)
    for passed in found.passed_over:
        if passed.form == POINTERS:
            sink.warning(Location(passed.path, Pos(1, 1)), Kind.SKIPPED_POINTER, "no specification but the address "
                         "of one (a short text of no format, giving a web address): skipped; generate from the text "
                         "it points to")
            continue
        sink.warning(Location(passed.path, Pos(1, 1)), Kind.SKIPPED_NOTE, f"taken for a Markdown note and skipped: "
                     f"read as {passed.form}, which it also looks like, it states no prototype, token, condition or "
                     "table, and it has more Markdown headings and tables than marks of that format")
    extensions: list[Extension] = []
    with errors.attempt():  # the files that were read go on, so that one run reports the errors of every stage
        extensions = later_stages(facts, knowledge, sink, registry)
    errors.check()
    return _finished(extensions, sink, skipped, found.texts, found.digests)
