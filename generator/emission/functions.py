"""The package model of one C function: each parameter classified by how Python values become C arguments,
its checks compiled from the IR's predicates, its effects, its error cases, and the C types its fast paths
compare with."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Literal

from generator.base import naming
from generator.base.knowledge import Knowledge, PackageConfig
from generator.base.predicates import Acquired, AllOf, Compare, IsNull, MemberOf, Not, Predicate, Released, Wrapped
from generator.base.type_spelling import base_type
from generator.emission.c_types import param_kind, result_kind
from generator.emission.layout import flat
from generator.emission.package_model import CheckModel, Condition, EffectModel, ErrorCase, FunctionModel, ParamModel
from generator.emission.predicates import (
    PredicateError,
    Scope,
    host_expression,
    state_expression,
    state_keys,
    token_names,
)
from generator.emission.pythonic_model import PythonicFunction
from generator.ir.model import Effect, Function
from generator.ir.values import resolves_to_integer


def model_fast_paths(
    functions: Iterable[FunctionModel], pythonic: Iterable[PythonicFunction],
) -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """The C types the wrappers compare arguments with, resolved once per module: each spelling the templates
    use (a parameter's type, an array's `T *` and `T[]`, a Pythonic list's `T` and `T[]`, an out-parameter's
    `T *`) with the name of its constant; each integer parameter type with the names of its bounds."""
    spellings: list[str] = []
    integers: list[str] = []
    for function in functions:
        for param in function.params:
            if param.kind == "integer":
                integers.append(param.c_type)
            elif param.kind == "array":
                spellings += [f"{param.element} *", f"{param.element}[]"]
            elif param.kind in ("handle", "pointer", "error_out"):
                spellings.append(param.c_type)
    for python in pythonic:
        for argument in python.arguments:
            if argument.role in ("sequence", "wait_list"):
                spellings += [str(argument.element), f"{argument.element}[]"]
            elif argument.role in ("out_handle", "out_count"):
                spellings.append(f"{argument.element} *")
            elif argument.role == "out_list":
                spellings.append(f"{argument.element}[]")
    taken: set[str] = set()
    names = {spelling: _fast_name("_type_", spelling, taken) for spelling in dict.fromkeys(spellings)}
    ranges = {c_type: (_fast_name("_min_", c_type, taken), _fast_name("_max_", c_type, taken))
              for c_type in dict.fromkeys(integers)}
    return names, ranges


#: The words of a C type's spelling: names, `*` and `[]`.
_TYPE_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\*|\[\]")


def _fast_name(prefix: str, spelling: str, taken: set[str]) -> str:
    """`cl_mem *` -> `_type_cl_mem_ptr`, `cl_mem[]` -> `_type_cl_mem_array`; unique within the module."""
    words = [{"*": "ptr", "[]": "array"}.get(w, w) for w in _TYPE_WORDS.findall(spelling)]
    name = prefix + "_".join(words)
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name}_{n}", n + 1
    taken.add(unique)
    return naming.identifier(unique, None, "type constant")


def model_function(
    function: Function, types: dict[str, str | None], values: dict[str, int], knowledge: Knowledge,
    config: PackageConfig,
) -> FunctionModel:
    """A function with each parameter classified by how Python values become C arguments.

    `types` maps each type name to what it is defined as (None: opaque or a handle).
    """
    name = naming.identifier(function.name, function.source, "function")
    returns = function.return_type
    if returns is None:
        raise naming.error_at(function.source, f"{function.name}: no prototype, so it cannot be wrapped")
    error_type = knowledge.error_type
    params = []
    error_param = None
    for param in function.params:
        naming.identifier(param.name, function.source, "parameter")
        kind, element = param_kind(param.type, types, knowledge)
        if param.type == f"{error_type} *" and returns != error_type and error_param is None:
            kind, error_param = "error_out", param.name
        base = base_type(param.type)
        exact = kind in ("handle", "pointer", "error_out") and (
            knowledge.is_handle(base) or resolves_to_integer(base, types))
        params.append(ParamModel(param.name, param.type, kind, element, param.description, exact,
                                 element is not None and knowledge.is_handle(element)))
    if config.count_before_array:
        params = _link_counts(params, config.core_types["count"])
    anchor = next((p for p in params if p.c_type in config.handles), None)
    counts = {p.name: p.count for p in params if p.count}
    checks = model_checks(function, Scope(values, counts, frozenset(p.name for p in params)))
    effects = tuple(model_effect(effect, counts) for effect in function.effects)
    read = [c.keys for c in checks if c.keys] + [e.objects for e in effects if e.objects]
    params = [replace(p, access=_access(p, set(read))) for p in params]
    return FunctionModel(
        name=name,
        pointer_type=naming.identifier(config.function_pointer_type.format(function=name), function.source),
        return_type=returns,
        result=result_kind(returns, types, knowledge),
        params=tuple(params),
        anchor=anchor.name if anchor else None,
        anchor_kind=config.handles[anchor.c_type] if anchor else None,
        error_param=error_param,
        errors=model_error_cases(function, values),
        source=function.source,
        checks=checks,
        effects=effects,
        keys=tuple((name, counts[name]) for name in dict.fromkeys(read)),
    )


def _access(param: ParamModel, read: set[str]) -> Literal["in", "out", ""]:
    """What is done where a typed pointer points: a `const T *` array and a list the package reads for its state
    are read ("in"); any other typed pointer is where C writes ("out"); anything else is passed on ("")."""
    if param.kind == "array" or (param.kind == "pointer" and param.exact and param.name in read):
        return "in"
    return "out" if param.kind == "error_out" or (param.kind == "pointer" and param.exact) else ""


def model_checks(function: Function, scope: Scope) -> tuple[CheckModel, ...]:
    """Every host clause of the function's conditions compiled to a test, then every state clause."""
    checks: dict[tuple[str, str, str], CheckModel] = {}
    for error in function.errors:
        for clause in error.check:
            if clause.kind == "driver" or error.code not in scope.values:
                continue
            compile_ = host_expression if clause.kind == "host" else state_expression
            if clause.predicate is None:
                continue
            try:
                expression = compile_(clause.predicate, scope)
            except PredicateError as failed:
                message = f"{function.name}: cannot check {clause.text!r}: {failed}"
                raise naming.error_at(error.source, message) from None
            test = flat(expression)
            key = (clause.kind, test, error.code)
            condition = Condition(error.condition, error.source.cited())
            same = checks.get(key)
            if same is None:
                state = clause.kind == "state"
                checks[key] = CheckModel(clause.kind, test, error.code, scope.values[error.code],
                                         (clause.text,), (condition,), _mentioned(clause.predicate),
                                         state_keys(clause.predicate) if state else None,
                                         clause.predicate.notation if state else None,
                                         "" if state else token_names(clause.predicate, scope), expression)
            elif clause.text not in same.clauses:
                checks[key] = replace(same, clauses=(*same.clauses, clause.text),
                                      conditions=(*same.conditions, condition))
    return tuple(sorted(checks.values(), key=lambda c: c.kind != "host"))  # stable: spec order within each


def _mentioned(predicate: Predicate) -> tuple[str, ...]:
    """The parameter names a predicate reads, in order of mention."""
    match predicate:
        case IsNull(param) | Compare(param) | MemberOf(param):
            return (param,)
        case Not(operand):
            return _mentioned(operand)
        case AllOf(operands):
            return tuple(dict.fromkeys(name for operand in operands for name in _mentioned(operand)))
        case Acquired(objects) | Released(objects):
            return (objects,)
        case Wrapped(context, resource, subresource):
            return tuple(dict.fromkeys((context, resource, *((subresource,) if subresource else ()))))
    raise AssertionError(predicate)


def model_effect(effect: Effect, counts: dict[str, str]) -> EffectModel:
    """An IR effect with the length parameter of its objects."""
    objects = effect.objects
    if objects and objects not in counts:
        raise naming.error_at(effect.source, f"<{objects}> is a list with no parameter that gives its length")
    return EffectModel(effect.kind, objects, counts.get(objects) if objects else None,
                       effect.scope, effect.resource, effect.subresource)


def _link_counts(params: list[ParamModel], count_type: str) -> list[ParamModel]:
    """Each pointer parameter right after a parameter of the count type is an array of that length."""
    linked = list(params)
    for i in range(1, len(params)):
        before, param = params[i - 1], params[i]
        if before.c_type == count_type and (param.kind == "array" or (param.kind == "pointer" and param.exact)):
            linked[i] = replace(param, count=before.name)
    return linked


def model_error_cases(function: Function, values: dict[str, int]) -> tuple[ErrorCase, ...]:
    """The function's error codes in spec order, each with all its conditions; codes with no known value left out."""
    cases: dict[str, list[Condition]] = {}
    for error in function.errors:
        if error.code in values and naming.IDENTIFIER.match(error.code):
            classes = tuple(clause.kind for clause in error.check)
            cases.setdefault(error.code, []).append(Condition(error.condition, error.source.cited(), classes,
                                                              error.damaged is not None))
    return tuple(ErrorCase(code, values[code], tuple(conditions)) for code, conditions in cases.items())
