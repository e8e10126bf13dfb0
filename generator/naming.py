"""Python names for C names, and the check every name passes before it reaches a template.

A spec is outside input: a name it defines becomes Python code only if it is a
plain identifier that is not a keyword, so no text of a spec can turn into
anything but a name.
"""

from __future__ import annotations

import keyword
import re

from generator.errors import InputError
from generator.source import Pos

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def identifier(name: str, source: str | None = None, what: str = "name") -> str:
    """`name` if Python can use it as one; an input error at `source` (`path:line`) otherwise."""
    if IDENTIFIER.match(name) and not keyword.iskeyword(name) and not keyword.issoftkeyword(name):
        return name
    path, line = split_source(source)
    raise InputError(path, Pos(line, 1) if line else None, f"{what} {name!r} cannot be a Python name")


def split_source(source: str | None) -> tuple[str, int | None]:
    """`path:line` as (path, line); a source without a line as (source, None)."""
    if not source:
        return "<specs>", None
    path, _, line = source.rpartition(":")
    return (path, int(line)) if path and line.isdigit() else (source, None)


def class_name(c_name: str, acronyms: frozenset[str]) -> str:
    """`gl_object_type` -> `GLObjectType`: words capitalised, acronyms and words with digits in capitals."""
    words = [w for w in c_name.split("_") if w]
    return "".join(w.upper() if w.upper() in acronyms or any(c.isdigit() for c in w) else w.capitalize() for w in words)


def member_name(c_name: str, prefix: str, suffix: str) -> str:
    """`CL_GL_OBJECT_BUFFER_KHR` -> `GL_OBJECT_BUFFER`; the C name itself when the short one is no identifier."""
    short = c_name
    if prefix and short.startswith(prefix):
        short = short[len(prefix):]
    if suffix and short.endswith(suffix):
        short = short[: -len(suffix)]
    if not short or not IDENTIFIER.match(short) or keyword.iskeyword(short) or short.startswith("_"):
        return c_name
    return short


#: One word of a C function name: "IDs", "Texture2D", "GL4", "Create".
_WORD = re.compile(r"[A-Z0-9]+s(?=[A-Z]|$)|[A-Z][a-z]+(?:[0-9]+[A-Z]?)?(?![a-z])|[A-Z0-9]+(?![a-z])|[A-Z][a-z]*|[a-z]+")


def snake_name(c_name: str, prefix: str, suffix: str) -> str:
    """`clGetWidgetIDsFromFooKHR` -> `get_widget_ids_from_foo`: prefix and suffix off, words in snake case."""
    name = c_name.removeprefix(prefix)
    if suffix and name.endswith(suffix):
        name = name[: -len(suffix)]
    return "_".join(word.lower() for word in _WORD.findall(name))
