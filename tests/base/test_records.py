"""`@frozen` and `@mutable` are the standard library's dataclasses, frozen (and ordered) or not."""

from __future__ import annotations

import dataclasses

import pytest

from generator.base.records import frozen, mutable


@frozen
class Record:
    name: str
    values: tuple[int, ...] = ()
    note: str = dataclasses.field(default="", compare=False)


@frozen(order=True)
class Ordered:
    name: str
    rank: int = 0


@mutable
class Draft:
    name: str
    items: list[str] = dataclasses.field(default_factory=list)


def test_a_frozen_record_is_a_frozen_dataclass() -> None:
    record = Record("a", (1, 2), "said")
    assert dataclasses.is_dataclass(record) and record == Record("a", (1, 2))
    assert hash(record) == hash(Record("a", (1, 2)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.name = "b"  # type: ignore[misc]
    assert dataclasses.replace(record, name="b") == Record("b", (1, 2))
    assert repr(record) == "Record(name='a', values=(1, 2), note='said')"


def test_an_ordered_record_orders_by_its_fields() -> None:
    assert sorted([Ordered("b"), Ordered("a", 2), Ordered("a", 1)]) == [Ordered("a", 1), Ordered("a", 2), Ordered("b")]
    with pytest.raises(TypeError):
        _ = Record("a") < Record("b")  # type: ignore[operator]


def test_a_mutable_record_is_a_plain_dataclass() -> None:
    draft = Draft("a")
    draft.items.append("x")
    draft.name = "b"
    assert draft == Draft("b", ["x"]) and Draft("c").items == []
    with pytest.raises(TypeError):
        hash(draft)
