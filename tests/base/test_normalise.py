"""Invisible and look-alike characters made what a reader sees, and said per kind (`base/normalise.py`).

The command-level cases (a name, a value, a condition holding such a character) are in
`tests/hostile/test_characters.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.base.normalise import UNREADABLE, normalise
from generator.base.source import SpecFile
from tests.pathological import assert_linear


@pytest.mark.parametrize("character", ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e",
                                       "\u2061", "\u2062", "\u2063", "\u2064"])
def test_an_invisible_character_inside_a_name_is_removed_and_said(character: str) -> None:
    text, found = normalise(f"line one\n  * CL_INVALID{character}_VALUE if flags{character} is 0\n")
    assert text == "line one\n  * CL_INVALID_VALUE if flags is 0\n"
    (finding,) = found
    assert (finding.kind, finding.count, finding.line, finding.column, finding.warning) == ("invisible", 2, 2, 15, True)
    assert f"U+{ord(character):04X}" in finding.message() and "removed" in finding.message()


@pytest.mark.parametrize(("character", "kind"), [
    ("\u202e", "bidi"), ("\u202a", "bidi"), ("\u2066", "bidi"), ("\u2069", "bidi"), ("\u200f", "bidi"),
    ("\u061c", "bidi"), ("\u206a", "format"), ("\ufff9", "format"), ("\U000e0041", "format"), ("\u0085", "format"),
    ("\u3164", "format"), ("\ufe0f", "format"), ("\U0001d173", "format"), ("\u2800", "format"),
    ("\ue000", "format"), ("\U00100000", "format"), ("\u0378", "format"), ("\u3097", "format"),
])
def test_a_character_that_may_show_otherwise_becomes_u_fffd_in_place(character: str, kind: str) -> None:
    """Bidirectional controls and unknown invisible characters keep their column: U+FFFD stands where they stood,
    so a condition or a name holding one is refused or marked later, never read as something else."""
    text, found = normalise(f"ab\ncd {character}ef gh")
    assert text == f"ab\ncd {UNREADABLE}ef gh"
    (finding,) = found
    assert (finding.kind, finding.warning, finding.replaced) == (kind, True, ((2, 4, character),))


@pytest.mark.parametrize(("written", "read", "kind"), [
    ("e\ufb00ective", "effective", "compatibility"), ("\ufb01le", "file", "compatibility"),
    ("\ufb03x \ufb06", "ffix st", "compatibility"), ("0x\uff14\uff10\uff11\uff10", "0x4010", "compatibility"),
    ("\uff23\uff2c_X", "CL_X", "compatibility"), ("\U0001d402\U0001d40b", "CL", "compatibility"),
    ("a\u2003b\u3000c\u202fd\u205fe\u2009f", "a b c d e f", "space"), ("a\u2028b", "a b", "space"),
    ("\u22121002 \u2013 \u2014", "-1002 - -", "punctuation"),
    ("\u2018x\u2019 \u201cy\u201d", "'x' \"y\"", "punctuation"),
])
def test_look_alikes_are_read_as_what_they_stand_for_with_a_note(written: str, read: str, kind: str) -> None:
    text, found = normalise(written)
    assert text == read
    assert {f.kind for f in found} == {kind} and not any(f.warning for f in found)


def test_a_word_mixing_latin_with_a_look_alike_of_another_script_is_said_and_kept() -> None:
    text, found = normalise("clCre\u0430teWidget and \u03bcs and caf\u00e9 and \u0436\u0443\u043a")
    assert text == "clCre\u0430teWidget and \u03bcs and caf\u00e9 and \u0436\u0443\u043a"
    (finding,) = found
    assert (finding.kind, finding.count, finding.warning) == ("mixed-script", 2, True)
    assert "CYRILLIC SMALL LETTER A" in finding.message() and "clCre\u0430teWidget" in finding.message()


def test_a_mixed_word_is_placed_on_its_line_and_column() -> None:
    _, found = normalise("caf\u00e9 first\nplain line\n  a clCre\u0430teWidget here\nand clGet\u0415rror")
    (finding,) = found
    assert (finding.line, finding.column, finding.count, finding.lines) == (3, 5, 2, (3, 4))


def test_thousands_of_characters_are_counted_in_one_finding_per_kind() -> None:
    text, found = normalise("".join(f"word{i}\u200b and\u00ad more\n" for i in range(5000)))
    assert "\u200b" not in text and "\u00ad" not in text
    (finding,) = found
    assert finding.count == 10_000 and len(finding.lines) == 6
    assert "10000 invisible characters" in finding.message() and "and on further lines" in finding.message()


def test_columns_count_the_text_as_normalised() -> None:
    """Line numbers never change; a column counts what a reader sees before it on its line."""
    text, found = normalise("x\u00ad\u00ady \ufb00 \u202e z\n\u200b\u202e")
    assert text.split("\n") == ["xy ff \ufffd z", "\ufffd"]
    bidi = next(f for f in found if f.kind == "bidi")
    assert bidi.replaced == ((1, 7, "\u202e"), (2, 1, "\u202e"))
    assert all(text.split("\n")[line - 1][column - 1] == UNREADABLE for line, column, _ in bidi.replaced)


def test_plain_text_is_left_alone() -> None:
    plain = "CL_INVALID_VALUE if <flags> is 0 \u2022 caf\u00e9 \u00a9 \u00e9t\u00e9\n"
    assert normalise(plain) == (plain, ())
    assert normalise("ascii only") == ("ascii only", ())


def test_a_spec_file_carries_what_was_normalised() -> None:
    spec = SpecFile.from_text("specs/x.txt", "a\u00a0b\u200bc\n")
    assert spec.text == "a bc\n"  # the no-break space of HTML, as before, silently
    assert [f.kind for f in spec.normalised] == ["invisible"]


def test_hidden_characters_take_linear_time(tmp_path: Path) -> None:
    assert_linear("hidden-characters", tmp_path)
