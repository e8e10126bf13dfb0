"""The C side of the package model: the extension's types for its cdef (in dependency order), the C integer
types' ranges as this machine's compiler has them, and how each parameter and result passes between Python
and C."""

from __future__ import annotations

from collections.abc import Iterable

import cffi

from generator.base import naming
from generator.base.c_decl import base_type
from generator.base.knowledge import Knowledge
from generator.emission.package_model import ParamKind, ResultKind, TypeDecl
from generator.ir.model import Extension, TypeInfo

#: C integer types cffi knows, by the name a type chain ends in.
_INTEGER_TYPES = {
    "char", "short", "int", "long", "unsigned int", "size_t", "intptr_t", "uintptr_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
}


#: Sizes and signedness of those types, as the C compiler of this machine has them.
_C = cffi.FFI()


#: The IR's kinds of type C knows only by name (`typedef struct T T;`): COM interfaces, and the types a text
#: uses only behind a pointer without defining them.
_OPAQUE_KINDS = ("interface", "opaque")


def model_types(types: Iterable[TypeInfo], knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """The extension's own types for its cdef: opaque interfaces first, then typedefs in dependency order."""
    declared: list[TypeDecl] = []
    for info in types:
        if info.name in knowledge.core_types:
            continue
        naming.identifier(info.name, info.source, "type")
        if info.kind in _OPAQUE_KINDS:
            declared.append(TypeDecl(info.name, None))
        elif info.c_type:
            declared.append(TypeDecl(info.name, info.c_type, info.members))
    # structs last: their members may be any of the others
    return _dependency_order(sorted(declared, key=lambda t: (t.c_type is not None, bool(t.members), t.name)))


def _dependency_order(declared: list[TypeDecl]) -> tuple[TypeDecl, ...]:
    """`declared` in its order, except that each type comes after the one it is made of (a loop, which merge
    refuses, ends where it closes; a long chain costs no recursion)."""
    by_name = {t.name: t for t in declared}
    ordered: dict[str, TypeDecl] = {}
    for decl in declared:
        chain: dict[str, TypeDecl] = {}
        link: TypeDecl | None = decl
        while link is not None and link.name not in ordered and link.name not in chain:
            chain[link.name] = link
            link = by_name.get(base_type(link.c_type)) if link.c_type else None
        ordered.update(reversed(chain.items()))
    return tuple(ordered.values())


def model_core_types(knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """Every core OpenCL type, each after the types it is made of."""
    return _dependency_order([TypeDecl(name, str(knowledge.core_types[name]["c_type"]))
                              for name in sorted(knowledge.core_types)])


#: The widest C integer constant: any token outside it cannot be written in C at all.
_ANY_TOKEN = (-(1 << 63), (1 << 64) - 1)


def integer_range(c_type: str, types: dict[str, str | None]) -> tuple[int, int] | None:
    """The values a C integer type holds (through its typedefs), or None when it is no integer type."""
    c_type = _underlying(c_type, types)
    if c_type not in _INTEGER_TYPES:
        return None
    bits = 8 * _C.sizeof(c_type)
    if int(_C.cast(c_type, -1)) < 0:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def check_token_values(ir: Extension, types: dict[str, str | None], knowledge: Knowledge) -> None:
    """Every token fits the C type of its group (error codes: the error type); any other, 64 bits.

    A value the generated constants and checks could not hold is an input error at the token.
    """
    group_types = {g.name: knowledge.error_type if g.kind == "error" else g.c_type for g in ir.token_groups}
    for token in ir.tokens:
        if token.value is None:
            continue
        c_type = group_types.get(token.group) if token.group else None
        low, high = (c_type and integer_range(c_type, types)) or _ANY_TOKEN
        if not low <= token.value <= high:
            raise naming.error_at(token.source, f"{token.name} = {token.value} does not fit "
                                  f"{c_type or 'a 64-bit C integer'} ({low}..{high})")


def token_values(ir: Extension, knowledge: Knowledge) -> dict[str, int]:
    values = {name: int(entry["value"]) for name, entry in knowledge.core_constants.items()}
    values.update({t.name: t.value for t in ir.tokens if t.value is not None})
    return values


def type_map(ir: Extension, knowledge: Knowledge) -> dict[str, str | None]:
    """Type name -> what it is defined as (None: opaque or a handle)."""
    types: dict[str, str | None] = {}
    for name, entry in knowledge.core_types.items():
        types[name] = None if entry["kind"] == "handle" else str(entry["c_type"])
    for info in ir.types:
        types.setdefault(info.name, None if info.kind in _OPAQUE_KINDS else info.c_type)
    return types


def _underlying(c_type: str, types: dict[str, str | None]) -> str:
    """The type at the end of `c_type`'s typedef chain, however long (a loop, which merge refuses, ends too)."""
    seen = {c_type}
    while c_type in types and types[c_type] is not None and str(types[c_type]) not in seen:
        c_type = str(types[c_type])
        seen.add(c_type)
    return c_type


def resolves_to_integer(c_type: str, types: dict[str, str | None]) -> bool:
    return _underlying(c_type, types) in _INTEGER_TYPES


def param_kind(c_type: str, types: dict[str, str | None], knowledge: Knowledge) -> tuple[ParamKind, str | None]:
    base = base_type(c_type)
    pointers = c_type.count("*")
    if pointers == 0:
        if knowledge.is_handle(base):
            return "handle", None
        return ("integer", None) if resolves_to_integer(base, types) else ("value", None)
    typed = knowledge.is_handle(base) or resolves_to_integer(base, types)
    if pointers == 1 and c_type.startswith("const ") and base not in ("void", "char") and typed:
        return "array", base
    return "pointer", None


def result_kind(c_type: str, types: dict[str, str | None], knowledge: Knowledge) -> ResultKind:
    if c_type == knowledge.error_type:
        return "status"
    if c_type == "void":
        return "none"
    return "handle" if knowledge.is_handle(c_type) else "value"
