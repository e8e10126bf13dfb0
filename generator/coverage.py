"""`python -m generator coverage`: which error conditions the generated wrappers check before the call.

For each function of each extension, each clause of each error condition with its
class (host, state, driver), whether a generated check enforces it, and the reason
of its class. A host or state clause that no check enforces is a gap: the command
then exits 1, so CI notices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from generator.base.records import frozen
from generator.emission.package_model import Package
from generator.ir.model import Extension


@frozen
class Row:
    extension: str
    function: str
    code: str
    clause: str
    kind: str  # host, state, driver
    enforced: bool
    reason: str
    source: str


def rows(irs: Iterable[Extension], package: Package) -> list[Row]:
    """Every clause of every condition of every function, with whether a check of the package enforces it."""
    checked = {
        (extension.extension, function.name, check.code, clause)
        for extension in package.extensions
        for function in extension.functions
        for check in function.checks
        for clause in check.clauses
    }
    found = []
    for ir in sorted(irs, key=lambda ir: ir.name):
        for function in ir.functions:
            for error in function.errors:
                for clause in error.check:
                    key = (ir.name, function.name, error.code, clause.text)
                    found.append(Row(ir.name, function.name, error.code, clause.text, clause.kind,
                                     key in checked, clause.reason, str(error.source)))
    return found


def gaps(found: list[Row]) -> list[Row]:
    """Host and state clauses no check enforces."""
    return [row for row in found if row.kind != "driver" and not row.enforced]


def totals(found: list[Row]) -> dict[str, tuple[int, int]]:
    """Class -> (clauses, enforced)."""
    count = Counter(row.kind for row in found)
    enforced = Counter(row.kind for row in found if row.enforced)
    return {kind: (count[kind], enforced[kind]) for kind in ("host", "state", "driver")}


def render(found: list[Row]) -> str:
    lines: list[str] = []
    extension = function = None
    for row in found:
        if row.extension != extension:
            extension, function = row.extension, None
            lines.append(f"{extension}")
        if row.function != function:
            function = row.function
            lines.append(f"  {function}")
        mark = "checked" if row.enforced else ("MISSING" if row.kind != "driver" else "driver ")
        lines.append(f"    [{mark}] {row.kind:<6} {row.code}: {row.clause}  ({row.source})")
        if row.kind == "driver":
            lines.append(f"              why: {row.reason}")
    lines.append("")
    for kind, (count, enforced) in totals(found).items():
        lines.append(f"{kind:<6} {count:>4} clauses, {enforced:>4} checked by the generated wrappers")
    missing = gaps(found)
    lines.append(f"{len(missing)} host or state clause(s) unchecked")
    return "\n".join(lines) + "\n"
