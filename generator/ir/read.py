"""The IR read back into `ir.model`: from its YAML files (`load`, `load_folder`) or from the front half's records
(`record`), through the dictionaries the schema checks, so that both give the same objects (texts plain).

`from_dict` trusts its input to be schema-valid (every dictionary it is given has passed `files.validate` or
the schema check of `files.read_data`), and gives what the schema leaves out its default.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator.base import knowledge, safeload
from generator.base.errors import InputError
from generator.ir import codec, files, values
from generator.ir.model import Extension


def record(made: Extension) -> Extension:
    """The IR of an extension the front half made, as `load` would read it from the file `generate` writes."""
    return from_dict(files.checked(made))


def load(path: Path) -> Extension:
    """An IR file read back: input like any other, so every fault in it is an `InputError` saying where."""
    data, text = files.read_data(path)
    return _fitting(from_dict(data), path, text)


def load_folder(folder: Path) -> dict[str, Extension]:
    """Extension -> IR, from the IR files of a folder (none when it holds none); one extension in two is an error."""
    return load_texts((file, files.read_data(file)) for file in sorted(folder.glob("*.yaml")))


def load_texts(texts: Iterable[tuple[Path, tuple[dict[str, Any], str]]]) -> dict[str, Extension]:
    """Extension -> IR, from IR files read in turn (each file's path, dictionary and text: `load_folder`, or
    `generate` reading the previous OUT/ir through descriptors); one extension in two is an error."""
    found: dict[str, Extension] = {}
    where: dict[str, Path] = {}
    for file, (data, text) in texts:
        name = data["name"]
        if name in found:
            pos = safeload.yaml_marks(text, str(file)).get(("name",))
            raise InputError(str(file), pos, f"{name} again: {where[name]} is the IR of this extension too",
                             safeload.line_of(text, pos.line) if pos else None)
        found[name], where[name] = _fitting(from_dict(data), file, text), file
    return found


def _fitting(extension: Extension, path: Path, text: str) -> Extension:
    """`extension`, read from `path`, when every token value fits its type; an input error at the value else."""
    found = values.misfit(extension, knowledge.load())
    if found is None:
        return extension
    index, message = found
    pos = safeload.yaml_marks(text, str(path)).get(("tokens", index, "value"))
    raise InputError(str(path), pos, message, safeload.line_of(text, pos.line) if pos else None)


def from_dict(data: dict[str, Any]) -> Extension:
    """The typed record of a validated IR dictionary."""
    extension: Extension = codec.decode(Extension, data)
    return extension
