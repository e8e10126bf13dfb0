"""The bodies of an extension module's Pythonic layer and interop, as lines: each snake_case function (with the
checks and without), the context manager over an acquire/release pair, the context constructor and the info
queries. The template prints their signatures and docstrings above.
"""

from __future__ import annotations

from generator.emission.interop import ContextConstructor, InfoQuery
from generator.emission.layout import Body, Bracket, Node, Prefixed, call, chain, choose, tuple_of
from generator.emission.pythonic_model import Argument, ContextManager, PythonicFunction
from generator.emission.render import py
from generator.emission.wrapper_code import Scope


def pythonic(function: PythonicFunction, scope: Scope, *, checked: bool = True) -> tuple[str, ...]:
    """The body of a Pythonic function: its lists made C arrays, its out-parameters made, the C-named function
    called (twice for the two-call idiom: the length first), what it hands back returned as owned handles.
    Not `checked`: the version bound with the checks off (its lists handed to cffi without a look first)."""
    body = Body()
    if function.returns_handles:
        _flag(body, function.name)
    for argument in function.arguments:
        if argument.role in ("sequence", "wait_list"):
            handle_list(body, argument, argument.c_name if argument.role == "sequence" else scope.keyword,
                        function.name, scope, checked=checked)
    for argument in function.arguments:
        if argument.role in ("out_handle", "out_count"):
            body.add(Prefixed(f"o_{argument.c_name} = ", call("ffi.new", scope.ctype(f"{argument.element} *"))))
    c_function = function.c_function
    platform = ("platform=platform",) if function.takes_platform else ()
    listed, counted = function.out_list, function.out_count
    if function.two_calls and listed is not None and counted is not None:
        name, element = listed.c_name, str(listed.element)
        body.add(call(c_function, *(a.first for a in function.arguments), *platform))
        body.add(Prefixed(f"n_{name} = ", call("_library.answered", f"o_{counted.c_name}[0]", "_library.MOST_ITEMS",
                                               py(c_function), py(name))))
        with body.block(f"if n_{name} == 0"):
            body.add("return []")
        body.add(Prefixed(f"o_{name} = ", call("ffi.new", scope.ctype(f"{element}[]"), f"n_{name}")))
        body.add(call(c_function, *(a.call for a in function.arguments), *platform))
        adopted = chain(_adopt(f"o_{name}[i]", element), ("for", f"i in range(min(n_{name}, len(o_{name})))"))
        body.add(Prefixed("return ", Bracket("[", (adopted,), "]", comma=False)))
        return body.done()
    made = call(c_function, *(a.call for a in function.arguments), *platform)
    body.add(Prefixed("result = ", made) if function.result else made)
    if function.result:
        body.add(Prefixed("return ", _adopt("result", function.result)))
    elif len(function.out_handles) == 1:
        out = function.out_handles[0]
        body.add(Prefixed("return ", _adopt(f"o_{out.c_name}[0]", str(out.element))))
    elif function.out_handles:
        body.add(Prefixed("return ", tuple_of(_adopt(f"o_{a.c_name}[0]", str(a.element))
                                              for a in function.out_handles)))
    return body.done()


def handle_list(body: Body, argument: Argument, value: str, function: str, scope: Scope, *, checked: bool) -> None:
    """A Pythonic list of handles as (C array or NULL, length), `l_<param>` and `n_<param>`: a list of cffi
    handles of exactly the element type becomes the array at once; anything else goes item by item through
    `_marshal`, whose errors name the item. Not `checked` (the checks off): whatever cffi takes as the array's
    items, without looking at them first."""
    array, count = f"l_{argument.c_name}", f"n_{argument.c_name}"
    element = str(argument.element)
    at_once = Prefixed(f"{array}, {count} = ", choose(
        [(tuple_of([call("ffi.new", scope.ctype(f"{element}[]"), value), f"len({value})"]), value)], "(None, 0)"))
    by_item = Prefixed(f"{array}, {count} = ", call("_marshal.handle_list", "ffi", value, py(element), py(value),
                                                    py(function)))
    if not checked:
        body.add(f"{array}: CData | None")
        with body.block("try"):
            body.add(at_once)
        with body.block("except Exception", comment="not a list or tuple of cffi handles: item by item, with the "
                                                    "errors that name the item"):
            body.add(by_item)
        return
    body.add(f"{array}: CData | None = None")
    with body.block(f"if type({value}) is list"):
        foreign = chain("not issubclass(type(_item), _CData)", ("or", f"_typeof(_item) is not {scope.ctype(element)}"))
        with body.block(f"for _item in {value}"), body.block(Prefixed("if ", foreign)):
            body.add("break")
        with body.block("else"):
            body.add(at_once)
    with body.block(f"if {array} is None"):
        body.add(by_item)


def context_manager(manager: ContextManager, scope: Scope) -> tuple[str, ...]:
    """`with <name>(...) as event:`: the acquire on entry, the release on exit, even when the body raises (the
    body's exception stays the one raised)."""
    body = Body()
    acquire, release = manager.acquire, manager.release
    for argument in acquire.arguments:
        if argument.role == "sequence" and argument.c_name in release.inputs:
            name = argument.c_name
            body.add(Prefixed(f"{name} = ", call("_marshal.snapshot", name, py(name), py(manager.name))),
                     comment="released as acquired")
    waits = [f"{scope.keyword}={scope.keyword}"] if acquire.wait_list else []
    body.add(Prefixed("_event = ", call(acquire.name, *acquire.inputs, *waits, "as_pyopencl=as_pyopencl")))
    released = call(release.name, *release.inputs)
    with body.block("try"):
        body.add("yield _event")
    with body.block("except BaseException as raised"):
        with body.block("try"):
            body.add(released)
        with body.block("except Exception as failed", comment="the body's exception stays the one raised"):
            body.add(call("_errors.attach_release_failure", "raised", "failed", py(manager.name)))
        body.add("raise")
    body.add(released)
    return body.done()


def context_constructor(context: ContextConstructor, scope: Scope) -> tuple[str, ...]:
    """A context on the devices with the extension's properties: the properties checked, the platform's support
    required, the core function called, the context returned as an owned handle."""
    body = Body()
    name, core = py(context.name), py(context.core_function)
    _flag(body, context.name)
    body.add(Prefixed("l_devices, n_devices = ", call("_marshal.handle_list", "ffi", "devices",
                                                      py(scope.core_types["device"]), py("devices"), name)))
    with body.block("if l_devices is None or not n_devices"):
        body.add(Prefixed("raise ", call("ValueError", py(f"{context.name}() argument 'devices' must name at least "
                                                          "one device"))))
    keywords = Bracket("{", tuple(Prefixed(f"{p.token}: ", py(p.keyword)) for p in context.properties), "}")
    body.add(Prefixed("_core = ", call("_marshal.context_properties", "properties", keywords, name)))
    with body.block("try"):
        body.add("_platform = _library.device_platform(l_devices[0])")
        body.add(call("_binding.require", "_platform", "[l_devices[i] for i in range(n_devices)]", core))
    with body.block("except _library.QueryFailed as failed"):
        body.add(Prefixed("raise ", call("_error", "failed.code", core,
                                         "f\"{failed.function} failed on argument 'devices'\"")), " from None")
    body.add(f"_properties = [{scope.context_platform}, _library.address(_platform)]")
    for prop in context.properties:
        with body.block(f"if {prop.keyword} is not None"):
            pointer = call("_marshal.pointer", "ffi", prop.keyword, py(prop.c_type), py(prop.keyword), name)
            body.add(Prefixed("_properties += ", Bracket("[", (prop.token, call("_library.address", pointer)), "]")))
    with body.block("try"):
        body.add(Prefixed("_made = ", call("_library.create_context", "_properties + _core", "l_devices",
                                           "n_devices")))
    with body.block("except _library.QueryFailed as failed"):
        body.add(Prefixed("raise ", call("_error", "failed.code", core)), " from None")
    body.add(Prefixed("return ", call("_lifetime.adopt", "_made", py(scope.core_types["context"]), "as_pyopencl")))
    return body.done()


def info_query(query: InfoQuery) -> tuple[str, ...]:
    """The core info function asked for the query's token about the handle, its answer as Python has it."""
    body = Body()
    handle, core = query.handle, py(query.core_function)
    body.add(Prefixed(f"c_{handle} = ", call("_marshal.pointer", "ffi", handle, py(query.handle_type), py(handle),
                                             py(query.name), "exact=True")))
    body.add(Prefixed("found = ", call("ffi.new", py(f"{query.c_type} *"))))
    with body.block("try"):
        body.add(call("_library.info", core, f"c_{handle}", query.token, "found",
                      call("ffi.sizeof", py(query.c_type))))
    with body.block("except _library.QueryFailed as failed"):
        body.add(Prefixed("raise ", call("_error", "failed.code", core)), " from None")
    body.add(Prefixed("return ", query.answer))
    return body.done()


def _flag(body: Body, function: str) -> None:
    """`as_pyopencl` made a bool (what `_marshal.flag` takes for one, or refuses)."""
    with body.block("if type(as_pyopencl) is not bool"):
        body.add(Prefixed("as_pyopencl = ", call("_marshal.flag", "as_pyopencl", py("as_pyopencl"), py(function))))


def _adopt(handle: str, c_type: str) -> Node:
    """A handle the call handed back, owned: released when garbage-collected, or PyOpenCL's object."""
    return call("_lifetime.adopt", handle, py(c_type), "as_pyopencl")
