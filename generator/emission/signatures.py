"""Function signatures as lines: the `def` of a wrapper, a Pythonic function, its `@overload`s and the facades'
protocol stubs, one parameter per line, an annotation too long for its line broken at its `|` and its brackets
(`emission.layout`). The module and the protocol declare the same functions at two depths, so their lines are
made here, for each depth, rather than re-indented by a template.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from generator.base.records import frozen
from generator.emission.interop import ContextConstructor
from generator.emission.layout import STEP, WIDTH, Bracket, Node, Prefixed, chain, lines, width
from generator.emission.pythonic_model import PythonicFunction

Lines = tuple[str, ...]


@frozen
class Param:
    """A parameter: `name: hint = default` (`hint` and `default` where given)."""

    name: str
    hint: str = ""
    default: str = ""


def annotation(text: str) -> Node:
    """An annotation as a layout node: a union broken before each `|`, a subscript's items one per line."""
    parts = [_subscript(part) for part in _split(text, " | ")]
    return chain(parts[0], *(("|", part) for part in parts[1:]))


def _subscript(text: str) -> Node:
    opened = text.find("[")
    if opened <= 0 or not text.endswith("]"):
        return text
    items = _split(text[opened + 1:-1], ", ")
    # one item takes no comma: `list[X,]` would be a tuple
    return Bracket(text[:opened + 1], tuple(annotation(item) for item in items), "]", comma=len(items) > 1)


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside brackets."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        if text[index] in "[(":
            depth += 1
        elif text[index] in "])":
            depth -= 1
        elif depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            start = index = index + len(separator)
            continue
        index += 1
    return [*parts, text[start:]]


def define(name: str, params: Iterable[str | Param], returns: str, indent: int = 0, *, stub: bool = False,
           decorators: Iterable[str] = (), one_line: bool = False) -> Lines:
    """A `def` line by line: its decorators, one parameter per line (`*` for the keyword-only ones after it), its
    return annotation, and `: ...` for a stub (an `@overload`, a protocol's method). `one_line`: on one line where
    it fits (a property, a query)."""
    pad, end = " " * indent, ": ..." if stub else ":"
    params = list(params)
    head = [pad + decorator for decorator in decorators]
    if one_line:
        line = f"{pad}def {name}({', '.join(_flat(p) for p in params)}) -> {returns}{end}"
        if width(line) <= WIDTH:
            return (*head, line)
    listed = [line for param in params for line in _param(param, indent + STEP)]
    last = f"{pad}) -> {returns}{end}"
    return (*head, f"{pad}def {name}(", *listed,
            *([last] if width(last) <= WIDTH else lines(annotation(returns), indent, ") -> ", end)))


def _flat(param: str | Param) -> str:
    return param if isinstance(param, str) else param.name + (f": {param.hint}" if param.hint else "") + (
        f" = {param.default}" if param.default else "")


def _param(param: str | Param, indent: int) -> list[str]:
    """A parameter's line (an annotation too long for it over lines)."""
    line = f"{' ' * indent}{_flat(param)},"
    if width(line) <= WIDTH or isinstance(param, str) or not param.hint:
        return [line]
    default = f" = {param.default}," if param.default else ","
    return lines(Prefixed(f"{param.name}: ", annotation(param.hint)), indent, tail=default)


def pythonic_params(function: PythonicFunction, keyword: str, *, flag: str = "bool = False",
                    hints: Iterable[tuple[str, str]] | None = None, method: bool = False) -> list[str | Param]:
    """The parameters of a Pythonic function (`self` first for a protocol's method, whose inputs are annotated
    `hints`: what every variant takes); its `as_pyopencl` flag annotated `flag` (with its default)."""
    params: list[str | Param] = ["self"] if method else []
    params += [Param(name, hint) for name, hint in (hints or function.input_hints)]
    if function.wait_list or function.takes_platform or function.returns_handles:
        params.append("*")
    if function.wait_list:
        params.append(Param(keyword, "Sequence[Pointer] | None", "None"))
    if function.takes_platform:
        params.append(Param("platform", "Pointer"))
    if function.returns_handles:
        params.append(_flag(flag))
    return params


def manager_keywords(acquire: PythonicFunction, keyword: str) -> list[str | Param]:
    """The context manager's keyword-only parameters: the acquire's wait list and the flag."""
    return ["*", *([Param(keyword, "Sequence[Pointer] | None", "None")] if acquire.wait_list else []),
            Param("as_pyopencl", "bool", "False")]


def context_params(context: ContextConstructor, flag: str, *, method: bool = False) -> list[str | Param]:
    """The context constructor's parameters (`self` first for a protocol's method), its flag annotated `flag`."""
    return [*(["self"] if method else []), Param("devices", "Sequence[Pointer]"), "*",
            *(Param(p.keyword, "Pointer", "None") for p in context.properties),
            Param("properties", context.properties_hint, "None"), _flag(flag)]


def _flag(flag: str) -> Param:
    hint, _, default = flag.partition(" = ")
    return Param("as_pyopencl", hint, default)


def overloads(name: str, flags: Iterable[tuple[str, str]], params: Callable[[str], list[str | Param]],
              indent: int = 0) -> tuple[Lines, ...]:
    """The `@overload` stubs of a function returning handles, one per (flag annotation, return annotation):
    `params(flag)` gives the parameters for each flag."""
    return tuple(define(name, params(flag), returned, indent, stub=True, decorators=["@overload"])
                 for flag, returned in flags)
