"""C prototypes and typedefs, parsed with `grammar/c_decl.lark` (shared by every front-end)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from copy import copy

from lark import Token, Tree, UnexpectedInput, UnexpectedToken

from generator.base import grammars
from generator.base.knowledge import CLanguage, Knowledge, load
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile
from generator.base.type_spelling import split_declarator, type_problem

#: A word of C text.
_WORD = re.compile(r"[A-Za-z_]\w*")


@frozen
class CParam:
    name: str | None
    type: str


@frozen
class CFunction:
    name: str
    return_type: str
    params: tuple[CParam, ...]
    pos: Pos
    #: A function of the kernel language (OpenCL C), not of the host API: its name is no host function's and no
    #: type of the host API (`cl_event`, `cl_int`) is among its words (a callback a program writes takes those;
    #: OpenCL C's own `cl_mem_fence_flags` is no host type).
    kernel: bool = False


@frozen
class CEnumerator:
    """`NAME = value` in an enum's braces; `literal` is None where the text gives no value."""

    name: str
    literal: str | None
    pos: Pos


@frozen
class CTypedef:
    """`typedef c_type name;`; a struct or union written with its braces keeps its members (`record` is
    `struct`/`union`), an enum its enumerators (`record` is `enum`)."""

    name: str
    c_type: str
    pos: Pos
    record: str | None = None
    members: tuple[CParam, ...] = ()
    enumerators: tuple[CEnumerator, ...] = ()


CDeclaration = CFunction | CTypedef


@frozen
class Slip:
    """An evident slip of a declaration, read as the text meant it: said where it stands, as a warning."""

    pos: Pos
    message: str


#: The most slips one listing is read past: a text with more is no C with slips.
MOST_SLIPS = 16
#: `()` is `(void)` for OpenCL C, whose built-ins the book lists so; the host API always writes `(void)`.
_EMPTY = "an empty parameter list in {}: the host API writes `(void)` for none (were the parameters lost?)"


def parse(text: str, spec: SpecFile, origin: Pos, slips: list[Slip] | None = None) -> list[CDeclaration]:
    """Every declaration in `text`, which starts at `origin` in `spec`. With `slips`, a declaration whose `;` is
    missing at its line's end (or before a struct's `}`), or whose struct members are separated by commas, is
    read as if the `;` were there, and each such slip added to `slips`."""
    knowledge = load()
    if knowledge.decorations:  # blanked where they stand (columns kept): one may follow the parameters too
        text = _WORD.sub(lambda m: " " * len(m[0]) if m[0] in knowledge.decorations else m[0], text)
    mender = None if slips is None else _Mender(text, origin)
    tree = grammars.parse("c_decl", text, spec, origin, mender)
    if slips is not None and mender is not None:
        slips.extend(mender.slips)
    declare = _Declarator(spec, origin, knowledge.c_language, text, knowledge.opencl_c_qualifiers, slips)
    declarations: list[CDeclaration] = []
    for node in tree.children:
        assert isinstance(node, Tree)
        pos = grammars.shift(origin, node.meta.line, node.meta.column)
        declare.kernel = False
        if node.data == "typedef":
            declarations.append(typedef := declare.typedef(node, pos))
            if "^" in typedef.c_type or any("^" in m.type for m in typedef.members):
                raise spec.error(pos, f"typedef {typedef.name}: a block (`^`) is OpenCL C's, and a typedef is "
                                 "the host API's")
            continue
        head = declare.plain(node.children)
        declare.no_caret(head, "a function's return type")
        return_type, name = split_declarator([str(word) for word in head])
        if name is None:
            raise spec.error(pos, "function prototype without a name")
        words = [t for tree in node.iter_subtrees() for t in tree.children if isinstance(t, Token)]
        declare.kernel = _kernel_language(name, [str(w) for w in words], knowledge)
        if not declare.kernel:
            declare.check(head, name, f"function {name}", "a function")
        if not declare.kernel and (problem := type_problem(return_type)):
            raise spec.error(pos, f"{problem} as the return type of {name}")
        listed = [p for p in node.children if isinstance(p, Tree)]
        if not listed and not declare.kernel:
            raise spec.error(declare.closing(node), _EMPTY.format(f"the prototype of {name}"))
        params = declare.parameters(listed, f"the prototype of {name}", name)
        if not declare.kernel and any("^" in p.type for p in params):
            raise spec.error(pos, f"{name} takes a block (`^`), which is OpenCL C's: no function of the host API "
                             "takes one")
        declarations.append(CFunction(name, return_type, params, pos, declare.kernel))
    return declarations


def _kernel_language(name: str, words: list[str], knowledge: Knowledge) -> bool:
    """Whether a function is the kernel language's: named outside the host API (and not a host name misspelt:
    `CLFoo`, `clfoo`), and no word of it a host type (the core API's, or one named as host types are that is
    no type of OpenCL C's own)."""
    if knowledge.is_function_name(name) or name.lower().startswith("cl"):
        return False
    return not any(w in knowledge.core_types or (knowledge.is_type_name(w) and w not in knowledge.opencl_c_types)
                   for w in words)


class _Mender:
    """lark's `on_error` for a listing: where a `;` would let the parse go on, and the text shows why it is not
    there (a line break or a struct's `}` before the next word, the end of the listing, a `,` between struct
    members), the `;` is given, if the parse takes it and the word after it."""

    def __init__(self, text: str, origin: Pos) -> None:
        self.text, self.origin = text, origin
        self.slips: list[Slip] = []

    def __call__(self, error: UnexpectedInput) -> bool:
        if not isinstance(error, UnexpectedToken) or len(self.slips) >= MOST_SLIPS:
            return False
        if "_SEMICOLON" not in (error.accepts or error.expected):
            return False
        token, parser = error.token, error.interactive_parser
        semicolon = Token("_SEMICOLON", ";")
        if token.type == "COMMA":
            fed, at, message = [semicolon], token.start_pos, "a `,` between declarations: read as `;`"
        else:
            start = len(self.text) if token.type == "$END" else token.start_pos
            at = len(self.text[:start].rstrip())
            if token.type not in ("$END", "RBRACE") and "\n" not in self.text[at:start]:
                return False
            fed = [semicolon] if token.type == "$END" else [semicolon, token]
            message = "`;` missing at the end of this declaration: read as if it were there"
        trial = copy(parser)  # a trial run on a copy: the parse mended only where it goes on
        try:
            for each in fed:
                trial.feed_token(each)
        except UnexpectedInput:
            return False
        for each in fed:
            parser.feed_token(each)
        line = self.text.count("\n", 0, at) + 1
        column = at - (self.text.rfind("\n", 0, at) + 1) + 1
        self.slips.append(Slip(grammars.shift(self.origin, line, column), message))
        return True


class _Declarator:
    """What C takes in one declarator, checked where the spec writes it: before cffi, whose errors name no spec
    place (a keyword as a name) or which overflows Python's stack (hundreds of pointer levels)."""

    def __init__(self, spec: SpecFile, origin: Pos, language: CLanguage, text: str,
                 qualifiers: frozenset[str] = frozenset(), slips: list[Slip] | None = None) -> None:
        self.spec, self.origin, self.language, self.text = spec, origin, language, text
        self.slips = slips  # where slips are taken: each one read past
        self.depth = 0  # how many function pointers (or blocks) the declarator being read stands in
        self.qualifiers = qualifiers | language.type_keywords | {"const", "volatile", "restrict"}
        #: Reading a function of the kernel language (OpenCL C), whose qualifiers (`__global`, `volatile`),
        #: vector and image types and overloads are OpenCL C's, not the host C the package's cdef is made of.
        self.kernel = False

    def plain(self, children: Sequence[Tree[Token] | Token]) -> list[Token]:
        """The words of a declarator (the headers' decorations are blanked before parsing)."""
        return [child for child in children if isinstance(child, Token)]

    def typedef(self, node: Tree[Token], pos: Pos) -> CTypedef:
        """`typedef T name;`, `typedef struct tag { ... } name;` or `typedef T (*name)(params);`."""
        head = self.plain(node.children)
        record = next((c for c in node.children if isinstance(c, Tree) and c.data == "record"), None)
        if record is None:
            c_type, name = self.declarator(node.children, "a typedef", "a type", noun="typedef")
            if name is None:
                raise self.spec.error(pos, "typedef without a name")
            return CTypedef(name, c_type, pos)
        cut = next(i for i, child in enumerate(node.children) if child is record)
        kind_words = [str(t) for t in self.plain(node.children[:cut])]
        after = [str(t) for t in self.plain(node.children[cut + 1 :])]
        name = after[0] if len(after) == 1 else None
        if name is None:
            raise self.spec.error(pos, "a struct, union or enum typedef names one type after its braces")
        self.check(head, name, f"typedef {name}", "a type")
        kind = kind_words[0] if kind_words and kind_words[0] in ("struct", "union", "enum") else None
        if kind is None or len(kind_words) > 2:
            raise self.spec.error(pos, f"typedef {name}: braces follow `struct`, `union` or `enum` and a tag at most")
        base = " ".join(kind_words)
        if kind == "enum":
            enumerators = tuple(self.enumerator(child) for child in record.children if isinstance(child, Tree))
            return CTypedef(name, base, pos, kind, enumerators=enumerators)
        members = tuple(m for child in record.children if isinstance(child, Tree) for m in self.member(child, name))
        return CTypedef(name, base, pos, kind, members=members)

    def member(self, node: Tree[Token], record: str) -> tuple[CParam, ...]:
        """A member, or, where its words run over a line break with a type and a name on each side (`cl_uint
        width` then `cl_uint height;`), the members whose `;` is missing at the break (a slip, when slips are
        taken)."""
        where = f"a member of {record}"
        tokens = [child for child in node.children if isinstance(child, Token)]
        breaks = [i for i in range(1, len(tokens)) if (tokens[i].line or 0) > (tokens[i - 1].line or 0)]
        runs = [tokens[a:b] for a, b in zip([0, *breaks], [*breaks, len(tokens)], strict=True)]
        if self.slips is not None and len(runs) > 1 and len(tokens) == len(node.children) and all(
                len(run) >= 2 and run[-1].type == "IDENTIFIER" and run[0].type in ("IDENTIFIER", "CONST")
                for run in runs):
            for run in runs[:-1]:
                end = run[-1]
                self.slips.append(Slip(grammars.shift(self.origin, end.line or 1, (end.end_column or 1)),
                                       "`;` missing at the end of this declaration: read as if it were there"))
            return tuple(self.one_member(run, node, where) for run in runs)
        return (self.one_member(node.children, node, where),)

    def one_member(self, children: Sequence[Tree[Token] | Token], node: Tree[Token], where: str) -> CParam:
        c_type, name = self.declarator(children, where, where)
        if name is None:
            raise self.spec.error(self.at_node(node), f"{where} without a name")
        if "(" not in c_type and (problem := type_problem(c_type.partition(" [")[0])):
            raise self.spec.error(self.at_node(node), f"{problem}: {where}")
        return CParam(name, c_type)

    def enumerator(self, node: Tree[Token]) -> CEnumerator:
        name = node.children[0]
        assert isinstance(name, Token)
        value = next((c for c in node.children if isinstance(c, Tree)), None)
        literal = " ".join(self.text[value.meta.start_pos : value.meta.end_pos].split()) if value else None
        if why := self.language.refuses(str(name)):
            raise self.spec.error(self.at(name), f"{str(name)!r} is {why}; it cannot name an enumerator")
        return CEnumerator(str(name), literal, self.at(name))

    def parameters(self, nodes: list[Tree[Token]], where: str, owner: str, *, named: bool = True
                   ) -> tuple[CParam, ...]:
        """The parameters of `owner`; a callback's (`named` False) keep their types only."""
        params: list[CParam] = []
        for parameter in nodes:
            c_type, name = self.declarator(parameter.children, where, f"a parameter of {owner}",
                                           index=(len(params) + 1, owner), decay=True)
            params.append(CParam(name if named else None, c_type))
        if [(p.type, p.name) for p in params] == [("void", None)]:
            return ()
        return tuple(params)

    def declarator(self, children: Sequence[Tree[Token] | Token], where: str, role: str, *,
                   index: tuple[int, str] | None = None, noun: str = "", decay: bool = False
                   ) -> tuple[str, str | None]:
        """(canonical type, name) of one declarator: words, then arrays (a parameter's decays to a pointer,
        as C adjusts it) or a function pointer `(CONVENTION *name)(params)`."""
        tokens = self.plain(children)
        trees = [child for child in children if isinstance(child, Tree)]
        callback = next((t for t in trees if t.data == "callback"), None)
        if callback is not None:
            return self.callback(tokens, callback, where, role)
        self.no_caret(tokens, where)
        c_type, name = split_declarator([str(t) for t in tokens])
        if self.kernel and len([w for w in c_type.replace("*", " ").split() if w not in self.qualifiers]) > 1:
            raise self.spec.error(self.at(tokens[0]), f"`{c_type}` is no type of OpenCL C in {where}: one type, "
                                  "its qualifiers and the name (is a `,` or `;` missing?)")
        problem = type_problem(c_type) if index and not self.kernel else None  # a typedef's words are C's to judge
        if problem:
            raise self.spec.error(self.at_node(trees[0]) if not tokens else self.at(tokens[0]), f"{problem} in {where}")
        label = f"parameter {name or index[0]} of {index[1]}" if index else f"{noun or role} {name}"
        if not self.kernel:
            self.check(tokens, name, label, role)
        arrays = [t for t in trees if t.data == "array"]
        if decay and len(arrays) > 1:
            raise self.spec.error(self.at_node(arrays[1]), f"an array of arrays as {role}: the generated "
                                  "declarations take a parameter of one dimension (a pointer) only")
        if decay and arrays:
            return c_type + " *", name
        sizes = "".join(f" [{' '.join(str(t) for t in a.children)}]" for a in arrays)
        return c_type + sizes, name

    def callback(self, head: list[Token], node: Tree[Token], where: str, role: str) -> tuple[str, str | None]:
        """`RET (CONVENTION *name)(params)` as `RET ( * )(T1, T2)`: the spelling `data/opencl_core.json` gives
        core callbacks; the calling convention (a macro of the headers) and the arguments' names are left out,
        as the declarations of the package's own callbacks leave them."""
        return_type, _ = split_declarator([str(t) for t in head])
        if not self.kernel and (problem := type_problem(return_type)):
            raise self.spec.error(self.at(head[0]), f"{problem} as what a function pointer returns, in {where}")
        inner = self.plain(node.children)
        if not inner:
            raise self.spec.error(self.at_node(node), f"a function pointer in {where} is written `(*name)`")
        most = self.language.pointer_levels if self.kernel else 1
        if self.depth >= most:  # the IR spells one level of the host's; and Python's stack is no deeper
            why = f"nested more than {most} deep" if self.kernel else "no function of the host API takes one"
            raise self.spec.error(self.at(inner[0]), f"a function pointer inside a function pointer's parameters, "
                                  f"in {where}: {why}")
        stars = [i for i, token in enumerate(inner) if token.type in ("STAR", "CARET")]
        if not stars or any(t.type != inner[stars[0]].type for t in inner[stars[0] : len(inner) - 1]):
            raise self.spec.error(self.at(inner[0]), f"a function pointer in {where} is written `(*name)`")
        names = [t for t in inner[stars[0] :] if t.type == "IDENTIFIER"]
        name = str(names[0]) if names else None
        if not self.kernel:
            self.check(inner, name, f"{role} {name}", role)
        listed = [c for c in node.children if isinstance(c, Tree)]
        if not listed and not self.kernel:
            raise self.spec.error(self.closing(node), _EMPTY.format(f"a function pointer in {where}"))
        self.depth += 1
        try:
            params = self.parameters(listed, where, "a function pointer", named=False)
        finally:
            self.depth -= 1
        arguments = ", ".join(p.type for p in params) or "void"
        return f"{return_type} ( {' '.join(str(inner[i]) for i in stars)} )({arguments})", name

    def at_node(self, node: Tree[Token]) -> Pos:
        return grammars.shift(self.origin, node.meta.line, node.meta.column)

    def closing(self, node: Tree[Token]) -> Pos:
        """Where the `)` that ends `node` stands."""
        return grammars.shift(self.origin, node.meta.end_line, node.meta.end_column - 1)

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

    def no_caret(self, tokens: Sequence[Token], where: str) -> None:
        """A `^` stands only in a block's `(^name)` (read by `callback`), never among a declarator's words."""
        if caret := next((t for t in tokens if t.type == "CARET"), None):
            raise self.spec.error(self.at(caret), f"a `^` stands only before a block's name, `(^name)`, in {where}")

    def at(self, token: Token) -> Pos:
        return grammars.shift(self.origin, token.line or 1, token.column or 1)


def is_blank(text: str) -> bool:
    """Nothing but white space and comments (`/* ... */`, `//` to the line end), as the grammar skips them.

    Read with `str.find` from where the last comment ended, so that many unclosed `/*` cost one look each.
    """
    at = 0
    while at < len(text):
        if text[at].isspace():
            at += 1
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            if end == -1:
                return False
            at = end + 2
        elif text.startswith("//", at):
            end = text.find("\n", at)
            at = len(text) if end == -1 else end + 1
        else:
            return False
    return True
