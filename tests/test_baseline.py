"""Known warnings kept in a baseline: `generate -q --baseline FILE` prints what is new and counts the rest."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import baseline
from tests.support import SPECS, CliRun


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    return Path(shutil.copytree(SPECS, tmp_path / "specs"))


def warnings(run: CliRun) -> list[str]:
    return [line for line in run.err.splitlines() if ": warning: " in line]


def test_the_warnings_written_as_known_are_not_shown_again(
        main: Callable[..., CliRun], specs: Path, tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    first = main("generate", "--specs", str(specs), "--out", str(tmp_path / "a"), "--baseline", str(known),
                 "--write-baseline")
    assert first.status == 0 and len(warnings(first)) > 10
    assert f"{len(warnings(first))} warnings written as known" in first.err.splitlines()[-1]
    again = main("generate", "--specs", str(specs), "--out", str(tmp_path / "b"), "-q", "--baseline", str(known))
    assert again.status == 0 and warnings(again) == []
    assert again.err.splitlines()[-1].endswith(f"{len(warnings(first))} known warnings not shown, 0 new")


def test_a_new_warning_is_shown_and_a_moved_one_is_still_known(
        main: Callable[..., CliRun], specs: Path, tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    assert main("generate", "--specs", str(specs), "--out", str(tmp_path / "a"), "--baseline", str(known),
                "--write-baseline").status == 0
    text = specs / "cl_khr_d3d11_sharing.txt"
    body = text.read_text(encoding="utf-8")
    # every warning of this text moves down ten lines; one sentence names a token nobody defines
    text.write_text("\n" * 10 + body + "\nThe value CL_D3D11_NOTHING_KHR is returned.\n", encoding="utf-8")
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "b"), "-q", "--baseline", str(known))
    assert run.status == 0
    assert [line for line in warnings(run)] and all("CL_D3D11_NOTHING_KHR" in line for line in warnings(run))
    assert run.err.splitlines()[-1].endswith(f"{len(warnings(run))} new")


def test_quiet_or_writing_needs_a_baseline(main: Callable[..., CliRun], tmp_path: Path) -> None:
    for flag in ("-q", "--write-baseline"):
        with pytest.raises(SystemExit) as ended:
            main("generate", "--out", str(tmp_path / "out"), flag)
        assert ended.value.code == 2


def test_a_file_that_is_no_baseline_is_neither_read_nor_replaced(
        main: Callable[..., CliRun], specs: Path, tmp_path: Path) -> None:
    mine = tmp_path / "notes.txt"
    mine.write_text("my own notes\n", encoding="utf-8")
    for flags in (("-q",), ("--write-baseline",)):
        run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), "--baseline", str(mine), *flags)
        assert run.status == 2 and f"{mine}: error: " in run.err
        assert mine.read_text(encoding="utf-8") == "my own notes\n"
        assert not (tmp_path / "out").exists()  # refused before the run, which wrote nothing


def test_a_baseline_behind_a_link_is_refused(main: Callable[..., CliRun], specs: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text(baseline.HEADER + "\n", encoding="utf-8")
    link = tmp_path / "known.txt"
    os.symlink(target, link)
    for flags in (("-q",), ("--write-baseline",)):
        run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), "--baseline", str(link), *flags)
        assert run.status == 2 and "symbolic link" in run.err
    assert target.read_text(encoding="utf-8") == baseline.HEADER + "\n" and link.is_symlink()
