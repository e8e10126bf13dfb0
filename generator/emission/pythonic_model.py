"""What the package's templates print of an extension's Pythonic layer: each snake_case function, how it
fills each C parameter, and the context manager over an acquire/release pair (`pythonic` makes them)."""

from __future__ import annotations

from typing import Literal

from generator.base.diagnostics import Location
from generator.base.records import frozen
from generator.emission.package_model import FunctionModel, ParamModel

Role = Literal[
    "pass", "sequence", "length", "wait_list", "out_handle", "out_list", "out_capacity", "out_count", "error",
]

@frozen
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


@frozen
class EnumHint:
    """An input the text gives a token group: it takes the group's enum or one of its values, so that a type
    checker tells a swapped enum (`enum`: the class, `values`: its members' values)."""

    name: str
    enum: str
    values: tuple[int, ...]

    def annotation(self, module: str = "") -> str:
        """`D3DDeviceSource | Literal[16409, 16410]`; the class through `module` where its name is taken (inside
        the protocol whose property bears it)."""
        qualified = f"{module}.{self.enum}" if module else self.enum
        return f"{qualified} | Literal[{', '.join(str(v) for v in self.values)}]"


@frozen
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
    #: The inputs the text gives a token group (narrower than their C parameters' annotations).
    hints: tuple[EnumHint, ...] = ()
    #: What it returns with `as_pyopencl=True`: the PyOpenCL class of each handle (`pyopencl.Context`).
    pyopencl_returns: str = "Any"

    @property
    def input_hints(self) -> tuple[tuple[str, str], ...]:
        """(name, annotation) of each input, in order: a handle or pointer takes what `_marshal.Pointer` names, a
        list of them a sequence of those, an integer an int."""
        narrower = {hint.name: hint.annotation() for hint in self.hints}
        return tuple((name, narrower.get(name, plain)) for name, plain in self.plain_hints)

    @property
    def plain_hints(self) -> tuple[tuple[str, str], ...]:
        """(name, annotation) of each input as its C parameter's kind alone makes it, token groups aside."""
        given = {a.python_name: "Sequence[Pointer]" if a.role == "sequence" else a.param.hint
                 for a in self.input_arguments}
        return tuple((name, given.get(name, "Any")) for name in self.inputs)

    @property
    def takes_lists(self) -> bool:
        """Whether it turns Python lists into C arrays itself: then it has its own version with the checks off
        (the others only call the C function, whichever version is bound)."""
        return any(a.role in ("sequence", "wait_list") for a in self.arguments)

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
    def takes_platform(self) -> bool:
        """No handle of its C function leads to a platform: like it, it takes `platform` by keyword."""
        return self.target.anchor is None

    @property
    def shape(self) -> tuple[object, ...]:
        """What its signature is made of: two functions of one shape take and return the same."""
        return (self.name, self.inputs, self.wait_list is not None, self.takes_platform, self.returns_handles,
                self.returns_hint, self.pyopencl_returns)

    @property
    def returns_hint(self) -> str:
        """What it returns (cffi handles: `CData`)."""
        if self.out_list:
            return "list[CData]"
        if self.result or len(self.out_handles) == 1:
            return "CData"
        return "tuple[CData, ...]" if self.out_handles else "None"

    @property
    def implementation_hint(self) -> str:
        """What the function itself is annotated to return: either kind of handle, where it returns any."""
        return f"{self.returns_hint} | {self.pyopencl_returns}" if self.returns_handles else self.returns_hint

    @property
    def overloads(self) -> tuple[tuple[str, str], ...]:
        """(`as_pyopencl` annotation, return annotation) of each `@overload`: the type checker tells cffi handles
        from PyOpenCL objects by the flag's literal."""
        return flag_overloads(self.returns_hint, self.pyopencl_returns) if self.returns_handles else ()


def flag_overloads(cffi: str, pyopencl: str) -> tuple[tuple[str, str], ...]:
    """(`as_pyopencl` annotation, return annotation) of the three `@overload`s of a function returning handles:
    cffi handles for `False`, PyOpenCL objects for `True`, either for a `bool` only known at run time."""
    return (("Literal[False] = False", cffi), ("Literal[True]", pyopencl), ("bool = False", f"{cffi} | {pyopencl}"))


@frozen
class ContextManager:
    """`acquired(queue, objects)`: acquire on entry, release on exit, from the functions' effects."""

    name: str
    acquire: PythonicFunction
    release: PythonicFunction
