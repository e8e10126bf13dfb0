"""What the data files must hold beyond the shape `data.schema.json` checks: patterns that compile and have the
named groups the generator reads, a format template with only the field it fills, names that exist where they
are looked up, C types that C can read. A data file is input (a contribution may edit it): each fault is an
`InputError` at the offending value, never a traceback later in the run."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from pathlib import Path

from generator.base import safeload
from generator.base.errors import InputError
from generator.base.source import display_path

#: A C type as the data files spell it: words (`unsigned int`), then ` *` for each pointer level.
_C_TYPE = re.compile(r"(?:const )?[A-Za-z_]\w*(?: [A-Za-z_]\w*)*(?: \*)*")


def fault(folder: Path, name: str, place: tuple[str | int, ...], message: str) -> InputError:
    """An input error at `place` (keys from the top) of data file `name`, with its line for a YAML file."""
    path = folder / name
    shown = display_path(path, Path.cwd())
    text = None if name.endswith(".json") else safeload.read_text(path, shown)
    return safeload.schema_error(shown, text, (place, message), name)


def pattern(folder: Path, name: str, place: tuple[str, ...], text: str, groups: Iterable[str] = ()) -> re.Pattern[str]:
    """A regular expression of a data file, with the named groups the generator reads from its matches."""
    try:
        compiled = re.compile(text)
    except re.error as error:
        raise fault(folder, name, place, f"{text!r} is not a regular expression: {error}") from None
    missing = sorted(set(groups) - set(compiled.groupindex))
    if missing:
        raise fault(folder, name, place, f"{text!r} has no group named {', '.join(missing)}, which the generator "
                    "reads from its matches")
    return compiled


def template(folder: Path, name: str, place: tuple[str, ...], text: str, field: str) -> str:
    """A format template that holds `{field}` and no other field, conversion or format: it is filled with
    `str.format`, which would otherwise run attribute lookups, index, or pad to any width."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as error:
        raise fault(folder, name, place, f"{text!r} is not a format template: {error}") from None
    fields = [(f, spec, conversion) for _, f, spec, conversion in parts if f is not None]
    if not fields or any(f != field or spec or conversion for f, spec, conversion in fields):
        raise fault(folder, name, place, f"{text!r} must hold {{{field}}} and no other field, conversion or format")
    return text


def known(folder: Path, name: str, section: tuple[str, ...], names: Mapping[str, str], known_names: Iterable[str],
          what: str) -> None:
    """Every value of a role -> name section names something `known_names` holds."""
    there = set(known_names)
    for role, value in names.items():
        if value not in there:
            raise fault(folder, name, (*section, role), f"{value!r} is no {what} the data files know")


def c_types(folder: Path, name: str, section: str, types: Mapping[str, str]) -> None:
    """Every value is a C type spelled as the data files spell them (words, then ` *` per pointer level)."""
    for key, value in types.items():
        if not _C_TYPE.fullmatch(value):
            raise fault(folder, name, (section, key), f"{value!r} is not a C type (words, then ' *' for each "
                        "pointer level)")
