"""A condition cut into clauses, and each clause `grammar/condition.lark` knows read as the record of its form.

The cutting asks lark's interactive parser, through its public methods only, which runs of pieces are one
clause; `Forms`, a lark `Transformer` with one method per rule that stays in a tree, turns a clause's tree into
its record. What a form means for a function (its predicate, class and effects) is `conditions`' to say.
"""

from __future__ import annotations

import re
from functools import cache

from lark import Token, Transformer, UnexpectedInput

from generator.base.grammars import grammar
from generator.base.predicates import Operator
from generator.base.records import frozen


@frozen
class Null:
    """`<p> is NULL`, `<p> is a NULL value`; `negated`: `<p> is not NULL`."""

    param: str
    negated: bool = False


@frozen
class Comparison:
    """`<n> is zero`, `<n> is equal to 5`, `<n> > 0`: the number as the text writes it, "zero" as 0."""

    param: str
    operator: Operator
    number: str


@frozen
class InvalidValue:
    """`<p> is not a valid value`: none of the tokens the text binds to <p>."""

    param: str


@frozen
class InvalidFlags:
    """`values specified in <p> are not valid`: none of the names of <p>'s "Only A, B and C values" sentence."""

    param: str


Test = Null | Comparison | InvalidValue | InvalidFlags
_TESTS = (Null, Comparison, InvalidValue, InvalidFlags)


@frozen
class AllTests:
    """Tests joined by "and" (often just one)."""

    tests: tuple[Test, ...]


@frozen
class BothNull:
    """`both <a> and <b> are NULL`."""

    params: tuple[str, ...]


@frozen
class Tracked:
    """`any of <m> are (not) currently acquired`, `objects in <m> have (not) previously been acquired using F ...`:
    the functions named, the acquiring one first, then the releasing one; `mentioned`, the parameters the rest of
    the sentence names ("... since <x> was ...")."""

    objects: str
    acquired: bool
    functions: tuple[str, ...]
    mentioned: tuple[str, ...] = ()


@frozen
class Wrapping:
    """`a cl_mem from (subresource <s> of) <r> has already been created using F`."""

    resource: str
    subresource: str | None
    functions: tuple[str, ...]


@frozen
class InvalidHandle:
    """`<p> is not a valid <words>`: only the implementation can tell."""

    param: str
    words: str


@frozen
class Allowed:
    """The "Only A, B and C values ... can be used" sentence of a parameter's description."""

    names: tuple[str, ...]


Form = AllTests | BothNull | Tracked | Wrapping | InvalidHandle | Allowed
_FORMS = (AllTests, BothNull, Tracked, Wrapping, InvalidHandle, Allowed)


# What the rules inside a clause make: names, told apart from the clause's own tokens by their class (plain
# classes, as they never leave the transformer).


class _Function(str):
    __slots__ = ()


class _Subresource(str):
    __slots__ = ()


class _Name(str):
    __slots__ = ()


class _Words(str):
    __slots__ = ()


_Child = Token | Test | Form | _Function | _Subresource | _Name | _Words


class Forms(Transformer[Token, Form]):
    """A clause's tree as its record: one method per rule or alias of the grammar that stays in a tree
    (tests/analysis/test_clause_forms.py holds the two lists equal), so a rule without a method fails a test
    rather than falling through a chain of rule names."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)

    def start(self, children: list[_Child]) -> Form:
        (form,) = children
        assert isinstance(form, _FORMS)
        return form

    def all(self, children: list[_Child]) -> AllTests:
        return AllTests(tuple(c for c in children if isinstance(c, _TESTS)))

    def both_null(self, children: list[_Child]) -> BothNull:
        return BothNull(_params(children))

    def acquired(self, children: list[_Child]) -> Tracked:
        (objects,) = _params(children)
        return Tracked(objects, True, _functions(children))

    def released(self, children: list[_Child]) -> Tracked:
        objects, *mentioned = _params(children)
        return Tracked(objects, False, _functions(children), tuple(mentioned))

    def wrapped(self, children: list[_Child]) -> Wrapping:
        (resource,) = _params(children)
        subresource = next((str(c) for c in children if isinstance(c, _Subresource)), None)
        return Wrapping(resource, subresource, _functions(children))

    def invalid_handle(self, children: list[_Child]) -> InvalidHandle:
        (param,) = _params(children)
        (words,) = (str(c) for c in children if isinstance(c, _Words))
        return InvalidHandle(param, words)

    def null(self, children: list[_Child]) -> Null:
        (param,) = _params(children)
        return Null(param)

    def not_null(self, children: list[_Child]) -> Null:
        (param,) = _params(children)
        return Null(param, negated=True)

    def equal(self, children: list[_Child]) -> Comparison:
        (param,) = _params(children)
        return Comparison(param, "==", _number(children))

    def compare(self, children: list[_Child]) -> Comparison:
        (param,) = _params(children)
        (operator,) = (_OPERATORS[str(c)] for c in children if isinstance(c, Token) and c.type == "COMPARISON")
        return Comparison(param, operator, _number(children))

    def invalid_value(self, children: list[_Child]) -> InvalidValue:
        (param,) = _params(children)
        return InvalidValue(param)

    def invalid_flags(self, children: list[_Child]) -> InvalidFlags:
        (param,) = _params(children)
        return InvalidFlags(param)

    def allowed(self, children: list[_Child]) -> Allowed:
        return Allowed(tuple(str(c) for c in children if isinstance(c, _Name)))

    def subresource(self, children: list[_Child]) -> _Subresource:
        (param,) = _params(children)
        return _Subresource(param)

    def function(self, children: list[_Child]) -> _Function:
        (word,) = children
        return _Function(str(word))

    def name(self, children: list[_Child]) -> _Name:
        (word,) = children
        return _Name(str(word))

    def words(self, children: list[_Child]) -> _Words:
        return _Words(" ".join(str(c) for c in children))


_OPERATORS: dict[str, Operator] = {">": ">", "<": "<", ">=": ">=", "<=": "<="}


def _params(children: list[_Child]) -> tuple[str, ...]:
    """The parameters written <name> among a node's own tokens; one AsciiDoc text has a stray ">" after some."""
    return tuple(str(c).strip("<>") for c in children if isinstance(c, Token) and c.type == "PARAM")


def _functions(children: list[_Child]) -> tuple[str, ...]:
    return tuple(str(c) for c in children if isinstance(c, _Function))


def _number(children: list[_Child]) -> str:
    (number,) = (c for c in children if isinstance(c, Token) and c.type in ("NUMBER", "ZERO"))
    return "0" if number.type == "ZERO" else str(number)


@cache
def read_clause(text: str) -> Form | None:
    """The clause (or allowed-values sentence) `text` as `grammar/condition.lark` reads it; None if it does not."""
    try:
        tree = grammar("condition").parse(text)
    except UnexpectedInput:
        return None
    return Forms().transform(tree)


#: Where a condition may start a new clause; a split that leaves no clause the grammar knows is undone.
CONNECTIVE = re.compile(r"(,\s*or\s+if\s+|(?<!\s)\s+or\s+if\s+|,\s*if\s+|,\s*or\s+|,\s*)")


@frozen
class Pieces:
    """A condition cut at its connectives: the pieces' texts, the connectives, where each piece starts and
    ends in the condition."""

    condition: str
    texts: tuple[str, ...]
    separators: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, condition: str) -> Pieces:
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


@cache
def cut(condition: str) -> tuple[tuple[str, Form | None], ...]:
    """A condition's clauses, each with its form where the grammar knows it (the same condition stands in
    many places: a copied error list, a sibling's text)."""
    pieces = Pieces.of(condition)
    clauses: list[tuple[str, Form | None]] = []
    start = 0
    while start < len(pieces.texts):
        end, form = _longest(pieces, start)
        clauses.append((pieces.join(start, end), form))
        start = end + 1
    return tuple(clauses)


def _longest(pieces: Pieces, start: int) -> tuple[int, Form | None]:
    """The last piece of the longest run from `start` that parses as one clause (a lone piece if none).

    The pieces that may close a clause are found first from the parser's table alone: when the last of them
    closes one, it is the longest; only when it does not are the pieces asked exactly."""
    ends = whole_clauses(pieces, start, exact=False)
    form = read_clause(pieces.join(start, ends[-1])) if ends else None
    if ends and form is None:
        ends = whole_clauses(pieces, start)
        form = read_clause(pieces.join(start, ends[-1])) if ends else None
    end = ends[-1] if form is not None else start
    while end + 1 < len(pieces.texts) and _continues(pieces.texts[end + 1]):
        end, form = end + 1, None  # what follows belongs to this clause, which is then no longer one we know
    return end, form


def _continues(piece: str) -> bool:
    """A piece that cannot start a clause: one name of a list ("F, G, or H"), or "and ..." after a comma."""
    words = piece.split()
    return len(words) <= 1 or words[0] in ("and", "but")


def whole_clauses(pieces: Pieces, start: int, exact: bool = True) -> list[int]:
    """Every piece `end` such that pieces `start` to `end` are one clause the grammar knows, in order; not
    `exact`, every piece after which the parser's table has an action for the end of input, which may be more
    (an LALR table can reduce on an end of input it then refuses, as after "have previously been acquired using
    F", which goes on with "but"), but asks no more than the table.

    The pass reads a window of pieces, and one twice as long whenever it reads the whole window (a clause
    rarely spans more than a few pieces, and lexing the condition to its end from every start would copy it
    once per start)."""
    size = 4
    while True:
        last = min(start + size, len(pieces.texts)) - 1
        found, stopped = _pass(pieces, start, last, exact)
        if stopped or last == len(pieces.texts) - 1:
            return found
        size *= 2


def _pass(pieces: Pieces, start: int, last: int, exact: bool) -> tuple[list[int], bool]:
    """One pass of the LALR parser over pieces `start` to `last`: the pieces that close a clause, and whether
    the pass stopped before the last.

    When a token begins past the end of a piece, the parser has read that piece: whether the input so far may be
    complete is asked of its table (`choices()`) and, `exact`, of `accepts()`, which feeds the end of input to
    copies without the tree-building callbacks (with them, a copy's reductions would append to the trees it
    shares with the parser). The pass stops at the first token no clause can go on with. Parsing each run of
    pieces from scratch instead would read the condition once per piece and start: minutes for a condition of
    thousands of clauses. No token spans two pieces (a connective begins with a comma or a space), so the tokens
    are those of each run parsed alone.
    """
    offset = pieces.starts[start]
    parser = grammar("condition").parse_interactive(pieces.condition[offset : pieces.ends[last]])
    found: list[int] = []
    end = start

    def read_to(position: int) -> None:
        nonlocal end
        while end <= last and pieces.ends[end] - offset <= position:
            if "$END" in parser.choices() and (not exact or "$END" in parser.accepts()):  # type: ignore[no-untyped-call]
                found.append(end)
            end += 1

    try:
        for token in parser.iter_parse():  # each token is yielded before it is fed
            assert token.start_pos is not None
            read_to(token.start_pos)
    except UnexpectedInput as error:
        read_to(_position(error))
        return found, True
    read_to(pieces.ends[last] - offset)
    return found, False


def _position(error: UnexpectedInput) -> int:
    """Where the text went wrong: lark's lexer and parser set `pos_in_stream` on every error they raise, though
    the class declares it None."""
    position: object = error.pos_in_stream
    assert isinstance(position, int)
    return position
