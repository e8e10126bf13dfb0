"""The compiled IR schema agrees with `jsonschema`, the reference validator, on valid and broken IR."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import pipeline
from generator.base.schema import UnsupportedSchema, compile_schema
from generator.ir import files as ir
from tests.support import SPECS

Path = tuple[str | int, ...]


@cache
def seed_irs() -> tuple[dict[str, Any], ...]:
    return tuple(ir.to_dict(e) for e in pipeline.run(SPECS).extensions)


@cache
def reference() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(ir.schema())


def places(value: Any, path: Path = ()) -> Iterator[Path]:
    """Every path inside an IR document."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))


def at(document: Any, path: Path) -> Any:
    for step in path:
        document = document[step]
    return document


def error_paths_of_reference(document: Any) -> set[Path]:
    """jsonschema's error paths; an unknown key's error stands at the key (jsonschema puts it at its object)."""
    found: set[Path] = set()
    for error in reference().iter_errors(document):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and error.validator_value is False:
            found |= {(*path, key) for key in error.instance if key not in error.schema.get("properties", {})}
        else:
            found.add(path)
    return found


REPLACEMENTS = st.sampled_from([None, True, False, 0, 1, -1, 2**40, 1.5, "", "x", "CL_X", "cl_x", "clX", "a\n",
                                "0x10", [], [1], ["x"], {}, {"name": "x"}, {"zzz": 1}])


Edit = tuple[Path, str, str, Any]  # where, what (replace, remove, add), the key an add gives, the value


@st.composite
def edits(draw: st.DrawFn) -> tuple[int, list[Edit]]:
    """Which seed IR, and one to three values in it to replace, remove or add (a short repr when it fails)."""
    seed = draw(st.integers(0, len(seed_irs()) - 1))
    document = copy.deepcopy(seed_irs()[seed])
    done: list[Edit] = []
    for _ in range(draw(st.integers(1, 3))):
        edit = (draw(st.sampled_from(list(places(document))[1:])), draw(st.sampled_from(["replace", "remove", "add"])),
                draw(st.sampled_from(["extra", "name", "value", "type", "kind"])), draw(REPLACEMENTS))
        apply(document, edit)
        done.append(edit)
    return seed, done


def apply(document: Any, edit: Edit) -> None:
    path, action, key, value = edit
    parent, last = at(document, path[:-1]), path[-1]
    if action == "replace":
        parent[last] = copy.deepcopy(value)
    elif action == "remove":
        del parent[last]
    elif isinstance(parent, dict):
        parent[key] = copy.deepcopy(value)
    else:
        parent.append(copy.deepcopy(value))


def test_every_seed_ir_is_valid_for_both() -> None:
    check = compile_schema(ir.schema())
    for document in seed_irs():
        assert check(document) == ()
        assert error_paths_of_reference(document) == set()


@settings(max_examples=150, deadline=None)
@given(edits())
def test_a_broken_ir_has_the_errors_jsonschema_finds(recipe: tuple[int, list[Edit]]) -> None:
    seed, done = recipe
    document = copy.deepcopy(seed_irs()[seed])
    for edit in done:
        apply(document, edit)
    found = {path for path, _ in compile_schema(ir.schema())(document)}
    assert found == error_paths_of_reference(document)


@pytest.mark.parametrize(
    ("schema", "value", "valid"),
    [
        ({"type": "integer"}, True, False),
        ({"type": "integer"}, 3, True),
        ({"type": "number"}, 1.5, True),
        ({"enum": [1]}, True, False),
        ({"const": False}, 0, False),
        ({"pattern": "^a$"}, "a\n", True),  # Python's `$` before a final newline, as jsonschema does
        ({"pattern": "^a\\Z"}, "a\n", False),
        ({"prefixItems": [{"type": "string"}], "items": False}, ["a", "b"], False),
        ({"prefixItems": [{"type": "string"}], "items": False}, ["a"], True),
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, False),
        ({"if": {"const": 1}, "then": {"type": "integer"}, "else": {"type": "string"}}, 2, False),
        ({"not": {"type": "null"}}, None, False),
        ({"minProperties": 1}, {}, False),
        ({"additionalProperties": False, "properties": {"a": True}}, {"a": 1, "b": 2}, False),
        ({"minimum": -2, "maximum": 2**64}, 2**64, True),
        ({"minimum": -2, "maximum": 2**64}, 2**64 + 1, False),
        ({"minimum": -2, "maximum": 2**64}, -3, False),
        ({"minimum": -2}, "not a number", True),
        ({"maximum": 0}, True, True),
    ],
)
def test_keywords_behave_as_in_jsonschema(schema: dict[str, Any], value: Any, valid: bool) -> None:
    assert (compile_schema(schema)(value) == ()) is valid
    assert jsonschema.Draft202012Validator(schema).is_valid(value) is valid


@pytest.mark.parametrize("schema", [{"multipleOf": 2}, {"properties": {"a": {"format": "email"}}},
                                    {"$ref": "https://example.org/other.json"}])
def test_a_keyword_it_does_not_know_is_refused(schema: dict[str, Any]) -> None:
    with pytest.raises(UnsupportedSchema):
        compile_schema(schema)


def test_an_unknown_key_is_reported_at_the_key() -> None:
    """So that a reader of a hand-edited file is pointed to the line of the key, not of its object."""
    check = compile_schema({"properties": {"a": {"additionalProperties": False}}})
    assert check({"a": {"b": 1}}) == [(("a", "b"), "'b' is not an allowed property")]
