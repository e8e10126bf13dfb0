"""The bodies of an extension module's C-named functions, as lines: with the checks (`checked`) and without
(`unchecked`, bound when the package's switch is off at import).

A body converts each argument to its C value (`convert`: the common exact case inline, anything else through
`_marshal`, which accepts the same values and names the parameter in its errors), runs the host checks on the
converted arguments, then the state checks, the lookup of the driver's function, the call and what it records,
holding the tracker's lock on the call's objects from its state checks to its records. Error messages quote the
arguments as the caller gave them (the parameters). The template prints the signature and docstring above.
"""

from __future__ import annotations

from generator.base.records import frozen
from generator.emission.layout import Body, Bracket, Node, Prefixed, call, chain, choose, flat, tuple_of
from generator.emission.package_model import CheckModel, EffectModel, ExtensionModule, FunctionModel, ParamModel
from generator.emission.render import py


@frozen
class Scope:
    """What a body needs beyond its function: the module's fast-path constants and the package's core names."""

    extension: ExtensionModule
    success: int  # the status of a successful call
    core_types: dict[str, str]  # role -> core C type (`platform`, `device`, `context`)
    keyword: str  # the Pythonic functions' wait-list keyword
    context_platform: int  # the context property naming the platform

    def ctype(self, spelling: str) -> str:
        """The module constant holding the C type spelt so (`_type_...`)."""
        return self.extension.ctype_names[spelling]


def checked(function: FunctionModel, scope: Scope) -> tuple[str, ...]:
    """The body with the checks and the tracker."""
    body = Body()
    for param in function.params:
        convert(body, param, function, scope)
    _error_out(body, function, scope)
    for index, check in enumerate(function.host_checks):
        with body.block(Prefixed("if ", check.expression), comment=check.tokens):
            body.add(Prefixed("raise ", _violation(function, index, check)))
    for name, count in function.keys:
        body.add(Prefixed(f"k_{name} = ", choose([(call("_unpack", f"c_{name}", f"c_{count}"), f"c_{name}")], "[]")),
                 comment="its handles, read once")
    transit = function.transit
    if transit is not None:
        _transit(body, function, transit, scope)
    elif function.effects:
        body.add(Prefixed("held = ", call("_state.hold", _state_keys(function))),
                 comment="check, call and record as one step for these objects")
        with body.block("try"):
            _checked_call(body, function, scope)
        with body.block("finally"):
            body.add(call("_state.let_go", "held"))
    else:
        _checked_call(body, function, scope)
    return body.done()


def unchecked(function: FunctionModel, scope: Scope) -> tuple[str, ...]:
    """The body with the checks off: conversions, the lookup and the driver's call, nothing tracked."""
    body = Body()
    anchor = function.anchor_param
    if function.raw_first and anchor is not None:
        _raw_first(body, function, anchor, scope)
        return body.done()
    for param in function.params:
        convert(body, param, function, scope)
    _error_out(body, function, scope)
    lookup(body, function, scope)
    _call(body, function, scope, tracked=False)
    return body.done()


def convert(body: Body, param: ParamModel, function: FunctionModel, scope: Scope, *, annotated: bool = True) -> None:
    """`c_<param>` (`given_<param>` for the error-code out-parameter) from the argument: the exact common case
    inline (a cffi handle or pointer of the parameter's own type, an int in the C type's range, None for a pointer;
    where a count gives the length, only a cffi array that long: a pointer's extent is `_marshal`'s to judge),
    anything else by `_marshal`. Not `annotated` where the variable was declared before."""
    name = param.name
    target = ("given_" if param.kind == "error_out" else "c_") + name
    typed = target + (": Any" if annotated and param.kind not in ("integer", "value") else "")
    where = (py(name), py(function.name))
    value: Node
    if param.kind == "value":
        body.add(f"{target} = {name}")
        return
    if param.kind == "integer":
        low, high = scope.extension.int_ranges[param.c_type]
        value = choose([(name, chain(f"type({name}) is int", ("and", chain(low, ("<=", name), ("<=", high)))))],
                       call("_marshal.integer", "ffi", name, py(param.c_type), *where))
    elif param.kind == "array":
        element = str(param.element)
        array, pointer = scope.ctype(f"{element}[]"), scope.ctype(f"{element} *")
        exact = chain(f"_typeof({name}) is {array}", ("and", f"_length({name}) >= c_{param.count}")) if param.count \
            else Bracket("(", (chain(f"_typeof({name}) is {array}", ("or", f"_typeof({name}) is {pointer}")),), ")",
                         comma=False)
        counted = (f"c_{param.count}", py(param.count)) if param.count else ()
        own = chain(f"issubclass(type({name}), _CData)", ("and", exact))
        value = choose([("_NULL", f"{name} is None"), (name, own)],
                       call("_marshal.array", "ffi", name, py(element), str(param.handle_elements), *where, *counted))
    else:
        cases: list[tuple[Node, Node]] = [] if param.kind == "handle" else [("_NULL", f"{name} is None")]
        if not param.count:
            cases.append((name, chain(f"issubclass(type({name}), _CData)",
                                      ("and", f"_typeof({name}) is {scope.ctype(param.c_type)}"))))
        options = [*(["exact=True"] if param.exact else []),
                   *([f"count=c_{param.count}", f"count_name={py(param.count)}"] if param.count else []),
                   *([f"access={py(param.access)}"] if param.access else [])]
        general: Node = call("_marshal.pointer", "ffi", name, py(param.c_type), *where, *options)
        if param.kind == "handle":
            general = chain(call("_marshal.known", "ffi", name, py(param.c_type)), ("or", general))
        value = choose(cases, general)
    body.add(Prefixed(f"{typed} = ", value))


def lookup(body: Body, function: FunctionModel, scope: Scope, finder: str = "_lookup") -> None:
    """`function`, the driver's function for the call: this process's one platform's, if it has one and the
    function was found for it (`_binding.Entry`; a platform argument must be that platform); else, and for NULL
    (which the driver's queries refuse), `finder`: `_lookup`, or `_lookup_later` where `_state.transit` makes a
    state check first (a call refused by its state is refused on any platform, as in the long form)."""
    entry = f"_fn_{function.name}"
    anchor = function.anchor
    if anchor is None:
        platform = call("_marshal.pointer", "ffi", "platform", py(scope.core_types["platform"]), py("platform"),
                        py(function.name), "exact=True")
        body.add(Prefixed("function = ", call(finder, py("platform"), platform, py("platform"), entry)))
        return
    test = f"c_{anchor} == {entry}.platform" if function.anchor_kind == "platform" else f"c_{anchor}"
    body.add(Prefixed("function = ", choose([(f"{entry}.only", test)], "None")))
    with body.block("if function is None"):
        body.add(Prefixed("function = ", call(finder, py(function.anchor_kind), f"c_{anchor}", py(anchor), entry)))


def _error_out(body: Body, function: FunctionModel, scope: Scope) -> None:
    """The error code's own out-parameter, which the call fills whatever the caller gave."""
    out = function.error_out
    if out is not None:
        body.add(Prefixed(f"c_{out.name} = ", call("ffi.new", scope.ctype(out.c_type))))


def _arguments(check: CheckModel) -> Bracket:
    """The arguments a check's clauses speak of, as the caller gave them, by name: what the error quotes."""
    return Bracket("{", tuple(Prefixed(f"{py(name)}: ", name) for name in check.params), "}")


def _violation(function: FunctionModel, index: int, check: CheckModel, found: str = "") -> Bracket:
    """`_violation(...)`: the error of a refused call, written to the caller's error-code out-parameter too."""
    out = (f"out=given_{function.error_param}",) if function.error_param else ()
    return call("_violation", py(function.name), str(index), _arguments(check), *((found,) if found else ()), *out)


def _transit(body: Body, function: FunctionModel, effect: EffectModel, scope: Scope) -> None:
    """The short form: `Tracker.transit` makes the state check, the call and the record in one step."""
    lookup(body, function, scope, "_lookup_later")
    body.comment("the state check, the call and the record as one step for these objects")
    body.add(Prefixed("code = ", call("_state.transit", py(effect.kind), f"k_{effect.objects}", "function",
                                      *_converted(function))))
    with body.block(f"if code != {scope.success}"):
        with body.block("if isinstance(code, _Refused)"):
            body.add(Prefixed("raise ", _violation(function, len(function.host_checks), function.state_checks[0],
                                                   "code.found")))
        body.add(Prefixed("raise ", call("_error", "code", py(function.name))))


def _checked_call(body: Body, function: FunctionModel, scope: Scope) -> None:
    """The state checks, the lookup, the call and its records."""
    host = len(function.host_checks)
    for index, check in enumerate(function.state_checks):
        body.add(Prefixed("found = ", check.expression))
        with body.block("if found is not None"):
            body.add(Prefixed("raise ", _violation(function, host + index, check, "found")))
    lookup(body, function, scope)
    _call(body, function, scope, tracked=True)


def _call(body: Body, function: FunctionModel, scope: Scope, *, tracked: bool) -> None:
    """The driver's call, its error code raised, and its result returned; `tracked` (the checks on): the tracker
    forgets the objects a refused call doubts first, and records what a successful call changes."""
    name = py(function.name)
    forget = function.doubted if tracked else ()
    if function.result == "status":
        body.add(Prefixed("code = ", call("function", *_converted(function))))
        with body.block(f"if code != {scope.success}"):
            for objects in forget:
                body.add(call("_state.doubt", f"k_{objects}"), comment="the driver's answer outranks what the tracker "
                                                                       "recorded")
            body.add(Prefixed("raise ", call("_error", "code", name)))
        if tracked:
            _effects(body, function)
        return
    made = call("function", *_converted(function))
    # a void result is not named (ruff's F841); a wrap effect records a handle, so its function returns one
    body.add(made if function.result == "none" else Prefixed("result = ", made))
    out = function.error_param
    if out:
        with body.block(f"if given_{out} != _NULL"):
            body.add(f"given_{out}[0] = c_{out}[0]")
        with body.block(f"if c_{out}[0] != {scope.success}"):
            for objects in forget:
                body.add(call("_state.doubt", f"k_{objects}"))
            body.add(Prefixed("raise ", call("_error", f"c_{out}[0]", name)))
    if tracked:
        _effects(body, function)
    if function.result != "none":
        body.add("return result")


def _converted(function: FunctionModel) -> list[Node]:
    return [f"c_{param.name}" for param in function.params]


def _effects(body: Body, function: FunctionModel) -> None:
    """What a successful call records in the module's tracked state (`_state`)."""
    for effect in function.effects:
        if effect.kind == "wrap":
            body.add(call("_state.wrap", *_wrapped(effect), "_library.address(result)"))
        else:
            body.add(call(f"_state.{effect.kind}", f"k_{effect.objects}"))


def _wrapped(effect: EffectModel) -> tuple[Node, ...]:
    """The key of a wrapped resource: its scope's and its address, and its subresource."""
    return (call("_library.address", f"c_{effect.scope}"), call("_library.address", f"c_{effect.resource}"),
            f"c_{effect.subresource}" if effect.subresource else "None")


def _state_keys(function: FunctionModel) -> Node:
    """The objects a call's effects speak of: what it holds (`_state.hold`) from its state checks to its records."""
    keys: list[Node] = [Bracket("[", (tuple_of(_wrapped(effect)),), "]") if effect.kind == "wrap"
                        else f"k_{effect.objects}" for effect in function.effects]
    return chain(keys[0], *(("+", key) for key in keys[1:]))


def _raw_first(body: Body, function: FunctionModel, anchor: ParamModel, scope: Scope) -> None:
    """The checks-off call of a loop (acquire, release): the anchor converted as with the checks on (it finds the
    driver's function), the rest handed to cffi as they are; what cffi refuses is converted as with the checks on,
    or refused naming it."""
    name = anchor.name
    body.comment("the anchor as with the checks on (it finds the driver's function); the rest as cffi takes it, "
                  "as C would")
    body.add(f"c_{name}: Any = {name}")
    body.add(f"function = _fn_{function.name}.only")
    exact = chain(f"type({name}) is _Handle", ("and", f"_typeof({name}) is {scope.ctype(anchor.c_type)}"))
    with body.block(Prefixed("if ", chain("function is None",
                                          ("or", Prefixed("not ", Bracket("(", (exact,), ")", comma=False)))))):
        convert(body, anchor, function, scope, annotated=False)
        lookup(body, function, scope)
    given = [f"c_{p.name}" if p.name == name else flat(choose([("_NULL", f"{p.name} is None")], p.name))
             if p.nullable else p.name for p in function.params]
    with body.block("try"):
        body.add(Prefixed("code = ", call("function", *given)))
    with body.block("except Exception", comment="a value cffi does not take as it is: converted as with the checks "
                                                "on, or refused naming it"):
        for param in function.params:
            if param.name != name:
                convert(body, param, function, scope)
        body.add(Prefixed("code = ", call("function", *_converted(function))))
    with body.block(f"if code != {scope.success}"):
        body.add(Prefixed("raise ", call("_error", "code", py(function.name))))
