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

from dataclasses import dataclass

from generator.base import naming
from generator.base.diagnostics import Location
from generator.base.knowledge import Knowledge, PackageConfig
from generator.emission.functions import model_error_cases
from generator.emission.package_model import ErrorCase
from generator.ir.model import Extension, Function, Table, Token, TokenGroup


@dataclass(frozen=True)
class ContextProperty:
    keyword: str  # the constructor's keyword for it
    token: str  # its C name, a constant of the module
    c_type: str  # the C type of its value, as the text's table gives it


@dataclass(frozen=True)
class ContextConstructor:
    """`create_context(devices, *, <property>=None, as_pyopencl=False)`."""

    name: str
    core_function: str  # the core function it calls
    properties: tuple[ContextProperty, ...]
    errors: tuple[ErrorCase, ...]  # the conditions the text adds to the core function
    source: Location


@dataclass(frozen=True)
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


def model_context_constructor(
    ir: Extension, values: dict[str, int], config: PackageConfig,
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
    )


def model_info_queries(
    ir: Extension, values: dict[str, int], config: PackageConfig, knowledge: Knowledge,
) -> tuple[InfoQuery, ...]:
    """One query per token a core info function accepts as the thing to ask, when the text gives its type."""
    queries: list[InfoQuery] = []
    for role in config.pythonic.info_queries:
        core = config.core_functions[role]
        handle, handle_type = knowledge.core_functions[core].params[0]
        for group, token in _accepted(ir, core):
            c_type = _value_type(ir, group, token)
            if token.value is None or c_type is None:
                continue  # no value, or no type in the text: nothing to ask for (the IR says so)
            queries.append(InfoQuery(
                name=naming.identifier(_python_name(token, ir, config), token.source, "info query"),
                core_function=core, token=token.name, handle=handle, handle_type=handle_type, c_type=c_type,
                truth=c_type == config.pythonic.bool_type, errors=_errors(ir.function(core), values),
                source=token.source))
    return tuple(queries)


#: The constructor's own parameters, which no property keyword may take.
_CONSTRUCTOR_PARAMS = frozenset({"devices", "as_pyopencl"})


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
    return row[column].strip() if row is not None and len(row) > column and row[column].strip() else None


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
