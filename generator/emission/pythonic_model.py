"""What the package's templates print of an extension's Pythonic layer: each snake_case function, how it
fills each C parameter, and the context manager over an acquire/release pair (`pythonic` makes them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.base.diagnostics import Location
from generator.emission.package_model import FunctionModel, ParamModel

Role = Literal[
    "pass", "sequence", "length", "wait_list", "out_handle", "out_list", "out_capacity", "out_count", "error",
]

@dataclass(frozen=True)
class Argument:
    """How one C parameter is filled: `first` and `call` are Python expressions over identifiers only."""

    c_name: str
    role: Role
    call: str  # the argument of the (last) call
    first: str  # the argument of the sizing call of the two-call idiom
    param: ParamModel  # the C parameter it fills

    @property
    def python_name(self) -> str:
        """The Python parameter that gives it, for an input: the C name, or PyOpenCL's for a single handle."""
        return self.call if self.role == "pass" else self.c_name
    element: str | None = None  # the handle type of a list or out-handle


@dataclass(frozen=True)
class PythonicFunction:
    name: str
    target: FunctionModel  # the C function it calls
    arguments: tuple[Argument, ...]  # in C order
    inputs: tuple[str, ...]  # the Python parameters before `*`
    wait_list: str | None  # the C parameter the `wait_for` keyword fills
    two_calls: bool  # asks for the size of its out-list first
    count_type: str
    out_list: Argument | None
    out_handles: tuple[Argument, ...]
    result: str | None  # the handle type the C function returns, if it returns one to own
    source: Location
    #: The annotation of each input, by name, where it is narrower than `Any`: a parameter the text gives a
    #: token group takes the group's enum or one of its values (so `mypy` tells a swapped enum).
    hints: tuple[tuple[str, str], ...] = ()

    @property
    def input_hints(self) -> tuple[tuple[str, str], ...]:
        """(name, annotation) of each input, in order."""
        narrower = dict(self.hints)
        return tuple((name, narrower.get(name, "Any")) for name in self.inputs)

    @property
    def c_function(self) -> str:
        return self.target.name

    @property
    def input_arguments(self) -> tuple[Argument, ...]:
        """The arguments its inputs fill, in C order, for its docstring."""
        return tuple(a for a in self.arguments if a.role in ("pass", "sequence"))

    @property
    def out_count(self) -> Argument | None:
        """The out-parameter the sizing call of the two-call idiom fills with the list's length."""
        return next((a for a in self.arguments if a.role == "out_count"), None)

    @property
    def returns_handles(self) -> bool:
        return bool(self.out_list or self.out_handles or self.result)

    @property
    def shape(self) -> tuple[object, ...]:
        """What its signature is made of: two functions of one shape take and return the same."""
        return self.name, self.inputs, self.wait_list is not None, self.returns_handles, self.returns_hint

    @property
    def returns_hint(self) -> str:
        if self.out_list:
            return "list[Any]"
        if self.result or len(self.out_handles) == 1:
            return "Any"
        return "tuple[Any, ...]" if self.out_handles else "None"


@dataclass(frozen=True)
class ContextManager:
    """`acquired(queue, objects)`: acquire on entry, release on exit, from the functions' effects."""

    name: str
    acquire: PythonicFunction
    release: PythonicFunction
