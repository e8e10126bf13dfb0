"""Stage: the spec's error conditions read as checks, and the effects of calls on tracked state.

A condition is cut into clauses at its connectives (", or if", ", if", ", or",
","): the longest run of pieces that `grammar/condition.lark` reads as one
clause is one clause. A clause the grammar knows becomes a predicate, either on
the arguments alone (`host`) or on what the package saw of earlier calls
(`state`: objects acquired, resources already wrapped); every other clause is
for the implementation (`driver`). Each gets the reason for its class, which the
coverage report shows.

Clauses that name the functions which acquire, release or create objects ("have
previously been acquired using F but have not been released using G", "has
already been created using F") give those functions their effects on the
tracked state, so the state rules too come from the text.

Predicates are built as the typed classes of `base.predicates`, the very ones the back end reads from the
IR, so that a predicate made here cannot take a shape the IR's notation has no word for.
"""

from __future__ import annotations

import re
from copy import copy
from functools import cache

from lark import Lark, Token, Tree, UnexpectedInput, UnexpectedToken
from lark.lexer import LexerThread
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser_state import ParseConf, ParserState

from generator.base import integers
from generator.base.c_decl import base_type
from generator.base.diagnostics import Sink
from generator.base.grammars import grammar
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.predicates import (
    Acquired,
    AllOf,
    Compare,
    IsNull,
    MemberOf,
    Not,
    Operator,
    Predicate,
    Released,
    Wrapped,
)
from generator.base.records import frozen
from generator.merging.draft import Clause, Effect, ErrorCondition, Extension, Function, Param

#: Where a condition may start a new clause; a split that leaves no clause the grammar knows is undone.
CONNECTIVE = re.compile(r"(,\s*or\s+if\s+|(?<!\s)\s+or\s+if\s+|,\s*if\s+|,\s*or\s+|,\s*)")
_OPERATORS: dict[str, Operator] = {">": ">", "<": "<", ">=": ">=", "<=": "<="}

HOST = "decided by the arguments alone"
DRIVER_PROSE = "no argument value or tracked state decides it: only the implementation can tell"


@frozen
class _Named:
    """A function the clause names as the one that acquires, releases or creates, and the role it plays."""

    kind: str  # "acquire", "release", "wrap"
    function: str
    params: tuple[tuple[str, str], ...]


class _NotCheckable(Exception):
    """The clause parsed, but cannot be checked here; the message is the reason."""


def attach(extensions: list[Extension], knowledge: Knowledge, sink: Sink) -> None:
    """Give every error condition its clauses and every function its effects."""
    for extension in extensions:
        _Reader(extension, knowledge, sink).read()


class _Reader:
    def __init__(self, extension: Extension, knowledge: Knowledge, sink: Sink) -> None:
        self.extension = extension
        self.knowledge = knowledge
        self.sink = sink
        self.named: list[tuple[_Named, ErrorCondition]] = []

    def read(self) -> None:
        for function in self.extension.functions:
            for error in function.errors:
                error.check = self.clauses(function, error)
        self.give_effects()

    def clauses(self, function: Function, error: ErrorCondition) -> list[Clause]:
        return [self.classify(function, error, text, tree) for text, tree in cut(error.condition)]

    def classify(self, function: Function, error: ErrorCondition, text: str, tree: Tree[Token] | None) -> Clause:
        if function.core:
            return Clause(text, "driver", f"{function.name} is core OpenCL, which this package does not wrap")
        if function.external:
            return Clause(text, "driver", f"{function.name} is a function of another extension, which this package "
                          "does not wrap")
        if error.damaged is not None:
            return Clause(text, "driver", f"not read as a check: the condition {error.damaged}")
        if tree is None or tree.data == "allowed":
            return Clause(text, "driver", DRIVER_PROSE)
        try:
            predicate, kind, reason = self.predicate(function, tree, error)
        except _NotCheckable as why:
            return Clause(text, "driver", str(why))
        return Clause(text, kind, reason, predicate)  # type: ignore[arg-type]

    # -- predicates -----------------------------------------------------------

    def predicate(self, function: Function, tree: Tree[Token], error: ErrorCondition) -> tuple[Predicate, str, str]:
        rule = tree.data
        params = [self.param(function, t) for t in _tokens(tree, "PARAM")]
        functions = [str(t.children[0]) for t in tree.find_data("function")]
        if rule == "invalid_handle":
            words = " ".join(str(w) for w in next(tree.find_data("words")).children)
            raise _NotCheckable(f"only the implementation knows what is valid here ({words})")
        if rule in ("acquired", "released"):
            (objects,) = params[:1]
            self.require_array(function, objects)
            self.name_effects(rule, functions, objects, error)
            if rule == "acquired":
                return Acquired(objects), "state", "the package tracks which objects it saw acquired"
            return Released(objects), "state", "the package tracks which objects it saw not acquired"
        if rule == "wrapped":
            subresource = [self.param(function, t) for s in tree.find_data("subresource") for t in _tokens(s, "PARAM")]
            resource = next(p for p in params if p not in subresource)
            wrapped = Wrapped(self.scope(function), resource, subresource[0] if subresource else None)
            for name in functions:
                self.named.append((_Named("wrap", name, wrapped.roles()), error))
            return wrapped, "state", "the package tracks which resources it wrapped in each context"
        return self.host(function, tree), "host", HOST

    def host(self, function: Function, tree: Tree[Token]) -> Predicate:
        rule = tree.data
        if rule == "all":
            parts = [self.host(function, child) for child in tree.children if isinstance(child, Tree)]
            return parts[0] if len(parts) == 1 else AllOf(tuple(parts))
        params = [self.param(function, t) for t in _tokens(tree, "PARAM")]
        if rule == "both_null":
            for name in params:
                self.require_pointer(function, name)
            return AllOf(tuple(IsNull(name) for name in params))
        (name,) = params
        if rule in ("null", "not_null"):
            self.require_pointer(function, name)
            return IsNull(name) if rule == "null" else Not(IsNull(name))
        self.require_integer(function, name)
        if rule in ("equal", "compare"):
            number = _number(next(t for t in tree.children if isinstance(t, Token) and t.type in ("NUMBER", "ZERO")))
            operator = "==" if rule == "equal" else _OPERATORS[str(_tokens(tree, "COMPARISON")[0])]
            return Compare(name, operator, number)
        if rule == "invalid_value":
            return Not(MemberOf(name, tuple(self.group_values(function, name))))
        if rule == "invalid_flags":
            return Not(MemberOf(name, tuple(self.allowed_values(function, name))))
        raise AssertionError(f"condition.lark rule {rule} has no predicate")

    def param(self, function: Function, token: Token) -> str:
        name = str(token).strip("<>")
        if _param(function, name) is None:
            raise _NotCheckable(f"speaks of <{name}>, which is not a parameter of {function.name}")
        return name

    def scope(self, function: Function) -> str:
        """The handle parameter a function's objects belong to (a context): its first handle."""
        for param in function.params:
            if self.knowledge.is_handle(param.type):
                return param.name
        raise _NotCheckable(f"{function.name} has no handle parameter to keep its objects apart by")

    def require_pointer(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if "*" not in param.type and not self.knowledge.is_handle(param.type):
            raise _NotCheckable(f"speaks of <{name}> as a pointer, but it is a {param.type}")

    def require_array(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if not param.type.endswith("*") or not self.knowledge.is_handle(base_type(param.type)):
            raise _NotCheckable(f"speaks of <{name}> as a list of objects, but it is a {param.type}")

    def require_integer(self, function: Function, name: str) -> None:
        param = _param(function, name)
        assert param is not None
        if "*" in param.type or self.knowledge.is_handle(param.type):
            raise _NotCheckable(f"speaks of <{name}> as a number, but it is a {param.type}")

    def group_values(self, function: Function, name: str) -> list[str | int]:
        groups = {g.name for g in self.extension.token_groups if function.name in g.functions and g.parameter == name}
        tokens: list[str | int] = [t.name for t in self.extension.tokens if t.group in groups]
        if not tokens:
            raise _NotCheckable(f"the text binds no tokens to <{name}>, so which values are valid is not known")
        self.require_values([str(t) for t in tokens])
        return tokens

    def require_values(self, names: list[str]) -> None:
        """A check compares with token values: every one must be given (a token named without one is not)."""
        unvalued = [n for n in names if (token := self.extension.token(n)) is not None and token.value is None]
        if unvalued:
            raise _NotCheckable(f"the text gives no value for {', '.join(unvalued)}")

    def allowed_values(self, function: Function, name: str) -> list[str | int]:
        """The names of the parameter's "Only A, B and C values ... can be used" sentence (0 too for a bit-field)."""
        param = _param(function, name)
        assert param is not None
        for sentence in re.split(r"(?<=\.)\s+", param.description or ""):
            tree = parse_clause(sentence)
            if tree is None or tree.data != "allowed":
                continue
            names = [str(n.children[0]) for n in tree.find_data("name")]
            unknown = [n for n in names if self.extension.token(n) is None and n not in self.knowledge.core_constants]
            if unknown:
                raise _NotCheckable(f"the description of <{name}> allows {', '.join(unknown)}, which no text defines")
            self.require_values(names)
            zero: list[str | int] = [0] if self.is_bitfield(param.type) else []
            return zero + names
        raise _NotCheckable(f"the text does not say which values of <{name}> are valid")

    def is_bitfield(self, c_type: str) -> bool:
        seen = c_type
        while seen in self.knowledge.core_types:
            if seen == self.knowledge.bitfield_type:
                return True
            seen = self.knowledge.core_types[seen].get("c_type", "")
        return seen == self.knowledge.bitfield_type

    # -- effects --------------------------------------------------------------

    def name_effects(self, rule: str, functions: list[str], objects: str, error: ErrorCondition) -> None:
        """"acquired using F but not released using G" / "not previously acquired using F, or released using G"."""
        for kind, name in zip(("acquire", "release"), functions[:2], strict=False):
            self.named.append((_Named(kind, name, (("objects", objects),)), error))

    def give_effects(self) -> None:
        for named, error in self.named:
            function = self.extension.function(named.function)
            if function is None or function.foreign:
                self.sink.warning(error.source, Kind.UNKNOWN_FUNCTION,
                                  f"the condition names {named.function} as the function that does this, "
                                  "but the extension defines no such function", extension=self.extension.name)
                continue
            missing = [p for _, p in named.params if _param(function, p) is None]
            if missing:
                self.sink.warning(error.source, Kind.UNKNOWN_PARAMETER,
                                  f"the condition speaks of <{missing[0]}> of {function.name}, which has no such "
                                  "parameter; its effect on tracked state is not known", extension=self.extension.name)
                continue
            if all(e.kind != named.kind for e in function.effects):
                function.effects.append(Effect(named.kind, error.source, **dict(named.params)))  # type: ignore[arg-type]


@cache
def cut(condition: str) -> tuple[tuple[str, Tree[Token] | None], ...]:
    """A condition's clauses, each with its tree where the grammar knows it (the same condition stands in
    many places: a copied error list, a sibling's text)."""
    pieces = _Pieces.of(condition)
    clauses: list[tuple[str, Tree[Token] | None]] = []
    start = 0
    while start < len(pieces.texts):
        end, tree = _longest(pieces, start)
        clauses.append((pieces.join(start, end), tree))
        start = end + 1
    return tuple(clauses)


def _longest(pieces: _Pieces, start: int) -> tuple[int, Tree[Token] | None]:
    """The last piece of the longest run from `start` that parses as one clause (a lone piece if none)."""
    found: tuple[int, Tree[Token] | None] = (start, None)
    for end in reversed(whole_clauses(pieces, start)):
        tree = parse_clause(pieces.join(start, end))
        if tree is not None:
            found = (end, tree)
            break
    end, tree = found
    while end + 1 < len(pieces.texts) and _continues(pieces.texts[end + 1]):
        end, tree = end + 1, None  # what follows belongs to this clause, which is then no longer one we know
    return end, tree


def _continues(piece: str) -> bool:
    """A piece that cannot start a clause: one name of a list ("F, G, or H"), or "and ..." after a comma."""
    words = piece.split()
    return len(words) <= 1 or words[0] in ("and", "but")


@frozen
class _Pieces:
    """A condition cut at its connectives: the pieces' texts, the connectives, where each piece starts and
    ends in the condition."""

    condition: str
    texts: tuple[str, ...]
    separators: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, condition: str) -> _Pieces:
        split = CONNECTIVE.split(condition)
        offsets = [0]
        for part in split:
            offsets.append(offsets[-1] + len(part))
        starts = tuple(offsets[0:-1:2])
        return cls(condition, tuple(split[0::2]), tuple(split[1::2]), starts,
                   tuple(start + len(text) for start, text in zip(starts, split[0::2], strict=True)))

    def join(self, start: int, end: int) -> str:
        """Pieces `start` to `end` with the connectives between them, as the condition writes them."""
        return self.condition[self.starts[start] : self.ends[end]].strip()


def whole_clauses(pieces: _Pieces, start: int) -> list[int]:
    """Every piece `end` such that pieces `start` to `end` are one clause the grammar knows, in order.

    One pass of the LALR parser over the pieces, each lexed on its own (a connective begins with a comma
    or a space, so no token spans two): after each piece, whether the input read so far would be
    complete is asked of a copy of the parser's state stacks (the trees are left alone), and the pass
    stops at the first token no clause can go on with. Parsing each run of pieces from scratch instead
    would read the condition once per piece and start: minutes for a condition of thousands of clauses.
    """
    interactive = grammar("condition").parse_interactive(None)
    lexer = interactive.lexer_thread.lexer
    bare = _bare(interactive.parser_state.parse_conf)
    found: list[int] = []
    for end in range(start, len(pieces.texts)):
        segment = pieces.texts[end] if end == start else pieces.separators[end - 1] + pieces.texts[end]
        try:
            for token in LexerThread.from_text(lexer, segment).lex(interactive.parser_state):  # type: ignore[no-untyped-call]
                interactive.feed_token(token)
        except UnexpectedInput:
            break
        if _complete(interactive, bare):
            found.append(end)
    return found


@cache
def _bare(conf: ParseConf[int]) -> ParseConf[int]:
    """The parse configuration without its tree-building callbacks, for probes whose trees are not wanted."""
    bare = copy(conf)
    bare.callbacks = {}
    return bare


def _complete(interactive: InteractiveParser, bare: ParseConf[int]) -> bool:
    """Whether the parser would accept the end of input now: fed to a copy of its stacks with no callbacks
    (lark's own `accepts()` probes so), the end of input reduces them to the start symbol or fails."""
    state = interactive.parser_state
    probe = ParserState(bare, state.lexer, list(state.state_stack), list(state.value_stack))
    try:
        probe.feed_token(Token("$END", ""), True)
    except UnexpectedToken:
        return False
    return True


def _tokens(tree: Tree[Token], kind: str) -> list[Token]:
    return [t for t in tree.children if isinstance(t, Token) and t.type == kind]


def _param(function: Function, name: str) -> Param | None:
    return next((p for p in function.params if p.name == name), None)


def _number(token: Token) -> int:
    if token.type == "ZERO":
        return 0
    if not str(token).isdigit():
        raise _NotCheckable(f"compares with {integers.shorten(str(token))}, which is not a whole number")
    try:
        return integers.value(str(token).lstrip("0") or "0")  # decimal, as prose writes numbers
    except integers.LiteralError as error:
        raise _NotCheckable(f"compares with a number no argument can hold: {error}") from None


@cache
def parse_clause(text: str) -> Tree[Token] | None:
    """The clause (or allowed-values sentence) `text` as `grammar/condition.lark` reads it; None if it does not."""
    parser: Lark = grammar("condition")
    try:
        tree = parser.parse(text)
    except UnexpectedInput:
        return None
    child = tree.children[0]
    return child if isinstance(child, Tree) else None
