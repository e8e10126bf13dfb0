"""The snake_case layer of an extension module, as the templates see it.

Each Pythonic function calls the C-named one, so it runs the same checks (the lists
and out-parameters it makes pass the C-named function's fast paths); what it adds is
the shape Python users expect: counts come from sequence lengths, the
wait list is the keyword `wait_for`, out-parameters (a returned event, a list of
devices asked for with the two-call idiom) are returned, the error out-parameter becomes an
exception, and handles the caller owns are released when garbage-collected (or
come back as PyOpenCL objects with `as_pyopencl=True`).

Which parameter plays which role is read from the IR: a parameter whose
description says "<name> returns ..." is an output, and so is a lone `T *` of a
handle type (OpenCL passes handles in by value), which matters where a damaged
text lost the description; a count before a list (the API's convention,
`data/package.yaml`) is that list's length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set

from generator.base import naming
from generator.base.knowledge import PackageConfig
from generator.base.type_spelling import base_type
from generator.emission.package_model import FunctionModel
from generator.emission.pythonic_model import Argument, ContextManager, PythonicFunction, Role
from generator.ir.model import Function


def model_pythonic(
    function: FunctionModel, ir_function: Function, vendor: str, handles: set[str], config: PackageConfig,
) -> PythonicFunction | None:
    """The snake_case form of a checked function; None when no role fits a parameter."""
    descriptions = {p.name: p.description or "" for p in ir_function.params}
    params = list(function.params)
    count_type = config.core_types["count"]
    out = {p.name for p in params if _says_it_returns(p.name, descriptions[p.name])
           or (p.kind == "pointer" and not p.count and base_type(p.c_type) in handles and "const" not in p.c_type)}
    lists: dict[str, list[str]] = {}
    for p in params:
        if p.count:
            lists.setdefault(p.count, []).append(p.name)
    roles: dict[str, Argument] = {}
    out_list = None
    for param in params:
        name, element = param.name, param.element or base_type(param.c_type)
        if param.kind == "error_out":
            roles[name] = Argument(name, "error", "None", "None", param)
        elif param.count and name in out and element in handles:
            out_list = roles[name] = Argument(name, "out_list", f"o_{name}", "None", param, element)
        elif param.count and element in handles:
            role: Role = "wait_list" if element == config.pythonic.wait_list_type else "sequence"
            roles[name] = Argument(name, role, f"l_{name}", f"l_{name}", param, element)
        elif name in lists:
            continue  # filled below, once its list's role is known
        elif name in out and param.kind == "pointer" and element in handles:
            roles[name] = Argument(name, "out_handle", f"o_{name}", f"o_{name}", param, element)
        elif name in out and param.kind == "pointer" and element == count_type:
            roles[name] = Argument(name, "out_count", "None", f"o_{name}", param, element)
        elif name in out:
            return None  # an output of a kind this layer does not return
        else:
            spelled = config.pythonic.names.get(param.c_type, name)  # PyOpenCL's name for a handle of this type
            roles[name] = Argument(name, "pass", spelled, spelled, param)
    by_name = {param.name: param for param in params}
    for count, listed in lists.items():
        out_listed = [name for name in listed if roles[name].role == "out_list"]
        sequences = [name for name in listed if roles[name].role in ("sequence", "wait_list")]
        if out_listed:
            roles[count] = Argument(count, "out_capacity", f"n_{out_listed[0]}", "0", by_name[count])
        elif sequences:  # the length of the list the caller gives
            roles[count] = Argument(count, "length", f"n_{sequences[0]}", f"n_{sequences[0]}", by_name[count])
        else:  # it counts arrays passed as pointers: the caller says how many
            spelled = config.pythonic.names.get(by_name[count].c_type, count)
            roles[count] = Argument(count, "pass", spelled, spelled, by_name[count])
    arguments = tuple(roles[p.name] for p in params)
    two_calls = out_list is not None and any(a.role == "out_count" for a in arguments)
    if out_list is not None and not two_calls:
        return None
    result = function.return_type if function.return_type in config.pythonic.owned else None
    out_handles = tuple(a for a in arguments if a.role == "out_handle")
    return PythonicFunction(
        name=naming.identifier(naming.snake_name(function.name, config.pythonic.function_prefix, vendor.upper()),
                               ir_function.source, "function"),
        target=function,
        arguments=arguments,
        inputs=tuple(a.python_name for a in arguments if a.role in ("pass", "sequence")),
        wait_list=next((a.c_name for a in arguments if a.role == "wait_list"), None),
        two_calls=two_calls,
        count_type=count_type,
        out_list=out_list,
        out_handles=out_handles,
        result=result,
        source=function.source,
        pyopencl_returns=_pyopencl_returns(out_list, out_handles, result, config),
    )


def pyopencl_class(c_type: str, config: PackageConfig) -> str:
    """The annotation of a handle as PyOpenCL's object (`pyopencl.Context`); `Any` for a type it has no class of."""
    found = config.pythonic.pyopencl_classes.get(c_type)
    return f"{config.pythonic.pyopencl_module}.{found}" if found else "Any"


def _pyopencl_returns(out_list: Argument | None, out_handles: tuple[Argument, ...], result: str | None,
                      config: PackageConfig) -> str:
    if out_list is not None:
        return f"list[{pyopencl_class(out_list.element or '', config)}]"
    if result is not None:
        return pyopencl_class(result, config)
    if len(out_handles) == 1:
        return pyopencl_class(out_handles[0].element or "", config)
    return "tuple[Any, ...]" if out_handles else "None"


def model_context_manager(
    functions: list[PythonicFunction], effects: Mapping[str, Set[str]], config: PackageConfig,
) -> ContextManager | None:
    """The acquire/release pair of an extension (by their effects), when they take the same inputs."""
    acquire = [f for f in functions if "acquire" in effects.get(f.c_function, set())]
    release = [f for f in functions if "release" in effects.get(f.c_function, set())]
    if len(acquire) != 1 or len(release) != 1 or acquire[0].inputs != release[0].inputs \
            or acquire[0].takes_platform or release[0].takes_platform:  # its calls name no platform
        return None
    return ContextManager(config.pythonic.context_manager, acquire[0], release[0])


_RETURNS = re.compile(r"\s+returns\b")


def _says_it_returns(name: str, description: str) -> bool:
    """"<name> returns ...": the spec's way of saying a parameter is an output (one pattern for every name: a
    pattern made per name is compiled anew for each parameter past the cache of 512)."""
    return description.startswith(name) and bool(_RETURNS.match(description, len(name)))
