"""`python -m generator generate|check|coverage|diff`: the commands of CONTRACTS.md."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from generator import coverage, diff, emit, fingerprint, ir, knowledge, pipeline
from generator.errors import InputError
from generator.ir import SchemaError
from generator.package import model_package

#: Exit status for bad input (CONTRACTS.md), and for a fault of the generator itself.
INPUT_ERROR = 2
INTERNAL_ERROR = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, summary in (("generate", "write OUT from the specs"), ("check", "exit 1 if OUT is not current"),
                          ("coverage", "which error conditions the wrappers check; exit 1 on a gap")):
        command = commands.add_parser(name, help=summary)
        command.add_argument("--specs", type=Path, default=Path("specs"), help="folder of spec texts (specs/)")
        command.add_argument("--out", type=Path, default=Path("generated"), help="output folder (generated/)")
        command.add_argument("-v", "--verbose", action="store_true", help="also print notes")
    compare = commands.add_parser("diff", help="what changed in the API from OLD to NEW; exit 1 if anything did")
    compare.add_argument("old", type=Path, help="a spec file, a folder of specs, or a folder of IR (OUT or OUT/ir)")
    compare.add_argument("new", type=Path, help="the same, for the new revision")
    compare.add_argument("--format", choices=("text", "json"), default="text")
    commands.choices["generate"].add_argument("--force", action="store_true",
                                               help="parse and write even when the inputs have not changed")
    args = parser.parse_args(argv)
    if args.command == "diff":
        return run_diff(args.old, args.new, args.format)
    try:
        inputs = fingerprint.inputs(pipeline.spec_files(args.specs), args.specs)
        if args.command == "generate":
            emit.recover(args.out)  # even when nothing is to be written
        if args.command == "generate" and not args.force and fingerprint.current(args.out, inputs):
            print(f"{args.out}: current (no input changed since it was written); nothing parsed", file=sys.stderr)
            return 0
        result = pipeline.run(args.specs)
        files = emit.outputs(result)
        files[fingerprint.NAME] = fingerprint.manifest(inputs, files)
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return INPUT_ERROR
    except SchemaError as error:  # a bug: say so plainly, write nothing
        print(f"generator: internal error, nothing written: {error}", file=sys.stderr)
        return INTERNAL_ERROR
    if args.command == "coverage":
        irs = [ir.to_dict(extension) for extension in result.extensions]
        found = coverage.rows(irs, model_package(irs, knowledge.load(), knowledge.load_package()))
        print(coverage.render(found), end="")
        return 1 if coverage.gaps(found) else 0
    if args.command == "check":
        differing = emit.stale(args.out, files)
        for name in differing:
            print(f"{args.out / name}: not what `generate` would write", file=sys.stderr)
        return 1 if differing else 0
    for diagnostic in result.diagnostics:
        if diagnostic.severity == "warning" or args.verbose:
            print(diagnostic.render(), file=sys.stderr)
    if args.verbose:
        for path in result.skipped:
            print(f"{path}: note: not a specification (a Markdown note); skipped", file=sys.stderr)
    changes = api_changes(args.out / "ir", result)
    emit.write(args.out, files)
    if changes:
        print(f"API changes since the previous {args.out / 'ir'}:")
        print("".join(f"  {change.line()}\n" for change in changes), end="")
    return 0


def api_changes(previous: Path, result: pipeline.Result) -> list[diff.Change]:
    """What changed since the IR in `previous`; nothing when there is none or it cannot be read (it is replaced)."""
    try:
        old = ir.load_folder(previous) if previous.is_dir() else {}
    except (SchemaError, OSError, ValueError, KeyError, yaml.YAMLError):
        return []
    return diff.compare(old, {e.name: ir.to_dict(e) for e in result.extensions}) if old else []


def run_diff(old: Path, new: Path, form: str) -> int:
    """Print the changes from `old` to `new`; exit 1 when there are any, 2 on bad input."""
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
