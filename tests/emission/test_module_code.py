"""An extension module's code: which names it reads, and so imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from generator.emission.module_code import used_names
from tests.support import GENERATED


def _read(source: str) -> set[str]:
    """The names the syntax tree reads or writes: what `used_names` must not miss."""
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}


@pytest.mark.parametrize(("line", "read", "not_read"), [
    ("x = Pointer(ffi.NULL)", {"x", "Pointer", "ffi"}, {"NULL"}),
    ("raise ValueError('a Pointer must be given') from None  # see Check", {"ValueError"}, {"Pointer", "Check"}),
    ('f = "it\'s \\"Check\\" here"', {"f"}, {"Check"}),
    ("y = b'Pointer' + rb\"Check\"", {"y"}, {"Pointer", "Check"}),
    ("z = f\"{Pointer(1)} failed on {argument!r}\"", {"z", "Pointer", "argument"}, set()),
    ("doc = '''Check\nPointer'''", {"doc"}, {"Check", "Pointer"}),
    ("n = 0x2601 + 1e5 + _marshal.limits(ffi, 'cl_int')", {"n", "_marshal", "ffi"}, {"x2601", "e5", "limits"}),
    ("élan = Tracker()", {"élan", "Tracker"}, set()),
])
def test_a_name_is_a_word_outside_strings_and_comments(line: str, read: set[str], not_read: set[str]) -> None:
    found = used_names([line])
    assert read <= found
    assert not found & not_read
    assert _read(line) <= found


@pytest.mark.parametrize("path", sorted(GENERATED.glob("cl_d3d_sharing/*.py")), ids=lambda path: path.name)
def test_no_name_the_generated_code_reads_is_missed(path: Path) -> None:
    """Every module of the package, whole: what its syntax tree reads, the lexical reading finds (a miss would be
    a missing import)."""
    source = path.read_text(encoding="utf-8")
    assert _read(source) <= used_names(source.split("\n"))
