"""`@frozen` and `@mutable`: the generator's records, which are the standard library's dataclasses.

`@frozen` is `@dataclass(frozen=True)` (ordered by its compared fields with `@frozen(order=True)`): the facts,
IR and models that one stage makes and the next only reads. `@mutable` is the plain `@dataclass`: the working
state a stage fills in (a run's result, what a reading gathers), never a record of the IR. Two names instead of
the decorator's arguments at every class say at its head which of the two a record is; `dataclasses.fields`,
`replace` and `asdict` work on both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar, cast, dataclass_transform, overload

_Class = TypeVar("_Class", bound=type)


@overload
def frozen(cls: _Class, /) -> _Class: ...
@overload
def frozen(*, order: bool = False) -> Callable[[_Class], _Class]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen(cls: _Class | None = None, /, *, order: bool = False) -> _Class | Callable[[_Class], _Class]:
    """`cls` as a frozen dataclass, ordered by its compared fields with `order=True`."""
    make = cast("Callable[[_Class], _Class]", dataclass(frozen=True, order=order))
    return make if cls is None else make(cls)


@dataclass_transform(field_specifiers=(field,))
def mutable(cls: _Class) -> _Class:
    """`cls` as a plain (mutable) dataclass."""
    return cast(_Class, dataclass(cls))
