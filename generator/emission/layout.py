"""Python source laid out within the package's line length: the lines the code models hand the templates.

A template prints lines; where a line's length depends on the specs (a quoted sentence, a long name, a list as
long as a token group), a code model builds the statement from the nodes here and `statement` lays it out as
black would: on one line when it fits; else a bracket's items on one indented line, or one per line with a
trailing comma; an operator chain (`a if b else c`, `x and y`) one part per line inside parentheses, each line
starting with its operator; a string literal as adjacent literals cut at spaces (`textwrap`); a trailing comment
that does not fit above its statement. Laying out never changes what the code means: parentheses and line breaks
inside brackets are not in the AST, and adjacent literals are one constant there.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import field
from typing import TypeAlias

from generator.base.records import frozen

#: The package's line length: the project's ruff `line-length` (pyproject.toml), which holds for generated/ too.
WIDTH = 120
#: One level of indentation.
STEP = 4


@frozen
class Text:
    """A str literal of `value`: `repr` on one line; cut into adjacent literals where it does not fit."""

    value: str
    one_line: str = field(init=False, repr=False, compare=False)
    table = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "one_line", repr(self.value))


@frozen
class Bracket:
    """`open` items `close`: a call (`open` holds the callee and its parenthesis), a tuple, list, set or dict.

    `comma` False: parentheses around one expression (no comma); `single`: a tuple, whose one item takes a comma;
    `broken`: one item per line even where they fit on one (a table), with `comment` after the opening bracket."""

    open: str
    items: tuple[Node, ...]
    close: str
    comma: bool = True
    single: bool = False
    broken: bool = False
    comment: str = ""
    # What `flat` and `lines` ask of a node, made once with it (`lines` asks at every depth above it): its items on
    # one line, and whether it holds a table.
    joined: str = field(init=False, repr=False, compare=False)
    one_line: str = field(init=False, repr=False, compare=False)
    table: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        inner = ", ".join(flat(item) for item in self.items)
        joined = inner + "," if self.single and len(self.items) == 1 else inner
        object.__setattr__(self, "joined", joined)
        object.__setattr__(self, "one_line", self.open + joined + self.close)
        object.__setattr__(self, "table", bool(self.items) and (self.broken or any(map(_broken, self.items))))


@frozen
class Chain:
    """Operands joined by operators (`a if b else c`, `x and y`): laid out over lines, it breaks before each
    operator, every part on a line of its own at the same indentation (inside parentheses)."""

    first: Node
    rest: tuple[tuple[str, Node], ...]  # (operator, operand)
    one_line: str = field(init=False, repr=False, compare=False)
    table: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = [flat(self.first), *(f"{operator} {flat(operand)}" for operator, operand in self.rest)]
        object.__setattr__(self, "one_line", " ".join(parts))
        object.__setattr__(self, "table", _broken(self.first) or any(_broken(part) for _, part in self.rest))


@frozen
class Prefixed:
    """`prefix` and then `node` on its first line: `raise `, `return `, `key: `, `name = `."""

    prefix: str
    node: Node
    one_line: str = field(init=False, repr=False, compare=False)
    table: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "one_line", self.prefix + flat(self.node))
        object.__setattr__(self, "table", _broken(self.node))


#: A piece of an expression: a `str` is code that is never broken (a name, a number, a short call).
Node: TypeAlias = "str | Text | Bracket | Chain | Prefixed"


def call(callee: str, *arguments: Node) -> Bracket:
    """`callee(arguments)`."""
    return Bracket(f"{callee}(", arguments, ")")


def tuple_of(items: Iterable[Node], *, broken: bool = False) -> Bracket:
    """A tuple display (`(a,)` for one item)."""
    return Bracket("(", tuple(items), ")", single=True, broken=broken)


def chain(first: Node, *rest: tuple[str, Node]) -> Node:
    """`first` joined with each operand by its operator; `first` alone without operands."""
    return Chain(first, rest) if rest else first


def choose(cases: Iterable[tuple[Node, Node]], otherwise: Node) -> Node:
    """`value if test else ... else otherwise` over (value, test) `cases`: broken after each case."""
    parts = [Chain(value, (("if", test),)) for value, test in cases]
    if not parts:
        return otherwise
    return Chain(parts[0], (*(("else", part) for part in parts[1:]), ("else", otherwise)))


def flat(node: Node) -> str:
    """The node on one line."""
    return node if isinstance(node, str) else node.one_line


def width(line: str) -> int:
    """The columns `line` takes as ruff counts them: an East Asian wide or full-width character takes two."""
    return len(line) if line.isascii() else sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def statement(node: Node, indent: int, tail: str = "", comment: str = "") -> list[str]:
    """The lines of a statement at `indent` (`tail` after it: `:` of an `if`); `comment` after it where the line has
    room, else wrapped on lines of its own above it."""
    laid = lines(node, indent, tail=tail)
    if not comment:
        return laid
    if len(laid) == 1 and width(f"{laid[0]}  # {comment}") <= WIDTH:
        return [f"{laid[0]}  # {comment}"]
    return comments(comment, indent) + laid


class Body:
    """A function's body as it is written: statements at the indentation of the block they are in."""

    def __init__(self, indent: int = STEP) -> None:
        self.lines: list[str] = []
        self.indent = indent

    def add(self, node: Node, tail: str = "", comment: str = "") -> None:
        """One statement (`tail` after it, `comment` beside or above it)."""
        self.lines += statement(node, self.indent, tail, comment)

    def comment(self, text: str) -> None:
        self.lines += comments(text, self.indent)

    @contextmanager
    def block(self, head: Node, comment: str = "") -> Iterator[None]:
        """`head:` (`if ...`, `try`, `else`), and the statements added inside the `with` indented under it."""
        self.add(head, ":", comment)
        self.indent += STEP
        try:
            yield
        finally:
            self.indent -= STEP

    def done(self) -> tuple[str, ...]:
        return tuple(self.lines)


def comments(text: str, indent: int) -> list[str]:
    """`text` as comment lines at `indent` (a word longer than a line on a line of its own)."""
    pad = " " * indent
    return [f"{pad}# {line}" for line in textwrap.wrap(text, max(WIDTH - indent - 2, 20), break_long_words=False,
                                                       break_on_hyphens=False)]


def lines(node: Node, indent: int, lead: str = "", tail: str = "", *, inside: bool = False) -> list[str]:
    """`lead`, the node and `tail` over as few lines as fit at `indent`. `inside`: within brackets already, so a
    chain or a literal breaks without parentheses of its own (where no `lead` stands before it)."""
    pad = " " * indent
    if not _broken(node):
        one = pad + lead + flat(node) + tail
        if width(one) <= WIDTH or (isinstance(node, str) and not lead):
            return [one]
    if isinstance(node, Prefixed):
        return lines(node.node, indent, lead + node.prefix, tail, inside=inside)
    if isinstance(node, Bracket):
        return _bracket(node, indent, lead, tail)
    if lead or not inside or isinstance(node, str):
        return [pad + lead + "(", *lines(node, indent + STEP, inside=True), pad + ")" + tail]
    if isinstance(node, Text):
        laid = [pad + piece for piece in pieces(node.value, WIDTH - indent - len(tail))]
        laid[-1] += tail
        return laid
    return _chain(node, indent, "", tail)


def _broken(node: Node) -> bool:
    """Whether the node is laid out over lines even where it fits on one: it holds a table."""
    return not isinstance(node, str) and node.table


def _bracket(node: Bracket, indent: int, lead: str, tail: str) -> list[str]:
    pad, inner = " " * indent, " " * (indent + STEP)
    head = pad + lead + node.open + (f"  # {node.comment}" if node.comment else "")
    end = pad + node.close + tail
    if not node.comma:
        return [head, *[line for item in node.items for line in lines(item, indent + STEP, inside=True)], end]
    if not _broken(node):
        body = inner + node.joined
        if width(body) <= WIDTH:
            return [head, body, end]
    return [head, *[line for item in node.items for line in lines(item, indent + STEP, tail=",", inside=True)], end]


def _chain(node: Chain, indent: int, lead: str, tail: str) -> list[str]:
    """A chain one part per line, each after its operator (the first after `lead`); a part that is a chain itself
    and does not fit is spliced in (its parts on lines of their own too)."""
    parts: list[tuple[str, Node]] = [(lead, node.first), *((f"{operator} ", part) for operator, part in node.rest)]
    out: list[str] = []
    for index, (before, part) in enumerate(parts):
        end = tail if index == len(parts) - 1 else ""
        if isinstance(part, Chain) and width(" " * indent + before + flat(part) + end) > WIDTH:
            out += _chain(part, indent, before, end)
        else:
            out += lines(part, indent, before, end, inside=True)
    return out


def pieces(value: str, room: int) -> list[str]:
    """`value` as adjacent str literals, each at most `room` columns: `textwrap` cuts it at spaces (keeping every
    character, so the literals join to `value`; the space where it cuts ends a line), a piece whose escapes make
    it longer is halved."""
    cut = textwrap.wrap(value, max(room - 3, 1), drop_whitespace=False, replace_whitespace=False,
                        expand_tabs=False, break_on_hyphens=False) or [value]
    for index in range(1, len(cut)):
        text = cut[index]
        space = len(text) - len(text.lstrip(" "))
        if 0 < space < len(text):
            cut[index - 1], cut[index] = cut[index - 1] + text[:space], text[space:]
    return [literal for piece in cut for literal in _fitted(piece, room)]


def _fitted(piece: str, room: int) -> list[str]:
    literal = repr(piece)
    if width(literal) <= room or len(piece) == 1:
        return [literal]
    half = len(piece) // 2
    return _fitted(piece[:half], room) + _fitted(piece[half:], room)
