"""The IR's records are its one declaration (generator/ir/codec.py): the YAML form follows their fields, the
schema agrees with them, the front half builds and amends these very records, and a new field needs nothing else."""

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
from generator.pipeline import Result
from tests.support import GENERATED, ROOT


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


def test_the_front_half_makes_the_irs_own_frozen_records(seed_result: Result) -> None:
    """No twin of a record to keep in step with it: what the pipeline gives is `ir.model`'s, frozen."""
    extension = seed_result.extensions[0]
    assert type(extension) is model.Extension
    assert {type(f) for f in extension.functions} == {model.Function}
    assert {type(e) for f in extension.functions for e in f.errors} == {model.ErrorCondition}
    assert {type(t) for t in (*extension.tokens, *extension.token_groups, *extension.tables, *extension.sources)} == {
        model.Token, model.TokenGroup, model.Table, model.Source}
    with pytest.raises(dataclasses.FrozenInstanceError):
        extension.functions[0].errors[0].damaged = "amended in place"  # type: ignore[misc]


def test_a_record_goes_to_its_mapping_and_back_unchanged(seed_result: Result) -> None:
    for extension in seed_result.extensions:
        ir = read.record(extension)
        data = files.to_dict(ir, read_back=True)
        files.validate(data)
        assert read.from_dict(data) == ir
        assert files.to_dict(read.from_dict(data), read_back=True) == data


def test_the_front_halfs_record_and_the_one_read_back_give_the_same_mapping(seed_result: Result) -> None:
    for extension in seed_result.extensions:
        assert files.to_dict(read.record(extension), read_back=True) == files.to_dict(extension)


def test_a_left_out_key_reads_as_the_default_and_a_set_one_is_written() -> None:
    where = codec.place("specs/x.txt:3")
    bare = model.Effect("acquire", where, objects="mem_objects")
    assert codec.encode(model.Effect, bare) == {"kind": "acquire", "source": "specs/x.txt:3", "objects": "mem_objects"}
    assert codec.decode(model.Effect, {"kind": "acquire", "source": "specs/x.txt:3", "objects": "mem_objects"}) == bare


NEW_FIELD = '''
    confidence: str | None = field(default=None, metadata=ir(omit=if_none))
'''


def test_a_new_field_touches_the_record_and_the_schema_only(tmp_path: Path) -> None:
    """CONTRIBUTING's recipe, done in a copy of the generator: a field added to a record the front half amends
    (`ErrorCondition`) and its key to the schema, and nothing else. The front half runs on as it did (its stages
    make the records anew with `dataclasses.replace`, which carries the field); one of its records given the field
    is written with it, and an IR holding it is read back; without the schema's key it is refused."""
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "generator", copy / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ("data", "grammar"):
        shutil.copytree(ROOT / shared, copy / shared)
    model_file = copy / "generator" / "ir" / "model.py"
    text = model_file.read_text(encoding="utf-8")
    anchor = next(line for line in text.splitlines(keepends=True) if line.startswith("    also_in: tuple["))
    model_file.write_text(text.replace(anchor, anchor + NEW_FIELD.lstrip("\n")), encoding="utf-8")
    ir_file = next(GENERATED.glob("ir/*.yaml"))
    script = textwrap.dedent(f"""
        import dataclasses, sys
        from pathlib import Path
        from generator import pipeline
        from generator.ir import files, read

        def with_confidence(extension):
            at, function = next((i, f) for i, f in enumerate(extension.functions) if f.errors)
            error = dataclasses.replace(function.errors[0], confidence="high")
            function = dataclasses.replace(function, errors=(error, *function.errors[1:]))
            return dataclasses.replace(extension, functions=(*extension.functions[:at], function,
                                                             *extension.functions[at + 1:]))

        made = pipeline.run(Path({str(ROOT / "specs")!r})).extensions[0]
        assert all(e.confidence is None for f in made.functions for e in f.errors)
        assert "confidence:" not in files.render(made)
        assert "confidence: high" in files.render(with_confidence(made))
        edited = with_confidence(read.load(Path({str(ir_file)!r})))
        out = Path(sys.argv[1])
        out.write_text(files.render(edited, read_back=True), encoding="utf-8")
        back = read.load(out)
        assert back == edited and "confidence: high" in out.read_text(encoding="utf-8")
    """)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.yaml")], cwd=copy,
                              capture_output=True, text=True, timeout=120)

    refused = run()
    assert refused.returncode != 0 and "breaks the schema" in refused.stderr, refused.stderr
    schema_file = copy / "generator" / "ir" / "ir.schema.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    schema["$defs"]["function"]["properties"]["errors"]["items"]["properties"]["confidence"] = {"type": "string"}
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


def test_a_record_read_back_is_written_as_it_reads_even_where_plain_would_change_it_again(
        seed_result: Result) -> None:
    """`plain` makes `<name>` a word: the front half's texts are made plain when written, a record read back holds
    them so already, and `<<anchor>>` would lose a bracket more on each write."""
    extension = seed_result.extensions[0]
    function = extension.functions[0]
    error = dataclasses.replace(function.errors[0], condition="see <<anchor>> for <flags>")
    first = dataclasses.replace(function, errors=(error, *function.errors[1:]))
    made = dataclasses.replace(extension, functions=(first, *extension.functions[1:]))
    once = files.to_dict(made)
    written = next(f for f in once["functions"] if f["name"] == function.name)
    assert written["errors"][0]["condition"] == "see <anchor> for flags"
    assert files.to_dict(read.from_dict(once), read_back=True) == once
    assert files.to_dict(read.from_dict(once)) != once  # made plain again, it loses its brackets
