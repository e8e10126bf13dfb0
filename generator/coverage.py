"""`python -m generator coverage`: which error conditions the generated wrappers check before the call.

For each function of each extension, each clause of each error condition with its
class (host, state, driver), whether a generated check enforces it, and the reason
of its class. A host or state clause that no check enforces is a gap: the command
then exits 1, so CI notices. So is a condition that cannot be read as the text meant it
(`damaged` in the IR: names lost and not restored, an unreadable character), listed
whole, with why, since none of its clauses can be trusted to be checked or not; and one
that lost its error code for good, which the IR holds only as its warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.emission.package_model import Package
from generator.ir.model import Extension


@frozen
class Row:
    extension: str
    function: str
    code: str
    clause: str
    kind: str  # host, state, driver; "damaged" for a whole condition that cannot be read
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
                if error.damaged is not None:
                    found.append(Row(ir.name, function.name, error.code, error.condition, "damaged", False,
                                     error.damaged, error.source.cited()))
                    continue
                for clause in error.check:
                    key = (ir.name, function.name, error.code, clause.text)
                    found.append(Row(ir.name, function.name, error.code, clause.text, clause.kind,
                                     key in checked, clause.reason, str(error.source)))
        for diagnostic in ir.diagnostics:
            if diagnostic.kind == Kind.UNRECOVERED_CONDITION:
                owner, _, said = diagnostic.message.partition(": ")
                found.append(Row(ir.name, owner, "(code lost)", said, "damaged", False,
                                 "the condition lost its error code and no other source states it",
                                 diagnostic.where.cited()))
    return found


def gaps(found: list[Row]) -> list[Row]:
    """Host and state clauses no check enforces, and damaged conditions."""
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
        if row.kind == "damaged":
            lines.append(f"    [DAMAGED] {row.code}: {row.clause}  ({row.source})")
            lines.append(f"              why: {row.reason}")
            continue
        mark = "checked" if row.enforced else ("MISSING" if row.kind != "driver" else "driver ")
        lines.append(f"    [{mark}] {row.kind:<6} {row.code}: {row.clause}  ({row.source})")
        if row.kind == "driver":
            lines.append(f"              why: {row.reason}")
    lines.append("")
    for kind, (count, enforced) in totals(found).items():
        lines.append(f"{kind:<6} {count:>4} clauses, {enforced:>4} checked by the generated wrappers")
    damaged = sum(1 for row in found if row.kind == "damaged")
    if damaged:
        lines.append(f"{damaged} condition(s) damaged: not read as checks (see DAMAGED above)")
    missing = [row for row in gaps(found) if row.kind != "damaged"]
    lines.append(f"{len(missing)} host or state clause(s) unchecked")
    return "\n".join(lines) + "\n"
