"""`python -m generator diff OLD NEW`: exactly the API changes between two revisions, as text or JSON."""

from __future__ import annotations

import copy
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator import diff, pipeline
from generator.ir import files as ir
from generator.ir import read
from generator.ir.model import Extension, value_text
from tests import scoring
from tests.support import SPECS, CliRun

SEED = "cl_nv_d3d10_sharing.txt"
EXTENSION = "cl_nv_d3d10_sharing"


def revise(text: str) -> str:
    """A revision of the seed: a function added, a token's value changed, a token removed, a condition reworded,
    the revision line changed. Each replacement must hit, or the test is not testing what it says."""
    edits = [
        ("    Version 1, December 7, 2009", "    Version 2, March 1, 2010"),
        ("CL_D3D10_DEVICE_NV                     0x4010", "CL_D3D10_DEVICE_NV                     0x4030"),
        ("        CL_COMMAND_RELEASE_D3D10_OBJECTS_NV    0x4018\n", ""),
        ("    cl_mem  clCreateFromD3D10BufferNV(\n        cl_context context,",
         "    cl_int  clFlushD3D10ObjectsNV(\n        cl_command_queue command_queue)\n\n"
         "    cl_mem  clCreateFromD3D10BufferNV(\n        cl_context context,"),
        ("      * CL_INVALID_VALUE if values specified in <flags> are not valid.\n",
         "      * CL_INVALID_VALUE if the values given in <flags> are not valid.\n"),
    ]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@pytest.fixture
def revision(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old" / SEED, tmp_path / "new" / SEED
    for path in (old, new):
        path.parent.mkdir()
    shutil.copy(SPECS / SEED, old)
    new.write_text(revise((SPECS / SEED).read_text(encoding="utf-8")), encoding="utf-8")
    return old, new


def test_a_revision_gives_exactly_its_changes(
    revision: tuple[Path, Path], main: Callable[..., CliRun],
) -> None:
    status, out, _ = main("diff", str(revision[0]), str(revision[1]))
    assert status == 1
    assert out.splitlines() == [
        f"{EXTENSION}: revision changed: revision: 'Version 1, December 7, 2009' -> 'Version 2, March 1, 2010'",
        f"{EXTENSION}: function added: clFlushD3D10ObjectsNV: "
        "cl_int clFlushD3D10ObjectsNV(cl_command_queue command_queue)",
        f"{EXTENSION}: token value changed: CL_D3D10_DEVICE_NV: 0x4010 -> 0x4030",
        f"{EXTENSION}: token removed: CL_COMMAND_RELEASE_D3D10_OBJECTS_NV",
        f"{EXTENSION}: condition reworded: clCreateFromD3D10BufferNV CL_INVALID_VALUE: "
        "'values specified in flags are not valid' -> 'the values given in flags are not valid'",
    ]


def test_the_json_form_holds_the_same_changes(
    revision: tuple[Path, Path], main: Callable[..., CliRun],
) -> None:
    _, text, _ = main("diff", str(revision[0]), str(revision[1]))
    status, out, _ = main("diff", str(revision[0]), str(revision[1]), "--format", "json")
    assert status == 1
    changes = [diff.Change(**entry) for entry in json.loads(out)]
    assert [change.line() for change in changes] == text.splitlines()
    assert {change.kind for change in changes} == {
        "revision changed", "function added", "token value changed", "token removed", "condition reworded"}


@pytest.mark.parametrize("form", ["text", "json"])
def test_identical_inputs_give_exit_0_and_nothing(
    revision: tuple[Path, Path], main: Callable[..., CliRun], form: str,
) -> None:
    status, out, _ = main("diff", str(revision[0]), str(revision[0]), "--format", form)
    assert status == 0
    assert out.strip() in ("", "[]")


def test_specs_against_the_committed_ir_is_no_change(main: Callable[..., CliRun]) -> None:
    """A folder of specs and a folder of IR (OUT/ir or OUT) compare as the same API."""
    for ir_folder in ("generated/ir", "generated"):
        status, out, _ = main("diff", "specs", ir_folder)
        assert (status, out) == (0, "")


def test_a_bad_spec_is_exit_2(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    (tmp_path / "bad.txt").write_text("Just some words.\n", encoding="utf-8")
    status, out, err = main("diff", str(tmp_path / "bad.txt"), "specs")
    assert status == 2 and out == "" and "bad.txt:1:1: error:" in err


@pytest.fixture(scope="module")
def seed_ir(seed_result: pipeline.Result) -> dict[str, dict[str, Any]]:
    return {extension.name: ir.to_dict(extension) for extension in seed_result.extensions}


def typed(irs: dict[str, dict[str, Any]]) -> dict[str, Extension]:
    """IR dictionaries (changed by a test) as `diff` reads them."""
    return {name: read.from_dict(data) for name, data in irs.items()}


def changed(seed_ir: dict[str, dict[str, Any]], edit: Callable[[dict[str, Any]], None]) -> list[str]:
    """The diff lines after `edit` changes a copy of one extension's IR."""
    new = copy.deepcopy(seed_ir)
    edit(new[EXTENSION])
    return [change.line() for change in diff.compare(typed(seed_ir), typed(new))]


def test_moved_text_is_no_change(seed_ir: dict[str, dict[str, Any]]) -> None:
    """Source lines and diagnostics are not the API."""

    def move(data: dict[str, Any]) -> None:
        for function in data["functions"]:
            function["source"] = "elsewhere:1"
            for error in function["errors"]:
                error["source"] = "elsewhere:2"
        data["diagnostics"] = []

    assert changed(seed_ir, move) == []


def test_a_parameter_of_another_type_is_a_changed_function(seed_ir: dict[str, dict[str, Any]]) -> None:
    def retype(data: dict[str, Any]) -> None:
        data["functions"][1]["params"][1]["type"] = "cl_uint"

    (line,) = changed(seed_ir, retype)
    assert line.startswith(f"{EXTENSION}: function changed: {seed_ir[EXTENSION]['functions'][1]['name']}: ")
    assert "cl_mem_flags flags" in line.split(" -> ")[0] and "cl_uint flags" in line.split(" -> ")[1]


def test_table_rows_added_and_removed(seed_ir: dict[str, dict[str, Any]]) -> None:
    def edit(data: dict[str, Any]) -> None:
        table = data["tables"][-1]
        table["rows"] = [*table["rows"][1:], ["X", "Y", "Z"]]

    lines = changed(seed_ir, edit)
    name, first = seed_ir[EXTENSION]["tables"][-1]["name"], seed_ir[EXTENSION]["tables"][-1]["rows"][0]
    assert lines == [f"{EXTENSION}: table row removed: {name}: {' | '.join(first)}",
                     f"{EXTENSION}: table row added: {name}: X | Y | Z"]


def test_conditions_added_and_removed_when_not_paired(seed_ir: dict[str, dict[str, Any]]) -> None:
    function = seed_ir[EXTENSION]["functions"][0]

    def edit(data: dict[str, Any]) -> None:
        errors = data["functions"][0]["errors"]
        errors.append({**errors[0], "code": "CL_NEW_CODE", "condition": "something new"})
        del errors[0]

    first = function["errors"][0]
    assert changed(seed_ir, edit) == [
        f"{EXTENSION}: condition added: {function['name']} CL_NEW_CODE: 'something new'",
        f"{EXTENSION}: condition removed: {function['name']} {first['code']}: {' '.join(first['condition'].split())!r}",
    ]


def test_extensions_added_and_removed(seed_ir: dict[str, dict[str, Any]]) -> None:
    whole = typed(seed_ir)
    fewer = {name: data for name, data in whole.items() if name != EXTENSION}
    assert [c.line() for c in diff.compare(whole, fewer)] == [f"{EXTENSION}: extension removed: {EXTENSION}"]
    assert [c.line() for c in diff.compare(fewer, whole)] == [f"{EXTENSION}: extension added: {EXTENSION}"]


def test_generate_prints_the_api_changes_against_the_previous_output(
    tmp_path: Path, main: Callable[..., CliRun],
) -> None:
    out, revised = tmp_path / "out", tmp_path / "specs"
    shutil.copytree(SPECS, revised)
    (revised / SEED).write_text(revise((SPECS / SEED).read_text(encoding="utf-8")), encoding="utf-8")
    first = main("generate", "--out", str(out))
    assert first[0] == 0 and first[1] == ""  # nothing to compare with
    status, printed, _ = main("generate", "--specs", str(revised), "--out", str(out))
    assert status == 0
    lines = printed.splitlines()
    assert lines[0] == f"API changes since the previous {out / 'ir'}:"
    assert f"  {EXTENSION}: token value changed: CL_D3D10_DEVICE_NV: 0x4010 -> 0x4030" in lines
    assert f"  {EXTENSION}: function added: clFlushD3D10ObjectsNV: " \
           "cl_int clFlushD3D10ObjectsNV(cl_command_queue command_queue)" in lines
    again = main("generate", "--specs", str(revised), "--out", str(out))
    assert again[:2] == (0, "")


Place = tuple[str | int, ...]


def places_in(value: Any, path: Place = ()) -> list[Place]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places_in(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places_in(item, (*path, index))
    return found


@st.composite
def odd_but_valid(draw: st.DrawFn, seed_ir: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One extension's IR with one to four values changed in kind-keeping ways the schema may still allow:
    any text, any 64-bit value, an empty or a repeated list entry (duplicate names)."""
    document = copy.deepcopy(seed_ir[EXTENSION])
    for _ in range(draw(st.integers(1, 4))):
        *parent_path, last = draw(st.sampled_from(places_in(document)[1:]))
        parent: Any = document
        for step in parent_path:
            parent = parent[step]
        value = parent[last]
        if isinstance(value, str):
            parent[last] = draw(st.text(max_size=30) | st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,20}\Z"))
        elif isinstance(value, bool) or value is None:
            parent[last] = draw(st.none() | st.text(max_size=10))
        elif isinstance(value, int):
            parent[last] = draw(st.sampled_from([-(2**63), 2**64 - 1, 0, -1]) | st.integers())
        elif isinstance(value, list) and value:
            action = draw(st.sampled_from(["empty", "repeat", "drop"]))
            index = draw(st.integers(0, len(value) - 1))
            parent[last] = ([] if action == "empty" else
                            [*value, copy.deepcopy(value[index])] if action == "repeat" else
                            value[:index] + value[index + 1:])
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_compare_never_fails_on_a_schema_valid_ir(seed_ir: dict[str, dict[str, Any]], data: st.DataObject) -> None:
    """What `diff` reads has passed the schema; nothing after that may raise, whatever the schema allows."""
    document = data.draw(odd_but_valid(seed_ir))
    assume(ir._checker()(document) == ())
    for old, new in ((seed_ir, {**seed_ir, EXTENSION: document}), ({EXTENSION: document}, seed_ir)):
        for change in diff.compare(typed(old), typed(new)):
            line = change.line()
            assert not re.search("[\x00-\x1f\x7f-\x9f\u2028\u2029]", line), line  # one line, no escape codes
            json.dumps(change.to_dict())


def test_a_condition_written_with_other_markup_is_no_change(seed_ir: dict[str, dict[str, Any]]) -> None:
    """One condition as a 2017 text and a current one write it: emphasis, quotes, case and punctuation."""

    def remark(data: dict[str, Any]) -> None:
        error = data["functions"][0]["errors"][0]
        words = error["condition"].split()
        error["condition"] = "_" + words[0] + "_ " + " ".join(f"`{w}`" for w in words[1:]).upper() + "."

    assert changed(seed_ir, remark) == []


def test_a_condition_with_other_words_is_still_reworded(seed_ir: dict[str, dict[str, Any]]) -> None:
    def reword(data: dict[str, Any]) -> None:
        data["functions"][0]["errors"][0]["condition"] += " or if nothing"

    (line,) = changed(seed_ir, reword)
    assert ": condition reworded: " in line


def test_a_token_named_without_a_value_is_not_given_here_not_removed(seed_ir: dict[str, dict[str, Any]]) -> None:
    token = seed_ir[EXTENSION]["tokens"][0]

    def unvalue(data: dict[str, Any]) -> None:
        data["tokens"][0]["value"] = None

    assert changed(seed_ir, unvalue) == [
        f"{EXTENSION}: token value not given here: {token['name']}: {value_text(token['value'])}"]


# -- a 2017 text against its current revision and the registry XML (the corpus' pairs) ---------------------

REVISED = ["cl_khr_egl_image", "cl_khr_gl_event", "cl_khr_icd"]


def _truth_api(entry: dict[str, Any], current: bool) -> tuple[dict[str, str], dict[str, object], dict[str, int]]:
    """Prototypes, token values (the registry's where the current text leaves them to it) and condition counts
    by (function, code), as the corpus truth records them."""
    prototypes = {f["name"]: " ".join([scoring.canonical_type(f["return_type"]), *(
        f"{scoring.canonical_type(p['type'])} {p['name']}" for p in f["params"])]) for f in entry["functions"]}
    values = {t["name"]: t.get("registry_value", t["value"]) if current else t["value"] for t in entry["tokens"]}
    counts: dict[str, int] = {}
    for function, conditions in [*entry["errors"].items(), *entry.get("core_functions", {}).items()]:
        for condition in conditions:
            key = f"{function} {condition['code']}"
            counts[key] = counts.get(key, 0) + 1
    return prototypes, values, counts


def _true_changes(old: dict[str, Any], new: dict[str, Any]) -> set[tuple[str, str]]:
    (old_functions, old_values, old_counts), (new_functions, new_values, new_counts) = (
        _truth_api(old, False), _truth_api(new, True))
    changes = set()
    for what, before, after in (("function", old_functions, new_functions), ("token", old_values, new_values)):
        changes |= {(f"{what} added", n) for n in after.keys() - before.keys()}
        changes |= {(f"{what} removed", n) for n in before.keys() - after.keys()}
        changes |= {(f"{what} changed" if what == "function" else "token value changed", n)
                    for n in before.keys() & after.keys() if before[n] != after[n]}
    for key in old_counts.keys() | new_counts.keys():
        more = new_counts.get(key, 0) - old_counts.get(key, 0)
        if more:
            changes.add(("condition added" if more > 0 else "condition removed", key))
    return changes


@pytest.mark.parametrize("name", REVISED)
def test_a_2017_text_and_its_current_revision_with_the_registry_differ_by_the_true_changes(
        name: str, tmp_path: Path) -> None:
    entries = {e["file"]: e for e in scoring.truth()}
    old_file, new_file = f"{name}.adoc2017.txt", f"{name}.adoc2024.asciidoc"
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    shutil.copy(scoring.CORPUS / old_file, tmp_path / "old")
    shutil.copy(scoring.CORPUS / new_file, tmp_path / "new")
    shutil.copy(scoring.CORPUS / "registry" / "cl.xml", tmp_path / "new")
    changes = diff.compare(diff.load_api(tmp_path / "old"), diff.load_api(tmp_path / "new"))
    found = {(c.kind, c.subject) for c in changes}
    api = {c for c in found if c[0].split()[0] in ("function", "token", "condition", "type", "extension")}
    assert api == _true_changes(entries[old_file], entries[new_file])
    # The rest, read from the texts themselves: the current text states a version the 2017 one did not, and
    # the EGL text gained a table of the event command types its functions create.
    old_text = (scoring.CORPUS / old_file).read_text(encoding="utf-8")
    new_text = (scoring.CORPUS / new_file).read_text(encoding="utf-8")
    rest = {("revision stated", "revision")} if "Version" not in old_text and "| 1.0.0" in new_text else set()
    if "Event Command Type" in new_text and "Event Command Type" not in old_text:
        rest.add(("table added", "events"))
    assert found - api == rest


@pytest.fixture
def made_up(seed_ir: dict[str, dict[str, Any]]) -> Callable[[list[str], list[str]], list[str]]:
    """The diff lines when the first function's conditions of one made-up code go from `old` to `new`."""

    def with_conditions(texts: list[str]) -> dict[str, Extension]:
        data = copy.deepcopy(seed_ir)
        errors = data[EXTENSION]["functions"][0]["errors"]
        errors += [{**errors[0], "code": "CL_MADE_UP", "condition": text, "check": []} for text in texts]
        return typed(data)

    return lambda old, new: [c.line() for c in diff.compare(with_conditions(old), with_conditions(new))]


def test_two_conditions_stated_as_one_item_are_reworded_into_it_not_removed(
        made_up: Callable[[list[str], list[str]], list[str]]) -> None:
    """A revision may say in one item what another said in two (the 2026 book does)."""
    lines = made_up(["resource is not a buffer object", "resource is not a buffer resource or was created immutable"],
                    ["resource is not a buffer resource, or if resource was created immutable"])
    assert [line.split(": ")[1] for line in lines] == ["condition reworded", "condition reworded"]


def test_a_condition_split_into_items_is_reworded_into_them(
        made_up: Callable[[list[str], list[str]], list[str]]) -> None:
    lines = made_up(["flags is not a valid value, size is zero, or host_ptr is NULL"],
                    ["flags is not a valid value", "size is zero", "host_ptr is NULL"])
    assert len(lines) == 1 and "condition reworded" in lines[0] and lines[0].count(" / ") == 2


def test_a_condition_whose_words_are_gone_is_still_removed(
        made_up: Callable[[list[str], list[str]], list[str]]) -> None:
    lines = made_up(["resource is not a buffer object"], ["the zebra ate the quagga"])
    assert [line.split(": ")[1] for line in lines] == ["condition removed", "condition added"]
