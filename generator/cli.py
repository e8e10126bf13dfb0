"""`python -m generator generate|check|coverage|diff`: the commands of CONTRACTS.md.

The pipeline's modules are imported only when a command needs them, so that
`generate` with nothing changed answers in a few tens of milliseconds.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.base import forked, source, timing
from generator.base.errors import InputError, SchemaError
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
    commands = parser.add_subparsers(dest="command", required=True)
    for name, summary in (("generate", "write OUT from the specs"), ("check", "exit 1 if OUT is not current"),
                          ("coverage", "which error conditions the wrappers check; exit 1 on a gap")):
        command = commands.add_parser(name, help=summary)
        command.add_argument("--specs", type=Path, default=Path("specs"), help="folder of spec texts (specs/)")
        command.add_argument("--out", type=Path, default=Path("generated"), help="output folder (generated/)")
        command.add_argument("-v", "--verbose", action="store_true", help="also print notes")
        command.add_argument("--timings", type=Path, metavar="FILE",
                             help="write the seconds spent in each stage to FILE (JSON)")
    compare = commands.add_parser("diff", help="what changed in the API from OLD to NEW; exit 1 if anything did")
    compare.add_argument("old", type=Path, help="a spec file, a folder of specs, or a folder of IR (OUT or OUT/ir)")
    compare.add_argument("new", type=Path, help="the same, for the new revision")
    compare.add_argument("--format", choices=("text", "json"), default="text")
    commands.choices["generate"].add_argument(
        "--force", action="store_true",
        help="parse, check and write everything even when the inputs have not changed")
    args = parser.parse_args(argv)
    if args.command == "diff":
        return run_diff(args.old, args.new, args.format)
    try:
        if args.command != "generate":
            return run(args)
        why = ownership.refusal(args.out, args.specs)  # before the lock makes OUT's parent folders
        if why is not None:
            raise InputError(str(args.out), None, why)
        report = timing.Report.checked(args.timings, args.out, args.specs) if args.timings else None
        try:
            with writer.locked(args.out, lambda: print(f"{args.out}: waiting for another run writing it",
                                                       file=sys.stderr)):
                return run(args)
        finally:
            if report is not None:
                report.write()
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR


def console() -> int:
    """The `cl-d3d-sharing-generator` command: `python -m generator` under the name pip installs (and, like it,
    without the cycle collector: see `generator/__main__.py`)."""
    gc.disable()
    return main()


def run(args: argparse.Namespace) -> int:
    """generate, check or coverage (`generate` under `writer.locked`)."""
    hashing: str | forked.Beside[str] | None = None
    try:
        if args.command == "generate":
            why = ownership.refusal(args.out, args.specs)
            if why is not None:
                raise InputError(str(args.out), None, why)
            for left in writer.recover(args.out):  # even when nothing is to be written
                print(f"{left}: warning: left by an interrupted run, or not: it is not provably the generator's, "
                      "so it stays", file=sys.stderr)
        hashing = _inputs(args)
        if isinstance(hashing, str) and fingerprint.current(args.out, hashing):
            print(f"{args.out}: current (no input changed since it was written); nothing parsed", file=sys.stderr)
            return 0
        with timing.stage("import"):
            from generator import pipeline
        result = pipeline.run(args.specs, first=_import_emission)  # imported while a second process reads
        from generator.emission import emit
        emitted = emit.outputs(result.extensions, result.texts, recheck=getattr(args, "force", False))
        files = emitted.files
        files[ownership.NAME] = ownership.manifest(hashing if isinstance(hashing, str) else hashing.result(), files)
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR
    except SchemaError as error:  # a bug: say so plainly, write nothing
        print(f"generator: internal error, nothing written: {error}", file=sys.stderr)
        return INTERNAL_ERROR
    finally:
        if isinstance(hashing, forked.Beside):
            hashing.close()
    if args.command == "coverage":
        from generator import coverage

        found = coverage.rows(emitted.irs, emitted.package)
        print(coverage.render(found), end="")
        return 1 if coverage.gaps(found) else 0
    if args.command == "check":
        differing = writer.stale(args.out, files)
        for name in differing:
            print(f"{args.out / name}: not what `generate` would write", file=sys.stderr)
        return 1 if differing else 0
    for diagnostic in result.diagnostics:
        if diagnostic.severity == "warning" or args.verbose:
            print(diagnostic.render(), file=sys.stderr)
    if args.verbose:
        for path in result.skipped:
            print(f"{path}: note: not a specification (a Markdown note); skipped", file=sys.stderr)
        for line in tally_lines(result):
            print(line, file=sys.stderr)
    with timing.stage("API changes"):
        changes = api_changes(args.out / "ir", emitted.irs, files)
    with timing.stage("write"):
        try:
            writer.write(args.out, files, args.specs)
        except InputError as error:
            print(error.render(), file=sys.stderr)
            return INPUT_ERROR
    if changes:
        print(f"API changes since the previous {args.out / 'ir'}:")
        print("".join(f"  {change.line()}\n" for change in changes), end="")
    return 0


def _inputs(args: argparse.Namespace) -> str | forked.Beside[str]:
    """The hash of the inputs, for OUT's manifest: made here when `generate` (without --force) finds a manifest in
    OUT, since it decides whether OUT is current; otherwise in a child, on the core that is idle while this
    process imports the pipeline."""
    spec_files = source.spec_files(args.specs)

    def inputs() -> str:
        with timing.stage("fingerprint"):
            return fingerprint.inputs(spec_files, args.specs)

    if args.command == "generate" and not args.force and ownership.read(args.out) is not None:
        return inputs()
    return forked.Beside(inputs)


def _import_emission() -> None:
    """The back end's modules, imported while the pipeline's second process reads (they are a tenth of a run)."""
    with timing.stage("import"):
        import generator.emission.emit  # noqa: F401


def api_changes(previous: Path, irs: tuple[Extension, ...], files: dict[str, str]) -> list[Change]:
    """What changed since the IR in `previous`; nothing when there is none.

    An IR there that cannot be read is only warned about: this run replaces it anyway.
    """
    written = {name: text for name, text in files.items() if name.startswith("ir/")}
    if _same_texts(previous, written):
        return []
    from generator import diff
    from generator.ir import read

    try:
        old = read.load_folder(previous) if previous.is_dir() else {}
    except InputError as error:
        note = f"{error.message} (in the previous IR, which this run replaces; API changes are not shown)"
        print(InputError(error.path, error.pos, note, error.line_text).render("warning"), file=sys.stderr)
        return []
    return diff.compare(old, {e.name: e for e in irs}) if old else []


def _same_texts(previous: Path, written: dict[str, str]) -> bool:
    """Whether the IR folder holds exactly these texts (then the API cannot have changed)."""
    from generator.base import safeload

    try:
        present = {f"ir/{p.name}": safeload.read_text(p) for p in previous.glob("*.yaml")}
    except InputError:
        return False
    return present == written


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
