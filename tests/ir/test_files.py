"""The YAML IR: contract keys, schema on every write, plain text, determinism."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import pipeline
from generator.analysis import crosscheck
from generator.base import source
from generator.base.diagnostics import Sink
from generator.base.errors import Gather, InputError, SchemaError
from generator.base.knowledge import Knowledge, SafeDumper
from generator.ir import files as ir
from generator.ir import read
from generator.ir.model import value_text
from generator.merging.merge import merge_all
from tests.support import ROOT, SPECS


def test_contract_keys(seed_result: pipeline.Result) -> None:
    data = ir.to_dict(seed_result.extensions[0])
    assert {"name", "vendor", "revision", "sources", "types", "functions", "tokens", "tables",
            "diagnostics"} <= set(data)
    function = data["functions"][0]
    assert {"name", "return_type", "params", "errors", "source"} <= set(function)
    assert set(function["errors"][0]) >= {"code", "condition", "source"}
    token = data["tokens"][0]
    assert isinstance(token["value"], int) and token["source"].startswith("specs/")


def test_a_text_without_line_breaks_keeps_the_column_of_each_place(seed_result: pipeline.Result) -> None:
    """Every place in the collapsed NV D3D11 text is on line 1: the IR keeps `source` as `path:line` (the
    contract) and the column beside it, which points at the very words; a text with lines has no column."""
    by_name = {e.name: e for e in seed_result.extensions}
    data = ir.to_dict(by_name["cl_nv_d3d11_sharing"])
    text = (ROOT / "specs" / "cl_nv_d3d11_sharing.txt").read_text(encoding="utf-8")
    errors = [e for f in data["functions"] for e in f["errors"] if e["source"].endswith(".txt:1")]
    assert len(errors) > 30
    for error in errors:
        assert error["source"] == "specs/cl_nv_d3d11_sharing.txt:1"
        if error["origin"] == "list":  # a copied condition cites the sentence that copies it
            at = text[error["column"] - 1:]
            assert at.startswith(error["code"]) or at.startswith("Returned by"), (error["code"], at[:60])
    for token in data["tokens"]:
        assert text[token["column"] - 1:].startswith(token["name"])
    back = read.from_dict(data)
    assert back.functions[0].errors[0].source.cited() == f"specs/cl_nv_d3d11_sharing.txt:1:{errors[0]['column']}"
    assert all(p.description_source is None or p.description_source.pos.column > 1
               for f in back.functions for p in f.params)
    lined = ir.to_dict(by_name["cl_khr_d3d11_sharing"])
    assert "column" not in lined["functions"][0] and "column" not in lined["functions"][0]["errors"][0]
    assert read.from_dict(lined).functions[0].errors[0].source.cited().count(":") == 1


def test_texts_are_plain(seed_result: pipeline.Result) -> None:
    text = ir.render(seed_result.extensions[0])
    assert "<mem_objects>" not in text and "mem_objects" in text
    assert ir.plain("if <a> is <b>") == "if a is b"


def test_render_validates_against_the_schema(seed_result: pipeline.Result) -> None:
    extension = seed_result.extensions[0]
    misnamed = replace(extension.tokens[0], name="not an identifier")
    with pytest.raises(SchemaError, match="/tokens/0/name"):
        ir.render(replace(extension, tokens=(misnamed, *extension.tokens[1:])))


def test_load_reads_back_safely(tmp_path: Path, seed_result: pipeline.Result) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(ir.render(seed_result.extensions[0]))
    assert read.load(path).name == seed_result.extensions[0].name
    path.write_text("!!python/object/apply:os.system ['true']\n")
    with pytest.raises(InputError, match="explicit tag"):
        read.load(path)


def render_all(facts_order: list[Any], knowledge: Knowledge) -> dict[str, str]:
    sink = Sink()
    extensions = merge_all(facts_order, knowledge, sink)
    crosscheck.check(extensions, facts_order, knowledge, sink)
    return {e.name: ir.render(replace(e, diagnostics=tuple(d for d in sink.items if d.extension == e.name)))
            for e in extensions}


def test_input_order_does_not_matter(knowledge: Knowledge, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    paths = source.spec_files(Path("specs"))
    forward = pipeline.read(paths, knowledge, Gather()).facts
    backward = pipeline.read(list(reversed(paths)), knowledge, Gather()).facts
    assert render_all(forward, knowledge) == render_all(backward, knowledge)


def test_same_bytes_whatever_the_hash_seed(tmp_path: Path) -> None:
    outputs = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / seed
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(SPECS), "--out", str(out)],
                       cwd=ROOT, env=env, check=True, capture_output=True)
        outputs.append({p.name: p.read_bytes() for p in (out / "ir").iterdir()})
    assert outputs[0] == outputs[1] == outputs[2]


def test_an_ir_larger_than_an_ir_may_be_read_back_is_not_written(seed_irs: list[dict[str, Any]]) -> None:
    """`diff` reads IR files up to `ir.MAX_BYTES`: the generator never writes one it could not read back."""
    data = dict(seed_irs[0], revision="x" * (ir.MAX_BYTES + 1))
    with pytest.raises(InputError, match=r"the IR of cl_\w+ would be \d+ MiB, more than the 64 MiB an IR may hold"):
        ir.dump(data)


def test_a_token_without_a_value_is_written_and_read_back_as_null(tmp_path: Path,
                                                                   seed_result: pipeline.Result) -> None:
    extension = seed_result.extensions[0]
    unvalued = replace(extension, tokens=(replace(extension.tokens[0], value=None), *extension.tokens[1:]))
    path = tmp_path / "x.yaml"
    path.write_text(ir.render(unvalued))
    assert read.load(path).tokens[0].value is None
    assert value_text(None) == "value not given here"


def test_another_extensions_function_may_have_no_prototype_but_no_other_function_may(
        seed_irs: list[dict[str, Any]]) -> None:
    data = seed_irs[0]
    own = data["functions"][0]
    bare = {"name": "clOtherOTHER", "errors": [], "source": own["source"]}
    ir.validate(dict(data, functions=[*data["functions"], dict(bare, external=True)]))
    for wrong, path in ((bare, "/functions/"), (dict(bare, core=True, external=True), "/functions/")):
        with pytest.raises(SchemaError, match=path):
            ir.validate(dict(data, functions=[*data["functions"], wrong]))


#: What an IR holds: plain YAML scalars (strings YAML would read as something else among them), lists, mappings.
_IR_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 64), 1 << 64)
    | st.text() | st.sampled_from(["yes", "No", "null", "~", "1e3", "0x1F", "- a", "a: b", "#", "", " x ", "\n\n"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=25)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), _IR_VALUES, max_size=5))
def test_the_text_is_what_yaml_dump_writes(data: dict[str, Any]) -> None:
    """The IR's text is made from nodes built directly (not PyYAML's representer): to the byte what
    `yaml.dump` writes, and it reads back as the same data."""
    text = ir.yaml_text(data)
    assert text == yaml.dump(data, Dumper=SafeDumper, sort_keys=False, allow_unicode=True, width=100)
    assert yaml.safe_load(text) == data


def test_a_value_the_ir_cannot_hold_is_a_bug_said_plainly() -> None:
    with pytest.raises(SchemaError, match="holds a float"):
        ir.yaml_text({"name": 1.5})
