"""What an extension adds to core OpenCL, as the package offers it: a context constructor taking the
properties the text says context creation accepts, and one query per token the text says a core info
function accepts as `param_name`.

Everything comes from the IR: the token groups name the core functions that accept their tokens; the table
of the same name gives each token's value type (its `type` column); the conditions the text adds to those
core functions are the errors' conditions. Which core functions play which role, and their prototypes, come
from the data files. A table row naming no token of the IR stands for the group's token at its place when the
table and the group are the same length (a text that misnames the token in its table).
"""

from __future__ import annotations

from typing import Literal

from generator.base import naming, phrases
from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.knowledge import Knowledge, PackageConfig
from generator.base.records import frozen
from generator.emission.functions import model_error_cases
from generator.emission.package_model import ErrorCase
from generator.emission.pythonic import pyopencl_class
from generator.emission.pythonic_model import flag_overloads
from generator.ir.model import Extension, Function, Table, Token, TokenGroup
from generator.ir.values import integer_range, type_map


@frozen
class ContextProperty:
    keyword: str  # the constructor's keyword for it
    token: str  # its C name, a constant of the module
    c_type: str  # the C type of its value, as the text's table gives it


@frozen
class CoreProperty:
    """A core context property the constructor's `properties=` takes (`data/package.yaml`)."""

    c_name: str
    value: int
    c_type: str  # the C type of its value
    kind: Literal["bool", "int"]
    low: int  # the values its C type holds
    high: int

    @property
    def hint(self) -> str:
        return self.kind


@frozen
class ContextConstructor:
    """`create_context(devices, *, <property>=None, as_pyopencl=False)`."""

    name: str
    core_function: str  # the core function it calls
    properties: tuple[ContextProperty, ...]
    errors: tuple[ErrorCase, ...]  # the conditions the text adds to the core function
    source: Location
    pyopencl_class: str = "Any"  # what it returns with `as_pyopencl=True`
    core_properties: tuple[CoreProperty, ...] = ()  # what `properties=` may hold

    @property
    def properties_hint(self) -> str:
        """The annotation of `properties=`: a mapping of the core properties' values to their values' types."""
        kinds = sorted({p.hint for p in self.core_properties}) or ["int"]
        return f"Mapping[int, {' | '.join(kinds)}] | None"

    @property
    def overloads(self) -> tuple[tuple[str, str], ...]:
        return flag_overloads("CData", self.pyopencl_class)


@frozen
class InfoQuery:
    """`<name>(handle)`: the core info function asked for one token, its answer as Python has it."""

    name: str
    core_function: str
    token: str
    handle: str  # the core function's handle parameter
    handle_type: str
    c_type: str  # the answer's C type, as the text's table gives it
    truth: bool  # an answer of the bool type: a Python bool
    errors: tuple[ErrorCase, ...]
    source: Location
    hint: str = "Any"  # the answer's annotation: `bool`, `int` for an integer type, `CData` for any other

    @property
    def answer(self) -> str:
        """The expression the query returns, over the cffi cell `found` the core function wrote."""
        return f"{self.hint}(found[0])" if self.hint in ("bool", "int") else "found[0]"

def model_core_properties(knowledge: Knowledge, config: PackageConfig) -> tuple[CoreProperty, ...]:
    """The core context properties of `data/package.yaml`, with their values from the core headers."""
    found = []
    types = {name: None if entry["kind"] == "handle" else str(entry["c_type"])
             for name, entry in knowledge.core_types.items()}
    for name, c_type in config.pythonic.context_properties.items():
        held = integer_range(c_type, types)
        if held is None:
            raise InputError("data/package.yaml", None, f"pythonic: context_constructor: properties: {name}: "
                             f"{c_type!r} is no integer type the data files know")
        kind: Literal["bool", "int"] = "bool" if c_type == config.pythonic.bool_type else "int"
        found.append(CoreProperty(name, int(knowledge.core_constants[name]["value"]), c_type, kind, *held))
    return tuple(found)


def model_context_constructor(
    ir: Extension, values: dict[str, int], config: PackageConfig, core_properties: tuple[CoreProperty, ...] = (),
) -> ContextConstructor | None:
    """The constructor, when the text says context creation accepts some of its tokens as properties."""
    pythonic = config.pythonic
    core = config.core_functions[pythonic.create_context]
    found = [(group, token) for group, token in _accepted(ir, core) if token.value is not None]
    if not found:
        return None
    properties = []
    for group, token in found:
        keyword = naming.identifier(_python_name(token, ir, config), token.source, "context property")
        if keyword in _CONSTRUCTOR_PARAMS | naming.LOCAL_NAMES | naming.MODULE_NAMES:
            raise naming.error_at(token.source, f"{token.name} would be the context constructor's keyword "
                                  f"{keyword!r}, which it uses already")
        properties.append(ContextProperty(keyword, naming.identifier(token.name, token.source, "token"),
                                          _value_type(ir, group, token) or "void *"))
    return ContextConstructor(
        name=naming.identifier(pythonic.context_constructor, found[0][1].source, "context constructor"),
        core_function=core,
        properties=tuple(properties),
        errors=_errors(ir.function(core), values),
        source=found[0][0].source,
        pyopencl_class=pyopencl_class(config.core_types["context"], config),
        core_properties=core_properties,
    )


def model_info_queries(
    ir: Extension, values: dict[str, int], config: PackageConfig, knowledge: Knowledge,
) -> tuple[InfoQuery, ...]:
    """One query per token a core info function accepts as the thing to ask, when the text gives its type."""
    queries: list[InfoQuery] = []
    types = type_map(ir, knowledge)
    for role in config.pythonic.info_queries:
        core = config.core_functions[role]
        handle, handle_type = knowledge.core_functions[core].params[0]
        for group, token in _accepted(ir, core):
            c_type = _value_type(ir, group, token)
            if token.value is None or c_type is None:
                continue  # no value, or no type in the text: nothing to ask for (the IR says so)
            truth = c_type == config.pythonic.bool_type
            hint = "bool" if truth else "int" if integer_range(c_type, types) is not None else "CData"
            queries.append(InfoQuery(
                name=naming.identifier(_python_name(token, ir, config), token.source, "info query"),
                core_function=core, token=token.name, handle=handle, handle_type=handle_type, c_type=c_type,
                truth=truth, errors=_errors(ir.function(core), values), source=token.source, hint=hint))
    return tuple(queries)


#: The constructor's own parameters, which no property keyword may take.
_CONSTRUCTOR_PARAMS = frozenset({"devices", "properties", "as_pyopencl"})


def _accepted(ir: Extension, core_function: str) -> list[tuple[TokenGroup, Token]]:
    """The tokens of the groups the text says `core_function` accepts, in the IR's order."""
    groups = {g.name: g for g in ir.token_groups if g.kind == "accepted" and core_function in g.functions}
    return [(groups[t.group], t) for t in ir.tokens if t.group in groups]


def _value_type(ir: Extension, group: TokenGroup, token: Token) -> str | None:
    """The C type the table of `group` gives `token`'s value (its `type` column)."""
    table = next((t for t in ir.tables if t.name == group.name and "type" in t.columns), None)
    if table is None:
        return None
    column = table.columns.index("type")
    row = next((r for r in table.rows if r[0] == token.name), None) or _by_place(ir, table, group, token)
    if row is None or len(row) <= column or not row[column].strip():
        return None
    return _returned_argument_type(ir, table, row) or row[column].strip()


def _returned_argument_type(ir: Extension, table: Table, row: tuple[str, ...]) -> str | None:
    """The type of the argument a row's description says is returned (`returns the <subresource> argument`): where
    the type column says otherwise, the text contradicts itself (a `table-type` warning) and the value is that
    argument's, as the text's own prototypes declare it."""
    if "description" not in table.columns or len(row) <= table.columns.index("description"):
        return None
    params = ((p.name, p.type) for f in ir.functions if not f.foreign for p in f.params)
    returned = phrases.returned_argument(row[table.columns.index("description")], params)
    return returned[1] if returned else None


def _by_place(ir: Extension, table: Table, group: TokenGroup, token: Token) -> tuple[str, ...] | None:
    members = [t.name for t in ir.tokens if t.group == group.name]
    known = {t.name for t in ir.tokens}
    if len(members) != len(table.rows):
        return None
    row = table.rows[members.index(token.name)]
    return row if row[0] not in known else None


def _python_name(token: Token, ir: Extension, config: PackageConfig) -> str:
    """`CL_CONTEXT_FOO_DEVICE_KHR` -> `context_foo_device`: the enum member's name, lower case."""
    return naming.member_name(token.name, config.constant_prefix, f"_{ir.vendor}").lower()


def _errors(function: Function | None, values: dict[str, int]) -> tuple[ErrorCase, ...]:
    return model_error_cases(function, values) if function is not None else ()
