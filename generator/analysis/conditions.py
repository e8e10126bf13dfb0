"""Stage: the spec's error conditions read as checks, and the effects of calls on tracked state.

A condition is cut into clauses at its connectives (", or if", ", if", ", or", ","): the longest run of
pieces that `grammar/condition.lark` reads as one clause is one clause, read as the record of its form
(`clause_forms`). A clause the grammar knows becomes a predicate, either on the arguments alone (`host`) or on
what the package saw of earlier calls (`state`: objects acquired, resources already wrapped); every other
clause is for the implementation (`driver`). Each gets the reason for its class, which the coverage report
shows.

Clauses that name the functions which acquire, release or create objects ("have
previously been acquired using F but have not been released using G", "has
already been created using F") give those functions their effects on the
tracked state, so the state rules too come from the text.

Predicates are built as the typed classes of `base.predicates`, the very ones the back end reads from the
IR, so that a predicate made here cannot take a shape the IR's notation has no word for.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import assert_never

from generator.analysis.clause_forms import (
    Allowed,
    AllTests,
    BothNull,
    Comparison,
    Form,
    InvalidFlags,
    InvalidHandle,
    InvalidValue,
    Null,
    Test,
    Tracked,
    Wrapping,
    cut,
    read_clause,
)
from generator.base import integers
from generator.base.diagnostics import Sink
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.predicates import Acquired, AllOf, Compare, IsNull, MemberOf, Not, Predicate, Released, Wrapped
from generator.base.records import frozen
from generator.base.type_spelling import base_type
from generator.ir.model import Clause, Effect, ErrorCondition, Extension, Function, Param
from generator.merging.lookup import first_places

HOST = "decided by the arguments alone"
DRIVER_PROSE = "no argument value or tracked state decides it: only the implementation can tell"


@frozen
class _Named:
    """A function the clause names as the one that acquires, releases or creates, and the role it plays."""

    kind: str  # "acquire", "release", "wrap"
    function: str
    params: tuple[tuple[str, str], ...]


class _NotCheckable(Exception):
    """The clause parsed, but cannot be checked here; the message is the reason."""


def attach(extensions: list[Extension], knowledge: Knowledge, sink: Sink) -> list[Extension]:
    """The extensions, every error condition with its clauses and every function with its effects."""
    return [_Reader(extension, knowledge, sink).read() for extension in extensions]


class _Reader:
    def __init__(self, extension: Extension, knowledge: Knowledge, sink: Sink) -> None:
        self.extension = extension
        self.knowledge = knowledge
        self.sink = sink
        self.named: list[tuple[_Named, ErrorCondition]] = []

    def read(self) -> Extension:
        """The extension read: its conditions' clauses, then the effects they name."""
        functions = tuple(replace(function, errors=tuple(replace(error, check=self.clauses(function, error))
                                                         for error in function.errors)) if function.errors else function
                          for function in self.extension.functions)
        return replace(self.extension, functions=self.give_effects(functions))

    def clauses(self, function: Function, error: ErrorCondition) -> tuple[Clause, ...]:
        return tuple(self.classify(function, error, text, tree) for text, tree in cut(error.condition))

    def classify(self, function: Function, error: ErrorCondition, text: str, form: Form | None) -> Clause:
        if function.core:
            return Clause(text, "driver", f"{function.name} is core OpenCL, which this package does not wrap")
        if function.external:
            return Clause(text, "driver", f"{function.name} is a function of another extension, which this package "
                          "does not wrap")
        if error.damaged is not None:
            return Clause(text, "driver", f"not read as a check: the condition {error.damaged}")
        if form is None or isinstance(form, Allowed):
            return Clause(text, "driver", DRIVER_PROSE)
        try:
            predicate, kind, reason = self.predicate(function, form, error)
        except _NotCheckable as why:
            return Clause(text, "driver", str(why))
        return Clause(text, kind, reason, predicate)  # type: ignore[arg-type]

    # -- predicates -----------------------------------------------------------

    def predicate(self, function: Function, form: AllTests | BothNull | Tracked | Wrapping | InvalidHandle,
                  error: ErrorCondition) -> tuple[Predicate, str, str]:
        match form:
            case InvalidHandle(param, words):
                self.param(function, param)
                raise _NotCheckable(f"only the implementation knows what is valid here ({words})")
            case Tracked(objects, acquired, functions, mentioned):
                for name in (objects, *mentioned):
                    self.param(function, name)
                self.require_array(function, objects)
                self.name_effects(functions, objects, error)
                if acquired:
                    return Acquired(objects), "state", "the package tracks which objects it saw acquired"
                return Released(objects), "state", "the package tracks which objects it saw not acquired"
            case Wrapping(resource, subresource, functions):
                self.param(function, resource)
                if subresource is not None:
                    self.param(function, subresource)
                if subresource == resource:
                    raise _NotCheckable(f"speaks of <{resource}> as both the resource and its subresource")
                wrapped = Wrapped(self.scope(function), resource, subresource)
                for name in functions:
                    self.named.append((_Named("wrap", name, wrapped.roles()), error))
                return wrapped, "state", "the package tracks which resources it wrapped in each context"
            case AllTests(tests):
                parts = [self.test(function, test) for test in tests]
                return parts[0] if len(parts) == 1 else AllOf(tuple(parts)), "host", HOST
            case BothNull(params):
                for name in params:
                    self.param(function, name)
                for name in params:
                    self.require_pointer(function, name)
                return AllOf(tuple(IsNull(name) for name in params)), "host", HOST
            case _:
                assert_never(form)

    def test(self, function: Function, test: Test) -> Predicate:
        name = self.param(function, test.param)
        if isinstance(test, Null):
            self.require_pointer(function, name)
            return Not(IsNull(name)) if test.negated else IsNull(name)
        self.require_integer(function, name)
        match test:
            case Comparison(_, operator, number):
                return Compare(name, operator, _number(number))
            case InvalidValue():
                return Not(MemberOf(name, tuple(self.group_values(function, name))))
            case InvalidFlags():
                return Not(MemberOf(name, tuple(self.allowed_values(function, name))))
            case _:
                assert_never(test)

    def param(self, function: Function, name: str) -> str:
        if _param(function, name) is None:
            raise _NotCheckable(f"speaks of <{name}>, which is not a parameter of {function.name}")
        return name

    def scope(self, function: Function) -> str:
        """The handle parameter a function's objects belong to (a context): its first handle."""
        for param in function.params:
            if self.knowledge.is_handle(param.type):
                return param.name
        raise _NotCheckable(f"{function.name} has no handle parameter to keep its objects apart by")

    def require_pointer(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if "*" not in param.type and not self.knowledge.is_handle(param.type):
            raise _NotCheckable(f"speaks of <{name}> as a pointer, but it is a {param.type}")

    def require_array(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if not param.type.endswith("*") or not self.knowledge.is_handle(base_type(param.type)):
            raise _NotCheckable(f"speaks of <{name}> as a list of objects, but it is a {param.type}")

    def require_integer(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if "*" in param.type or self.knowledge.is_handle(param.type):
            raise _NotCheckable(f"speaks of <{name}> as a number, but it is a {param.type}")

    def group_values(self, function: Function, name: str) -> list[str | int]:
        groups = {g.name for g in self.extension.token_groups if function.name in g.functions and g.parameter == name}
        tokens: list[str | int] = [t.name for t in self.extension.tokens if t.group in groups]
        if not tokens:
            raise _NotCheckable(f"the text binds no tokens to <{name}>, so which values are valid is not known")
        self.require_values([str(t) for t in tokens])
        return tokens

    def require_values(self, names: list[str]) -> None:
        """A check compares with token values: every one must be given (a token named without one is not)."""
        unvalued = [n for n in names if (token := self.extension.token(n)) is not None and token.value is None]
        if unvalued:
            raise _NotCheckable(f"the text gives no value for {', '.join(unvalued)}")

    def allowed_values(self, function: Function, name: str) -> list[str | int]:
        """The names of the parameter's "Only A, B and C values ... can be used" sentence (0 too for a bit-field)."""
        param = _param(function, name)
        assert param is not None
        for sentence in re.split(r"(?<=\.)\s+", param.description or ""):
            form = read_clause(sentence)
            if not isinstance(form, Allowed):
                continue
            names = list(form.names)
            unknown = [n for n in names if self.extension.token(n) is None and n not in self.knowledge.core_constants]
            if unknown:
                raise _NotCheckable(f"the description of <{name}> allows {', '.join(unknown)}, which no text defines")
            self.require_values(names)
            zero: list[str | int] = [0] if self.is_bitfield(param.type) else []
            return zero + names
        raise _NotCheckable(f"the text does not say which values of <{name}> are valid")

    def is_bitfield(self, c_type: str) -> bool:
        seen = c_type
        while seen in self.knowledge.core_types:
            if seen == self.knowledge.bitfield_type:
                return True
            seen = self.knowledge.core_types[seen].get("c_type", "")
        return seen == self.knowledge.bitfield_type

    # -- effects --------------------------------------------------------------

    def name_effects(self, functions: tuple[str, ...], objects: str, error: ErrorCondition) -> None:
        """"acquired using F but not released using G" / "not previously acquired using F, or released using G"."""
        for kind, name in zip(("acquire", "release"), functions[:2], strict=False):
            self.named.append((_Named(kind, name, (("objects", objects),)), error))

    def give_effects(self, functions: tuple[Function, ...]) -> tuple[Function, ...]:
        """`functions`, each with the effects the conditions name it for."""
        places = first_places(functions)
        effects: dict[int, list[Effect]] = {}
        for named, error in self.named:
            place = places.get(named.function)
            function = functions[place] if place is not None else None
            if place is None or function is None or function.foreign:
                self.sink.warning(error.source, Kind.UNKNOWN_FUNCTION,
                                  f"the condition names {named.function} as the function that does this, "
                                  "but the extension defines no such function", extension=self.extension.name)
                continue
            missing = [p for _, p in named.params if _param(function, p) is None]
            if missing:
                self.sink.warning(error.source, Kind.UNKNOWN_PARAMETER,
                                  f"the condition speaks of <{missing[0]}> of {function.name}, which has no such "
                                  "parameter; its effect on tracked state is not known", extension=self.extension.name)
                continue
            if named.kind == "wrap" and not self.knowledge.is_handle(function.return_type or ""):
                self.sink.warning(error.source, Kind.WRAPS_NO_HANDLE,
                                  f"the condition names {function.name} as the function that wraps a resource, but "
                                  f"it returns `{function.return_type}`, no handle of a wrapper to record; its effect "
                                  "on tracked state is not known", extension=self.extension.name)
                continue
            given = effects.setdefault(place, list(function.effects))
            if all(e.kind != named.kind for e in given):
                given.append(Effect(named.kind, error.source, **dict(named.params)))  # type: ignore[arg-type]
        return tuple(replace(f, effects=tuple(effects[place])) if place in effects else f
                     for place, f in enumerate(functions))


def _param(function: Function, name: str) -> Param | None:
    return next((p for p in function.params if p.name == name), None)


def _number(text: str) -> int:
    if not text.isdigit():
        raise _NotCheckable(f"compares with {integers.shorten(text)}, which is not a whole number")
    try:
        return integers.value(text.lstrip("0") or "0")  # decimal, as prose writes numbers
    except integers.LiteralError as error:
        raise _NotCheckable(f"compares with a number no argument can hold: {error}") from None
