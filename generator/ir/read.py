"""The IR read back into `ir.model`: from its YAML files (`load`, `load_folder`) or from the front half's draft
(`record`), through the dictionaries the schema checks, so that both give the same objects.

`from_dict` trusts its input to be schema-valid (every dictionary it is given has passed `files.validate` or
the schema check of `files.read_data`), and gives what the schema leaves out its default.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from generator.base import knowledge, safeload
from generator.base.diagnostics import Diagnostic, Location
from generator.base.errors import InputError
from generator.base.predicates import from_notation
from generator.base.source import Pos
from generator.ir import files, values
from generator.ir.model import (
    Builtin,
    Clause,
    Corroboration,
    Effect,
    ErrorCondition,
    Extension,
    Function,
    Param,
    Source,
    Table,
    Token,
    TokenGroup,
    TypeInfo,
)
from generator.merging.draft import Count, Tally
from generator.merging.draft import Extension as Draft


def record(draft: Draft) -> Extension:
    """The IR of an extension the front half made, as `load` would read it from the file `generate` writes."""
    return from_dict(files.checked(draft))


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
    return Extension(
        name=data["name"],
        vendor=data["vendor"],
        revision=data["revision"],
        metadata=dict(data.get("metadata") or {}),
        sources=tuple(_source(s) for s in data["sources"]),
        types=tuple(_type(t) for t in data["types"]),
        functions=tuple(_function(f) for f in data["functions"]),
        token_groups=tuple(_group(g) for g in data.get("token_groups", ())),
        tokens=tuple(Token(t["name"], t["value"], t["group"], placed(t), maybe(t.get("value_source")))
                     for t in data["tokens"]),
        tables=tuple(_table(t) for t in data["tables"]),
        diagnostics=tuple(_diagnostic(d) for d in data["diagnostics"]),
        registry=data.get("registry"),
        builtins=tuple(Builtin(b["name"], b["return_type"], tuple(Param(p["name"] or "", p["type"])
                                                                       for p in b["params"]), place(b["source"]))
                       for b in data.get("builtins", ())),
    )


def place(text: str) -> Location:
    """`path:line`, the IR's form of a place (the column is not kept: 1)."""
    path, _, line = text.rpartition(":")
    return Location(path, Pos(int(line), 1))


def placed(entry: dict[str, Any]) -> Location:
    """An entry's `source`, at its `column` where the IR keeps one."""
    return _at(place(entry["source"]), entry.get("column"))


def _at(where: Location, column: int | None) -> Location:
    return Location(where.path, Pos(where.pos.line, column)) if column is not None else where


def _columned(places: list[str], columns: list[int]) -> tuple[Location, ...]:
    """Places and the columns the IR keeps beside them (`row_columns`, `declared_columns`), by position."""
    return tuple(_at(place(w), columns[i] if i < len(columns) else None) for i, w in enumerate(places))


def precise_place(text: str) -> Location:
    """`path:line:column`, a diagnostic's related places."""
    path, _, column = text.rpartition(":")
    return Location(place(path).path, Pos(place(path).pos.line, int(column)))


def maybe(text: str | None) -> Location | None:
    return place(text) if text is not None else None


def _source(data: dict[str, Any]) -> Source:
    tally = data.get("tally")
    if tally is None:
        return Source(data["path"], data["format"])
    counts = [Count(tally[k]["read"], tally[k]["kept"]) for k in ("prototypes", "tokens", "conditions")]
    return Source(data["path"], data["format"], Tally(*counts))


def _type(data: dict[str, Any]) -> TypeInfo:
    members = tuple((m["name"], m["type"]) for m in data.get("members", ()))
    return TypeInfo(data["name"], data["kind"], data["c_type"], maybe(data["source"]), data.get("defined", True),
                    members)


def _function(data: dict[str, Any]) -> Function:
    return Function(
        name=data["name"],
        return_type=data.get("return_type"),
        params=tuple(Param(p["name"], p["type"], p.get("description"),
                           _at(place(p["description_source"]), p.get("description_column"))
                           if "description_source" in p else None,
                           maybe(p.get("recovered_from"))) for p in data.get("params", ())),
        errors=tuple(_error(e) for e in data["errors"]),
        source=placed(data),
        core=data.get("core", False),
        external=data.get("external", False),
        prototype_source=maybe(data.get("prototype_source")),
        effects=tuple(Effect(e["kind"], placed(e), e.get("objects"), e.get("scope"), e.get("resource"),
                             e.get("subresource")) for e in data.get("effects", ())),
        declared_at=_columned(data.get("declared_at", ()), data.get("declared_columns", ())),
    )


def _error(data: dict[str, Any]) -> ErrorCondition:
    return ErrorCondition(
        code=data["code"],
        condition=data["condition"],
        source=placed(data),
        origin=data["origin"],
        check=tuple(Clause(c["clause"], c["class"], c["reason"], from_notation(c["predicate"]) if "predicate" in c
                           else None) for c in data.get("check", ())),
        also_in=tuple(Corroboration(placed(a), a["condition"], maybe(a.get("recovered_from")))
                      for a in data.get("also_in", ())),
        recovered_from=maybe(data.get("recovered_from")),
        recovered=data.get("recovered"),
        copied_from=maybe(data.get("copied_from")),
        damaged=data.get("damaged"),
    )


def _group(data: dict[str, Any]) -> TokenGroup:
    return TokenGroup(data["name"], data["kind"], tuple(data["functions"]), data.get("parameter"), data.get("c_type"),
                      data.get("when"), data["sentence"], placed(data), maybe(data.get("recovered_from")))


def _table(data: dict[str, Any]) -> Table:
    header = data.get("header")
    return Table(data["name"], tuple(data["columns"]), tuple(header) if header is not None else None,
                 tuple(tuple(str(cell) for cell in row) for row in data["rows"]),
                 _columned(data.get("row_sources", ()), data.get("row_columns", ())), placed(data))


def _diagnostic(data: dict[str, Any]) -> Diagnostic:
    return Diagnostic(placed(data), data["severity"], data["kind"], data["message"],
                      related=tuple(precise_place(r) for r in data.get("related", ())))
