"""Hostile files: YAML with Python tags, file names that do not print as themselves or would write
elsewhere, a module that would not parse, a hostile registry XML.

Each case is the seed with one hostile edit, run through `python -m generator generate` (see `seed.py`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.base.errors import InputError
from generator.ir import read
from tests.hostile.seed import SEED, SEED_NAME, Generate, edited
from tests.support import ROOT, CliRun

# -- YAML: the safe loader only ------------------------------------------------------------------

def test_an_ir_file_with_a_python_tag_is_refused_not_run(tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(f"!!python/object/apply:os.system ['touch {tmp_path / 'PWNED'}']\n", encoding="utf-8")
    with pytest.raises(InputError, match="explicit tag"):
        read.load(hostile)
    assert not (tmp_path / "PWNED").exists()
    hostile.write_text("- a list, not an IR document\n", encoding="utf-8")
    with pytest.raises(InputError, match="is not of type object"):
        read.load(hostile)


UNSAFE_YAML = re.compile(r"yaml\.(unsafe_load|full_load|load_all)\(|yaml\.load\((?![^)]*Loader=SafeLoader)|"
                         r"Loader=yaml\.(Loader|FullLoader|UnsafeLoader)")


def test_yaml_is_read_with_the_safe_loader_only() -> None:
    sources = [*ROOT.joinpath("generator").rglob("*.py"), *ROOT.joinpath("data").rglob("*.py"),
               *ROOT.joinpath("templates").rglob("*.j2")]
    assert len(sources) > 20
    offending = [f"{p.relative_to(ROOT)}: {m.group()}" for p in sources
                 for m in UNSAFE_YAML.finditer(p.read_text(encoding="utf-8"))]
    assert offending == []
    assert UNSAFE_YAML.search("yaml.load(stream)") and UNSAFE_YAML.search("yaml.unsafe_load(s)"), "the check bites"


@pytest.mark.parametrize(("name", "shown", "why"), [
    ("cl\x1b[2Jnv.txt", "cl\\x1b[2Jnv.txt", "the character U+001B, which does not print as itself"),
    ("cl\nnv.txt", "cl\\x0anv.txt", "the character U+000A"),
    ("cl\u202envt.txt", "cl\\u202envt.txt", "the character U+202E"),
    (os.fsdecode(b"cl\xffnv.txt"), "cl\\xffnv.txt", "the byte \\xff, which is not UTF-8"),
])
def test_a_spec_file_name_that_does_not_print_as_itself_is_an_error(generate: Generate, out: Path, name: str,
                                                                    shown: str, why: str) -> None:
    """The name goes into the IR's `source:` fields, the docs and every message: a control character broke the IR
    schema (exit 3), a byte that is not UTF-8 the fingerprint (a traceback)."""
    run = generate(files={name: SEED})
    assert run.status == 2, run.err
    assert run.err.startswith(f"specs/{shown}: error: the file name holds {why}"), run.err
    assert run.err.replace("\n", "").isprintable(), "no raw control character reaches the terminal"
    assert not out.exists()


def test_the_error_of_every_bad_file_is_reported(generate: Generate, out: Path) -> None:
    """The first bad file stopped the run: the errors of the others were found one run at a time."""
    run = generate(files={"a.txt": edited("ID3D10Buffer *resource,", "ID3D10Buffer *res$ource,"),
                          "b\x1b.txt": SEED, "c.txt": edited("0x4011", "1" * 5000), "d.txt": SEED})
    assert run.status == 2
    heads = [line for line in run.err.splitlines() if ": error: " in line]
    assert [head.split(": error: ")[0] for head in heads] == ["specs/a.txt:35:26", "specs/b\\x1b.txt",
                                                              "specs/c.txt:74:9"]
    assert run.err.splitlines()[1:3] == ["            ID3D10Buffer *res$ource,", " " * 29 + "^"], "with the excerpt"
    assert run.err.endswith("3 errors\n") and "Traceback" not in run.err
    assert not out.exists()


def test_a_file_name_cannot_write_into_the_c_declarations(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """A path holding `*/` would close the comment it was quoted in and declare C of its own."""
    folder = tmp_path / "specs" / "a*"
    folder.mkdir(parents=True)
    (folder / " typedef int cl_injected_t; int clInjected(void);x.txt").write_text(SEED, encoding="utf-8")
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    package = tmp_path / "out" / "cl_d3d_sharing"
    declarations = [*package.glob("_cdef/*.h"), *package.glob("_*_ffi.py")]
    assert len(declarations) >= 4
    assert [p.name for p in declarations if "cl_injected_t" in p.read_text(encoding="utf-8")] == []


def test_a_generated_module_that_would_not_parse_is_never_written(monkeypatch: pytest.MonkeyPatch,
                                                                   generate: Generate, out: Path) -> None:
    """The last guard, for a name that got past every check: stand in for one with a broken template result."""
    from generator.emission import render

    real = render.render

    def broken(template: str, **context: object) -> str:
        text = real(template, **context)
        return text + "\ndef (:\n" if template == "package/extension.py.j2" else text

    monkeypatch.setattr("generator.emission.emit.render", broken)
    run = generate(SEED)
    assert run.status == 3 and "would not compile" in run.err, run.err
    assert not out.exists()


_XML_BOMB = ('<?xml version="1.0"?>\n<!DOCTYPE registry [\n <!ENTITY a "aaaaaaaaaa">\n'
             ' <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
             "<registry><comment>&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;</comment></registry>\n")


@pytest.mark.parametrize(("xml", "where", "words"), [
    (_XML_BOMB, ":2:1: error:", "document type declaration"),
    ('<?xml version="1.0"?>\n<!DOCTYPE r SYSTEM "http://example.com/r.dtd">\n<registry/>\n', ":2:1: error:",
     "document type declaration"),
    ("<registry>" + "<x>" * 5000 + "</x>" * 5000 + "</registry>", ":1:", "nest more than"),
    ("<registry>\n<enums>\n", ":3:1: error:", "not well-formed XML"),
])
def test_a_hostile_registry_xml_is_a_clean_input_error(xml: str, where: str, words: str, generate: Generate,
                                                        tmp_path: Path) -> None:
    result = generate(files={SEED_NAME: SEED, "cl.xml": xml})
    assert result.status == 2 and "Traceback" not in result.err
    assert f"cl.xml{where}" in result.err and words in result.err
    assert not (tmp_path / "out").exists()


def test_two_registry_files_are_an_input_error(generate: Generate, tmp_path: Path) -> None:
    result = generate(files={SEED_NAME: SEED, "a.xml": "<registry/>", "b.xml": "<registry/>"})
    assert result.status == 2 and "b.xml:1:1: error: a second registry XML" in result.err
    assert not (tmp_path / "out").exists()
