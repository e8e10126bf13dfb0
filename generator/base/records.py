"""`@frozen` and `@mutable`: the generator's dataclasses, made at a fifth of the import cost.

A `@dataclass(frozen=True)` compiles six methods for its class when its module is imported (about 0.1 ms each
on CPython 3.11, ten with `order=True`); the generator has some 150 such classes. `@frozen` is that dataclass
with one method of its own, its `__init__` (setting each field past the refusal, as the dataclass's does),
whose code is compiled once for every class of the same shape (the kinds of its fields in order: 28 shapes
for 147 classes), and the others shared by every class: equality, hash, order (`@frozen(order=True)`)
and repr reading the fields through a C `attrgetter` made once per class, and a `__setattr__`/`__delattr__`
that refuse with `FrozenInstanceError`. `@mutable` is the plain `@dataclass` made the same way (the drafts the
stages fill in). They behave as the compiled ones: equal when of the same class with equal compared fields,
ordered and hashed on them, shown as `Name(field=value, ...)`. `dataclasses.fields`, `replace` and `asdict`
work as on any dataclass.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, InitVar, dataclass, field, fields
from functools import cache
from operator import attrgetter, ge, gt, le, lt
from reprlib import recursive_repr
from types import CellType, CodeType, FunctionType
from typing import Any, TypeVar, cast, dataclass_transform, overload

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
    """The fields' values as a tuple, as the dataclass compares and hashes them (a lone value is not a 1-tuple:
    two NaNs, or two Nones ordered, would not compare as two equal tuples do)."""
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda record: (get(record),)
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
    factory called when its argument is not given, `__post_init__` last; a function of the class's module. Its
    code is that of the class's shape (`_shape_code`, compiled once for all the classes of that shape) with the
    fields' names put in; the defaults are its argument defaults, the factories and the setter its closure."""
    kinds: list[str] = []
    names: list[str] = []
    defaults: list[object] = []
    values: list[object] = []
    for f in every:
        if f.kw_only:
            raise TypeError(f"{cls.__qualname__}.{f.name}: a record takes no keyword-only field")
        has_default, has_factory = f.default is not MISSING, f.default_factory is not MISSING
        if f.init and not (has_default or has_factory):
            if defaults:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            kind = "argument"
        elif f.init:  # the default is the function's, not its code's: such a field is an argument as any other
            kind = "argument" if has_default else "factory"
            defaults.append(f.default if has_default else _FACTORY)
        elif has_factory:
            kind = "made"
        else:
            continue  # not an argument: a default is the class's attribute, as the dataclass leaves it
        if kind in _FROM_CLOSURE:
            values.append(f.default_factory)
        kinds.append(kind)
        names.append(f.name)
    code = _shape_code(tuple(kinds), hasattr(cls, "__post_init__"))
    placed = {f"__record_{part}_{i}__": name for i, name in enumerate(names) for part in ("arg", "name")}
    code = code.replace(co_varnames=tuple(placed.get(v, v) for v in code.co_varnames),
                        co_consts=tuple(placed.get(c, c) if isinstance(c, str) else c for c in code.co_consts))
    cells = dict(zip(_closure_names(len(values)), [object.__setattr__, _FACTORY, *values], strict=True))
    module = sys.modules[cls.__module__].__dict__ if cls.__module__ in sys.modules else {}
    init = cast(Callable[..., None], FunctionType(code, module, "__init__", tuple(defaults) or None,
                                                  tuple(CellType(cells[name]) for name in code.co_freevars)))
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in every if f.init} | {"return": None}
    return init


#: The kinds of field whose factory the `__init__` takes from its closure: an argument that has one, and a field
#: that is no argument ("made").
_FROM_CLOSURE = ("factory", "made")


def _closure_names(values: int) -> list[str]:
    return ["__record_set__", "__record_factory__", *(f"__record_value_{i}__" for i in range(values))]


@cache
def _shape_code(kinds: tuple[str, ...], post_init: bool) -> CodeType:
    """The code of an `__init__` whose fields are of `kinds` in that order: its i-th argument is
    `__record_arg_i__`, set under the name `"__record_name_i__"` (`_init` puts in the class's names)."""
    params, lines, values = ["__record_self__"], [], 0
    for i, kind in enumerate(kinds):
        arg, value = f"__record_arg_{i}__", ""
        if kind in _FROM_CLOSURE:
            value, values = f"__record_value_{values}__", values + 1
        if kind in ("argument", "factory"):
            params.append(arg)
        expression = {"argument": arg, "factory": f"{value}() if {arg} is __record_factory__ else {arg}",
                      "made": f"{value}()"}[kind]
        lines.append(f"__record_set__(__record_self__, '__record_name_{i}__', {expression})")
    if post_init:
        lines.append("__record_self__.__post_init__()")
    body = "\n        ".join(lines or ["pass"])
    source = (f"def __record_make__({', '.join(_closure_names(values))}):\n"
              f"    def __init__({', '.join(params)}):\n        {body}\n    return __init__")
    made: dict[str, Any] = {}
    exec(source, {}, made)
    return next(c for c in made["__record_make__"].__code__.co_consts if isinstance(c, CodeType))


def _ordering(compare: Callable[[Any, Any], Any]) -> Callable[[Any, Any], object]:
    """`__lt__` (and the others) of an ordered record: `compare` of the compared fields, within one class."""

    def method(self: Any, other: Any) -> object:
        if other.__class__ is self.__class__:
            compared = self.__record_keys__[0]
            return compare(compared(self), compared(other))
        return NotImplemented

    method.__name__ = method.__qualname__ = f"__{compare.__name__}__"
    return method


_ORDER = {f"__{compare.__name__}__": _ordering(compare) for compare in (lt, le, gt, ge)}


@overload
def frozen(cls: _Class, /) -> _Class: ...
@overload
def frozen(*, order: bool = False) -> Callable[[_Class], _Class]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: _Class | None = None, /, *, order: bool = False) -> _Class | Callable[[_Class], _Class]:
    """`cls` as a frozen dataclass (see above), ordered by its compared fields with `order=True`; a class that
    defines its own `__init__`, equality, hash or repr keeps it; one that defines `__setattr__` or `__delattr__`
    (or, ordered, a comparison) is refused, as by the dataclass. Keyword-only fields and `InitVar`s are refused
    (no record has one)."""
    if cls is None:
        return lambda cls: _record(cls, frozen=True, order=order)
    return _record(cls, frozen=True, order=order)


@dataclass_transform(field_specifiers=(field,))
def mutable(cls: _Class) -> _Class:
    """`cls` as a plain (mutable) dataclass, made as `frozen` makes its records: equal as the dataclass, and
    unhashable as it is, unless it defines its own `__hash__`. For the drafts the stages fill in."""
    return _record(cls, frozen=False, order=False)


#: Whether a record class is frozen: a frozen record's base or subclass is frozen too, as with the dataclass.
_FROZEN = "__record_frozen__"


def _record(cls: _Class, *, frozen: bool, order: bool) -> _Class:
    own = {name for name in ("__init__", "__eq__", "__hash__", "__repr__") if cls.__dict__.get(name) is not None}
    refused = [*(("__setattr__", "__delattr__") if frozen else ()), *(_ORDER if order else ())]
    for name in refused:
        if name in cls.__dict__:  # as the dataclass refuses it
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    if not frozen and "__setattr__" in cls.__dict__:  # the dataclass's __init__ would go through it; this one not
        raise TypeError(f"{cls.__qualname__}: a @mutable record sets its fields past its own __setattr__")
    for base in cls.__mro__[1:]:
        if _FROZEN in base.__dict__ and base.__dict__[_FROZEN] != frozen:
            raise TypeError(f"cannot inherit {'' if frozen else 'non-'}frozen dataclass from a "
                            f"{'non-' if frozen else ''}frozen one")
    undocumented = cls.__doc__ is None
    if undocumented:
        cls.__doc__ = cls.__name__  # else the dataclass would make one through `inspect.signature`, slowly
    dataclass(init=False, eq=False, repr=False)(cls)  # the fields alone, on `cls` itself (no slots)
    every = fields(cls)
    passed_only = [f.name for f in cls.__dataclass_fields__.values() if f not in every and (  # type: ignore[attr-defined]
        isinstance(f.type, InitVar) or "InitVar" in str(f.type))]
    if passed_only:
        raise TypeError(f"{cls.__qualname__}.{passed_only[0]}: a record takes no InitVar")
    if undocumented:
        cls.__doc__ = f"{cls.__name__}({', '.join(f.name for f in every)})"
    compared = [f.name for f in every if f.compare]
    hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
    setattr(cls, _KEYS, (_getter(compared), _getter(hashed)))
    setattr(cls, _FROZEN, frozen)
    shared: dict[str, object] = {"__init__": _init(cls, every) if "__init__" not in own else None, "__eq__": _eq,
                                 "__hash__": _hash if frozen else None, "__repr__": _repr}
    if frozen:
        shared |= {"__setattr__": _setattr, "__delattr__": _delattr}
    if order:
        shared |= _ORDER
    for name, method in shared.items():
        if name not in own:
            setattr(cls, name, method)
    return cls
