"""Malformed IR files of every kind: `diff` exits 2 with `file[:line:col]: error:`, `generate` warns and goes on.

Each case runs the command in a forked child bounded in time (`tests.fuzz.harness.child`), so that a
segfault or a hang on a deeply nested or aliased file fails its case instead of stopping pytest.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.writing import ownership
from tests.fuzz import harness
from tests.support import GENERATED, SPECS

SEED = "cl_nv_d3d10_sharing"
BASE_TEXT = (GENERATED / "ir" / f"{SEED}.yaml").read_text(encoding="utf-8")
BASE: dict[str, Any] = yaml.safe_load(BASE_TEXT)
#: A function whose first error gets the predicate of a case (a flow mapping, so any text can stand in it).
FUNCTION = ("{name: clX, return_type: cl_int, params: [], source: 's:1', errors: [{code: CL_X, condition: c, "
            "source: 's:1', origin: list, check: [{clause: c, class: host, reason: r, predicate: %s}]}]}")


def dumped(data: Any) -> bytes:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).encode()


def edited(edit: Callable[[dict[str, Any]], None]) -> bytes:
    data = copy.deepcopy(BASE)
    edit(data)
    return dumped(data)


def setting(*path_and_value: Any) -> Callable[[dict[str, Any]], None]:
    *path, value = path_and_value

    def edit(data: dict[str, Any]) -> None:
        for step in path[:-1]:
            data = data[step]
        data[path[-1]] = value

    return edit


def removing(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


def with_predicate(predicate: str) -> bytes:
    """The base IR with one more function whose check's predicate is `predicate` (YAML text)."""
    return BASE_TEXT.replace("\nfunctions:\n", f"\nfunctions:\n- {FUNCTION % predicate}\n", 1).encode()


def laughs(levels: int, fan: int = 9) -> str:
    """A predicate of `levels` nested `all`s, each naming the one below `fan` times through an alias."""
    text = "&p0 {null: a}"
    for level in range(1, levels + 1):
        text = f"&p{level} {{all: [{text}{f', *p{level - 1}' * (fan - 1)}]}}"
    return text


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes | None = None  # None: `make` lays the file out itself
    marker: str | None = None  # text on the line the error names (where the error has a line)
    make: Callable[[Path], None] | None = None

    def lay(self, path: Path) -> None:
        if self.make is not None:
            self.make(path)
        else:
            assert self.data is not None
            path.write_bytes(self.data)


def symlink_loop(path: Path) -> None:
    path.symlink_to(path.name)


def dangling(path: Path) -> None:
    path.symlink_to("nowhere.yaml")


def folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.yaml").write_text(BASE_TEXT, encoding="utf-8")


def fifo(path: Path) -> None:
    os.mkfifo(path)  # reading it would wait for a writer for ever


def twice(path: Path) -> None:
    """Two files of the same extension: which one is the API?"""
    path.write_text(BASE_TEXT, encoding="utf-8")
    (path.parent / "copy.yaml").write_text(BASE_TEXT, encoding="utf-8")


CASES = [
    Case("not-yaml", b"name: [unclosed\nvendor: NV\n", "vendor"),
    Case("empty", b""),
    Case("only-a-comment", b"# nothing here\n"),
    Case("null-document", b"---\n...\n"),
    Case("a-list", b"- name: cl_x_sharing\n- vendor: NV\n"),
    Case("a-scalar", b"just some words\n"),
    Case("two-documents", BASE_TEXT.encode() + b"---\nname: again\n", "---"),
    Case("missing-key-top", edited(removing("tokens"))),
    Case("missing-key-nested", edited(lambda d: d["functions"][0].pop("return_type"))),
    Case("wrong-type-top", edited(setting("functions", "all of them")), "functions: all of them"),
    Case("wrong-type-name", edited(setting("name", 5)), "name: 5"),
    Case("wrong-type-item", edited(lambda d: d["tokens"].insert(0, "CL_X")), "- CL_X"),
    Case("wrong-type-param", edited(lambda d: d["functions"][0]["params"][0].update(type=3)), "type: 3"),
    Case("wrong-type-deep", edited(lambda d: d["functions"][0]["errors"][0].update(origin=[1])), "origin:"),
    Case("unknown-key-top", edited(setting("colour", "red")), "colour: red"),
    Case("unknown-key-nested", edited(lambda d: d["tokens"][3].update(colour="red")), "colour: red"),
    Case("bad-enum", edited(lambda d: d["sources"][0].update(format="pdf")), "format: pdf"),
    Case("bad-identifier", edited(lambda d: d["tokens"][2].update(name="not a name")), "name: not a name"),
    Case("bad-source", edited(lambda d: d["functions"][1].update(source="nowhere")), "source: nowhere"),
    Case("bool-for-int", edited(lambda d: d["tokens"][1].update(value=True)), "value: true"),
    Case("float-for-int", edited(lambda d: d["tokens"][1].update(value=1.5)), "value: 1.5"),
    Case("int-past-64-bits", edited(lambda d: d["tokens"][1].update(value=2**70)), f"value: {2**70}"),
    Case("int-of-5000-digits", BASE_TEXT.replace("value: 16400", "value: " + "9" * 5000, 1).encode(), "value: 999"),
    Case("bad-date", BASE_TEXT.replace("revision: Version 1, December 7, 2009", "revision: 2009-02-30").encode(),
         "revision: 2009-02-30"),
    Case("not-utf8", BASE_TEXT.encode().replace(b"vendor: NV", b"vendor: N\xffV", 1)),
    Case("utf16-with-bom", BASE_TEXT.encode("utf-16")),
    Case("bom-inside", BASE_TEXT.replace("vendor: NV", "vendor: N\ufeffV", 1).encode(), "vendor"),
    Case("nul", BASE_TEXT.replace("vendor: NV", "vendor: N\x00V", 1).encode(), "vendor"),
    Case("escape-character", BASE_TEXT.replace("vendor: NV", "vendor: \x1b[31mNV", 1).encode(), "vendor"),
    Case("tabs", BASE_TEXT.replace("\n  format: registry", "\n\tformat: registry", 1).encode(), "format"),
    Case("duplicate-key", BASE_TEXT.replace("vendor: NV\n", "vendor: NV\nvendor: KHR\n", 1).encode(), "vendor: KHR"),
    Case("duplicate-key-nested", BASE_TEXT.replace("  format: registry\n", "  format: registry\n  format: asciidoc\n",
                                                   1).encode(), "format: asciidoc"),
    Case("collection-as-key", b"? [name]\n: cl_x_sharing\n", "name"),
    Case("python-tag", b"!!python/object/apply:os.system ['true']\n", "python"),
    Case("anchor-and-alias", BASE_TEXT.replace("vendor: NV", "vendor: &v NV\nrevision2: *v", 1).encode(), "&v"),
    Case("billion-laughs-top", ("lol: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 12))).encode(), "&l0"),
    Case("billion-laughs-in-a-predicate", with_predicate(laughs(12)), "&p12"),
    Case("nested-flow-1e6", b"[" * 1_000_000),
    Case("nested-flow-mapping-1e6", b"{a: " * 1_000_000),
    Case("nested-block-1e6", b"- " * 1_000_000 + b"x\n"),
    Case("nested-predicate-1e4", with_predicate("{not: " * 10_000 + "{null: a}" + "}" * 10_000), "{not: {not:"),
    Case("nested-block-mapping", "".join(" " * n + "a:\n" for n in range(300)).encode()),
    Case("huge-file", BASE_TEXT.replace("revision: Version 1", "revision: Version 1" + "0" * (65 << 20)).encode()),
    Case("symlink-loop", make=symlink_loop),
    Case("dangling-symlink", make=dangling),
    Case("a-folder-named-x.yaml", make=folder),
    Case("a-fifo", make=fifo),
    Case("the-same-extension-twice", make=twice),
]

_ERROR = re.compile(r"^(?P<path>.+?\.yaml)(?::(?P<line>\d+):(?P<column>\d+))?: (?P<severity>error|warning): \S")


def lay_out(case: Case, folder: Path) -> Path:
    folder.mkdir(parents=True)
    path = folder / f"{case.name}.yaml"
    case.lay(path)
    return path


def check_message(case: Case, stderr: str, severity: str, folder: Path) -> None:
    assert "Traceback" not in stderr, stderr[-2000:]
    lines = stderr.splitlines()
    found = [(n, match) for n, line in enumerate(lines)
             if (match := _ERROR.match(line)) and match["severity"] == severity]
    assert found, stderr[:2000]
    number, first = found[0]
    assert Path(first["path"]).parent == folder, first["path"]
    if case.marker is not None:
        assert first["line"] is not None, lines[number]
        assert case.marker in lines[number + 1], lines[number:number + 3]


def test_the_table_is_large_and_its_cases_distinct() -> None:
    assert len(CASES) >= 31
    assert len({case.name for case in CASES}) == len(CASES)
    assert len({case.data for case in CASES if case.data is not None}) == len([c for c in CASES if c.data is not None])


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_diff_on_a_malformed_ir_is_a_clean_exit_2(case: Case, tmp_path: Path) -> None:
    old = tmp_path / "old"
    lay_out(case, old)
    status, stderr = harness.child(tmp_path, ["diff", str(old), str(GENERATED / "ir")])
    assert status == 2, (status, stderr[-2000:])
    check_message(case, stderr, "error", old)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_generate_over_a_malformed_previous_ir_warns_and_goes_on(case: Case, tmp_path: Path) -> None:
    specs, out = tmp_path / "specs", tmp_path / "out"
    specs.mkdir()
    shutil.copy(SPECS / f"{SEED}.txt", specs)
    lay_out(case, out / "ir")
    files, _ = ownership.entries(out)  # as an earlier run wrote them, edited since
    (out / ownership.NAME).write_text("inputs earlier\n" + "".join(
        f"{hashlib.sha256((out / name).read_bytes()).hexdigest()}  {name}\n" for name in sorted(files)))
    foreign = ownership.foreign(out, ownership.read(out))  # a link or a FIFO is nothing the generator writes
    status, stderr = harness.child(tmp_path, ["generate", "--specs", str(specs), "--out", str(out)])
    if foreign:
        assert status == 2 and "holds files the generator did not write" in stderr, (status, stderr[-2000:])
        assert "Traceback" not in stderr
        return
    assert status == 0, (status, stderr[-2000:])
    check_message(case, stderr, "warning", out / "ir")
    assert "API changes" in stderr
    assert yaml.safe_load((out / "ir" / f"{SEED}.yaml").read_text(encoding="utf-8"))["name"] == SEED
