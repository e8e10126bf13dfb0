"""The C side of the package model: the extension's types for its cdef (in dependency order), and how each
parameter and result passes between Python and C."""

from __future__ import annotations

from collections.abc import Iterable

from generator.base import naming
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type
from generator.emission.package_model import ParamKind, ResultKind, TypeDecl
from generator.ir.model import Extension, TypeInfo
from generator.ir.values import OPAQUE_KINDS, resolves_to_integer


def model_types(types: Iterable[TypeInfo], knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """The extension's own types for its cdef: opaque interfaces first, then typedefs in dependency order."""
    declared: list[TypeDecl] = []
    for info in types:
        if info.name in knowledge.core_types:
            continue
        naming.identifier(info.name, info.source, "type")
        if info.kind in OPAQUE_KINDS:
            declared.append(TypeDecl(info.name, None))
        elif info.c_type:
            declared.append(TypeDecl(info.name, info.c_type, info.members))
    # structs last: their members may be any of the others
    return _dependency_order(sorted(declared, key=lambda t: (t.c_type is not None, bool(t.members), t.name)))


def _dependency_order(declared: list[TypeDecl]) -> tuple[TypeDecl, ...]:
    """`declared` in its order, except that each type comes after those it is made of: the type it names and its
    members' (a loop, which merge refuses, ends where it closes; a struct may point to itself). Depth first with
    a stack of its own: a long chain costs no recursion."""
    by_name = {t.name: t for t in declared}
    ordered: dict[str, TypeDecl] = {}
    for decl in declared:
        if decl.name in ordered:
            continue
        stack = [(decl, iter(_parts(decl)))]
        on_path = {decl.name}
        while stack:
            node, parts = stack[-1]
            part = next((by_name[p] for p in parts if p in by_name and p not in ordered and p not in on_path), None)
            if part is None:
                stack.pop()
                on_path.discard(node.name)
                ordered[node.name] = node
            else:
                on_path.add(part.name)
                stack.append((part, iter(_parts(part))))
    return tuple(ordered.values())


def _parts(decl: TypeDecl) -> list[str]:
    """The names of the types `decl` is made of."""
    return [base_type(c_type) for c_type in ([decl.c_type] if decl.c_type else []) + [t for _, t in decl.members]]


def model_core_types(knowledge: Knowledge) -> tuple[TypeDecl, ...]:
    """Every core OpenCL type, each after the types it is made of."""
    return _dependency_order([TypeDecl(name, str(knowledge.core_types[name]["c_type"]))
                              for name in sorted(knowledge.core_types)])


def token_values(ir: Extension, knowledge: Knowledge) -> dict[str, int]:
    values = {name: int(entry["value"]) for name, entry in knowledge.core_constants.items()}
    values.update({t.name: t.value for t in ir.tokens if t.value is not None})
    return values


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
