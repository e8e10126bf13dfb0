"""The IR's records are its one declaration (generator/ir/codec.py): the YAML form follows their fields, the
schema agrees with them, the front half's drafts have the same fields, and a new field needs nothing else."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import textwrap
import typing
from pathlib import Path
from typing import Any

import pytest

from generator.base.diagnostics import Location
from generator.ir import codec, files, model, read
from generator.merging import draft
from generator.pipeline import Result
from tests.support import GENERATED, ROOT

#: What a draft holds beside the IR's fields while the front half works: the literal spelling of a value.
WORKING = {"Token": ("literal",)}


def records() -> list[tuple[type, str]]:
    """Each record the IR holds, and the JSON pointer of its object in the schema."""
    found: list[tuple[type, str]] = []

    def visit(record: type, pointer: str) -> None:
        found.append((record, pointer))
        for key in codec.keys(record):
            kind = key.kind
            if typing.get_origin(kind) is tuple and key.pairs is None and key.convert is None:
                inner, pointer_of = typing.get_args(kind)[0], f"{pointer}/properties/{key.key}/items"
            else:
                inner, pointer_of = codec.not_none(kind), f"{pointer}/properties/{key.key}"
            if dataclasses.is_dataclass(inner) and inner is not Location and key.convert is None:
                visit(typing.cast(type, inner), pointer_of)

    visit(model.Extension, "")
    return found


def schema_object(pointer: str) -> dict[str, Any]:
    """The schema's object at `pointer`, through its references."""
    schema = files.schema()
    node: dict[str, Any] = schema
    for part in pointer.split("/")[1:]:
        node = node[part]
        while "$ref" in node:
            node = schema["$defs"][node["$ref"].removeprefix("#/$defs/")]
    return node


@pytest.mark.parametrize(("record", "pointer"), records(), ids=lambda r: getattr(r, "__name__", r))
def test_the_schema_has_each_key_of_the_record_and_no_other(record: type, pointer: str) -> None:
    keys = codec.keys(record)
    written = {k.key for k in keys} | {k.column for k in keys if k.column}
    always = {k.key for k in keys if k.omit is None}
    schema = schema_object(pointer)
    assert set(schema["properties"]) == written
    assert set(schema.get("required", ())) <= always, "the schema requires a key the record leaves out"
    cannot_miss = {k.key for k in keys if k.default is codec._NO_VALUE}
    assert cannot_miss <= set(schema.get("required", ())), "a key the schema lets go has no value to read as"
    assert not any(k.omit is not None and k.default is codec._NO_VALUE for k in keys)
    assert schema.get("additionalProperties") is False


def test_every_record_of_the_model_is_reached() -> None:
    """A record no field leads to would have no schema checked against it."""
    reached = {record for record, _ in records()}
    declared = {c for c in vars(model).values() if isinstance(c, type) and dataclasses.is_dataclass(c)
                and c.__module__ == model.__name__}
    assert declared == reached


@pytest.mark.parametrize("name", ["Param", "ErrorCondition", "Function", "TokenGroup", "Token", "Table", "Source",
                                  "Extension"])
def test_a_draft_has_the_fields_of_its_record_in_the_same_order(name: str) -> None:
    ours = [f.name for f in dataclasses.fields(getattr(draft, name)) if not f.name.startswith("_")]
    theirs = [f.name for f in dataclasses.fields(getattr(model, name)) if f.init and not f.name.startswith("_")]
    assert ours == theirs + list(WORKING.get(name, ()))


def test_the_records_the_front_half_only_makes_are_the_irs_own() -> None:
    amended = {"Param", "ErrorCondition", "Function", "TokenGroup", "Token", "Table", "Source", "Extension"}
    shared = {name for name, c in vars(draft).items() if isinstance(c, type) and c.__module__ == model.__name__}
    assert shared == {r.__name__ for r, _ in records()} - amended


def test_a_record_goes_to_its_mapping_and_back_unchanged(seed_result: Result) -> None:
    for extension in seed_result.extensions:
        ir = read.record(extension)
        data = files.to_dict(ir)
        files.validate(data)
        assert read.from_dict(data) == ir
        assert files.to_dict(read.from_dict(data)) == data


def test_the_draft_and_its_record_give_the_same_mapping(seed_result: Result) -> None:
    for extension in seed_result.extensions:
        assert files.to_dict(read.record(extension)) == files.to_dict(extension)


def test_a_left_out_key_reads_as_the_default_and_a_set_one_is_written() -> None:
    where = codec.place("specs/x.txt:3")
    bare = model.Effect("acquire", where, objects="mem_objects")
    assert codec.encode(model.Effect, bare) == {"kind": "acquire", "source": "specs/x.txt:3", "objects": "mem_objects"}
    assert codec.decode(model.Effect, {"kind": "acquire", "source": "specs/x.txt:3", "objects": "mem_objects"}) == bare


NEW_FIELD = '''
    header: str | None = field(default=None, metadata=ir(omit=if_none))
'''


def test_a_new_field_touches_the_record_and_the_schema_only(tmp_path: Path) -> None:
    """CONTRIBUTING's recipe, done in a copy of the generator: a field added to a record and its key to the
    schema, and an IR holding it is written and read back; without the schema's key it is refused."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "data", copy / "data")
    model_file = copy / "generator" / "ir" / "model.py"
    text = model_file.read_text(encoding="utf-8")
    anchor = next(line for line in text.splitlines(keepends=True) if line.startswith("    members: tuple["))
    model_file.write_text(text.replace(anchor, anchor + NEW_FIELD.lstrip("\n")), encoding="utf-8")
    ir_file = next(GENERATED.glob("ir/*.yaml"))
    script = textwrap.dedent(f"""
        import dataclasses, sys
        from pathlib import Path
        from generator.ir import files, read
        ir = read.load(Path({str(ir_file)!r}))
        first = dataclasses.replace(ir.types[0], header="d3d11.h")
        edited = dataclasses.replace(ir, types=(first, *ir.types[1:]))
        out = Path(sys.argv[1])
        out.write_text(files.render(edited), encoding="utf-8")
        back = read.load(out)
        assert back == edited and back.types[0].header == "d3d11.h", back.types[0]
        assert "header: d3d11.h" in out.read_text(encoding="utf-8")
    """)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.yaml")], cwd=copy,
                              capture_output=True, text=True, timeout=120)

    refused = run()
    assert refused.returncode != 0 and "breaks the schema" in refused.stderr, refused.stderr
    schema_file = copy / "generator" / "ir" / "ir.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    schema["properties"]["types"]["items"]["properties"]["header"] = {"type": "string"}
    schema_file.write_text(json.dumps(schema), encoding="utf-8")
    done = run()
    assert done.returncode == 0, done.stderr


def test_a_left_out_key_the_schema_allows_reads_as_empty_not_none(seed_result: Result) -> None:
    data = files.to_dict(read.record(seed_result.extensions[0]))
    del data["metadata"]
    table = data["tables"][0]
    del table["row_sources"]
    files.validate(data)
    back = read.from_dict(data)
    assert back.metadata == {} and back.tables[0].row_sources == ()


def test_a_foreign_function_without_a_prototype_has_no_parameters() -> None:
    bare = codec.decode(model.Function, {"name": "clOther", "errors": [], "source": "specs/x.txt:3", "external": True})
    assert bare.params == () and bare.return_type is None


def test_a_record_is_written_as_its_draft_was_even_where_plain_would_change_it_again(seed_result: Result) -> None:
    """`plain` makes `<name>` a word: a record's texts are plain already, and `<<anchor>>` would lose a bracket
    more on each write."""
    extension = seed_result.extensions[0]
    error = extension.functions[0].errors[0]
    kept = error.condition
    try:
        error.condition = "see <<anchor>> for <flags>"
        once = files.to_dict(extension)
        assert files.to_dict(read.from_dict(once)) == once
    finally:
        error.condition = kept
