"""C prototypes and typedefs, parsed with `grammar/c_decl.lark` (shared by every front-end)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lark import Token, Tree

from generator import grammars
from generator.knowledge import CLanguage, load
from generator.source import Pos, SpecFile

#: Words that combine with a following type word instead of naming something.
_TYPE_PREFIXES = {"unsigned", "signed", "long", "short", "struct", "enum"}


@dataclass(frozen=True)
class CParam:
    name: str | None
    type: str


@dataclass(frozen=True)
class CFunction:
    name: str
    return_type: str
    params: tuple[CParam, ...]
    pos: Pos


@dataclass(frozen=True)
class CTypedef:
    name: str
    c_type: str
    pos: Pos


CDeclaration = CFunction | CTypedef


def parse(text: str, spec: SpecFile, origin: Pos) -> list[CDeclaration]:
    """Every declaration in `text`, which starts at `origin` in `spec`."""
    tree = grammars.parse("c_decl", text, spec, origin)
    declare = _Declarator(spec, origin, load().c_language)
    declarations: list[CDeclaration] = []
    for node in tree.children:
        assert isinstance(node, Tree)
        pos = grammars.shift(origin, node.meta.line, node.meta.column)
        if node.data == "typedef":
            c_type, name = split_declarator(_words(node.children))
            if name is None:
                raise spec.error(pos, "typedef without a name")
            declare.check(node.children, name, f"typedef {name}", "a type")
            declarations.append(CTypedef(name, c_type, pos))
            continue
        head = [child for child in node.children if isinstance(child, Token)]
        return_type, name = split_declarator([str(word) for word in head])
        if name is None:
            raise spec.error(pos, "function prototype without a name")
        declare.check(head, name, f"function {name}", "a function")
        if problem := type_problem(return_type):
            raise spec.error(pos, f"{problem} as the return type of {name}")
        params: list[tuple[str, str | None]] = []
        for parameter in (p for p in node.children if isinstance(p, Tree)):
            where = grammars.shift(origin, parameter.meta.line, parameter.meta.column)
            c_type, param_name = split_declarator(_words(parameter.children))
            problem = type_problem(c_type)
            if problem:
                raise spec.error(where, f"{problem} in the prototype of {name}")
            declare.check(parameter.children, param_name, f"parameter {param_name or len(params) + 1} of {name}",
                          f"a parameter of {name}")
            params.append((c_type, param_name))
        if params == [("void", None)]:
            params = []
        declarations.append(CFunction(name, return_type, tuple(CParam(n, t) for t, n in params), pos))
    return declarations


class _Declarator:
    """What C takes in one declarator, checked where the spec writes it: before cffi, whose errors name no spec
    place (a keyword as a name) or which overflows Python's stack (hundreds of pointer levels)."""

    def __init__(self, spec: SpecFile, origin: Pos, language: CLanguage) -> None:
        self.spec, self.origin, self.language = spec, origin, language

    def check(self, children: Sequence[Tree[Token] | Token], name: str | None, label: str, role: str) -> None:
        """The declarator of `label` (`parameter p of f`), which declares `name` as `role` (`a parameter of f`)."""
        tokens = [child for child in children if isinstance(child, Token)]
        for token in tokens:
            if token in self.language.keywords and token not in self.language.type_keywords and token != name:
                raise self.spec.error(self.at(token), f"{str(token)!r} is a C keyword that makes no type, in the "
                                      f"declaration of {label}")
        stars = [token for token in tokens if token.type == "STAR"]
        most = self.language.pointer_levels
        if len(stars) > most:
            raise self.spec.error(self.at(stars[most]), f"{len(stars)} pointer levels in the declaration of {label}; "
                                  f"C declarations take {most} at most (C17 5.2.4.1)")
        if name is not None and (why := self.language.refuses(name)):
            token = next(t for t in reversed(tokens) if t == name)
            raise self.spec.error(self.at(token), f"{name!r} is {why}; it cannot name {role}")

    def at(self, token: Token) -> Pos:
        return grammars.shift(self.origin, token.line or 1, token.column or 1)


def _words(children: list[Tree[Token] | Token]) -> list[str]:
    return [str(child) for child in children if isinstance(child, Token)]


def split_declarator(words: list[str]) -> tuple[str, str | None]:
    """(canonical type, declared name or None) from a declaration's words, `const cl_mem *objects`."""
    names = [i for i, word in enumerate(words) if word not in ("const", "*")]
    has_name = len(names) >= 2 and words[names[-2]] not in _TYPE_PREFIXES
    name = words[names[-1]] if has_name else None
    type_words = [word for i, word in enumerate(words) if not (has_name and i == names[-1])]
    return canonical_type(type_words), name


def base_type(c_type: str) -> str:
    """The type a canonical type is made of: `const cl_mem *` -> `cl_mem`."""
    return c_type.removeprefix("const ").replace("*", "").strip()


def type_problem(c_type: str) -> str | None:
    """Why `c_type` (canonical) is not a C type, or None: one name, maybe after `unsigned`, `struct`..."""
    words = c_type.removeprefix("const ").replace("*", " ").split()
    if not words:
        return "a parameter without a type"
    *prefixes, last = words
    if last in ("struct", "enum") or any(word not in _TYPE_PREFIXES for word in prefixes):
        return f"`{c_type}` is not a C type"
    return None


def canonical_type(words: list[str]) -> str:
    """`const base * *`: the const of the pointed-to type first, then one ` *` per pointer level."""
    first_star = words.index("*") if "*" in words else len(words)
    const = "const" in words[:first_star]
    base = " ".join(word for word in words if word not in ("const", "*"))
    return ("const " if const else "") + base + " *" * words.count("*")


def canonical_type_text(text: str) -> str:
    """Canonical spelling of a type written as text (`IWidget*` -> `IWidget *`)."""
    return canonical_type(text.replace("*", " * ").split())
