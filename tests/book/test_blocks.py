"""Where the book's lines stand among its blocks, through the command on the made-up extension of
tests/samples.py: verbatim blocks (listings, comments, passthroughs) hold no markup that ends or opens a reference
page or a table, a block never closed is an input error, and finding the blocks is linear work."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.ir import files as ir
from tests.samples import GIZMO_BOOK as BOOK
from tests.samples import GIZMO_CORE as CORE
from tests.samples import GIZMO_PAGE as PAGE
from tests.samples import GIZMO_XML as XML
from tests.support import CliRun, calls_counted, grown


def checkout(root: Path, core: str = CORE) -> Path:
    for name, text in {"Book.txt": BOOK, "api/core.asciidoc": core, "api/cl_acme_gizmo.asciidoc": PAGE,
                       "xml/cl.xml": XML}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def generate(main: Callable[..., CliRun], root: Path) -> tuple[CliRun, dict[str, Any]]:
    out = root.parent / f"{root.name}-out"
    run = main("generate", "--specs", str(root), "--out", str(out), "--extension", "cl_acme_gizmo")
    return run, (ir.read_data(out / "ir" / "cl_acme_gizmo.yaml")[0] if run.status == 0 else {})


def errors(made: dict[str, Any], function: str) -> list[str]:
    return [e["code"] for f in made["functions"] if f["name"] == function for e in f["errors"]]


@pytest.mark.parametrize("block", ["[source,sh]\n----\nmake --\n--\n----", "....\n--\n....", "////\n--\n////",
                                   "++++\n<p>\n--\n++++"])
def test_a_dash_dash_line_inside_a_verbatim_block_does_not_end_the_reference_page(
        block: str, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """It ended the page there: the extension's item of the core function's error list, after it, lost its
    function (left out with a warning that named neither)."""
    core = CORE.replace("// refError\n", f"{block}\n\n// refError\n", 1)
    run, made = generate(main, checkout(tmp_path / "book", core))
    assert run.status == 0, run.err
    assert errors(made, "clGetMemObjectInfo") == ["CL_INVALID_GIZMO_ACME"]


@pytest.mark.parametrize("fence", ["////", "----", "...."])
def test_a_reference_page_inside_a_verbatim_block_is_no_page(
        fence: str, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """An old page commented out (or quoted in a listing): its items were read as the command's conditions."""
    old = ("[open,refpage='clMakeGizmoACME',desc='old',type='protos']\n--\n// refError\n\n{clMakeGizmoACME} returns "
           "one of the following errors:\n\n  * {CL_INVALID_OPERATION} if it is an old page.\n--\n")
    run, made = generate(main, checkout(tmp_path / "book", CORE + f"\n{fence}\n{old}{fence}\n"))
    assert run.status == 0, run.err
    assert errors(made, "clMakeGizmoACME") == ["CL_INVALID_CONTEXT", "CL_INVALID_VALUE"]


@pytest.mark.parametrize("fence", ["----", "////", "++++"])
def test_a_verbatim_block_never_closed_is_an_input_error(
        fence: str, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """It swallowed the rest of the book in silence: the tables and headings after it were not seen."""
    run, _ = generate(main, checkout(tmp_path / "book", f"== Intro\n\n{fence}\nx\n\n{CORE}"))
    assert run.status == 2
    said = f"the block opened here is never closed (no `{fence}`"
    assert run.err.startswith(f"specs/api/core.asciidoc:3:1: error: {said}")


def assert_linear(main: Callable[..., CliRun], tmp_path: Path, core: Callable[[int], str]) -> None:
    """The book with `core(n)` as its core file, at n = 0, 400 and 3,200: no function's calls grow with the square
    of n (counted work, not time: the same on a loaded machine)."""
    counted = []
    for size in (0, 400, 3200):
        with calls_counted() as calls:
            run, _ = generate(main, checkout(tmp_path / f"book{size}", core(size)))
        assert run.status == 0, run.err
        counted.append(calls)
    assert not grown(counted[1], counted[2], 20.0, 20_000, counted[0])


@pytest.mark.parametrize("items", [
    lambda n: "  ** if it is so\n" * n,
    lambda n: "  - {CL_INVALID_VALUE}\n" + "    more words\n" * n + "  -- if it is so\n" * n,
    lambda n: "* {CL_INVALID_VALUE}\n" + "** if a\n*** if b\n" * n,
])
def test_many_sub_items_are_cut_with_their_item_in_linear_work(
        items: Callable[[int], str], main: Callable[..., CliRun], tmp_path: Path) -> None:
    """Each sub-item of the extension's lines looked for its item back to the heading: quadratic work for many
    sub-items of none (20,000 took 48 seconds), or of one item of a long paragraph."""
    assert_linear(main, tmp_path, lambda n: f"{CORE}\nifdef::cl_acme_gizmo[]\n== More\n\n{items(n)}"
                  "endif::cl_acme_gizmo[]\n")


@pytest.mark.parametrize("table", ["|===\n", ".A table\n|====\n|====\n", "[cols=\"1\"]\n|===\n| x\n|===\n"])
def test_tables_one_after_another_without_a_blank_line_are_found_in_linear_work(
        table: str, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """Each table's introduction was looked for back across every table before it: quadratic work (40,000
    `|===` lines took 70 seconds)."""
    assert_linear(main, tmp_path, lambda n: f"== Tables\n\n{table * (n // table.count('|=') * 2)}\n{CORE}")
