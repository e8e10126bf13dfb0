"""A token's value fits the C type of its group: a fact of the IR, checked where the IR is made (`emit`: an
error at the token in the spec) and where an IR file is read (`read.load`: an error at the value in the file),
so no IR with a value its type cannot hold is written, and a hand-edited one is refused when it is read.
C integer types' ranges are this machine's compiler's.
"""

from __future__ import annotations

import cffi

from generator.base import naming
from generator.base.knowledge import Knowledge
from generator.ir.model import Extension

#: C integer types cffi knows, by the name a type chain ends in.
_INTEGER_TYPES = {
    "char", "short", "int", "long", "unsigned int", "size_t", "intptr_t", "uintptr_t",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
}


#: Sizes and signedness of those types, as the C compiler of this machine has them.
_C = cffi.FFI()


#: The IR's kinds of type C knows only by name (`typedef struct T T;`): COM interfaces, and the types a text
#: uses only behind a pointer without defining them.
OPAQUE_KINDS = ("interface", "opaque")


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


def check_token_values(ir: Extension, knowledge: Knowledge) -> None:
    """An input error at the first token, in its spec, whose value its type cannot hold."""
    found = misfit(ir, knowledge)
    if found is not None:
        index, message = found
        raise naming.error_at(ir.tokens[index].source, message)


def misfit(ir: Extension, knowledge: Knowledge) -> tuple[int, str] | None:
    """The first token (its index, and why) whose value does not fit the C type of its group (error codes: the
    error type; any other token: 64 bits): the generated constants and checks could not hold it."""
    types = type_map(ir, knowledge)
    group_types = {g.name: knowledge.error_type if g.kind == "error" else g.c_type for g in ir.token_groups}
    for index, token in enumerate(ir.tokens):
        if token.value is None:
            continue
        c_type = group_types.get(token.group) if token.group else None
        low, high = (c_type and integer_range(c_type, types)) or _ANY_TOKEN
        if not low <= token.value <= high:
            return index, f"{token.name} = {token.value} does not fit {c_type or 'a 64-bit C integer'} ({low}..{high})"
    return None


def type_map(ir: Extension, knowledge: Knowledge) -> dict[str, str | None]:
    """Type name -> what it is defined as (None: opaque or a handle)."""
    types: dict[str, str | None] = {}
    for name, entry in knowledge.core_types.items():
        types[name] = None if entry["kind"] == "handle" else str(entry["c_type"])
    for info in ir.types:
        types.setdefault(info.name, None if info.kind in OPAQUE_KINDS else info.c_type)
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
