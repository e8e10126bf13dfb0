"""The YAML IR, one file per extension, checked against `ir.schema.json` on every write and read.

Keys follow the project's contract (CONTRACTS.md); lists keep the order of the
spec where that order means something (functions, parameters, tokens, rows)
and are sorted where it does not (types, diagnostics), so that the same specs
always give the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from generator.base import safeload
from generator.base.diagnostics import Diagnostic, Location
from generator.base.errors import InputError, SchemaError
from generator.base.knowledge import SafeDumper
from generator.base.schema import Check, compile_schema
from generator.base.source import Pos
from generator.frontends.document import REFERENCE
from generator.merging.draft import (
    Builtin,
    Clause,
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

SCHEMA_PATH = Path(__file__).with_name("ir.schema.json")


def plain(text: str) -> str:
    """Text as the IR holds it: parameter references are plain words."""
    return REFERENCE.sub(r"\1", text)


def to_dict(extension: Extension) -> dict[str, Any]:
    functions = [f for f in extension.functions if not f.foreign] + sorted(
        (f for f in extension.functions if f.foreign), key=lambda f: (f.external, f.name)
    )
    entry: dict[str, Any] = {
        "name": extension.name,
        "vendor": extension.vendor,
        "revision": extension.revision,
        "metadata": dict(sorted(extension.metadata.items())),
        "sources": [_source(s) for s in extension.sources],
    }
    if extension.registry is not None:
        entry["registry"] = extension.registry
    builtins = {"builtins": [_builtin(b) for b in extension.builtins]} if extension.builtins else {}
    return entry | {
        "types": [_type(t) for t in extension.types],
        "functions": [_function(f) for f in functions],
        **builtins,
        "token_groups": [_group(g) for g in extension.groups],
        "tokens": [_token(t) for t in extension.tokens],
        "tables": [_table(t) for t in extension.tables],
        "diagnostics": [_diagnostic(d) for d in sorted(extension.diagnostics)],
    }


def _source(source: Source) -> dict[str, Any]:
    found: dict[str, Any] = {"path": source.path, "format": source.format}
    if source.tally is not None:
        tally = source.tally
        found["tally"] = {kind: {"read": count.read, "kept": count.kept} for kind, count in
                          (("prototypes", tally.prototypes), ("tokens", tally.tokens),
                           ("conditions", tally.conditions))}
    return found


def _where(location: Location | None) -> str | None:
    return str(location) if location else None


def _placed(location: Location) -> dict[str, Any]:
    """`source`, and its `column` where the IR keeps one (`Location.kept_column`)."""
    column = location.kept_column
    return {"source": str(location)} | ({"column": column} if column is not None else {})


def _columns(key: str, places: Sequence[Location]) -> dict[str, Any]:
    """`{key: [column of each place]}` when one of `places` keeps its column, else nothing."""
    return {key: [w.pos.column for w in places]} if any(w.kept_column is not None for w in places) else {}


def _builtin(builtin: Builtin) -> dict[str, Any]:
    return {"name": builtin.name, "return_type": builtin.return_type,
            "params": [{"name": name, "type": c_type} for name, c_type in builtin.params],
            "source": _where(builtin.source)}


def _type(info: TypeInfo) -> dict[str, Any]:
    members = {"members": [{"name": name, "type": c_type} for name, c_type in info.members]} if info.members else {}
    return {"name": info.name, "kind": info.kind, "c_type": info.c_type, "defined": info.defined, **members,
            "source": _where(info.source)}


def _function(function: Function) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": function.name}
    if function.core:
        entry["core"] = True
    if function.external:
        entry["external"] = True
    if function.return_type is not None:
        entry["return_type"] = function.return_type
        entry["params"] = [_param(p) for p in function.params]
    entry["errors"] = [_error(e) for e in function.errors]
    entry |= _placed(function.source)
    if function.prototype_source is not None:
        entry["prototype_source"] = _where(function.prototype_source)
    if function.effects:
        entry["effects"] = [_effect(e) for e in function.effects]
    if len(function.declared_at) > 1:
        entry["declared_at"] = [_where(w) for w in function.declared_at]
        entry |= _columns("declared_columns", function.declared_at)
    return entry


def _param(param: Param) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": param.name, "type": param.type}
    if param.description is not None:
        entry["description"] = plain(param.description)
        entry["description_source"] = _where(param.description_source)
        if param.description_source is not None and param.description_source.kept_column is not None:
            entry["description_column"] = param.description_source.kept_column
    if param.recovered_from is not None:
        entry["recovered_from"] = _where(param.recovered_from)
    return entry


def _error(error: ErrorCondition) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": error.code,
        "condition": plain(error.condition),
        **_placed(error.source),
        "origin": error.origin,
    }
    if error.recovered_from is not None:
        entry["recovered_from"] = _where(error.recovered_from)
        entry["recovered"] = error.recovered
    if error.copied_from is not None:
        entry["copied_from"] = _where(error.copied_from)
    if error.damaged is not None:
        entry["damaged"] = plain(error.damaged)
    if error.check:
        entry["check"] = [_clause(c) for c in error.check]
    if error.also_in:
        entry["also_in"] = [
            _placed(a.source) | {"condition": plain(a.condition)}
            | ({"recovered_from": _where(a.recovered_from)} if a.recovered_from else {})
            for a in error.also_in
        ]
    return entry


def _clause(clause: Clause) -> dict[str, Any]:
    entry: dict[str, Any] = {"clause": plain(clause.text), "class": clause.kind, "reason": plain(clause.reason)}
    if clause.predicate is not None:
        entry["predicate"] = clause.predicate.to_notation()
    return entry


def _effect(effect: Effect) -> dict[str, Any]:
    return {"kind": effect.kind} | dict(effect.params) | _placed(effect.source)


def _group(group: TokenGroup) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": group.name,
        "kind": group.kind,
        "functions": list(group.functions),
        "parameter": group.parameter,
        "c_type": group.c_type,
        "when": group.when,
        "sentence": plain(group.sentence),
        **_placed(group.source),
    }
    if group.recovered_from is not None:
        entry["recovered_from"] = _where(group.recovered_from)
    return entry


def _token(token: Token) -> dict[str, Any]:
    entry = {"name": token.name, "value": token.value, "group": token.group, **_placed(token.source)}
    if token.value_source is not None:
        entry["value_source"] = _where(token.value_source)
    return entry


def _table(table: Table) -> dict[str, Any]:
    return {
        "name": table.name,
        "columns": table.columns,
        "header": table.header,
        "rows": [[plain(cell) for cell in row] for row in table.rows],
        "row_sources": [_where(w) for w in table.row_sources],
        **_placed(table.source),
    } | _columns("row_columns", table.row_sources)


def _diagnostic(diagnostic: Diagnostic) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "severity": diagnostic.severity,
        "kind": diagnostic.kind,
        "message": diagnostic.message,
        **_placed(diagnostic.where),
    }
    if diagnostic.related:
        entry["related"] = [r.precise() for r in diagnostic.related]
    return entry


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@cache
def _checker() -> Check:
    return compile_schema(schema())


def validate(data: dict[str, Any]) -> None:
    """Raise `SchemaError` at the first place (in document order) where `data` breaks the schema."""
    errors = _checker()(data)
    if errors:
        path, message = errors[0]
        where = "/".join(str(p) for p in path)
        raise SchemaError(f"IR of {data.get('name')} breaks the schema at /{where}: {message}")


def checked(extension: Extension) -> dict[str, Any]:
    """The IR dictionary of a draft, validated: what is written, and what `read.from_dict` reads back."""
    data = to_dict(extension)
    validate(data)
    return data


def render(extension: Extension) -> str:
    """The YAML text of one extension's IR, validated."""
    return yaml_text(checked(extension))


#: The most an IR file may hold, written or read: eight times a spec's limit (an IR says more about each name
#: than the text that gives it), so that every IR the generator writes can be read back by `diff`.
MAX_BYTES = 8 * safeload.MAX_BYTES


def dump(data: dict[str, Any]) -> str:
    """The YAML text of an IR dictionary, validated; an input error when it would be more than `load` reads."""
    validate(data)
    return yaml_text(data)


def yaml_text(data: dict[str, Any]) -> str:
    """The YAML text of an IR dictionary already validated; an input error when it would be more than `load` reads."""
    text: str = yaml.serialize(_node(data), Dumper=_Dumper, allow_unicode=True, width=100)
    if len(text.encode("utf-8")) > MAX_BYTES:
        source = data["sources"][0]["path"] if data.get("sources") else "<specs>"
        raise InputError(source, Pos(1, 1), f"the IR of {data['name']} would be "
                         f"{len(text.encode('utf-8')) / 2**20:.0f} MiB, more than the {MAX_BYTES / 2**20:g} MiB an "
                         "IR may hold (it is read back by `diff`); is this the right text?")
    return text


_TAG = "tag:yaml.org,2002:"


def _node(value: Any) -> yaml.Node:
    """The node `yaml.dump(value, sort_keys=False)` would represent, made directly: the representer looks up a
    method and an alias for every value, a third of the text's time. The IR holds only these types, and no list
    or dictionary twice (for one met twice, PyYAML would write an anchor and an alias; this writes it out again)."""
    kind = type(value)
    if kind is str:
        return yaml.ScalarNode(_TAG + "str", value)
    if kind is dict:
        return yaml.MappingNode(_TAG + "map", [(_node(k), _node(v)) for k, v in value.items()], flow_style=False)
    if kind is list:
        return yaml.SequenceNode(_TAG + "seq", [_node(v) for v in value], flow_style=False)
    if kind is bool:
        return yaml.ScalarNode(_TAG + "bool", "true" if value else "false")
    if kind is int:
        return yaml.ScalarNode(_TAG + "int", str(value))
    if value is None:
        return yaml.ScalarNode(_TAG + "null", "null")
    raise SchemaError(f"the IR holds a {kind.__name__}, which it has no YAML for")


class _Dumper(SafeDumper):  # type: ignore[misc, valid-type]
    """The safe dumper, remembering how it resolved each plain scalar of its document: the emitter asks twice for
    each scalar, once as a plain one and once as a quoted one (which is always a string: no resolver here looks
    at a node's path), and the IR repeats its keys and words."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._resolved: dict[str, str] = {}

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is not yaml.ScalarNode or self.yaml_path_resolvers:
            return str(super().resolve(kind, value, implicit))
        if not implicit[0]:
            return str(self.DEFAULT_SCALAR_TAG)
        found = self._resolved.get(value)
        if found is None:
            found = self._resolved[value] = str(super().resolve(kind, value, implicit))
        return found


def read_data(path: Path) -> tuple[dict[str, Any], str]:
    """An IR file's dictionary, checked against the schema, and its text (for the places of later errors)."""
    shown = str(path)
    text = safeload.read_text(path, shown, MAX_BYTES)
    return data_of(text, shown), text


def data_of(text: str, shown: str) -> dict[str, Any]:
    """The dictionary of an IR file's text (read by the caller: `read_data`), checked against the schema."""
    data: dict[str, Any] = safeload.parse_yaml(text, shown)
    errors = _checker()(data)
    if errors:
        raise safeload.schema_error(shown, text, errors[0], SCHEMA_PATH.name)
    return data
