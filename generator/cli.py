"""`python -m generator generate|check|coverage|diff`: the commands of CONTRACTS.md.

The pipeline's modules are imported only when a command needs them, so that
`generate` with nothing changed answers in a few tens of milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import __version__, baseline
from generator.base import timing
from generator.base.errors import InputError, SchemaError, printable
from generator.writing import fingerprint, ownership, writer

if TYPE_CHECKING:
    from generator.diff import Change
    from generator.ir.model import Extension
    from generator.pipeline import Result

#: Exit status for bad input (CONTRACTS.md), and for a fault of the generator itself.
INPUT_ERROR = 2
INTERNAL_ERROR = 3


def tally_lines(result: Result) -> list[str]:
    """Per source file: what was read from it, and what of that the IR keeps (`generate -v`)."""
    lines = []
    for extension in result.extensions:
        for read_from in extension.sources:
            if read_from.tally is not None:
                counts = ", ".join(f"{kind} {count.kept}/{count.read}" for kind, count in (
                    ("prototypes", read_from.tally.prototypes), ("tokens", read_from.tally.tokens),
                    ("conditions", read_from.tally.conditions)))
                lines.append(f"{read_from.path}: note: {extension.name}: kept of what was read: {counts}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run one command."""
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cl-d3d-sharing-generator {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, summary in (("generate", "write OUT from the specs"), ("check", "exit 1 if OUT is not current"),
                          ("coverage", "which error conditions the wrappers check; exit 1 on a gap")):
        command = commands.add_parser(name, help=summary)
        command.add_argument("--specs", type=Path, default=Path("specs"), help="folder of spec texts (specs/)")
        command.add_argument("--out", type=Path, default=Path("generated"), help="output folder (generated/)")
        command.add_argument("-v", "--verbose", action="store_true", help="also print notes")
        command.add_argument("--extension", action="append", default=[], metavar="NAME",
                             help="of a Khronos checkout (OpenCL-Docs), an extension to generate (repeatable)")
        command.add_argument("--timings", type=Path, metavar="FILE",
                             help="write the seconds spent in each stage to FILE (JSON)")
        command.add_argument("--no-registry", dest="lean", action="store_false",
                             help="without a registry XML among the specs, go without one rather than the "
                             "project's copy (data/registry/cl.xml)")
    compare = commands.add_parser("diff", help="what changed in the API from OLD to NEW; exit 1 if anything did")
    compare.add_argument("old", type=Path, help="a spec file, a folder of specs, or a folder of IR (OUT or OUT/ir)")
    compare.add_argument("new", type=Path, help="the same, for the new revision")
    compare.add_argument("--format", choices=("text", "json"), default="text")
    generate = commands.choices["generate"]
    generate.add_argument("--force", action="store_true",
                          help="parse, check and write everything even when the inputs have not changed")
    generate.add_argument("--baseline", type=Path, metavar="FILE", help="the warnings the user knows (with -q)")
    generate.add_argument("-q", "--quiet", action="store_true", help="print only the warnings --baseline lacks, and "
                          "a line counting the others")
    generate.add_argument("--write-baseline", action="store_true", help="write this run's warnings to --baseline")
    args = parser.parse_args(argv)
    if args.command == "generate" and (args.quiet or args.write_baseline) and args.baseline is None:
        parser.error("-q and --write-baseline need --baseline FILE")
    if args.command == "diff":
        return run_diff(args.old, args.new, args.format)
    try:
        if args.command == "generate":
            why = ownership.refusal(args.out, args.specs)  # before the lock makes OUT's parent folders
            if why is not None:
                raise InputError(str(args.out), None, why)
        report = timing.Report.checked(args.timings, args.out, args.specs) if args.timings else None
        try:
            if args.command != "generate":
                return run(args)
            with writer.locked(args.out, lambda: print(f"{_shown(args.out)}: waiting for another run writing it",
                                                       file=sys.stderr)) as place:
                return run(args, place)
        finally:
            if report is not None:
                report.write()
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR


def _shown(path: object) -> str:
    """A path as a message names it: a control or format character in it escaped (`errors.printable`)."""
    return printable(str(path))


def console() -> int:
    """The `cl-d3d-sharing-generator` command: `python -m generator` under the name pip installs (and, like it,
    without the cycle collector: see `generator/__main__.py`)."""
    gc.disable()
    return main()


def run(args: argparse.Namespace, place: writer.Place | None = None) -> int:
    """generate, check or coverage (`generate` with OUT's `place`, held and locked by `writer.locked`)."""
    try:
        if place is not None:
            why = ownership.refusal(args.out, args.specs)
            if why is not None:
                raise InputError(str(args.out), None, why)
            for left in place.recover():  # even when nothing is to be written
                print(f"{_shown(left)}: warning: left by an interrupted run, or not: it is not provably the "
                      "generator's, so it stays", file=sys.stderr)
        known = baseline.read(args.baseline) if getattr(args, "quiet", False) else None  # a bad one fails first
        if getattr(args, "write_baseline", False):
            baseline.writable(args.baseline)
        project = _project(args, place)
        if not getattr(args, "force", False) and not args.extension and not getattr(args, "write_baseline", False) \
                and _current(place, args.specs, project, args.lean):
            print(f"{_shown(args.out)}: current (no input changed since it was written); nothing parsed",
                  file=sys.stderr)
            return 0
        with timing.stage("import"):
            from generator import pipeline
        result = pipeline.run(args.specs, extensions=tuple(args.extension), lean=args.lean)
        with timing.stage("import"):
            from generator.emission import emit
        emitted = emit.outputs(result.extensions, result.texts, recheck=getattr(args, "force", False))
        files = emitted.files
        # the hash of the bytes this run parsed, not of a second reading: see `fingerprint`
        files[ownership.NAME] = ownership.manifest(fingerprint.inputs(project, result.digests, args.lean), files)
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR
    except SchemaError as error:  # a bug: say so plainly, write nothing
        print(f"generator: internal error, nothing written: {error}", file=sys.stderr)
        return INTERNAL_ERROR
    if args.command == "coverage":
        from generator import coverage

        found = coverage.rows(emitted.irs, emitted.package)
        print(coverage.render(found), end="")
        return 1 if coverage.gaps(found) else 0
    if args.command == "check":
        return _check(args.out, files)
    known_warnings = 0
    for diagnostic in result.diagnostics:
        if known is not None and diagnostic.severity == "warning" and baseline.key(diagnostic) in known:
            known_warnings += 1
        elif diagnostic.severity == "warning" or args.verbose:
            print(diagnostic.render(), file=sys.stderr)
    if known is not None:
        new = sum(d.severity == "warning" for d in result.diagnostics) - known_warnings
        print(f"{_shown(args.baseline)}: {known_warnings} known warning{'s' * (known_warnings != 1)} not shown, "
              f"{new} new", file=sys.stderr)
    if args.verbose:
        for path in result.skipped:
            print(f"{_shown(path)}: note: not a specification (a Markdown note); skipped", file=sys.stderr)
        for path in result.hidden:
            print(f"{_shown(path)}: note: hidden (its name begins with a dot); not read", file=sys.stderr)
        for line in tally_lines(result):
            print(line, file=sys.stderr)
    if place is None:
        raise ValueError("generate runs with OUT held")
    with timing.stage("API changes"):
        changes = api_changes(place, emitted.irs, files)
    with timing.stage("write"):
        try:
            edited = place.write(files, args.specs)
        except InputError as error:
            print(error.render(), file=sys.stderr)
            return INPUT_ERROR
    for name in edited:
        print(f"{_shown(args.out / name)}: warning: edited since it was generated; replaced, and the edit is lost",
              file=sys.stderr)
    if args.write_baseline:
        try:
            count = baseline.write(args.baseline, result.diagnostics)
        except InputError as error:
            print(error.render(), file=sys.stderr)
            return INPUT_ERROR
        print(f"{_shown(args.baseline)}: {count} warning{'s' * (count != 1)} written as known", file=sys.stderr)
    if changes:
        print(f"API changes since the previous {_shown(args.out / 'ir')}:")
        print("".join(f"  {change.line()}\n" for change in changes), end="")
    return 0


def _project(args: argparse.Namespace, place: writer.Place | None) -> str:
    """The hash of the project's inputs and the environment (`fingerprint.project`); `check` and `coverage`
    write no manifest."""
    if place is None:
        return ownership.UNKNOWN
    with timing.stage("fingerprint"):
        return fingerprint.project()


def _current(place: writer.Place | None, specs: Path, project: str, lean: bool) -> bool:
    """Whether OUT holds a manifest whose inputs' hash is that of the inputs as they are now, and all of OUT is as
    written then (`fingerprint.current`)."""
    if place is None:
        return False
    with place.held() as out, timing.stage("fingerprint"):
        if out is None or ownership.read(out) is None:
            return False
        digests = fingerprint.on_disk(specs)
        return digests is not None and fingerprint.current(out, fingerprint.inputs(project, digests, lean))


def _check(out: Path, files: dict[str, str]) -> int:
    """`check`: exit 1, naming them, when files under OUT are not what `generate` would write, or bytecode under
    it is not what they compile to (Python would run it instead of the source)."""
    differing = writer.stale(out, files)
    for name in differing:
        print(f"{_shown(out / name)}: not what `generate` would write", file=sys.stderr)
    planted = [(name, why) for name, why in writer.foreign_bytecode(out, files) if name not in differing]
    for name, why in planted:
        print(f"{_shown(out / name)}: bytecode that is not the generated source compiled ({printable(why)}); Python "
              "may run it instead of the source: remove it", file=sys.stderr)
    return 1 if differing or planted else 0


def api_changes(place: writer.Place, irs: tuple[Extension, ...], files: dict[str, str]) -> list[Change]:
    """What changed since the IR in the previous OUT/ir (read through descriptors: no link followed); nothing when
    there is none.

    An IR there that cannot be read is only warned about: this run replaces it anyway.
    """
    from generator.base import safeload
    from generator.ir import files as ir_files

    found = place.previous_ir(ir_files.MAX_BYTES + 1)
    if not found:
        return []
    folder = place.out / "ir"
    written = {name: text for name, text in files.items() if name.startswith("ir/")}
    with contextlib.suppress(UnicodeDecodeError):
        if {f"ir/{name}": data.decode("utf-8") for name, data in found.items() if data is not None} == written:
            return []  # then the API cannot have changed
    from generator import diff
    from generator.ir import read

    def parsed() -> Iterator[tuple[Path, tuple[dict[str, Any], str]]]:
        for name, data in sorted(found.items()):
            shown = str(folder / name)
            if data is None:
                raise InputError(shown, None, "not a regular file, or behind a link, which is not followed")
            text = safeload.decode(data, shown, ir_files.MAX_BYTES)
            yield Path(shown), (ir_files.data_of(text, shown), text)

    try:
        old = read.load_texts(parsed())
    except InputError as error:
        note = f"{error.message} (in the previous IR, which this run replaces; API changes are not shown)"
        print(InputError(error.path, error.pos, note, error.line_text).render("warning"), file=sys.stderr)
        return []
    return diff.compare(old, {e.name: e for e in irs}) if old else []


def run_diff(old: Path, new: Path, form: str) -> int:
    """Print the changes from `old` to `new`; exit 1 when there are any, 2 on bad input."""
    import json

    from generator import diff

    try:
        changes = diff.compare(diff.load_api(old), diff.load_api(new))
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR
    if form == "json":
        print(json.dumps([change.to_dict() for change in changes], indent=2))
    else:
        print("".join(f"{change.line()}\n" for change in changes), end="")
    return 1 if changes else 0
