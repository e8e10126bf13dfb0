"""A survey of texts that have no truth: each generated alone, and what came of it.

For the texts held back from tuning (see README, "Measured on texts held back"): whether the IR was written, a
refusal (exit 2, with its first error) or anything else (an internal error, a traceback); and how many of the
text's own error items reached the IR. An error item is a line that begins, after a bullet, with an error code
(`CL_INVALID_VALUE if ...`, `* CL_OUT_OF_RESOURCES ...`): the proxy for the conditions a text states, which the
corpus' truth counts by hand.

`python -m tests.survey FOLDER...` prints one line per text and the totals.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

#: A line stating an error condition: a bullet (or none), then an error code.
ERROR_ITEM = re.compile(r"^\s*(?:[*\-•o]|\d+[.)])?\s*[*_`+]*(CL_[A-Z0-9_]*(?:INVALID|ERROR|FAILURE|OUT_OF|NOT_)"
                        r"[A-Z0-9_]*)\b", re.M)


@dataclass(frozen=True)
class Surveyed:
    text: str
    outcome: str  # "written", "refused", "failed"
    said: str  # the first error line, for a text not written
    items: int  # the text's error items
    conditions: int  # the IR's error conditions
    functions: int


def survey(path: Path, folder: Path) -> Surveyed:
    text = path.read_text(encoding="utf-8", errors="replace")
    items = len(ERROR_ITEM.findall(text))
    specs = folder / "specs"
    specs.mkdir()
    (specs / path.name).write_bytes(path.read_bytes())
    run = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out",
                          str(folder / "out")], capture_output=True, text=True, timeout=300, check=False)
    said = next((line for line in run.stderr.splitlines() if ": error: " in line or "Traceback" in line), "")
    if run.returncode != 0:
        refused = run.returncode == 2 and "Traceback" not in run.stderr
        return Surveyed(path.name, "refused" if refused else "failed", said, items, 0, 0)
    conditions = functions = 0
    for file in sorted((folder / "out" / "ir").glob("*.yaml")):
        ir = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        functions += len(ir.get("functions") or [])
        conditions += sum(len(f.get("errors") or []) for f in ir.get("functions") or [])
    return Surveyed(path.name, "written", said, items, conditions, functions)


def main(folders: list[str]) -> int:
    found = []
    for folder in folders:
        for path in sorted(Path(folder).iterdir()):
            if path.is_file():
                with tempfile.TemporaryDirectory() as scratch:
                    found.append(survey(path, Path(scratch)))
    for one in found:
        print(f"{one.outcome:8} {one.text:48} conditions {one.conditions:3}/{one.items:<3} {one.said[:140]}")
    written = [one for one in found if one.outcome == "written"]
    items = sum(one.items for one in found)
    print(f"written {len(written)}/{len(found)}, refused {sum(o.outcome == 'refused' for o in found)}, failed "
          f"{sum(o.outcome == 'failed' for o in found)}; conditions {sum(o.conditions for o in written)} of "
          f"{items} error items")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
