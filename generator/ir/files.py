"""The YAML IR, one file per extension, checked against `ir.schema.json` on every write and read.

Keys follow the project's contract (CONTRACTS.md); lists keep the order of the
spec where that order means something (functions, parameters, tokens, rows)
and are sorted where it does not (types, diagnostics), so that the same specs
always give the same bytes.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from generator.base import safeload
from generator.base.errors import InputError, SchemaError
from generator.base.knowledge import SafeDumper
from generator.base.schema import Check, compile_schema
from generator.base.source import Pos
from generator.frontends.document import REFERENCE
from generator.ir import codec
from generator.ir.model import Extension

SCHEMA_PATH = Path(__file__).with_name("ir.schema.json")


def to_dict(extension: Extension, *, read_back: bool = False) -> dict[str, Any]:
    """The IR mapping of an extension: the keys `ir.model` declares. Of one the front half made (the pipeline's
    result), whose texts hold parameter references as `<name>`, they are made plain words; of one `read_back` from
    an IR (`ir.read`), plain already, they are written as they are (made plain again, `<<anchor>>` would lose its
    brackets one by one)."""
    return codec.encode(Extension, extension, str if read_back else plain)


def plain(text: str) -> str:
    """Text as the IR holds it: parameter references are plain words."""
    return REFERENCE.sub(r"\1", text)


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


def checked(extension: Extension, *, read_back: bool = False) -> dict[str, Any]:
    """The IR dictionary of an extension (`to_dict`), validated: what is written, and what `read.from_dict` reads
    back."""
    data = to_dict(extension, read_back=read_back)
    validate(data)
    return data


def render(extension: Extension, *, read_back: bool = False) -> str:
    """The YAML text of one extension's IR (`to_dict`), validated."""
    return yaml_text(checked(extension, read_back=read_back))


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
