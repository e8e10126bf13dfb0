"""A Khronos checkout as input: the 2026 OpenCL book and its registry XML (tests/corpus/opencl-docs-2026), the
KHR D3D extensions cut out of it against the official truth and the seed texts, and hostile checkouts."""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import cli, pipeline
from generator.ir import files as ir
from tests.book import snapshot
from tests.book.snapshot import SNAPSHOT
from tests.support import ROOT, CliRun, calls_counted, grown, lint, load_truth, peak_memory

SEEDS = Path(__file__).resolve().parents[2] / "specs"
D3D = ("cl_khr_d3d10_sharing", "cl_khr_d3d11_sharing")


@pytest.fixture(scope="module")
def book_irs() -> dict[str, dict[str, Any]]:
    result = pipeline.run(SNAPSHOT, extensions=D3D)
    return {extension.name: ir.to_dict(extension) for extension in result.extensions}


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the snapshot to damage."""
    return Path(shutil.copytree(SNAPSHOT, tmp_path / "OpenCL-Docs"))


@pytest.mark.parametrize("extension", D3D)
def test_prototypes_values_and_formats_read_from_the_book_equal_the_official_truth(
        extension: str, book_irs: dict[str, dict[str, Any]]) -> None:
    truth, ours = load_truth()[extension], book_irs[extension]
    functions = {f["name"]: f for f in ours["functions"] if not f.get("core")}
    assert list(functions) == [f["name"] for f in truth["functions"]]
    for official in truth["functions"]:
        mine = functions[official["name"]]
        assert mine["return_type"] == official["return"]
        assert [(p["name"], p["type"]) for p in mine["params"]] == [(p["name"], p["type"]) for p in official["params"]]
    assert {t["name"]: t["value"] for t in ours["tokens"]} == {t["name"]: t["value"] for t in truth["tokens"]}
    formats = next(t for t in ours["tables"] if t["name"] == "dxgi_format_mapping")
    assert formats["rows"] == truth["dxgi_formats"]


@pytest.mark.parametrize("extension", D3D)
def test_error_codes_are_the_official_ones_and_what_the_book_adds_is_cited_there(
        extension: str, book_irs: dict[str, dict[str, Any]]) -> None:
    """The book lists CL_OUT_OF_RESOURCES and CL_OUT_OF_HOST_MEMORY for clGetDeviceIDsFromD3D1xKHR, which the
    2018 text did not: a revision, cited at the book's line. Nothing official is missing."""
    truth, ours = load_truth()[extension], book_irs[extension]
    functions = {f["name"]: f for f in ours["functions"]}
    for official in truth["functions"]:
        codes = {e["code"] for e in functions[official["name"]]["errors"]}
        assert set(official["errors"]) <= codes
        for added in codes - set(official["errors"]):
            assert added in ("CL_OUT_OF_RESOURCES", "CL_OUT_OF_HOST_MEMORY"), (official["name"], added)
            cited = [e["source"] for e in functions[official["name"]]["errors"] if e["code"] == added]
            assert all(c.startswith("specs/api/opencl_platform_layer.asciidoc:") for c in cited)
    for core, codes in truth["core_function_errors"].items():
        if isinstance(codes, dict):  # {same_as: f}: the codes of f
            codes = truth["core_function_errors"][codes["same_as"]]
        assert {e["code"] for e in functions[core]["errors"]} == set(codes)
        assert functions[core]["core"] is True


def test_every_fact_cites_the_book_line_or_the_xml_element_it_comes_from(book_irs: dict[str, dict[str, Any]]) -> None:
    functions = {f["name"]: f for f in book_irs["cl_khr_d3d11_sharing"]["functions"]}
    buffer = functions["clCreateFromD3D11BufferKHR"]
    invalid_context = next(e for e in buffer["errors"] if e["code"] == "CL_INVALID_CONTEXT")
    assert invalid_context["source"] == "specs/api/opencl_runtime_layer.asciidoc:1964"
    lines = (SNAPSHOT / "api" / "opencl_runtime_layer.asciidoc").read_text(encoding="utf-8").split("\n")
    assert "{CL_INVALID_CONTEXT} if _context_ is not a valid context." in lines[1963]
    assert buffer["source"].startswith("specs/xml/cl.xml:")
    xml = (SNAPSHOT / "xml" / "cl.xml").read_text(encoding="utf-8").split("\n")
    assert "clCreateFromD3D11BufferKHR" in xml[int(buffer["source"].split(":")[1])]
    sources = {s["path"] for s in book_irs["cl_khr_d3d11_sharing"]["sources"]}
    assert {"specs/api/cl_khr_d3d11_sharing.asciidoc", "specs/api/opencl_runtime_layer.asciidoc",
            "specs/api/opencl_platform_layer.asciidoc"} <= sources


def test_the_appendix_page_gives_the_revision_and_the_groups_of_new_enums(
        book_irs: dict[str, dict[str, Any]]) -> None:
    ours = book_irs["cl_khr_d3d11_sharing"]
    assert ours["revision"] == "Revision 1.0.0, 2020-04-21"
    groups = {g["name"]: g for g in ours["token_groups"]}
    assert groups["mem_info"]["functions"] == ["clGetMemObjectInfo"] and groups["mem_info"]["parameter"] == "param_name"
    assert groups["d3d_device_source"]["functions"] == ["clGetDeviceIDsFromD3D11KHR"]
    assert groups["error_code"]["kind"] == "error"
    by_group = {t["name"]: t["group"] for t in ours["tokens"]}
    assert by_group["CL_D3D11_DEVICE_KHR"] == "d3d_device_source"
    assert by_group["CL_INVALID_D3D11_DEVICE_KHR"] == "error_code"


@pytest.mark.parametrize("extension", D3D)
def test_the_diff_from_the_seed_text_removes_no_function_token_or_condition(
        extension: str, main: Callable[..., CliRun], tmp_path: Path) -> None:
    out = tmp_path / "out"
    made = main("generate", "--specs", str(SNAPSHOT), "--out", str(out), "--extension", extension)
    assert made.status == 0, made.err
    diff = main("diff", str(SEEDS / f"{extension}.txt"), str(out))
    assert diff.status in (0, 1), diff.err
    removed = [line for line in diff.out.splitlines()
               if any(kind in line for kind in ("function removed", "token removed", "condition removed"))]
    assert removed == []
    assert "condition reworded" in diff.out  # the book words its conditions otherwise: the diff sees them


def test_a_checkout_without_extension_generates_nothing_and_says_how_to_choose(
        main: Callable[..., CliRun], tmp_path: Path) -> None:
    run = main("generate", "--specs", str(SNAPSHOT), "--out", str(tmp_path / "out"))
    assert run.status == 2
    assert "--extension NAME" in run.err and run.err.startswith("specs/OpenCL_API.txt: error:")
    assert not (tmp_path / "out").exists()


def test_an_extension_the_checkout_does_not_describe_is_an_input_error(
        main: Callable[..., CliRun], tmp_path: Path) -> None:
    run = main("generate", "--specs", str(SNAPSHOT), "--out", str(tmp_path / "out"), "--extension", "cl_khr_nothing")
    assert run.status == 2 and "--extension cl_khr_nothing" in run.err


def test_an_extension_the_xml_lists_and_the_book_holds_nothing_of_is_an_input_error(
        main: Callable[..., CliRun], tmp_path: Path) -> None:
    """A vendor's extension whose text is OpenCL-Registry's, not the book's: refused, where the XML lists it,
    rather than a package of its name alone (exit 0 with nothing of it)."""
    run = main("generate", "--specs", str(SNAPSHOT), "--out", str(tmp_path / "out"), "--extension",
               "cl_intel_accelerator", "--extension", "cl_khr_d3d11_sharing")
    where = snapshot.registry().extensions["cl_intel_accelerator"].where
    assert run.status == 2 and not (tmp_path / "out").exists()
    assert run.err.startswith(f"specs/xml/cl.xml:{where.pos.line}:{where.pos.column}: error: --extension "
                              "cl_intel_accelerator: the registry XML lists this extension, but the book states "
                              "nothing of it")


def test_an_appendix_page_of_nothing_but_its_metadata_states_nothing(
        main: Callable[..., CliRun], checkout: Path, tmp_path: Path) -> None:
    (checkout / "api" / "cl_intel_accelerator.asciidoc").write_text(
        "// Copyright\n\ninclude::{generated}/meta/{refprefix}cl_intel_accelerator.txt[]\n\n", encoding="utf-8")
    run = main("generate", "--specs", str(checkout), "--out", str(tmp_path / "out"), "--extension",
               "cl_intel_accelerator")
    assert run.status == 2 and "the book states nothing of it" in run.err


def test_extension_given_for_a_folder_of_texts_is_an_input_error(main: Callable[..., CliRun], tmp_path: Path) -> None:
    run = main("generate", "--specs", str(SEEDS), "--out", str(tmp_path / "out"), "--extension",
               "cl_khr_d3d11_sharing")
    assert run.status == 2 and "not one" in run.err


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _linked_out(path: Path) -> None:
    path.unlink()
    os.symlink(path.parents[2] / "secret.txt", path)


HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "an appendix page linked out of the checkout": (
        lambda root: _linked_out(root / "api" / "cl_khr_d3d11_sharing.asciidoc"), "leads out"),
    "a section of the book linked out of the checkout": (
        lambda root: _linked_out(root / "api" / "glossary.asciidoc"), "leads out"),
    "an include cycle": (lambda root: _append(root / "api" / "glossary.asciidoc",
                                              "include::opencl_architecture.asciidoc[]\ninclude::glossary.asciidoc[]\n"),
                         "include cycle"),
    "an include leaving the checkout": (lambda root: _append(root / "api" / "glossary.asciidoc",
                                                             "include::../../secret.txt[]\n"), "leads out"),
    "a 100,000-deep ifdef": (lambda root: _append(root / "api" / "glossary.asciidoc",
                                                  "ifdef::cl_khr_d3d11_sharing[]\n" * 100_000), "nested more than"),
    "a refpage that never closes": (lambda root: _append(
        root / "api" / "acknowledgements.asciidoc", "[open,refpage='clFoo',desc='x',type='protos']\n--\nno end\n"),
        "never closed"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_checkout_ends_in_a_clean_input_error_and_writes_nothing(
        case: str, checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("SECRET\n", encoding="utf-8")
    damage, said = HOSTILE[case]
    damage(checkout)
    out = tmp_path / "out"
    run = main("generate", "--specs", str(checkout), "--out", str(out), "--extension", "cl_khr_d3d11_sharing")
    assert run.status == 2, run.err
    assert said in run.err and ": error: " in run.err.splitlines()[0] and "Traceback" not in run.err
    assert "SECRET" not in run.err
    assert not out.exists()


def _api(path: Path, only: set[str] | None = None) -> set[tuple[str, ...]]:
    """A generated module's public API: each function's name, parameters and result, each enum's members (those
    it imports from the module of the enums it shares with another vendor's variant too); `only` those named."""
    found: set[tuple[str, ...]] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if only is not None and getattr(node, "name", None) not in only:
            continue
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            found.add(("def", node.name, ast.unparse(node.args), ast.unparse(node.returns) if node.returns else ""))
        elif isinstance(node, ast.ClassDef):
            found |= {("member", node.name, ast.unparse(item)) for item in node.body if isinstance(item, ast.Assign)}
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and (node.module or "").endswith("_enums"):
            found |= _api(path.with_name(f"{node.module}.py"), {alias.name for alias in node.names})
    return found


@pytest.fixture(scope="module")
def book_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("book") / "out"
    status = cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out), *(f"--extension={e}" for e in D3D)])
    assert status == 0
    return out


@pytest.mark.parametrize("module", ["khr_d3d10", "khr_d3d11"])
def test_the_package_made_from_the_book_has_the_api_made_from_the_2018_texts(book_out: Path, module: str) -> None:
    """Every function with its parameters, types and result, every enum member: the same, whichever source."""
    ours = _api(book_out / "cl_d3d_sharing" / f"{module}.py")
    assert ours == _api(ROOT / "generated" / "cl_d3d_sharing" / f"{module}.py")
    assert len(ours) > 40


@pytest.mark.parametrize("sentence", [
    "This section describes the cl_khr_d3d10_sharing extension.",
    "The extension name is cl_khr_d3d10_sharing.",
    "It needs the functions enabled by the cl_khr_d3d10_sharing extension.",
])
def test_an_extension_whose_text_names_another_is_still_generated_under_its_own_name(
        sentence: str, checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """The cut is the one asked for: prose naming another extension made it that one's, and the two asked for
    became one IR (exit 0, one of them gone). The other name is said, as a note."""
    page = checkout / "api" / "cl_khr_d3d11_sharing.asciidoc"
    page.write_text(page.read_text(encoding="utf-8").replace("=== Description\n", f"=== Description\n\n{sentence}\n"),
                    encoding="utf-8")
    out = tmp_path / "out"
    run = main("generate", "--specs", str(checkout), "--out", str(out), "-v", *(f"--extension={e}" for e in D3D))
    assert run.status == 0, run.err
    assert sorted(p.name for p in (out / "ir").iterdir()) == [f"{e}.yaml" for e in D3D]
    d3d11 = {f["name"] for f in ir.read_data(out / "ir" / "cl_khr_d3d11_sharing.yaml")[0]["functions"]}
    assert "clCreateFromD3D11BufferKHR" in d3d11 and "clCreateFromD3D10BufferKHR" not in d3d11
    assert "names cl_khr_d3d10_sharing as the extension it describes" in run.err


def test_an_extension_whose_name_the_api_s_naming_does_not_fit_is_refused_where_the_xml_names_it(
        checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    xml = checkout / "xml" / "cl.xml"
    xml.write_text(xml.read_text(encoding="utf-8").replace('name="cl_khr_d3d11_sharing"', 'name="D3D11-Sharing"'),
                   encoding="utf-8")
    run = main("generate", "--specs", str(checkout), "--out", str(tmp_path / "out"), "--extension", "D3D11-Sharing")
    assert run.status == 2
    first = run.err.splitlines()[0]
    assert first.startswith("specs/xml/cl.xml:") and "--extension D3D11-Sharing: not an extension string" in first
    line = int(first.split(":")[1])
    assert 'name="D3D11-Sharing"' in xml.read_text(encoding="utf-8").split("\n")[line - 1]


@pytest.mark.parametrize("copy", ["api/cl_khr_d3d11_sharing_old.asciidoc", "c/d3d11.adoc", "api/a.txt"])
def test_two_appendix_pages_for_one_extension_are_an_input_error_naming_both(
        copy: str, checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """Each page's New Enums give the extension's tokens: the second was passed over in silence (exit 0)."""
    page = checkout / "api" / "cl_khr_d3d11_sharing.asciidoc"
    last = "  ** {CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR}\n"
    (checkout / copy).write_text(page.read_text(encoding="utf-8").replace(last, f"{last}  ** {{CL_NEW_ONE_KHR}}\n"),
                                 encoding="utf-8")
    out = tmp_path / "out"
    run = main("generate", "--specs", str(checkout), "--out", str(out), "--extension", "cl_khr_d3d11_sharing")
    assert run.status == 2, run.err
    pages = sorted([f"specs/{copy}:4:1", "specs/api/cl_khr_d3d11_sharing.asciidoc:4:1"])
    assert run.err.startswith(f"{pages[1]}: error: a second appendix page for cl_khr_d3d11_sharing (the first: "
                              f"{pages[0]})")
    assert not out.exists()
    other = main("generate", "--specs", str(checkout), "--out", str(out), "--extension", "cl_khr_d3d10_sharing")
    assert other.status == 0, other.err  # an extension with one page is not concerned


def _chain(root: Path, widths: tuple[int, ...]) -> None:
    """api/n0.txt includes n1.txt widths[0] times, n1.txt n2.txt widths[1] times, ..., the last a short line."""
    for depth, width in enumerate(widths):
        (root / "api" / f"n{depth}.txt").write_text(f"include::n{depth + 1}.txt[]\n" * width, encoding="utf-8")
    (root / "api" / f"n{len(widths)}.txt").write_text("a\n", encoding="utf-8")


def _into_book(root: Path) -> None:
    _chain(root, (100, 100, 60))
    _append(root / "OpenCL_API.txt", "include::api/n0.txt[]\n")


def _into_pages(root: Path) -> None:
    _chain(root, (100, 100, 30))
    for n in range(3):
        (root / "api" / f"zz{n}.asciidoc").write_text(
            f"include::{{generated}}/meta/cl_khr_zz{n}.txt[]\n\ninclude::n0.txt[]\n", encoding="utf-8")


@pytest.mark.parametrize("grow", [_into_book, _into_pages])
def test_a_short_line_included_over_and_over_stops_at_the_line_bound_in_bounded_memory(
        grow: Callable[[Path], None], checkout: Path, tmp_path: Path) -> None:
    """A few kilobytes of files that include each other make 600,000 lines (in the book, or 300,000 in each of
    three pages beside it, each page read with a bound of its own): each line held costs some 300 bytes, far
    more than its text, and the size bound let 30 million through (the run took gigabytes)."""
    grow(checkout)
    run = peak_memory([sys.executable, "-m", "generator", "generate", "--specs", str(checkout), "--out",
                       str(tmp_path / "out"), "--extension", "cl_khr_d3d11_sharing"], ROOT)
    assert run.status == 2, run.err
    assert "grows past 524,288 lines through its includes here" in run.err and "Traceback" not in run.err
    assert re.match(r"specs/api/n[23].txt:\d+:1: error:", run.err)
    assert run.memory < 400 * 1024 * 1024


def test_many_kinds_of_build_made_includes_are_noted_in_linear_work(
        checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """Each kind noted was looked for among all the book's lines: quadratic work (20,000 kinds took 147 s)."""
    text = (checkout / "api" / "opencl_runtime_layer.asciidoc").read_text(encoding="utf-8")
    counted = []
    for size in (0, 0, 400, 3200):  # the first run fills this process's caches (the IR's schema) for the others
        root = Path(shutil.copytree(checkout, tmp_path / f"book{size}", dirs_exist_ok=True))
        kinds = "".join(f"include::{{generated}}/kind{n}/x.txt[]\n" for n in range(size))
        (root / "api" / "opencl_runtime_layer.asciidoc").write_text(text.replace(
            "ifdef::cl_khr_d3d11_sharing[]\n", f"ifdef::cl_khr_d3d11_sharing[]\n{kinds}", 1), encoding="utf-8")
        with calls_counted() as calls:
            run = main("generate", "--specs", str(root), "--out", str(tmp_path / f"out{size}"), "-v", "--force",
                       "--extension", "cl_khr_d3d11_sharing")
        assert run.status == 0, run.err
        assert run.err.count("the build makes the files of {generated}/kind") == size
        counted.append(calls)
    # a floor of 200,000 calls: past some size the IR is written in this process, not in a child (some 60,000
    # calls more, linear); the quadratic step looked through the book's 30,000 lines for each kind (96 million)
    assert not grown(counted[2], counted[3], 20.0, 200_000, counted[1])


@pytest.mark.parametrize("damage", ["* )", "* @", "* int int"])
def test_an_error_in_a_prototype_made_from_the_xml_cites_a_place_the_xml_holds(
        damage: str, checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """The prototype is one line made from the XML's <command>: its column was the made line's, far past the end
    of the element's line, under a line the file does not hold."""
    xml = checkout / "xml" / "cl.xml"
    xml.write_text(xml.read_text(encoding="utf-8").replace("<type>ID3D11Buffer</type>*", f"<type>ID3D11Buffer</type>"
                                                           f"{damage}", 1), encoding="utf-8")
    run = main("generate", "--specs", str(checkout), "--out", str(tmp_path / "out"), "--extension",
               "cl_khr_d3d11_sharing")
    assert run.status == 2
    first, shown = run.err.splitlines()[:2]
    path, line, column = re.match(r"^(specs/[^:]+):(\d+):(\d+): error: ", first).groups()  # type: ignore[union-attr]
    held = (checkout / path.removeprefix("specs/")).read_text(encoding="utf-8").split("\n")[int(line) - 1]
    assert shown.strip() == held.strip() and "<command" in held and int(column) <= len(held)
    assert "clCreateFromD3D11BufferKHR(" in first  # the line made from it, quoted


def _second_book(root: Path) -> None:
    shutil.copy(root / "OpenCL_API.txt", root / "OpenCL_Copy.txt")


def _book_of_one_chapter(root: Path) -> None:
    chapter = "= A Chapter\n\ninclude::api/opencl_runtime_layer.asciidoc[]\n"
    (root / "Chapter.adoc").write_text(chapter, encoding="utf-8")


def _included_twice(root: Path) -> None:
    book = root / "OpenCL_API.txt"
    chapter = "include::api/opencl_runtime_layer.asciidoc[]\n"
    book.write_text(book.read_text(encoding="utf-8").replace(chapter, f"{chapter}\n{chapter}"), encoding="utf-8")


@pytest.mark.parametrize("read_twice", [_second_book, _book_of_one_chapter, _included_twice])
def test_a_file_read_twice_gives_each_of_its_conditions_once(
        read_twice: Callable[[Path], None], checkout: Path, main: Callable[..., CliRun], tmp_path: Path) -> None:
    """Two books at the top that include the same files (as OpenCL-Docs' several books may), or one file included
    twice: each condition was kept twice, at the same line."""
    read_twice(checkout)
    out = tmp_path / "out"
    run = main("generate", "--specs", str(checkout), "--out", str(out), "--extension", "cl_khr_d3d11_sharing")
    assert run.status == 0, run.err
    functions = ir.read_data(out / "ir" / "cl_khr_d3d11_sharing.yaml")[0]["functions"]
    errors = [(f["name"], e["code"], e["source"]) for f in functions for e in f["errors"]]
    assert len(errors) == len(set(errors)) == 42


def test_the_package_of_every_extension_with_reference_pages_passes_the_linter(tmp_path: Path) -> None:
    """A count shared by arrays passed as pointers (`num_media_adapters` of the DX9 media adapters) was named as
    the length of a list the Python-style function never made: a name defined nowhere, which ruff's F821 finds."""
    chosen = sorted(snapshot.with_pages(snapshot.registry()))
    assert "cl_khr_dx9_media_sharing" in chosen and len(chosen) >= 10
    out = tmp_path / "out"
    status = cli.main(["generate", "--specs", str(SNAPSHOT), "--out", str(out), *(f"--extension={e}" for e in chosen)])
    assert status == 0
    assert lint(out / "cl_d3d_sharing") == []
