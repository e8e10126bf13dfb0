"""The IR read back as typed objects (generator/ir/read.py): from the file and from the front half's record alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.source import Pos
from generator.ir import codec, files, read
from generator.pipeline import Result


def test_places_split_at_the_last_colons() -> None:
    assert codec.place("specs/a:b.txt:7") == Location("specs/a:b.txt", Pos(7, 1))
    assert codec.precise_place("specs/a:b.txt:7:30") == Location("specs/a:b.txt", Pos(7, 30))


def test_the_file_and_the_front_halfs_record_give_the_same_ir(seed_result: Result, tmp_path: Path) -> None:
    """The package and the docs are made from what `record` gives: it must be what `diff` reads from the file."""
    for extension in seed_result.extensions:
        path = tmp_path / f"{extension.name}.yaml"
        path.write_text(files.render(extension), encoding="utf-8")
        assert read.load(path) == read.record(extension)


def test_a_value_its_type_cannot_hold_is_refused_where_the_ir_is_read(seed_result: Result, tmp_path: Path) -> None:
    data = files.checked(seed_result.extensions[0])
    token = next(t for t in data["tokens"] if t["group"] and t["value"] is not None)
    token["value"] = 1 << 40
    (path := tmp_path / "edited.yaml").write_text(files.yaml_text(data), encoding="utf-8")
    with pytest.raises(InputError, match=f"{token['name']} = {1 << 40} does not fit") as caught:
        read.load(path)
    assert caught.value.path == str(path) and f"value: {1 << 40}" in caught.value.render()
