"""Every extension of the 2026 book whose commands have reference pages, generated in one run: functions,
prototypes and values as the registry XML gives them, and every error item of those pages kept as a condition
or named by a diagnostic at its line (nothing dropped in silence)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator import cli
from generator.base.knowledge import Knowledge
from generator.frontends.registry_xml import Registry
from tests.book.snapshot import REFPAGE, SNAPSHOT, registry, with_pages
from tests.support import lint, typecheck

_ITEM = re.compile(r"^\s*(\*+)\s+(.*)$")
_CODE_ONLY = re.compile(r"^\{CL_[A-Z0-9_]+\}:?\s*$")
_CODE_LED = re.compile(r"^\{CL_[A-Z0-9_]+\}\s+\S")
_IFDEF = re.compile(r"^(ifn?def)::([\w,+-]+)\[\]\s*$")
_ENDIF = re.compile(r"^endif::[\w,+-]*\[\]\s*$")


def built(extension: str, xml: Registry) -> set[str]:
    """The extension and those its XML `depends` names, followed: what a build for it sets."""
    found, todo = {extension}, [extension]
    while todo:
        for name in re.findall(r"\w+", xml.extensions[todo.pop()].depends):
            if name in xml.extensions and name not in found:
                found.add(name)
                todo.append(name)
    return found


def error_items(extension: str, commands: set[str], xml: Registry) -> set[str]:
    """`path:line` of each error item after `// refError` on the reference pages of `commands`, as the text shows
    them: an item led by a code with its condition, or a sub-item of an item that is only a code; outside
    conditionals for other extensions."""
    found: set[str] = set()
    setting = built(extension, xml)
    for path in sorted((SNAPSHOT / "api").glob("*.asciidoc")):
        lines = path.read_text(encoding="utf-8").split("\n")
        page, errors, scope, heading_code = None, False, [], False
        for number, line in enumerate(lines, start=1):
            if (opened := _IFDEF.match(line)) is not None:
                names = set(re.split(r"[,+]", opened[2]))
                scope.append(bool(setting & names) if opened[1] == "ifdef" else not setting & names)
                continue
            if _ENDIF.match(line):
                scope.pop()
                continue
            if (named := REFPAGE.match(line)) is not None:
                page, errors = named[1], False
            elif line.strip() == "--" and page is not None and errors:
                page = None
            elif line.startswith("// refError"):
                errors = True
            elif page in commands and errors and all(scope) and (item := _ITEM.match(line)) is not None:
                if len(item[1]) == 1:
                    heading_code = bool(_CODE_ONLY.match(item[2]))
                if _CODE_LED.match(item[2]) or (len(item[1]) > 1 and heading_code):
                    found.add(f"specs/api/{path.name}:{number}")
    return found


Every = tuple[dict[str, dict[str, Any]], dict[str, set[str]], Registry]


@pytest.fixture(scope="module")
def every(tmp_path_factory: pytest.TempPathFactory) -> Every:
    """`generate` once for them all, through the command; the IR as written."""
    xml = registry()
    chosen = with_pages(xml)
    out = tmp_path_factory.mktemp("every") / "out"
    assert cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out),
                     *(f"--extension={name}" for name in sorted(chosen))]) == 0
    irs = {path.stem: yaml.safe_load(path.read_text(encoding="utf-8")) for path in (out / "ir").glob("*.yaml")}
    return irs, chosen, xml


def test_one_run_generates_every_extension_with_reference_pages(
        every: Every) -> None:
    irs, chosen, _ = every
    assert sorted(irs) == sorted(chosen) and len(irs) >= 15


def test_functions_prototypes_and_values_are_the_xml_s(
        every: Every, knowledge: Knowledge) -> None:
    irs, chosen, xml = every
    for name, data in irs.items():
        said = " ".join(d["message"] for d in data["diagnostics"])
        functions = {f["name"]: f for f in data["functions"]}
        for command in chosen[name]:
            if command not in functions:  # a core function of the data, or named missing
                assert command in knowledge.core_functions or command in said, (name, command)
                continue
            proto = xml.prototype(command)
            assert proto is not None, command
            assert [(p.name, p.type) for p in proto.params] == [
                (p["name"], p["type"]) for p in functions[command]["params"]], (name, command)
            assert functions[command]["return_type"] == proto.return_type
        tokens = {t["name"]: t["value"] for t in data["tokens"]}
        for required in xml.extensions[name].required:
            enum = xml.enums.get(required.name) if required.kind == "enum" else None
            if enum is None or enum.value is None:
                continue
            assert tokens.get(required.name) == enum.value or required.name in said, (name, required.name)


def test_every_error_item_is_kept_or_named(
        every: Every) -> None:
    irs, chosen, xml = every
    lost: list[str] = []
    for name, data in irs.items():
        places = {e["source"] for f in data["functions"] for e in f["errors"]}
        places |= {d["source"] for d in data["diagnostics"] if d.get("source")}
        lost += [f"{name} {item}" for item in sorted(error_items(name, chosen[name], xml)) if item not in places]
    assert lost == []


#: The XML's extensions whose names are not extension strings as the API spells them: refused, with the reason.
NOT_API_NAMES = ("cl_APPLE_ContextLoggingFunctions", "cl_APPLE_SetMemObjectDestructor")
_META = re.compile(r"meta/(?:\{[^}\n]*\})?(cl_\w+)\.txt")


def described(xml: Registry) -> set[str]:
    """The XML's extensions the book holds lines of: named by an `ifdef`, given an appendix page (the include of
    the build's metadata for it), or with reference pages of their commands."""
    named = set(with_pages(xml))
    for path in SNAPSHOT.rglob("*.asciidoc"):
        text = path.read_text(encoding="utf-8")
        named.update(name for names in _IFDEF_ANY.findall(text) for name in re.split(r"[,+]", names))
        named.update(_META.findall(text))
    return named & set(xml.extensions)


_IFDEF_ANY = re.compile(r"^ifdef::([\w,+-]+)\[", re.M)


def test_every_extension_the_book_describes_in_one_run_and_its_package_passes_ruff(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """All the book holds lines of, with or without reference pages (an OpenCL C extension's built-ins are listed
    with `()`, as `uint4 get_sub_group_eq_mask()`): one IR each, and a package ruff accepts as it does the
    committed one, and mypy too. Those the XML alone lists are refused together, named (the first five and a count)."""
    xml = registry()
    out = tmp_path / "out"
    for name in NOT_API_NAMES:
        assert cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out), f"--extension={name}"]) == 2
        assert "not an extension string as the API names them" in capsys.readouterr().err
    chosen = sorted(described(xml))
    alone = sorted(set(xml.extensions) - set(chosen) - set(NOT_API_NAMES))
    assert len(chosen) >= 80 and len(alone) >= 60
    assert cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out),
                     *(f"--extension={name}" for name in sorted(xml.extensions) if name not in NOT_API_NAMES)]) == 2
    said = capsys.readouterr().err
    assert f"--extension {', '.join(alone[:5])} and {len(alone) - 5} more: the registry XML lists these" in said
    assert "but the book states nothing of them" in said
    assert not out.exists()
    assert cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out),
                     *(f"--extension={name}" for name in chosen)]) == 0
    assert sorted(path.stem for path in (out / "ir").glob("*.yaml")) == chosen
    ballot = yaml.safe_load((out / "ir" / "cl_khr_subgroup_ballot.yaml").read_text(encoding="utf-8"))
    assert {"name": "get_sub_group_eq_mask", "return_type": "uint4", "params": [],
            "source": "specs/api/cl_khr_subgroup_ballot.asciidoc:40"} in ballot["builtins"]
    assert lint(out) == []
    assert typecheck(out) == ""
