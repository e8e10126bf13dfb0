"""The reader of YAML and JSON files: the same values as PyYAML and json on good files, a located InputError on bad."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from generator.base import safeload
from generator.base.errors import InputError
from generator.base.source import Pos
from tests.support import GENERATED, ROOT

GOOD_YAML = sorted((GENERATED / "ir").glob("*.yaml")) + sorted((ROOT / "data").glob("*.yaml"))


def error_of(text: str, name: str = "x.yaml") -> InputError:
    with pytest.raises(InputError) as caught:
        safeload.parse_yaml(text, name)
    return caught.value


@pytest.mark.parametrize("path", GOOD_YAML, ids=lambda p: p.name)
def test_good_yaml_reads_as_pyyaml_reads_it(path: Path) -> None:
    assert safeload.load_yaml(path) == yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", sorted((ROOT / "data").glob("*.json")), ids=lambda p: p.name)
def test_good_json_reads_as_json_reads_it(path: Path) -> None:
    assert safeload.load_json(path) == json.loads(path.read_text(encoding="utf-8"))


def test_a_leading_byte_order_mark_and_crlf_line_ends_are_yaml_as_well(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\r\nb: [x, y]\r\n")
    assert safeload.load_yaml(path) == {"a": 1, "b": ["x", "y"]}


@pytest.mark.parametrize(
    ("text", "pos", "words"),
    [
        ("a: 1\nb: 2\na: 3\n", Pos(3, 1), "the key 'a' again"),
        ("a:\n  - &x 1\n  - *x\n", Pos(2, 5), "an anchor (&x)"),
        ("a: *x\n", Pos(1, 4), "an alias (*x)"),
        ("a: !!str 1\n", Pos(1, 4), "explicit tag"),
        ("a: 1\n---\nb: 2\n", Pos(2, 1), "a second YAML document"),
        ("1: a\n", Pos(1, 1), "1 as a key"),
        ("a: [1, 2\n", Pos(2, 1), "not valid YAML"),
        ("a: b\u2028c: \x07\n", Pos(2, 4), "U+0007"),  # U+2028 is a line break to YAML
        ("", Pos(1), "no YAML document"),
    ],
)
def test_a_fault_is_an_input_error_at_its_place(text: str, pos: Pos, words: str) -> None:
    error = error_of(text)
    assert (error.path, error.pos) == ("x.yaml", pos)
    assert words in error.message


def test_nesting_is_bounded_before_anything_is_built() -> None:
    """(A million levels, which crashed libyaml's composer, run in a child: tests/test_hostile_ir.py.)"""
    depth = safeload.MAX_DEPTH
    assert safeload.parse_yaml("[" * depth + "]" * depth, "x.yaml") is not None
    for text in ("[" * (depth + 1) + "]" * (depth + 1), "{a: " * 10_000, "- " * 10_000 + "x"):
        error = error_of(text)
        assert error.pos is not None and error.pos.line == 1 and error.pos.column <= 4 * depth + 1
        assert "nested more than" in error.message


def test_marks_place_a_mapping_value_at_its_key_and_an_item_at_itself() -> None:
    marks = safeload.yaml_marks("a:\n  b:\n    - x\n    - {c: 1}\n", "x.yaml")
    assert marks[("a",)] == Pos(1, 1) and marks[("a", "b")] == Pos(2, 3)
    assert marks[("a", "b", 0)] == Pos(3, 7) and marks[("a", "b", 1)] == Pos(4, 7)
    assert marks[("a", "b", 1, "c")] == Pos(4, 8)


def test_a_schema_error_stands_at_the_nearest_value_the_document_has() -> None:
    text = "a:\n  - {b: 1}\n  - {c: 2}\n"
    missing = safeload.schema_error("x.yaml", text, (("a", 1, "b"), "'b' is a required property"), "s.json")
    assert missing.pos == Pos(3, 5) and missing.line_text == "  - {c: 2}"
    assert "/a/1/b: 'b' is a required property" in missing.message
    assert safeload.schema_error("x.json", None, (("a",), "bad"), "s.json").pos is None


def test_a_file_past_the_limit_is_refused_where_it_passes_it(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("a: b\n" * 10, encoding="utf-8")
    assert safeload.read_text(path, limit=50) == "a: b\n" * 10
    with pytest.raises(InputError) as caught:
        safeload.read_text(path, limit=49)
    assert caught.value.pos == Pos(10, 5)


@pytest.mark.parametrize(
    ("text", "pos", "words"),
    [
        ('{"a": 1, "b": {"c": 1, "c": 2}}', None, "'c' stands twice"),
        ('{"a": NaN}', None, "NaN"),
        ('{"a": 1,,}', Pos(1, 9), "not valid JSON"),
        ("[" * 1_000_000, Pos(1, 65), "nested more than"),
        ('{"a": "' + "[" * 1000 + '", "b": "\\"[[["}', None, ""),  # brackets in strings are text
    ],
)
def test_json_faults(tmp_path: Path, text: str, pos: Pos | None, words: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    if not words:
        assert safeload.load_json(path)["b"] == '"[[['
        return
    with pytest.raises(InputError) as caught:
        safeload.load_json(path)
    assert caught.value.pos == pos and words in caught.value.message


def test_the_characters_refused_are_the_complement_of_yamls_printable_set() -> None:
    """The set is written as its complement; over every code point it refuses what YAML's printable set (less
    the byte-order mark, which may only open a stream) leaves out, and nothing else."""
    printable = re.compile("[\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
    every = "".join(map(chr, range(0x110000)))
    refused = [m.start() for m in safeload._NOT_PRINTABLE.finditer(every)]
    assert refused == [c for c in range(0x110000) if not printable.match(every[c])]
    assert 0xFEFF in refused and 0x85 not in refused
