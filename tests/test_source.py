"""Reading input files: line ends, encodings and what is not text."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import InputError
from generator.source import Pos, SpecFile


def test_line_ends_and_no_break_spaces_are_normalised(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffone\r\ntwo\u00a0words\rthree\n".encode())
    spec = SpecFile.read(path, tmp_path)
    assert spec.path == "a.txt"
    assert spec.text == "one\ntwo words\nthree\n"


def test_binary_is_an_error_with_its_position() -> None:
    with pytest.raises(InputError) as caught:
        SpecFile.from_text("b.txt", "text\nmore\x00here")
    assert str(caught.value).startswith("b.txt:2:5: error: control character U+0000")


def test_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(b"ok\ncaf\xe9\n")
    with pytest.raises(InputError) as caught:
        SpecFile.read(path, tmp_path)
    assert str(caught.value).startswith("latin.txt:2:4: error: not UTF-8 text")


def test_long_lines_are_cut_around_the_caret() -> None:
    error = SpecFile.from_text("c.txt", "a" * 500 + "X" + "b" * 500).error(Pos(1, 501), "here")
    text, caret = error.render().splitlines()[1:]
    assert len(text) < 140 and text[caret.index("^")] == "X"
