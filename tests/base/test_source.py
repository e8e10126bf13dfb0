"""Reading input files: line ends, encodings and what is not text."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from generator.base.errors import InputError
from generator.base.source import Pos, SpecFile
from tests.support import ROOT, SPECS, CliRun, snapshot, swapping


def test_line_ends_and_no_break_spaces_are_normalised(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes("\ufeffone\r\ntwo\u00a0words\rthree\n".encode())
    spec = SpecFile.read(path, tmp_path)
    assert spec.path == "specs/a.txt"
    assert spec.text == "one\ntwo words\nthree\n"


def test_binary_is_an_error_with_its_position() -> None:
    with pytest.raises(InputError) as caught:
        SpecFile.from_text("b.txt", "text\nmore\x00here")
    assert str(caught.value).startswith("b.txt:2:5: error: control character U+0000")


@pytest.mark.parametrize(("raw", "encoding"), [
    (b"ok\ncaf\xe9 \x93quoted\x94\n", "cp1252"),  # a text written on Windows, with its quotes
    (b"ok\ncaf\xe9 \xa9 \x81\n", "latin-1"),  # a byte cp1252 does not define
])
def test_a_text_that_is_not_utf8_is_read_in_its_legacy_encoding(tmp_path: Path, raw: bytes, encoding: str) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(raw)
    spec = SpecFile.read(path, tmp_path)
    assert spec.text.startswith("ok\ncafé ") and spec.legacy == (encoding, Pos(2, 4))


def test_a_binary_file_in_no_encoding_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"ok\n\xff\xfe\x00\x01")
    with pytest.raises(InputError) as caught:
        SpecFile.read(path, tmp_path)
    assert "control character U+0000" in str(caught.value)


def test_long_lines_are_cut_around_the_caret() -> None:
    error = SpecFile.from_text("c.txt", "a" * 500 + "X" + "b" * 500).error(Pos(1, 501), "here")
    text, caret = error.render().splitlines()[1:]
    assert len(text) < 140 and text[caret.index("^")] == "X"


@pytest.mark.parametrize(("name", "shown", "why"), [
    ("tab\there.txt", "tab\\x09here.txt", "the character U+0009"),
    ("esc\x1b]0;title\x07.txt", "esc\\x1b]0;title\\x07.txt", "the character U+001B"),
    ("c1\x9bm.txt", "c1\\x9bm.txt", "the character U+009B"),
    ("bidi\u202etxt.exe", "bidi\\u202etxt.exe", "the character U+202E"),
    ("line\u2028break.txt", "line\\u2028break.txt", "the character U+2028"),
    (os.fsdecode(b"latin\xe9.txt"), "latin\\xe9.txt", "the byte \\xe9, which is not UTF-8"),
])
def test_a_file_name_that_does_not_print_as_itself_is_refused_escaped(tmp_path: Path, name: str, shown: str,
                                                                       why: str) -> None:
    path = tmp_path / name
    path.write_text("Name\n\n    cl_foo_bar\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        SpecFile.read(path, tmp_path)
    assert caught.value.pos is None, "a fault of the name, not of a place in the text"
    rendered = caught.value.render()
    assert rendered.startswith(f"specs/{shown}: error: the file name holds {why}"), rendered
    assert rendered.isprintable()


@pytest.mark.parametrize("name", ["plain.txt", "with space.txt", "café €.txt", "we\"ird ' \\ $(x).txt"])
def test_a_printable_file_name_is_read(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("text\n", encoding="utf-8")
    assert SpecFile.read(tmp_path / name, tmp_path).path == f"specs/{name}"


#: A line of a file outside the specs folder that no output or message may ever show.
SECRET = "root:$6$SECRET-CANARY-7f3a$abcdef:19000:0:99999:7:::\n"


def outside_and_specs(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the seeds in `tmp_path/specs` and a folder beside it holding a secret."""
    outside = tmp_path / "outside"
    (outside / "deeper").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET)
    (outside / "deeper" / "secret.txt").write_text(SECRET)
    shutil.copytree(SPECS, tmp_path / "specs")
    return outside, tmp_path / "specs"


@pytest.mark.parametrize(("name", "links"), [
    ("evil.txt", {"evil.txt": "{outside}/secret.txt"}),  # absolute
    ("evil.txt", {"evil.txt": "../outside/secret.txt"}),  # relative, climbing out
    ("sub/evil.txt", {"sub/evil.txt": "../../outside/deeper/secret.txt"}),  # from a folder, two levels up
    ("evil.txt", {"evil.txt": "{specs}/../outside/secret.txt"}),  # through the specs folder's own path
    ("a.txt", {"a.txt": "b.link", "b.link": "../outside/secret.txt"}),  # a chain of links
    ("sub", {"sub": "../outside/deeper"}),  # a folder of specs linked to one outside: was skipped in silence
    ("up.txt", {"up.txt": "sub/../../outside/secret.txt", "sub/keep.md": None}),  # `..` after a real folder
])
def test_a_link_that_leads_out_of_the_specs_folder_is_refused_unread(
    tmp_path: Path, main: Callable[..., CliRun], name: str, links: dict[str, str | None],
) -> None:
    """A spec file or folder under --specs that is, or lies behind, a link leading out of the folder is an input
    error naming it, and nothing it leads to is read: no line of it is quoted (a link to /etc/shadow was read and
    its first line shown under `cannot recognise the format`)."""
    outside, specs = outside_and_specs(tmp_path)
    for link, target in links.items():
        (specs / link).parent.mkdir(exist_ok=True)
        if target is None:
            (specs / link).write_text("# a note\n")
        else:
            (specs / link).symlink_to(target.format(outside=outside, specs=specs))
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 2, run.err
    assert f"specs/{name}: error: is, or lies behind, a symbolic link that leads out of the specs folder" in run.err
    assert "SECRET" not in run.err + run.out and "Traceback" not in run.err
    assert not (tmp_path / "out").exists()


def test_a_link_inside_the_specs_folder_is_read_and_cited_by_its_own_name(
    tmp_path: Path, main: Callable[..., CliRun],
) -> None:
    """A link whose target stays inside --specs is read as the file it leads to, and cited by the link's own path
    (it was cited by its target's, which depends on where the text is kept)."""
    specs = tmp_path / "specs"
    (specs / ".store" / "v2").mkdir(parents=True)
    shutil.copy(SPECS / "cl_nv_d3d10_sharing.txt", specs / ".store" / "v2" / "nv10.txt")
    shutil.copy(SPECS / "cl_nv_d3d11_sharing.txt", specs / ".store" / "nv11.txt")
    shutil.copy(SPECS / "cl_khr_d3d10_sharing.txt", specs / ".store" / "khr10.txt")
    (specs / "cl_nv_d3d10_sharing.txt").symlink_to(".store/v2/nv10.txt")
    (specs / "cl_nv_d3d11_sharing.txt").symlink_to(specs / ".store" / "nv11.txt")  # absolute, inside
    (specs / "sub").mkdir()
    (specs / "sub" / "cl_khr_d3d10_sharing.txt").symlink_to("../.store/v2/../khr10.txt")
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    sources = {name: yaml.safe_load((tmp_path / "out" / "ir" / f"{name}.yaml").read_text())["sources"][0]["path"]
               for name in ("cl_nv_d3d10_sharing", "cl_nv_d3d11_sharing", "cl_khr_d3d10_sharing")}
    assert sources == {"cl_nv_d3d10_sharing": "specs/cl_nv_d3d10_sharing.txt",
                       "cl_nv_d3d11_sharing": "specs/cl_nv_d3d11_sharing.txt",
                       "cl_khr_d3d10_sharing": "specs/sub/cl_khr_d3d10_sharing.txt"}


@pytest.mark.parametrize("target", ["a folder inside", "itself"])
def test_a_link_to_a_folder_or_a_loop_under_the_specs_folder_is_an_error_not_skipped(
    tmp_path: Path, main: Callable[..., CliRun], target: str,
) -> None:
    """Every file under --specs is read: a link to a folder was passed over in silence, a link loop too."""
    specs = tmp_path / "specs"
    shutil.copytree(SPECS, specs)
    (specs / ".more").mkdir()
    shutil.copy(SPECS / "cl_khr_d3d11_sharing.txt", specs / ".more" / "copy.txt")
    (specs / "more").symlink_to(".more" if target == "a folder inside" else "more")
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 2, run.err
    assert run.err.startswith("specs/more: error: "), run.err


@pytest.mark.parametrize("swapped", ["a spec file", "a folder on the way"])
def test_a_spec_swapped_for_a_link_out_while_runs_read_is_never_read(tmp_path: Path, swapped: str) -> None:
    """A second process keeps swapping a note under --specs (or the folder holding it) with a link to a file
    (or folder) outside holding a secret, while `generate` runs: each run reads the note or refuses the link,
    and no run ever shows a line of the secret, on the terminal or in OUT."""
    outside, specs = outside_and_specs(tmp_path)
    (outside / "deeper" / "note.md").write_text(SECRET)
    note = (SPECS / "README.md").read_text(encoding="utf-8")  # a Markdown note: read, recognised, skipped
    if swapped == "a spec file":
        (specs / "note.md").write_text(note)
        (specs / ".aside").symlink_to(outside / "secret.txt")
        pair = (specs / "note.md", specs / ".aside")
    else:
        (specs / "sub").mkdir()
        (specs / "sub" / "note.md").write_text(note)
        (specs / ".aside").symlink_to(outside / "deeper")
        pair = (specs / "sub", specs / ".aside")
    out, refused, runs = tmp_path / "out", 0, 0
    with swapping(*pair) as swaps:
        while runs < 6 or (not refused and runs < 40):
            done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out",
                                   str(out), "--force"], cwd=ROOT, capture_output=True, text=True, check=False)
            runs += 1
            assert "SECRET" not in done.stdout + done.stderr, done.stderr
            assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
            refused += "lies behind, a symbolic link that leads out of the specs folder" in done.stderr
            if done.returncode == 2:  # the link where a file is read, or a folder where a link was listed, or back
                assert done.stderr.startswith(f"specs/{pair[0].name}"), done.stderr
        assert swaps() > 0
    assert refused > 0, "no run met the link"
    assert not out.exists() or not any(b"SECRET" in data for data in snapshot(out).values())


def test_a_utf8_text_with_a_stray_byte_keeps_its_characters(tmp_path: Path) -> None:
    """One byte of cp1252 in a UTF-8 text made the whole text mojibake (every `é` became `Ã©`)."""
    path = tmp_path / "mixed.txt"
    path.write_bytes("ok\r\ncafé \u2013\r\n".encode() + b"dash \x96 here\r\n")
    spec = SpecFile.read(path, tmp_path)
    assert spec.text.startswith("ok\ncafé ") and "dash " in spec.text and "Ã" not in spec.text
    assert spec.legacy == ("cp1252", Pos(3, 6))
