"""The IR schema (JSON Schema 2020-12) compiled once into plain Python checks.

A general validator walks the schema for every value it checks; this one turns
each schema node into a closure that tests only what that node says, which is
about twenty times faster on an IR and saves importing a validator at all
(`jsonschema` took 75 ms to import and 90 ms to check the four IRs; this takes
a few milliseconds). It knows the keywords the IR schema uses and refuses a
schema with any other, so the schema cannot outgrow it unnoticed; the tests
check it against `jsonschema` itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

#: Where an error is (keys and indexes from the top) and what it is.
Error = tuple[tuple[str | int, ...], str]
#: A compiled schema node: the errors of a value, `()` when there are none.
Check = Callable[[Any], list[Error] | tuple[()]]

_VALID: tuple[()] = ()
_ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "examples", "default", "$defs"}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class UnsupportedSchema(ValueError):
    """The schema uses a keyword this compiler does not implement."""


def compile_schema(root: dict[str, Any]) -> Check:
    """A check for values against `root`; its `$ref`s point into its own `$defs`."""
    compiled: dict[str, Check] = {}

    def reference(target: str) -> Check:
        prefix = "#/$defs/"
        if not target.startswith(prefix) or target[len(prefix):] not in root.get("$defs", {}):
            raise UnsupportedSchema(f"$ref {target!r} is not one of the schema's own $defs")
        name = target[len(prefix):]

        def check(value: Any) -> list[Error] | tuple[()]:  # resolved on first use: definitions may recurse
            if name not in compiled:
                compiled[name] = node(root["$defs"][name])
            return compiled[name](value)

        return check

    def node(schema: dict[str, Any] | bool) -> Check:
        if schema is True:
            return lambda value: _VALID
        if schema is False:
            return lambda value: [((), "nothing is allowed here")]
        unknown = set(schema) - _KEYWORDS - _ANNOTATIONS
        if unknown:
            raise UnsupportedSchema(f"keywords {sorted(unknown)} are not supported")
        checks = [make(schema, node, reference) for keywords, make in _MAKERS.items() if schema.keys() & keywords]
        if len(checks) == 1:
            return checks[0]
        if len(checks) == 2:  # the common case (a type and its keywords), without the loop
            first, second = checks

            def both(value: Any) -> list[Error] | tuple[()]:
                found, more = first(value), second(value)
                return [*found, *more] if found and more else found or more

            return both

        def all_of(value: Any) -> list[Error] | tuple[()]:
            errors: list[Error] = []
            for check in checks:
                found = check(value)
                if found:
                    errors += found
            return errors or _VALID

        return all_of

    return node(root)


Compile = Callable[[dict[str, Any] | bool], Check]
Reference = Callable[[str], Check]


def _inside(key: str | int, errors: list[Error] | tuple[()]) -> list[Error]:
    return [((key, *path), message) for path, message in errors]


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 1.0 is 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _type(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    message = f"is not of type {' or '.join(names)}"
    if len(names) == 1:
        test = _TYPES[names[0]]
        return lambda value: _VALID if test(value) else [((), message)]
    tests = [_TYPES[name] for name in names]
    return lambda value: _VALID if any(test(value) for test in tests) else [((), message)]


def _ref(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    return reference(schema["$ref"])


def _enum(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    allowed = schema["enum"]
    message = f"is not one of {allowed!r}"
    return lambda value: _VALID if any(_same(value, a) for a in allowed) else [((), message)]


def _const(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    wanted = schema["const"]
    message = f"is not {wanted!r}"
    return lambda value: _VALID if _same(value, wanted) else [((), message)]


def _pattern(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    pattern = re.compile(schema["pattern"])
    message = f"does not match {schema['pattern']!r}"
    return lambda value: _VALID if not isinstance(value, str) or pattern.search(value) else [((), message)]


def _object(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    known = {key: node(sub) for key, sub in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    closed = schema.get("additionalProperties") is False  # then an unknown key is the object's error
    extra = None if closed else node(schema.get("additionalProperties", True))
    least = schema.get("minProperties", 0)

    def check(value: Any) -> list[Error] | tuple[()]:
        if not isinstance(value, dict):
            return _VALID
        errors: list[Error] = []
        for key, item in value.items():
            sub = known.get(key, extra)
            if sub is None:  # at the key itself, so that a reader of the document is pointed to it
                errors.append(((key,), f"{key!r} is not an allowed property"))
                continue
            found = sub(item)
            if found:
                errors += _inside(key, found)
        for key in required:
            if key not in value:
                errors.append(((), f"{key!r} is a required property"))
        if len(value) < least:
            errors.append(((), f"has fewer than {least} properties"))
        return errors or _VALID

    return check


def _array(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    first = [node(sub) for sub in schema.get("prefixItems", ())]
    rest = node(schema["items"]) if "items" in schema else None
    least, most = schema.get("minItems", 0), schema.get("maxItems")

    def check(value: Any) -> list[Error] | tuple[()]:
        if not isinstance(value, list):
            return _VALID
        errors: list[Error] = []
        if not first and rest is not None and least <= len(value) and most is None:  # the common case, quicker
            for index, item in enumerate(value):
                found = rest(item)
                if found:
                    errors += _inside(index, found)
            return errors or _VALID
        for index, item in enumerate(value):
            sub = first[index] if index < len(first) else rest
            if sub is not None:
                found = sub(item)
                if found:
                    errors += _inside(index, found)
        if len(value) < least:
            errors.append(((), f"has fewer than {least} items"))
        if most is not None and len(value) > most:
            errors.append(((), f"has more than {most} items"))
        return errors or _VALID

    return check


def _range(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    least, most = schema.get("minimum"), schema.get("maximum")

    def check(value: Any) -> list[Error] | tuple[()]:
        if not _TYPES["number"](value):
            return _VALID
        if least is not None and value < least:
            return [((), f"is less than the minimum of {least}")]
        if most is not None and value > most:
            return [((), f"is greater than the maximum of {most}")]
        return _VALID

    return check


def _if(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    condition = node(schema.get("if", True))
    then = node(schema.get("then", True))
    otherwise = node(schema.get("else", True))
    return lambda value: otherwise(value) if condition(value) else then(value)


def _not(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    negated = node(schema["not"])
    return lambda value: [((), "is allowed by a schema it must not match")] if not negated(value) else _VALID


def _one_of(schema: dict[str, Any], node: Compile, reference: Reference) -> Check:
    choices = [node(sub) for sub in schema["oneOf"]]

    def check(value: Any) -> list[Error] | tuple[()]:
        matching = sum(1 for choice in choices if not choice(value))
        if matching == 1:
            return _VALID
        return [((), "matches none of the alternatives" if matching == 0 else "matches more than one alternative")]

    return check


#: Each group of keywords that act together, and the function that compiles them into one check.
_MAKERS: dict[frozenset[str], Callable[[dict[str, Any], Compile, Reference], Check]] = {
    frozenset({"type"}): _type,
    frozenset({"$ref"}): _ref,
    frozenset({"enum"}): _enum,
    frozenset({"const"}): _const,
    frozenset({"pattern"}): _pattern,
    frozenset({"properties", "required", "additionalProperties", "minProperties"}): _object,
    frozenset({"prefixItems", "items", "minItems", "maxItems"}): _array,
    frozenset({"minimum", "maximum"}): _range,
    frozenset({"if", "then", "else"}): _if,
    frozenset({"not"}): _not,
    frozenset({"oneOf"}): _one_of,
}
_KEYWORDS = frozenset().union(*_MAKERS)
