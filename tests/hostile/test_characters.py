"""Invisible and look-alike characters in a spec never silently change what a name, a value or a condition means:
what is safe is read as a reader sees it and said per kind; a condition that can no longer be read as a check is
marked damaged and named in a warning; a name holding a character that may show otherwise is refused.

Each case is the seed with one hostile edit, run through `python -m generator generate` (see `seed.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator.ir import read
from generator.ir.model import ErrorCondition, Extension
from tests.hostile.seed import SEED_NAME, Generate, edited, error_at
from tests.support import CliRun

CONDITION = "CL_INVALID_VALUE if values specified in <flags> are not valid."
IR = "ir/cl_nv_d3d10_sharing.yaml"


def ir(out: Path) -> Extension:
    return read.load(out / IR)


def condition(out: Path, code: str = "CL_INVALID_VALUE", function: str = "clCreateFromD3D10BufferNV",
              line: int = 386) -> ErrorCondition:
    found = next(f for f in ir(out).functions if f.name == function)
    return next(e for e in found.errors if e.code == code and e.source.pos.line == line)


def warnings_of(run: CliRun, kind_words: str) -> list[str]:
    return [line for line in run.err.splitlines() if ": warning: " in line and kind_words in line]


@pytest.mark.parametrize("character", ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u2062"])
def test_an_invisible_character_inside_a_parameter_reference_is_removed_and_the_check_kept(
        generate: Generate, out: Path, character: str) -> None:
    """`<fl\\u00adags>` showed as `<flags>` but was no parameter reference: the condition lost its check."""
    run = generate(edited(CONDITION, CONDITION.replace("<flags>", f"<fl{character}ags>")))
    assert run.status == 0, run.err
    (said,) = warnings_of(run, "invisible character")
    assert said.startswith(f"specs/{SEED_NAME}:386:") and f"U+{ord(character):04X}" in said
    found = condition(out)
    assert found.condition == "values specified in flags are not valid"
    assert [c.kind for c in found.check] == ["host"] and found.damaged is None


@pytest.mark.parametrize(("old", "new"), [
    ("cl_mem_flags flags,\n        ID3D10Buffer", "cl_mem_flags fl\u200bags\u00ad,\n        ID3D10Buffer"),
    ("cl_mem  clCreateFromD3D10BufferNV(", "cl_mem  clCreateFrom\u2060D3D10BufferNV\ufeff("),
    ("CL_D3D10_DEVICE_NV                     0x4010", "CL_D3D10_\u200dDEVICE_NV                     0x4010"),
])
def test_an_invisible_character_inside_a_declared_name_is_removed_and_said(generate: Generate, out: Path, old: str,
                                                                           new: str) -> None:
    run = generate(edited(old, new))
    assert run.status == 0, run.err
    assert warnings_of(run, "invisible character")
    extension = ir(out)
    buffer = next(f for f in extension.functions if f.name == "clCreateFromD3D10BufferNV")
    assert [p.name for p in buffer.params] == ["context", "flags", "resource", "errcode_ret"]
    assert next(t for t in extension.tokens if t.name == "CL_D3D10_DEVICE_NV").value == 0x4010
    assert any(d.kind == "character-invisible" for d in extension.diagnostics)


@pytest.mark.parametrize(("old", "new", "token", "value"), [
    ("CL_D3D10_DEVICE_NV                     0x4010",
     "CL_D3D10_DEVICE_NV                     0x\uff14\uff10\uff11\uff10", "CL_D3D10_DEVICE_NV", 0x4010),
    ("CL_INVALID_D3D10_DEVICE_NV             -1002", "CL_INVALID_D3D10_DEVICE_NV             \u22121002",
     "CL_INVALID_D3D10_DEVICE_NV", -1002),
    ("CL_INVALID_D3D10_DEVICE_NV             -1002", "CL_INVALID_D3D10_DEVICE_NV\u2003\u3000\u2009-1002",
     "CL_INVALID_D3D10_DEVICE_NV", -1002),
    ("CL_D3D10_DEVICE_NV                     0x4010", "\uff23\uff2c_D3D10_DEVICE_NV                     0x4010",
     "CL_D3D10_DEVICE_NV", 0x4010),
])
def test_a_look_alike_in_a_token_is_read_as_what_it_shows_with_a_note(generate: Generate, out: Path, old: str,
                                                                       new: str, token: str, value: int) -> None:
    run = generate(edited(old, new))
    assert run.status == 0, run.err
    extension = ir(out)
    assert next(t for t in extension.tokens if t.name == token).value == value
    assert any(d.kind.startswith("character-") and d.severity == "note" for d in extension.diagnostics)


def test_a_ligature_in_a_condition_is_read_as_its_letters(generate: Generate, out: Path) -> None:
    run = generate(edited(CONDITION, CONDITION.replace("specified", "speci\ufb01ed")))
    assert run.status == 0, run.err
    found = condition(out)
    assert found.condition == "values specified in flags are not valid" and found.check[0].kind == "host"


@pytest.mark.parametrize(("character", "named"), [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("\u200f", "U+200F RIGHT-TO-LEFT MARK"), ("\U000e0066", "U+E0066 TAG LATIN SMALL LETTER F"),
    ("\u206b", "U+206B ACTIVATE SYMMETRIC SWAPPING"),
])
def test_a_condition_holding_a_character_that_may_show_otherwise_is_damaged_and_named(
        generate: Generate, out: Path, main: Callable[..., CliRun], tmp_path: Path, character: str,
        named: str) -> None:
    """Trojan Source: a bidirectional override makes a condition show in another order than it reads, so a check
    compiled from it would test what no reader saw. It is not read as a check; the warning names the condition
    and the character; `coverage` fails for it."""
    run = generate(edited(CONDITION, CONDITION.replace(" are not", f" {character}are not")))
    assert run.status == 0, run.err
    (said,) = [line for line in warnings_of(run, "clCreateFromD3D10BufferNV CL_INVALID_VALUE") if named in line]
    assert said.startswith(f"specs/{SEED_NAME}:386: warning: clCreateFromD3D10BufferNV CL_INVALID_VALUE: the "
                           "condition 'values specified in flags \ufffdare not valid' holds ")
    found = condition(out)
    assert found.damaged is not None and named in found.damaged
    assert {c.kind for c in found.check} == {"driver"}
    coverage = main("coverage", "--specs", str(tmp_path / "specs"), "--out", str(out), cwd=tmp_path)
    assert coverage.status == 1
    assert f"[DAMAGED] CL_INVALID_VALUE: values specified in flags \ufffdare not valid  (specs/{SEED_NAME}:386)" \
        in coverage.out


@pytest.mark.parametrize(("character", "named"), [("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
                                                  ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
                                                  ("\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A")])
def test_a_declared_name_holding_a_character_that_may_show_otherwise_is_refused_naming_it(
        generate: Generate, character: str, named: str) -> None:
    run = generate(edited("cl_mem  clCreateFromD3D10BufferNV(", f"cl_mem  clCreateFrom{character}D3D10BufferNV("))
    message = error_at(run, 32, 25)
    assert message.endswith(f"(U+FFFD stands here for {named}, which may show the text otherwise than it reads)")


def test_thousands_of_invisible_characters_are_said_in_one_warning(generate: Generate, out: Path) -> None:
    run = generate(edited("\n", "\u200b\n", count=-1))
    assert run.status == 0, run.err
    (said,) = warnings_of(run, "invisible character")
    lines = edited("\n", "\u200b\n", count=-1).count("\n")
    assert f": warning: {lines} invisible characters (U+200B ZERO WIDTH SPACE x{lines}) on lines 1, 2, 3" in said
    assert ir(out).functions == read.load(out / IR).functions


def test_a_look_alike_letter_of_another_script_in_a_name_is_a_warning(generate: Generate, out: Path) -> None:
    run = generate(edited(CONDITION, CONDITION.replace("CL_INVALID_VALUE", "CL_INVALID_V\u0410LUE")))
    (said,) = warnings_of(run, "mix Latin") or warnings_of(run, "mixes Latin")
    assert "U+0410 CYRILLIC CAPITAL LETTER A" in said and "'CL_INVALID_V\u0410LUE'" in said


def test_the_character_is_named_however_many_came_before(generate: Generate, out: Path) -> None:
    text = edited(CONDITION, CONDITION.replace(" are not", " \u2066are not"))
    lines = text.split("\n")
    for number in range(15, 19):  # the overview's prose, before the condition: three on each line
        lines[number] += " \u202e" * 3
    run = generate("\n".join(lines))
    assert run.status == 0, run.err
    assert "13 bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE x12, U+2066 LEFT-TO-RIGHT ISOLATE)" in run.err
    assert condition(out).damaged == ("holds U+2066 LEFT-TO-RIGHT ISOLATE, read as U+FFFD: the condition may show "
                                      "otherwise than it reads")


@pytest.mark.parametrize(("character", "named"), [
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"), ("\U0001d159", "U+1D159 MUSICAL SYMBOL NULL NOTEHEAD"),
    ("\ue000", "U+E000 unnamed"), ("\U000f0041", "U+F0041 unnamed"), ("\u0378", "U+0378 unnamed"),
    ("\u05c8", "U+05C8 unnamed"), ("\U000e01f0", "U+E01F0 unnamed"),
])
def test_a_blank_private_use_or_unassigned_character_in_a_reference_damages_its_condition(
        generate: Generate, out: Path, character: str, named: str) -> None:
    """A character drawn blank (a blank Braille pattern), one of a font's own (private use) or one Unicode assigns
    nothing to, inside `<flags>`: the reference was no parameter's any more and the condition lost its host check
    without a word. It is read as U+FFFD, said, and the condition is damaged and named."""
    run = generate(edited(CONDITION, CONDITION.replace("<flags>", f"<fl{character}ags>")))
    assert run.status == 0, run.err
    (said,) = warnings_of(run, "invisible, private-use or unassigned character")
    assert said.startswith(f"specs/{SEED_NAME}:386:") and named in said
    found = condition(out)
    assert found.damaged is not None and named in found.damaged
    assert {c.kind for c in found.check} == {"driver"}


@pytest.mark.parametrize("written", ["<flags\u00a0>", "<\u00a0flags>", "<flags\u2009>", "< flags >"])
def test_a_reference_padded_with_blanks_inside_its_markup_is_named(generate: Generate, out: Path,
                                                                   written: str) -> None:
    """A no-break space is read as a space in silence: `<flags\\u00a0>` showed as the reference `<flags>` and read
    as no reference, so the condition lost its host check without a word. The warning names the condition."""
    run = generate(edited(CONDITION, CONDITION.replace("<flags>", written)))
    assert run.status == 0, run.err
    (said,) = warnings_of(run, "blanks inside the markup")
    shown = written.replace("\u00a0", " ").replace("\u2009", " ")
    assert said.startswith(f"specs/{SEED_NAME}:386: warning: clCreateFromD3D10BufferNV CL_INVALID_VALUE: the "
                           f"condition marks `{shown}` as a parameter")
    assert {c.kind for c in condition(out).check} == {"driver"}
