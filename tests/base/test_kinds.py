"""The catalogue of diagnostic kinds (generator/base/kinds.py): each kind reported somewhere, each reported kind in
it, and the docs listing them all with their meaning."""

from __future__ import annotations

import ast
import re
import typing

from generator.base import kinds, normalise
from generator.base.kinds import Kind
from generator.ir import files
from generator.pipeline import Result
from tests.support import GENERATED, ROOT


def named_in_code() -> set[str]:
    """The members of `Kind` the generator's modules name (`Kind.X`), the catalogue's own module aside."""
    found = set()
    for path in (ROOT / "generator").rglob("*.py"):
        if path.name == "kinds.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Kind":
                found.add(node.attr)
    return found


def test_every_kind_is_reported_somewhere() -> None:
    characters = {kind.name for kind in kinds.CHARACTERS.values()}
    assert {kind.name for kind in Kind} - characters - named_in_code() == set()
    assert named_in_code() <= {kind.name for kind in Kind}


def test_each_kind_of_character_has_its_diagnostic() -> None:
    assert set(kinds.CHARACTERS) == set(typing.get_args(normalise.Kind))


def test_each_kind_has_a_name_the_ir_takes_and_a_meaning() -> None:
    pattern = re.compile(files.schema()["properties"]["diagnostics"]["items"]["properties"]["kind"]["pattern"])
    for kind in Kind:
        assert pattern.match(kind.value), kind
        assert kind.meaning and kind.meaning[0].islower() and not kind.meaning.endswith("."), kind
    assert len({kind.meaning for kind in Kind}) == len(Kind)


def test_the_seeds_report_only_kinds_of_the_catalogue(seed_result: Result) -> None:
    reported = {d.kind for d in seed_result.diagnostics}
    assert reported and reported <= set(kinds.BY_NAME)
    assert kinds.meaning("no-such-kind") is None


def test_the_docs_list_every_kind_with_its_meaning() -> None:
    page = (GENERATED / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    listed = re.findall(r'<span id="([a-z-]+)"></span>', page)
    assert listed == sorted(kind.value for kind in Kind)
    for kind in Kind:
        assert kind.meaning.split(" (")[0].split(":")[0].replace("`", "\\`") in page, kind


def test_an_extension_page_links_each_kind_to_its_meaning() -> None:
    page = (GENERATED / "docs" / "khr_d3d11" / "index.md").read_text(encoding="utf-8")
    links = re.findall(r"\[([a-z-]+)\]\(\.\./diagnostics\.md#([a-z-]+) \"", page)
    assert links and all(text == target and target in kinds.BY_NAME for text, target in links)


def test_no_kind_is_written_as_a_string_where_a_sink_is_told() -> None:
    """`Sink` and the facts' records take a `Kind` (mypy says so); this catches a kind hidden in a variable."""
    for path in (ROOT / "generator").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'\.(warning|note|warn|remark)\([^,()]+, "[a-z]+(-[a-z]+)*"', text), path
