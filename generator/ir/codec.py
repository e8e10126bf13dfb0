"""The IR's YAML form, read off the records of `ir.model`: each field is a key, in field order.

A record says how its fields are written in the metadata of their `dataclasses.field`, made by `ir`:
another key, when the key is left out, the key of its kept column, the plain form of a text. The
rest follows the field's type: a `Location` is `path:line`, a tuple a list, a record a mapping, a mapping
is written in key order. So a new field of the IR is declared once, in its record, and the schema
(`ir.schema.json`, checked against the records by `tests/ir/test_codec.py`).

`encode` writes a record, its texts made what the IR holds by the function it is given (`ir.files.to_dict` says
which); `decode` trusts its input to be schema-valid.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, cast

from generator.base.diagnostics import Location
from generator.base.source import Pos

#: When a field's key is left out: given the value and the object it belongs to.
Omit = Callable[[Any, Any], bool]


def if_none(value: Any, owner: Any) -> bool:
    return value is None


def if_empty(value: Any, owner: Any) -> bool:
    return not value


def if_false(value: Any, owner: Any) -> bool:
    return value is False


def ir(
    *,
    key: str | None = None,
    omit: Omit | None = None,
    column: str | None = None,
    plain: bool = False,
    pairs: tuple[str, str] | None = None,
    order: Callable[[Any], Any] | None = None,
    convert: tuple[Callable[[Any], Any], Callable[[Any], Any]] | None = None,
) -> dict[str, Any]:
    """How the IR writes a record's field: the `metadata` of its `dataclasses.field`.

    `key`: the YAML key (the field's name else). `omit`: when the key is left out (read back as the default).
    `column`: the key of the column a `Location` (or each of a tuple of them) keeps, written when one does.
    `plain`: texts written with parameter references as plain words. `pairs`: the two keys of each (a, b)
    of a tuple of pairs. `order`: the sort key of a tuple's items as written. `convert`: (write, read) of each
    value, or of each item of a tuple, for a type the IR does not declare.
    """
    return {"ir": Written(key, omit, column, plain, pairs, order, convert)}


@dataclasses.dataclass(frozen=True)
class Written:
    """How the IR writes a field (`ir`'s arguments)."""

    key: str | None = None
    omit: Omit | None = None
    column: str | None = None
    plain: bool = False
    pairs: tuple[str, str] | None = None
    order: Callable[[Any], Any] | None = None
    convert: tuple[Callable[[Any], Any], Callable[[Any], Any]] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Key(Written):
    """One field of a record as the IR writes it: how (`Written`), and what the record says of it."""

    key: str  # the YAML key, always known here
    name: str  # the field's
    kind: Any  # the field's type, resolved
    default: Any  # what a mapping without the key reads as


@cache
def keys(record: type) -> tuple[Key, ...]:
    """The keys of a record's IR form, in the order they are written."""
    hints = typing.get_type_hints(record)
    found = []
    for f in dataclasses.fields(record):
        if not f.init or f.name.startswith("_"):
            continue
        how: Written = f.metadata.get("ir", Written())
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        factory = cast("Callable[[], Any]", f.default_factory)
        default = (_empty(hints[f.name]) if required
                   else f.default if f.default is not dataclasses.MISSING else factory())
        found.append(Key(**{**vars(how), "key": how.key or f.name}, name=f.name, kind=hints[f.name], default=default))
    return tuple(found)


def _empty(kind: Any) -> Any:
    """What a field with no default reads as when its key is left out (the schema allows it, or the record's
    `omit` leaves it out): an empty tuple or mapping, or None for an optional field; else it has no such value
    (`tests/ir/test_codec.py` holds the schema to require such a key)."""
    origin = typing.get_origin(kind)
    if origin is tuple:
        return ()
    if origin is dict:
        return {}
    if origin in (types.UnionType, typing.Union) and type(None) in typing.get_args(kind):
        return None
    return _NO_VALUE


#: The default of a key the IR cannot leave out.
_NO_VALUE = object()


# -- writing ----------------------------------------------------------------


def encode(record: type, item: Any, texts: Callable[[str], str] = str) -> dict[str, Any]:
    """The IR mapping of `item`, a `record`; `texts` makes each text of a field marked `plain` what the IR holds
    (the front half's parameter references made words: `ir.files.plain`)."""
    entry: dict[str, Any] = {}
    for key in keys(record):
        value = getattr(item, key.name)
        if key.omit is not None and key.omit(value, item):
            continue
        entry[key.key] = _value(key, key.kind, value, texts)
        if key.column is not None:
            entry |= _columns(key.column, value)
    return entry


def _columns(name: str, value: Location | tuple[Location, ...] | list[Location] | None) -> dict[str, Any]:
    if isinstance(value, Location):
        return {name: value.kept_column} if value.kept_column is not None else {}
    places = value or ()
    return {name: [w.pos.column for w in places]} if any(w.kept_column is not None for w in places) else {}


def _value(key: Key, kind: Any, value: Any, texts: Callable[[str], str]) -> Any:
    if value is None:
        return None
    form, inner = _shape(kind)
    if key.convert is not None and form != "tuple":
        return key.convert[0](value)
    if form == "location":
        return str(value)
    if form == "record":
        return encode(inner, value, texts)
    if form == "tuple":
        items = sorted(value, key=key.order) if key.order is not None else value
        if key.pairs is not None:
            return [dict(zip(key.pairs, pair, strict=True)) for pair in items]
        if key.convert is not None:
            return [key.convert[0](v) for v in items]
        return [_value(key, inner, v, texts) for v in items]
    if form == "dict":
        return dict(sorted(value.items()))
    return texts(value) if key.plain and isinstance(value, str) else value


Form = Literal["location", "record", "tuple", "dict", "value"]


@cache
def _shape(kind: Any) -> tuple[Form, Any]:
    """How a value of a field's type is written, and the type of its items (of a record: the record)."""
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        kept = [a for a in typing.get_args(kind) if a is not type(None)]
        if len(kept) == 1:
            return _shape(kept[0])
    if kind is Location:
        return "location", kind
    if dataclasses.is_dataclass(kind):
        return "record", kind
    if origin is tuple:
        return "tuple", typing.get_args(kind)[0]
    if origin is dict:
        return "dict", kind
    return "value", kind


def not_none(kind: Any) -> Any:
    """`X` of `X | None`: what a value that is not None is (a record, for a record's field)."""
    form, inner = _shape(kind)
    return inner if form == "record" else kind


# -- reading ----------------------------------------------------------------


def decode(record: type, data: Mapping[str, Any]) -> Any:
    """The `record` of a schema-valid IR mapping; a key left out takes the field's default."""
    values = {}
    for key in keys(record):
        if key.key not in data:
            if key.default is _NO_VALUE:
                raise KeyError(f"{record.__name__}: the IR has no {key.key!r}, which it cannot leave out")
            values[key.name] = key.default
            continue
        value = _read(key, key.kind, data[key.key])
        if key.column is not None and key.column in data:
            value = _at_columns(value, data[key.column])
        values[key.name] = value
    return record(**values)


def _at_columns(value: Location | tuple[Location, ...], columns: int | list[int]) -> Any:
    if isinstance(value, Location):
        assert isinstance(columns, int)
        return at_column(value, columns)
    assert isinstance(columns, list)
    return tuple(at_column(w, columns[i]) if i < len(columns) else w for i, w in enumerate(value))


def at_column(where: Location, column: int) -> Location:
    return Location(where.path, Pos(where.pos.line, column))


def _read(key: Key, kind: Any, value: Any) -> Any:
    if value is None:
        return None
    form, inner = _shape(kind)
    if key.convert is not None and form != "tuple":
        return key.convert[1](value)
    if form == "location":
        return place(value)
    if form == "record":
        return decode(inner, value)
    if form == "tuple":
        if key.pairs is not None:
            return tuple((entry[key.pairs[0]], entry[key.pairs[1]]) for entry in value)
        if key.convert is not None:
            return tuple(key.convert[1](v) for v in value)
        return tuple(_read(key, inner, v) for v in value)
    if form == "dict":
        return dict(value)
    return value


def place(text: str) -> Location:
    """`path:line`, the IR's form of a place (the column is not kept: 1)."""
    path, _, line = text.rpartition(":")
    return Location(path, Pos(int(line), 1))


def precise_place(text: str) -> Location:
    """`path:line:column`, a diagnostic's related places."""
    path, _, column = text.rpartition(":")
    return at_column(place(path), int(column))
