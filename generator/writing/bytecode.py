"""Bytecode in OUT must be its generated sources compiled.

Python runs `pkg/__pycache__/mod.<tag>.pyc` instead of `pkg/mod.py` when the header
matches the source's modification time and size, and a lone `pkg/mod.pyc` when there
is no source: a `.pyc` planted in OUT runs code the generated source does not hold,
and a comparison of the sources alone never sees it. Each `.pyc` under OUT is therefore
read back (its header, then its code with `marshal`, bounded in size; loading code does
not run it) and compared with its source compiled here at the `.pyc`'s optimisation
level. Code objects compare by what runs (instructions, constants, names, line table),
not by the file name they were compiled under. Bytecode of another Python (another tag or
magic number) cannot be compared here and counts as foreign, as does a `.pyc` with no
generated source. No bytecode at all is fine.
"""

from __future__ import annotations

import importlib.util
import inspect
import marshal
import re
import sys
from collections.abc import Callable

from generator.writing import folders

#: The most bytes of a `.pyc` or a generated source read (the largest module's is about 0.5 MB).
MOST = 32 * 1024 * 1024
#: `name.<tag>.pyc` or `name.<tag>.opt-N.pyc` in a `__pycache__` folder.
_CACHED = re.compile(r"(?P<module>[^.]+)\.(?P<tag>[^.]+)(?:\.opt-(?P<level>[12]))?\.pyc")
_HEADER = 16


def foreign(tree: folders.Held, source_of: Callable[[str], str | None]) -> list[tuple[str, str]]:
    """The bytecode files under the open `tree` that are not the generated source compiled, each with why, by
    relative path; `source_of(path)` is the generated source at `path` (None when the generator writes none)."""
    files, _ = folders.entries(tree.descriptor)
    compiled: dict[tuple[str, int], object] = {}
    found = []
    for name in sorted(files):
        if name.endswith(".pyc"):
            why = _why(tree, name, source_of, compiled)
            if why is not None:
                found.append((name, why))
    return found


def _why(tree: folders.Held, name: str, source_of: Callable[[str], str | None],
         compiled: dict[tuple[str, int], object]) -> str | None:
    """Why the `.pyc` at `name` is not its source compiled, or None when it is."""
    *folder, cache, file = ["", *name.split("/")]
    matched = _CACHED.fullmatch(file)
    if cache != "__pycache__" or matched is None:
        return "bytecode outside a __pycache__ folder, which Python runs when no source stands beside it"
    if matched["tag"] != sys.implementation.cache_tag:
        return f"bytecode of another Python ({matched['tag']}), which cannot be compared here"
    source = "/".join([*folder[1:], f"{matched['module']}.py"])
    if source.startswith("build/lib/"):  # a setuptools build's copy of a generated module
        source = source.removeprefix("build/lib/")
    text = source_of(source)
    if text is None:
        return f"bytecode of {source}, which the generator does not write"
    data = folders.read_file(tree, name, MOST + 1)
    if data is None or len(data) > MOST or len(data) < _HEADER or data[:4] != importlib.util.MAGIC_NUMBER:
        return "not bytecode this Python reads (its header)"
    try:
        code = marshal.loads(data[_HEADER:])
    except Exception:  # any fault of a hostile .pyc: EOFError, ValueError, TypeError, RecursionError, ...
        return "not bytecode this Python reads (its code)"
    level = int(matched["level"] or 0)
    if (source, level) not in compiled:
        try:
            compiled[source, level] = compile(text, source, "exec", dont_inherit=True, optimize=level)
        except (SyntaxError, ValueError):
            compiled[source, level] = None
    if not inspect.iscode(code) or code != compiled[source, level]:
        return f"code that {source} does not compile to"
    return None
