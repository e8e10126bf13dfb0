"""`@frozen` behaves as `@dataclass(frozen=True)`: compared with a twin made by the standard decorator."""

from __future__ import annotations

import dataclasses
import inspect
import operator
import pickle
from dataclasses import InitVar, dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.base.records import frozen, mutable


@frozen
class Record:
    name: str
    values: tuple[int, ...] = ()
    note: str = field(default="", compare=False)
    nested: list[object] = field(default_factory=list, hash=False)


@dataclass(frozen=True)
class Twin:
    name: str
    values: tuple[int, ...] = ()
    note: str = field(default="", compare=False)
    nested: list[object] = field(default_factory=list, hash=False)


@frozen
class Child(Record):
    extra: int = 0


@frozen
class Empty:
    pass


@frozen
class Single:
    only: str


ARGUMENTS = [("a",), ("a", (1, 2)), ("a", (1, 2), "note"), ("b", (), "", [1, "x"])]


@pytest.mark.parametrize("given", ARGUMENTS)
def test_repr_is_the_dataclass_repr(given: tuple[object, ...]) -> None:
    assert repr(Record(*given)) == repr(Twin(*given)).replace("Twin(", "Record(", 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("first", ARGUMENTS)
@pytest.mark.parametrize("second", ARGUMENTS)
def test_equality_is_the_dataclass_equality(first: tuple[object, ...], second: tuple[object, ...]) -> None:
    ours = Record(*first) == Record(*second)  # type: ignore[arg-type]
    theirs = Twin(*first) == Twin(*second)  # type: ignore[arg-type]
    assert ours == theirs
    if ours and not (first[3:] or second[3:]):
        assert hash(Record(*first)) == hash(Record(*second))  # type: ignore[arg-type]


def test_the_compared_fields_alone_count() -> None:
    assert Record("a", (1,), "one note") == Record("a", (1,), "another")
    assert hash(Record("a", (1,), "one note")) == hash(Record("a", (1,), "another"))
    assert Record("a", (1,)) != Record("a", (2,))
    assert Record("a", nested=[1]) != Record("a", nested=[2])  # compared, not hashed
    assert hash(Record("a", nested=[1])) == hash(Record("a", nested=[2]))


def test_another_class_is_never_equal() -> None:
    assert Record("a") != Child("a")
    fields_alone: object = ("a", (), "", [])
    assert Record("a") != fields_alone
    assert Record("a").__eq__("a") is NotImplemented
    assert Child("a", extra=1) == Child("a", extra=1) != Child("a", extra=2)
    assert repr(Child("a", extra=1)) == "Child(name='a', values=(), note='', nested=[], extra=1)"


def test_no_fields_and_one_field() -> None:
    assert Empty() == Empty() and hash(Empty()) == hash(Empty()) and repr(Empty()) == "Empty()"
    assert Single("x") == Single("x") != Single("y")
    assert {Single("x"), Single("x")} == {Single("x")}


def test_frozen_and_a_dataclass() -> None:
    made = Record("a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del made.name
    assert dataclasses.is_dataclass(made)
    assert [f.name for f in dataclasses.fields(made)] == ["name", "values", "note", "nested"]
    assert dataclasses.replace(made, name="b") == Record("b")
    assert dataclasses.asdict(made) == {"name": "a", "values": (), "note": "", "nested": []}
    assert pickle.loads(pickle.dumps(made)) == made


def test_a_list_that_holds_itself_is_shown_as_the_dataclass_shows_it() -> None:
    nested: list[object] = []
    made = Record("a", nested=nested)
    nested.append(made)
    assert repr(made) == "Record(name='a', values=(), note='', nested=[...])"


@frozen
class Built:
    name: str
    count: int = 2
    items: list[int] = field(default_factory=list)
    derived: str = field(default="", init=False, repr=False)
    index: dict[str, int] = field(default_factory=dict, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", self.name * self.count)


@dataclass(frozen=True)
class BuiltTwin:
    name: str
    count: int = 2
    items: list[int] = field(default_factory=list)
    derived: str = field(default="", init=False, repr=False)
    index: dict[str, int] = field(default_factory=dict, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "derived", self.name * self.count)


@pytest.mark.parametrize("given", [(("a",), {}), (("a", 3), {}), (("a",), {"items": [1]}), ((), {"name": "b"})])
def test_init_sets_defaults_factories_and_runs_post_init_as_the_dataclass_does(
        given: tuple[tuple[object, ...], dict[str, object]]) -> None:
    arguments, keywords = given
    ours, theirs = Built(*arguments, **keywords), BuiltTwin(*arguments, **keywords)  # type: ignore[arg-type]
    assert vars(ours) == vars(theirs)
    assert repr(ours) == repr(theirs).replace("BuiltTwin(", "Built(", 1)
    assert Built("a").items is not Built("a").items  # a new list for each


@pytest.mark.parametrize("call", [lambda c: c(), lambda c: c("a", 1, [], "x"), lambda c: c("a", nope=1),
                                  lambda c: c("a", derived="x")])
def test_a_wrong_call_is_the_dataclass_type_error(call: object) -> None:
    with pytest.raises(TypeError) as ours:
        call(Built)  # type: ignore[operator]
    with pytest.raises(TypeError) as theirs:
        call(BuiltTwin)  # type: ignore[operator]
    assert str(ours.value) == str(theirs.value).replace("BuiltTwin", "Built")


def test_a_field_without_default_after_one_with_is_refused_as_the_dataclass_refuses_it() -> None:
    class Disordered:
        __annotations__ = {"first": "int", "second": "int"}
        first = 1

    with pytest.raises(TypeError, match="non-default argument 'second' follows default argument"):
        frozen(Disordered)


def test_the_signature_and_the_made_up_docstring() -> None:
    assert str(inspect.signature(Built)) == str(inspect.signature(BuiltTwin))
    assert Single.__doc__ == "Single(only)" and Built.__init__.__qualname__ == "Built.__init__"


def test_a_field_may_take_any_name_the_made_init_uses_inside() -> None:
    """The made `__init__` keeps its own names apart from the fields' (the setter, the sentinel, `self`)."""

    @frozen
    class Odd:
        self: int
        _set: int = 1
        _factory: int = 2
        items: list[int] = field(default_factory=list)

    made = Odd(5)
    assert (made.self, made._set, made._factory, made.items) == (5, 1, 2, [])
    assert Odd(5).items is not made.items


def test_the_made_init_belongs_to_the_module_of_its_class() -> None:
    import typing

    assert Built.__init__.__module__ == __name__
    assert typing.get_type_hints(Built.__init__)["items"] == list[int]


def test_what_the_frozen_dataclass_refuses_is_refused() -> None:
    class Setter:
        __annotations__ = {"name": "str"}

        def __setattr__(self, name: str, value: object) -> None:
            object.__setattr__(self, name, value)

    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        frozen(Setter)

    class Passed:
        __annotations__ = {"name": str, "extra": InitVar[int]}

    with pytest.raises(TypeError, match="takes no InitVar"):
        frozen(Passed)


def test_classes_of_one_shape_share_one_code_each_with_its_names_defaults_and_factories() -> None:
    @frozen
    class First:
        a: int
        b: str = "b"
        items: list[int] = field(default_factory=list)

    @frozen
    class Second:
        x: int
        y: str = "y"
        rows: dict[str, int] = field(default_factory=dict)

    assert First.__init__.__code__.co_code == Second.__init__.__code__.co_code
    assert vars(First(1)) == {"a": 1, "b": "b", "items": []}
    assert vars(Second(2, y="z")) == {"x": 2, "y": "z", "rows": {}}
    assert Second(2).rows is not Second(2).rows
    with pytest.raises(TypeError, match="unexpected keyword argument 'a'"):
        Second(a=1)  # type: ignore[call-arg]


#: A field as the records declare them: (init, what it has: nothing, a default or a factory).
_FIELDS = st.lists(st.tuples(st.booleans(), st.sampled_from(["nothing", "default", "factory"])), max_size=6)


@settings(max_examples=150, deadline=None)
@given(_FIELDS, st.booleans(), st.booleans(), st.data())
def test_any_shape_is_made_as_the_dataclass_makes_it(declared: list[tuple[bool, str]], is_frozen: bool,
                                                     positional: bool, data: st.DataObject) -> None:
    """Fields of any kinds in any order (those the dataclass takes), frozen or not: the same signature, the same
    instance from the same arguments (by keyword or by position), and the same TypeError from a refused call."""
    arguments_first = sorted(declared, key=lambda f: not (f[0] and f[1] == "nothing"))  # no default after one
    namespace: dict[str, object] = {"__annotations__": {f"f{i}": "object" for i in range(len(arguments_first))}}
    for i, (init, has) in enumerate(arguments_first):
        if has == "default":
            namespace[f"f{i}"] = field(default=i, init=init)
        elif has == "factory":
            namespace[f"f{i}"] = field(default_factory=lambda i=i: [i], init=init)  # type: ignore[misc]
        elif not init:
            namespace[f"f{i}"] = field(init=False)
    ours = (frozen if is_frozen else mutable)(type("Shape", (), dict(namespace)))
    theirs: type = dataclass(frozen=is_frozen)(type("Shape", (), dict(namespace)))
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    names = [f"f{i}" for i, (init, _) in enumerate(arguments_first) if init]
    if positional:  # the first arguments in order, perhaps more than there are
        count = data.draw(st.integers(0, len(names) + 1))
        arguments: list[str] = [f"given {i}" for i in range(count)]
        keywords: dict[str, str] = {}
    else:
        given_names = data.draw(st.lists(st.sampled_from(names), unique=True)) if names else []
        arguments, keywords = [], {name: f"given {name}" for name in given_names}
    try:
        expected = vars(theirs(*arguments, **keywords))
    except TypeError as refused_there:
        with pytest.raises(TypeError) as refused_here:
            ours(*arguments, **keywords)
        assert str(refused_here.value) == str(refused_there)
    else:
        assert vars(ours(*arguments, **keywords)) == expected


@frozen(order=True)
class Place:
    line: int
    column: int = 1
    note: str = field(default="", compare=False)


@dataclass(frozen=True, order=True)
class PlaceTwin:
    line: int
    column: int = 1
    note: str = field(default="", compare=False)


@frozen(order=True)
class Word:
    text: str


@dataclass(frozen=True, order=True)
class WordTwin:
    text: str


PLACES = [(1,), (1, 2), (2, 1), (1, 1, "x"), (0, 5)]


@pytest.mark.parametrize("first", PLACES)
@pytest.mark.parametrize("second", PLACES)
def test_an_ordered_record_compares_as_the_ordered_dataclass(first: tuple[object, ...],
                                                             second: tuple[object, ...]) -> None:
    ours, theirs = (Place(*first), Place(*second)), (PlaceTwin(*first), PlaceTwin(*second))  # type: ignore[arg-type]
    for compare in (operator.lt, operator.le, operator.gt, operator.ge):
        assert compare(*ours) == compare(*theirs)
    assert sorted([Word("b"), Word("a")]) == [Word("a"), Word("b")]
    assert (Word(first[0]) < Word(second[0])) == (WordTwin(first[0]) < WordTwin(second[0]))  # type: ignore[arg-type]


def test_an_ordered_record_is_not_ordered_against_another_class() -> None:
    with pytest.raises(TypeError) as ours:
        _ = Place(1) < Word("a")  # type: ignore[operator]
    with pytest.raises(TypeError) as theirs:
        _ = PlaceTwin(1) < WordTwin("a")  # type: ignore[operator]
    assert str(ours.value) == str(theirs.value).replace("PlaceTwin", "Place").replace("WordTwin", "Word")


def test_an_ordered_record_may_not_define_its_own_comparison() -> None:
    class Compared:
        __annotations__ = {"name": "str"}

        def __lt__(self, other: object) -> bool:
            return True

    with pytest.raises(TypeError, match="Cannot overwrite attribute __lt__"):
        frozen(order=True)(Compared)


@mutable
class Draft:
    name: str
    items: list[int] = field(default_factory=list)
    seen: set[str] = field(default_factory=set, repr=False, compare=False)


@dataclass
class DraftTwin:
    name: str
    items: list[int] = field(default_factory=list)
    seen: set[str] = field(default_factory=set, repr=False, compare=False)


def test_a_mutable_record_is_the_plain_dataclass() -> None:
    ours, theirs = Draft("a"), DraftTwin("a")
    ours.items.append(1)
    theirs.items.append(1)
    ours.name = theirs.name = "b"
    ours.seen.add("x")
    theirs.seen.add("x")
    assert vars(ours) == vars(theirs)
    assert repr(ours) == repr(theirs).replace("DraftTwin(", "Draft(", 1)
    other_class: object = DraftTwin("b", [1])
    assert ours == Draft("b", [1]) and ours != Draft("b") and ours != other_class
    assert Draft.__hash__ is None and DraftTwin.__hash__ is None
    with pytest.raises(TypeError, match="unhashable type: 'Draft'"):
        hash(ours)
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert dataclasses.replace(ours, name="c") == Draft("c", [1])


@frozen(order=True)
class Lone:
    value: object


@dataclass(frozen=True, order=True)
class LoneTwin:
    value: object


@pytest.mark.parametrize("value", [None, float("nan"), 1])
def test_a_record_of_one_field_compares_its_value_as_a_tuple_as_the_dataclass_does(value: object) -> None:
    """Two equal values that cannot be ordered (None), or a value not equal to itself (NaN): the dataclass
    compares 1-tuples, which are equal when their values are the same object."""
    for compare in (operator.eq, operator.le, operator.ge, operator.lt):
        assert compare(Lone(value), Lone(value)) == compare(LoneTwin(value), LoneTwin(value))
    assert sorted([Lone(value), Lone(value)]) == [Lone(value), Lone(value)]
    assert (Lone(value) in {Lone(value)}) == (LoneTwin(value) in {LoneTwin(value)})


def test_a_mutable_record_refuses_its_own_setattr() -> None:
    class Logged:
        __annotations__ = {"name": "str"}

        def __setattr__(self, name: str, value: object) -> None:
            object.__setattr__(self, name, value)

    with pytest.raises(TypeError, match="past its own __setattr__"):
        mutable(Logged)


def test_frozen_and_mutable_records_do_not_inherit_from_each_other() -> None:
    class FromFrozen(Record):
        pass

    class FromMutable(Draft):
        pass

    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        mutable(FromFrozen)
    with pytest.raises(TypeError, match="cannot inherit frozen dataclass from a non-frozen one"):
        frozen(FromMutable)
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        dataclass(type("Twin", (Twin,), {}))
