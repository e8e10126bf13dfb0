"""Loading the lark grammars of `grammar/` and turning their parse errors into `InputError`s."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from generator import ROOT
from generator.base import timing
from generator.base.source import Pos, SpecFile

GRAMMAR_DIR = ROOT / "grammar"
#: The grammars whose readers ask a rule where it stands (`tree.meta`); the others take their places from the
#: tokens, and their parse skips that bookkeeping (a fifth of its time).
PLACED_RULES = frozenset({"asciidoc", "c_decl"})


@cache
def grammar(name: str) -> Lark:
    """The LALR parser of `grammar/<name>.lark`; strict, so a grammar with a conflict fails to load."""
    return Lark.open(
        str(GRAMMAR_DIR / f"{name}.lark"),
        parser="lalr",
        lexer="contextual",
        strict=True,
        propagate_positions=name in PLACED_RULES,
        maybe_placeholders=False,
        cache=True,
    )


_START = Pos(1, 1)


def parse(name: str, text: str, spec: SpecFile, origin: Pos = _START,
          recover: Callable[[UnexpectedInput], bool] | None = None) -> Tree[Token]:
    """Parse `text`, found in `spec` at `origin`; errors point into the spec file. `recover` is lark's `on_error`:
    it may mend the input at an error (through the error's interactive parser) and say so by returning True."""
    with timing.stage(f"parse {name}"):
        parser = grammar(name)
        try:
            return parser.parse(text, on_error=recover) if recover is not None else parser.parse(text)
        except UnexpectedInput as error:
            failure = error
    where = shift(origin, failure.line if failure.line > 0 else 1, failure.column if failure.column > 0 else 1)
    if isinstance(failure, UnexpectedEOF) or (isinstance(failure, UnexpectedToken) and failure.token.type == "$END"):
        where = end_of(text, origin)
    raise spec.error(where, describe(failure, parser)) from None


def shift(origin: Pos, line: int, column: int) -> Pos:
    """Turn a (line, column) inside a snippet that starts at `origin` into a file position."""
    return Pos(origin.line + line - 1, column + (origin.column - 1 if line == 1 else 0))


def end_of(text: str, origin: Pos) -> Pos:
    body = text.rstrip("\n")
    lines = body.split("\n")
    return shift(origin, len(lines), len(lines[-1]) + 1)


def describe(error: UnexpectedInput, parser: Lark) -> str:
    """Say what was found and what the grammar wanted, in the grammar's own terminal names."""
    if isinstance(error, UnexpectedCharacters):
        found = f"unexpected character {error.char!r}"
        expected = error.allowed
    elif isinstance(error, UnexpectedToken):
        found = "unexpected " + _found(error.token, parser)
        expected = error.accepts or error.expected
    else:
        found, expected = "unexpected end of input", getattr(error, "expected", set())
    wanted = sorted({_terminal(name, parser) for name in expected or ()})
    return f"{found}; expected {_one_of(wanted)}" if wanted else found


def _found(token: Token, parser: Lark) -> str:
    if token.type == "$END":
        return "end of input"
    described = _terminal(token.type, parser)
    text = str(token).strip()
    if described == repr(text) or not text:
        return described
    return f"{described} {text[:40]!r}"


def _terminal(name: str, parser: Lark) -> str:
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return repr(pattern.value)
    return name.lstrip("_").lower().replace("_", " ")


def _one_of(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return "one of " + ", ".join(names)
