"""`@frozen`: the generator's frozen dataclasses, made at less than half the import cost.

A `@dataclass(frozen=True)` compiles six methods for its class when its module is imported (about 0.6 ms on
CPython 3.11); the generator has over a hundred such classes, a fifth of a run's imports. `@frozen` is that
dataclass with equality, hash and repr that every class shares (`_eq`, `_hash`, `_repr`, reading the fields
through a C `attrgetter` made once per class), which behave as the compiled ones: equal when of the same class
with equal compared fields, hashed on them, shown as `Name(field=value, ...)`. `dataclasses.fields`, `replace`
and `asdict` work as on any dataclass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, dataclass_transform

_Class = TypeVar("_Class", bound=type)
_KEYS = "__record_keys__"


def _no_fields(value: object) -> tuple[()]:
    return ()


def _eq(self: Any, other: Any) -> object:
    if other.__class__ is self.__class__:
        compared = self.__record_keys__[0]
        return bool(compared(self) == compared(other))
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__record_keys__[1](self))


@recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{self.__class__.__qualname__}({shown})"


def _getter(names: list[str]) -> Callable[[object], object]:
    return attrgetter(*names) if names else _no_fields


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: _Class) -> _Class:
    """`cls` as a frozen dataclass (see above); a class that defines its own equality, hash or repr keeps it."""
    own = {name for name in ("__eq__", "__hash__", "__repr__") if cls.__dict__.get(name) is not None}
    dataclass(frozen=True, eq=False, repr=False)(cls)  # adds to `cls` itself (no slots)
    compared = [f.name for f in fields(cls) if f.compare]
    hashed = [f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash)]
    setattr(cls, _KEYS, (_getter(compared), _getter(hashed)))
    for name, shared in (("__eq__", _eq), ("__hash__", _hash), ("__repr__", _repr)):
        if name not in own:
            setattr(cls, name, shared)
    return cls
