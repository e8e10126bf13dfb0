"""The C declarations the package hands cffi (its cdefs), checked before cffi reads them.

cffi's errors name a line of the generated cdef and no place in a spec, and some of what it takes fails only
once the generated package calls the function (a parameter of type `void`, an interface passed by value).
Each such fault is an input error at the spec line that declares the name or type, and every one is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from generator.base.diagnostics import Location
from generator.base.errors import Gather
from generator.base.knowledge import Knowledge
from generator.base.naming import error_at
from generator.base.type_spelling import base_type, parts
from generator.emission.package_model import FunctionModel, TypeDecl
from generator.ir.model import Extension


def check(ir: Extension, functions: Sequence[FunctionModel], declared: Iterable[TypeDecl],
          knowledge: Knowledge) -> None:
    """Every name the extension's cdef declares is one C takes; every type it uses is declared, and complete
    where a value of it is passed."""
    declared = tuple(declared)
    types = {t.name: t.c_type for t in declared}
    sources = {t.name: t.source for t in ir.types}
    errors = Gather()
    taken = {name: "a core OpenCL function" for name in knowledge.core_functions}  # all C names share one scope
    for name, c_type in types.items():
        with errors.attempt():
            _c_name(name, sources.get(name), "type", knowledge)
            _claim(taken, name, sources.get(name), "type")
        for part in parts(c_type) if c_type is not None else ():
            if not knowledge.c_language.is_builtin(base_type(part)):
                with errors.attempt():
                    _declared(base_type(part), types, knowledge, sources.get(name), f"typedef {name}",
                              "its definition")
    for decl in declared:
        for member, member_type in decl.members:
            with errors.attempt():
                _c_name(member, sources.get(decl.name), f"member of {decl.name}", knowledge)
                for part in parts(member_type):
                    _declared(base_type(part), types, knowledge, sources.get(decl.name), f"typedef {decl.name}",
                              f"member {member!r}")
                _complete(member_type.partition(" [")[0], types, sources.get(decl.name),
                          f"typedef {decl.name}: member {member!r} holds")
    for function in functions:
        with errors.attempt():
            what = f"function pointer type of {function.name}"
            _c_name(function.pointer_type, function.source, what, knowledge)
            _claim(taken, function.pointer_type, function.source, what)
        for param in function.params:
            with errors.attempt():
                _c_name(param.name, function.source, f"parameter of {function.name}", knowledge)
            with errors.attempt():
                for part in parts(param.c_type):
                    _declared(base_type(part), types, knowledge, function.source, function.name,
                              f"parameter {param.name!r}")
                _complete(param.c_type, types, function.source, f"{function.name}: parameter {param.name!r} takes")
        with errors.attempt():
            _declared(base_type(function.return_type), types, knowledge, function.source, function.name,
                      "the return value")
            _complete(function.return_type, types, function.source, f"{function.name} returns", returned=True)
    errors.check()


def _c_name(name: str, source: Location | None, what: str, knowledge: Knowledge) -> None:
    if why := knowledge.c_language.refuses(name):
        raise error_at(source, f"{what} {name!r} is {why}; the C declarations cannot use it as a name")


def _claim(taken: dict[str, str], name: str, source: Location | None, what: str) -> None:
    if name in taken:
        raise error_at(source, f"{what} {name!r} is declared twice in the C declarations: also as {taken[name]}")
    taken[name] = f"the {what} at {source}"


def _declared(base: str, types: dict[str, str | None], knowledge: Knowledge, source: Location | None, owner: str,
              what: str) -> None:
    """C's, core OpenCL's or declared in the extension's cdef: else cffi could not read the declarations."""
    if base in types or base in knowledge.core_types or knowledge.is_c_type(base):
        return
    raise error_at(source, f"{owner}: the type {base} of {what} is defined nowhere the generated C declarations "
                 "could take it from: not by the text, nor by core OpenCL (data/opencl_core.json), nor as a platform "
                 "type (data/platform_types.json, which data/make_data.py makes from the platform's headers: a type "
                 "of another platform goes there, with its header)")


def _complete(c_type: str, types: dict[str, str | None], source: Location | None, what: str, *,
              returned: bool = False) -> None:
    """A value (not a pointer) of `c_type` has a size: neither `void` (but as what a function returns) nor an
    opaque type (an interface), also through the extension's typedefs."""
    written, seen = c_type, set()
    while "*" not in c_type and c_type not in seen:
        seen.add(c_type)
        base = base_type(c_type)
        shown = written if c_type == written else f"{written} (a typedef of {c_type})"
        if base == "void" and not returned:
            raise error_at(source, f"{what} a value of type {shown}, which has no size: C passes only a pointer to it")
        if base in types and types[base] is None:
            raise error_at(source, f"{what} a {shown} by value, an opaque type whose size C does not know: C passes "
                           "only a pointer to it")
        if base not in types:
            return
        c_type = str(types[base])
