"""Stage 7: the output tree, written whole or not at all.

Everything is written into a fresh folder beside OUT and then put in OUT's
place by two renames (OUT to `.OUT-previous`, the new folder to OUT). An error
while writing leaves OUT as it was; a run killed between the two renames leaves
`.OUT-previous`, which the next run puts back before it starts.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from generator import ir
from generator.pipeline import Result


def outputs(result: Result) -> dict[str, str]:
    """Relative path -> text of every file the generator writes under OUT."""
    return {f"ir/{extension.name}.yaml": ir.render(extension) for extension in result.extensions}


def restore(out: Path) -> None:
    """Put back the OUT an interrupted run had moved aside."""
    previous = out.with_name(f".{out.name}-previous")
    if previous.exists() and not out.exists():
        os.rename(previous, out)


def write(out: Path, files: dict[str, str]) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    restore(out)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for relative, text in sorted(files.items()):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        previous = out.with_name(f".{out.name}-previous")
        if previous.exists():
            shutil.rmtree(previous)
        if out.exists():
            os.rename(out, previous)
        os.rename(staging, out)
        shutil.rmtree(previous, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Files under OUT that differ from `files`, are missing, or should not be there."""
    present = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.exists() else set()
    differing = [
        name for name, text in files.items()
        if name not in present or (out / name).read_text(encoding="utf-8") != text
    ]
    return sorted(differing + [name for name in present if name not in files])
