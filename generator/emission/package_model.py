"""What the package's templates print: one module per extension, its functions, checks, enums, types, and the
package around them. `package.model_package` makes it from the IR; every field is computed, so the templates
only print, and every name in it has passed `naming.identifier`. Places are `path:line` strings: what the
generated code quotes.
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Literal

from generator.base.diagnostics import Location
from generator.base.knowledge import PackageConfig
from generator.base.records import frozen
from generator.emission.layout import Node
from generator.emission.sorting import dunder_all

if TYPE_CHECKING:
    from generator.emission.facades import Facade
    from generator.emission.interop import ContextConstructor, CoreProperty, InfoQuery
    from generator.emission.pythonic_model import ContextManager, PythonicFunction

ParamKind = Literal["handle", "integer", "array", "pointer", "error_out", "value"]


ResultKind = Literal["status", "handle", "none", "value"]


@frozen
class Condition:
    text: str
    source: str
    classes: tuple[str, ...] = ()  # how each of its clauses is checked: host / state / driver
    damaged: bool = False  # it cannot be read as the text meant it (the IR's `damaged`): marked, never checked

    @property
    def checked(self) -> Literal["all", "part", "none"]:
        """Whether the package checks it before the call: every clause, some, or none."""
        found = [c != "driver" for c in self.classes]
        return "all" if found and all(found) else "part" if any(found) else "none"


@frozen
class ErrorCase:
    """The conditions under which a function returns one error code."""

    name: str
    value: int
    conditions: tuple[Condition, ...]


@frozen
class ParamModel:
    name: str
    c_type: str
    kind: ParamKind
    element: str | None  # element type of an array parameter
    description: str | None
    exact: bool = False  # a pointer that must point to its own type (not any pointer)
    handle_elements: bool = False  # an array of handles (not of integers)
    count: str | None = None  # the parameter that gives this array's length
    #: What C (or the package) does where a typed pointer points: "in" reads, "out" writes; "" for a parameter
    #: that is no such pointer (a handle, an integer, a pointer only passed on). An address given as a number is
    #: proved readable or writable for it.
    access: Literal["in", "out", ""] = ""

    @property
    def declaration(self) -> str:
        return declaration(self.c_type, self.name)

    @property
    def hint(self) -> str:
        """The annotation of the Python parameter (aliases of the generated `_marshal`)."""
        return {"integer": "int", "array": "Array", "value": "object"}.get(self.kind, "Pointer")

    @property
    def nullable(self) -> bool:
        """Whether None stands for NULL here (cffi itself takes None for no pointer: the wrapper turns it)."""
        return self.kind not in ("integer", "value", "handle")


@frozen
class CheckModel:
    """A test in the wrapper: `test` holds when the call must fail.

    One test may stand for several clauses that say the same thing (a token's
    sentence and the error list often do); the error quotes them all.
    """

    kind: Literal["host", "state"]
    test: str  # a Python expression over the converted arguments (generator/emission/predicates.py)
    code: str
    value: int
    clauses: tuple[str, ...]
    conditions: tuple[Condition, ...]  # the whole condition each clause is part of
    params: tuple[str, ...]  # the parameters the clauses speak of, for the message
    keys: str | None = None  # the list parameter whose handles a state test reads (`k_<param>`)
    question: str | None = None  # a state test's predicate: acquired / released / wrapped
    tokens: str = ""  # the tokens a host test compares with, by name (`{0, CL_A, CL_B}`): the comment of its line
    expression: Node = ""  # `test` as the wrapper lays it out (`emission.layout`)


@frozen
class EffectModel:
    """What a successful call records: `objects` acquired or released, or the result wrapping a resource."""

    kind: Literal["acquire", "release", "wrap"]
    objects: str | None = None  # the array parameter
    count: str | None = None  # its length parameter
    scope: str | None = None
    resource: str | None = None
    subresource: str | None = None


@frozen
class FunctionModel:
    name: str
    pointer_type: str
    return_type: str
    result: ResultKind
    params: tuple[ParamModel, ...]
    anchor: str | None  # the parameter that leads to the platform
    anchor_kind: str | None  # platform / device / context / queue
    error_param: str | None  # the out-parameter that receives the error code
    errors: tuple[ErrorCase, ...]
    source: Location
    checks: tuple[CheckModel, ...] = ()  # host checks, then state checks, each in spec order
    effects: tuple[EffectModel, ...] = ()
    #: The lists whose handles the state checks and effects read, with their length parameters: the wrapper
    #: reads each once into `k_<list>`.
    keys: tuple[tuple[str, str], ...] = ()

    @property
    def returns_hint(self) -> str:
        return "CData" if self.returns_value else "None"

    @property
    def returns_value(self) -> bool:
        return self.result not in ("status", "none")

    @property
    def doubted(self) -> tuple[str, ...]:
        """The lists whose objects a failed call makes the tracker forget (`Tracker.doubt`): those it acquires
        or releases, whose state the driver's refusal may contradict."""
        return tuple(e.objects for e in self.effects if e.kind in ("acquire", "release") and e.objects)

    @property
    def host_checks(self) -> tuple[CheckModel, ...]:
        return tuple(c for c in self.checks if c.kind == "host")

    @property
    def state_checks(self) -> tuple[CheckModel, ...]:
        return tuple(c for c in self.checks if c.kind == "state")

    @property
    def error_out(self) -> ParamModel | None:
        """The out-parameter that receives the error code, if the function has one."""
        return next((p for p in self.params if p.name == self.error_param), None)

    @property
    def anchor_param(self) -> ParamModel | None:
        return next((p for p in self.params if p.name == self.anchor), None)

    @property
    def raw_first(self) -> bool:
        """Whether the function with the checks off hands its arguments but the anchor to cffi as they are (cffi
        refuses what it cannot take, and the wrapper then converts them): a call returning a status, whose anchor
        is a handle that leads to the platform (acquire, release: the calls of a loop)."""
        return self.result == "status" and self.anchor is not None and self.anchor_kind != "platform"

    @property
    def transit(self) -> EffectModel | None:
        """The effect of a call that `Tracker.transit` runs in one step (the wrapper's short form): a call
        returning a status, whose one state check asks what its one effect's objects must not be."""
        state = self.state_checks
        if self.result != "status" or len(self.effects) != 1 or len(state) != 1:
            return None
        effect, (check,) = self.effects[0], state
        fits = _TRANSIT_QUESTIONS.get(effect.kind) == check.question and check.keys == effect.objects
        return effect if fits else None


#: The effects `Tracker.transit` records, with the state check it makes before each.
_TRANSIT_QUESTIONS = {"acquire": "acquired", "release": "released"}


@frozen
class Member:
    name: str
    c_name: str
    value: int
    source: Location | None = None


@frozen
class EnumModel:
    class_name: str
    doc: str
    source: Location | None
    members: tuple[Member, ...]
    c_prefix: str = ""  # what the C names have before the member names
    shared: str = ""  # the module declaring it for every variant of a facade (`facades`), which imports it


@frozen
class Constant:
    c_name: str
    value: int
    enum: str | None  # the class holding it, if any
    member: str | None

    @property
    def shown(self) -> str:
        """Its value as the API pages show it beside its name: as the headers write it, and in decimal."""
        return f"0x{self.value:04X} ({self.value})" if self.value >= 0 else str(self.value)


@frozen
class TypeDecl:
    """One line of a cdef: `typedef <c_type> <name>;`, an opaque struct, or a struct with its members."""

    name: str
    c_type: str | None  # None: an opaque struct
    members: tuple[tuple[str, str], ...] = ()  # (name, type) of a struct or union the text spells out

    @property
    def declaration(self) -> str:
        """The C typedef, without its `;`."""
        if self.c_type is None:
            return f"typedef struct {self.name} {self.name}"
        if self.members:
            body = " ".join(f"{declaration(c_type, name)};" for name, c_type in self.members)
            return f"typedef {self.c_type} {{ {body} }} {self.name}"
        if "(" in self.c_type or "[" in self.c_type:  # a function pointer, an array: the name goes inside
            return f"typedef {declaration(self.c_type, self.name)}"
        return f"typedef {self.c_type} {self.name}"


@frozen
class ExtensionModule:
    module: str
    extension: str
    vendor: str
    revision: str | None
    sources: tuple[str, ...]
    types: tuple[TypeDecl, ...]
    enums: tuple[EnumModel, ...]
    constants: tuple[Constant, ...]
    functions: tuple[FunctionModel, ...]
    error_names: tuple[str, ...]  # the error codes it defines, by C name
    pythonic: tuple[PythonicFunction, ...] = ()
    context_manager: ContextManager | None = None
    #: The C types the wrappers' fast paths compare with, by the spelling the templates use, and the name of
    #: the module constant holding each (`_type_...`); the integer types' ranges (`_min_...`, `_max_...`).
    ctype_names: dict[str, str] = field(default_factory=dict)
    int_ranges: dict[str, tuple[str, str]] = field(default_factory=dict)
    context: ContextConstructor | None = None  # what the extension adds to core OpenCL (`interop`)
    queries: tuple[InfoQuery, ...] = ()

    @property
    def shared_imports(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(module, class names) of the enums it imports from the modules that declare them for a facade."""
        found: dict[str, list[str]] = {}
        for enum in self.enums:
            if enum.shared:
                found.setdefault(enum.shared, []).append(enum.class_name)
        return tuple((module, tuple(names)) for module, names in found.items())

    @property
    def error_cases(self) -> tuple[tuple[str, tuple[ErrorCase, ...]], ...]:
        """The conditions of every function whose errors the module raises: its own, then the core functions
        its constructor and queries call (with the conditions the text adds to them)."""
        found = {f.name: f.errors for f in self.functions}
        for function, errors in ([(self.context.core_function, self.context.errors)] if self.context else []) + [
                (q.core_function, q.errors) for q in self.queries]:
            found.setdefault(function, errors)
        return tuple(found.items())

    @property
    def public(self) -> tuple[str, ...]:
        """Its `__all__`: what a user of the module calls or reads (the wrappers' helpers are private), in the order
        ruff wants (RUF022)."""
        names = ["EXTENSION", "VENDOR", "REVISION", "SOURCES", "GENERATOR_VERSION", "ERROR_NAMES", "C_NAMES",
                 "ffi", "supported", "conditions"]
        names += [e.class_name for e in self.enums] + [c.c_name for c in self.constants]
        names += [f.name for f in self.functions] + [f.name for f in self.pythonic]
        if self.context_manager is not None:
            names.append(self.context_manager.name)
        if self.context is not None:
            names.append(self.context.name)
        names += [q.name for q in self.queries]
        return dunder_all(names)


@frozen
class ErrorClass:
    class_name: str
    c_name: str
    value: int
    extension: str | None  # None for core OpenCL's codes
    pyopencl_class: str  # PyOpenCL's exception class for this code (its errors are that too, with PyOpenCL imported)


@frozen
class CoreFunction:
    role: str
    name: str
    return_type: str
    params: tuple[tuple[str, str], ...]

    @property
    def declaration(self) -> str:
        return f"{self.return_type} {self.name}({', '.join(declaration(t, n) for n, t in self.params)})"


@frozen
class Mapping:
    """One extension's mapping table: key member -> members of the other columns."""

    extension: str
    module: str
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    source: str


@frozen
class MappingModule:
    """A module of lookups over mapping tables (all columns enumerations), e.g. the format tables."""

    module: str
    key: str  # key column, as the tables name it
    columns: tuple[str, ...]  # the other columns
    forward: str  # function name key -> row
    reverse: str  # function name row -> keys
    row_class: str
    key_enum: EnumModel
    column_enums: tuple[EnumModel, ...]
    tables: tuple[Mapping, ...]


@frozen
class SpecText:
    """A text the package was made from, carried in its `specs/` folder so that a citation leads somewhere."""

    source: str  # its path as the citations give it
    path: str  # its path under the package's `specs/` folder
    text: str
    digest: str = ""  # the sha256 of the text as carried (UTF-8): what a reader of the package can check


@frozen
class Package:
    config: PackageConfig
    version: str  # the generator's, with the API's digest as its local part: two APIs never share one
    extensions: tuple[ExtensionModule, ...]
    facades: tuple[Facade, ...]
    errors: tuple[ErrorClass, ...]
    core_types: tuple[TypeDecl, ...]
    core_functions: tuple[CoreFunction, ...]
    core_constants: dict[str, int]  # role -> value
    mappings: tuple[MappingModule, ...]
    calling_convention: str
    destructor_callback: str  # the C type of the callback OpenCL calls when it destroys a memory object
    texts: tuple[SpecText, ...]
    generator_version: str = ""
    platform_class: str = "Any"  # PyOpenCL's class of a platform, for what `platforms(as_pyopencl=True)` returns
    context_properties: tuple[CoreProperty, ...] = ()  # the core ones the context constructors take

    @property
    def error_class_names(self) -> tuple[str, ...]:
        """The exception classes' names in the order ruff wants `__all__` in (RUF022)."""
        return dunder_all(error.class_name for error in self.errors)


def declaration(c_type: str, name: str) -> str:
    """A C declarator: `cl_uint num`, `void ( * pfn)(int)`, `cl_uint sizes[4]`."""
    if "( * )" in c_type:
        return c_type.replace("( * )", f"( * {name})", 1)
    if " [" in c_type:
        element, _, sizes = c_type.partition(" [")
        return f"{declaration(element, name)}[{sizes.replace(' [', '[')}"
    return f"{c_type} {name}" if not c_type.endswith("*") else f"{c_type}{name}"
