"""`@frozen`: the generator's frozen dataclasses, made at a third of the import cost.

A `@dataclass(frozen=True)` compiles six methods for its class when its module is imported (about 0.1 ms each
on CPython 3.11); the generator has over a hundred such classes. `@frozen` is that dataclass with one compiled
method, its `__init__` (setting each field past the refusal, as the dataclass's does), and the others shared
by every class: equality, hash and repr reading the fields through a C `attrgetter` made once per class, and a
`__setattr__`/`__delattr__` that refuse with `FrozenInstanceError`. They behave as the compiled ones: equal
when of the same class with equal compared fields, hashed on them, shown as `Name(field=value, ...)`.
`dataclasses.fields`, `replace` and `asdict` work as on any dataclass.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, InitVar, dataclass, field, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar, cast, dataclass_transform

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


class _Factory:
    """The default of an argument whose field has a default factory: not given, the factory makes the value."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _setattr(self: Any, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _init(cls: type, every: tuple[Field[Any], ...]) -> Callable[..., None]:
    """The `__init__` the frozen dataclass would compile: each field set with `object.__setattr__`, a default
    factory called when its argument is not given, `__post_init__` last. Made as the dataclass makes it: a
    function in the class's module (so that its annotations resolve there), the defaults, factories and the
    setter under names of the form `__record_...__`, which no record's field takes."""
    scope: dict[str, object] = {"__record_set__": object.__setattr__, "__record_factory__": _FACTORY}
    params, lines = ["__record_self__"], []
    for f in every:
        if f.kw_only:
            raise TypeError(f"{cls.__qualname__}.{f.name}: @frozen takes no keyword-only field")
        default = factory = ""
        if f.default is not MISSING:
            scope[default := f"__record_default_{f.name}__"] = f.default
        elif f.default_factory is not MISSING:
            scope[factory := f"__record_factory_{f.name}__"] = f.default_factory
        if f.init:
            if not (default or factory) and "=" in params[-1]:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            params.append(f"{f.name}={default or '__record_factory__'}" if default or factory else f.name)
            value = f"{factory}() if {f.name} is __record_factory__ else {f.name}" if factory else f.name
        elif default or factory:
            value = default or f"{factory}()"
        else:
            continue  # not an argument and nothing to set: left unset, as the dataclass leaves it
        lines.append(f"__record_set__(__record_self__, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append("__record_self__.__post_init__()")
    body = "\n        ".join(lines or ["pass"])
    source = (f"def __record_make__({', '.join(scope)}):\n    def __init__({', '.join(params)}):\n        {body}\n"
              "    return __init__")
    made: dict[str, Any] = {}
    exec(source, sys.modules[cls.__module__].__dict__ if cls.__module__ in sys.modules else {}, made)
    init = cast(Callable[..., None], made["__record_make__"](**scope))
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in every if f.init} | {"return": None}
    return init


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: _Class) -> _Class:
    """`cls` as a frozen dataclass (see above); a class that defines its own `__init__`, equality, hash or repr
    keeps it; one that defines `__setattr__` or `__delattr__` is refused, as by the dataclass. Keyword-only fields
    and `InitVar`s are refused (no record has one)."""
    own = {name for name in ("__init__", "__eq__", "__hash__", "__repr__") if cls.__dict__.get(name) is not None}
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:  # as the frozen dataclass refuses it
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    undocumented = cls.__doc__ is None
    if undocumented:
        cls.__doc__ = cls.__name__  # else the dataclass would make one through `inspect.signature`, slowly
    dataclass(init=False, eq=False, repr=False)(cls)  # the fields alone, on `cls` itself (no slots)
    every = fields(cls)
    passed_only = [f.name for f in cls.__dataclass_fields__.values() if f not in every and (  # type: ignore[attr-defined]
        isinstance(f.type, InitVar) or "InitVar" in str(f.type))]
    if passed_only:
        raise TypeError(f"{cls.__qualname__}.{passed_only[0]}: @frozen takes no InitVar")
    if undocumented:
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in every)})"
    compared = [f.name for f in every if f.compare]
    hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
    setattr(cls, _KEYS, (_getter(compared), _getter(hashed)))
    shared = {"__init__": _init(cls, every) if "__init__" not in own else None, "__eq__": _eq, "__hash__": _hash,
              "__repr__": _repr, "__setattr__": _setattr, "__delattr__": _delattr}
    for name, method in shared.items():
        if name not in own:
            setattr(cls, name, method)
    return cls
