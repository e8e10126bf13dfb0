"""`python -m generator generate|check|coverage`: the commands of CONTRACTS.md."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator import coverage, emit, ir, knowledge, pipeline
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
    args = parser.parse_args(argv)
    try:
        result = pipeline.run(args.specs)
        files = emit.outputs(result)
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
    emit.write(args.out, files)
    return 0
