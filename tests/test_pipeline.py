"""The stages together, on sets of specs other than the seeds: alone, doubled, missing."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.base import source
from generator.base.errors import InputError
from generator.base.kinds import Kind
from generator.emission import emit
from generator.ir import files as ir
from generator.ir import read
from tests.samples import WIDGET
from tests.support import ROOT, SPECS, CliRun

SEEDS = sorted(p.name for p in SPECS.glob("*.txt"))


@pytest.mark.parametrize("name", SEEDS)
def test_every_seed_alone(name: str, tmp_path: Path) -> None:
    """With no sibling to recover from, each text still gives a valid IR (what it lost is reported)."""
    shutil.copy(SPECS / name, tmp_path / name)
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    data = ir.to_dict(extension)  # validated against the schema
    assert data["functions"] or any(d["kind"] == "unknown-function" for d in data["diagnostics"])
    assert len({t["name"] for t in data["tables"]}) == len(data["tables"])
    assert len({g["name"] for g in data["token_groups"]}) == len(data["token_groups"])


def test_the_collapsed_text_alone_names_its_groups_from_the_prototypes(tmp_path: Path) -> None:
    shutil.copy(SPECS / "cl_nv_d3d11_sharing.txt", tmp_path)
    (extension,) = pipeline.run(tmp_path).extensions
    assert {t.name: t.group for t in extension.tokens if t.group != "error_code"} == {
        "CL_D3D11_DEVICE_NV": "d3d_device_source",
        "CL_D3D11_DXGI_ADAPTER_NV": "d3d_device_source",
        "CL_PREFERRED_DEVICES_FOR_D3D11_NV": "d3d_device_set",
        "CL_ALL_DEVICES_FOR_D3D11_NV": "d3d_device_set",
        "CL_CONTEXT_D3D11_DEVICE_NV": "context_properties",
        "CL_MEM_D3D11_RESOURCE_NV": "mem_info",
        "CL_IMAGE_D3D11_SUBRESOURCE_NV": "image_info",
        "CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV": "command_type",
        "CL_COMMAND_RELEASE_D3D11_OBJECTS_NV": "command_type",
    }


def test_a_page_without_prototype_alone_says_its_conditions_are_lost(tmp_path: Path) -> None:
    shutil.copy(SPECS / "clEnqueueReleaseD3D10ObjectsKHR.txt", tmp_path)
    result = pipeline.run(tmp_path, lean=False)
    (unknown,) = [d for d in result.diagnostics if d.kind == "unknown-function"]
    assert "clEnqueueReleaseD3D10ObjectsKHR" in unknown.message and unknown.where.pos.line == 98


def test_a_page_without_prototype_takes_the_registry_s_and_says_each_condition_it_cannot_keep(
        tmp_path: Path) -> None:
    """The damaged page alone, beside the project's registry XML: the function is the registry's, and each
    condition whose code the page lost (no other text gives it) is said where it stands."""
    shutil.copy(SPECS / "clEnqueueReleaseD3D10ObjectsKHR.txt", tmp_path)
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    function = extension.function("clEnqueueReleaseD3D10ObjectsKHR")
    assert function is not None and function.external and function.return_type == "cl_int"
    taken = [d for d in result.diagnostics if d.kind == "registry-function"]
    assert [d.where.pos.line for d in taken] == [98] and "with the XML's prototype" in taken[0].message
    lost = [d.where.pos.line for d in result.diagnostics if d.kind == Kind.UNRECOVERED_CONDITION]
    assert lost == [98, 104, 109, 111, 113, 118]


def test_a_copy_of_a_spec_corroborates_without_doubling(tmp_path: Path) -> None:
    shutil.copy(SPECS / "cl_nv_d3d10_sharing.txt", tmp_path / "a.txt")
    shutil.copy(SPECS / "cl_nv_d3d10_sharing.txt", tmp_path / "b.txt")
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    acquire = extension.function("clEnqueueAcquireD3D10ObjectsNV")
    assert acquire is not None and len(acquire.errors) == 8
    assert all(len(e.also_in) == 1 for e in acquire.errors if e.origin == "list")
    assert [d.kind for d in result.diagnostics if d.where.path.endswith("b.txt")].count("second-source") == 1


@pytest.mark.parametrize("files", [{}, {"notes.md": "# Notes\n\n| a | b |\n| --- | --- |\n"}])
def test_a_folder_without_specs_is_an_input_error(files: dict[str, str], tmp_path: Path) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(InputError, match="holds no spec"):
        pipeline.run(tmp_path)


def test_a_missing_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        pipeline.run(tmp_path / "nowhere")
    assert caught.value.render() == f"{tmp_path / 'nowhere'}: error: no such folder of specs"


def test_the_order_of_the_input_files_does_not_change_the_output(seed_result: pipeline.Result) -> None:
    """Whatever order the files are given in, the IR, package and docs are the same, byte for byte."""
    expected = emit.outputs(seed_result.extensions, seed_result.texts).files
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        files = source.spec_files(Path("specs"))
        for seed in (1, 2, 3):
            shuffled = list(files)
            random.Random(seed).shuffle(shuffled)
            assert emit.outputs((run := pipeline.run_files(shuffled)).extensions, run.texts).files == expected, seed
    finally:
        os.chdir(cwd)


def test_every_files_error_is_reported_not_only_the_first(tmp_path: Path) -> None:
    """A file that fails does not stop the others: each bad file's error comes out, in path order."""
    seed = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    (tmp_path / "a.txt").write_text(seed.replace("ID3D10Buffer *resource,", "ID3D10Buffer *res$ource,", 1),
                                    encoding="utf-8")
    (tmp_path / "b.txt").write_text(seed, encoding="utf-8")
    (tmp_path / "c.txt").write_text(seed.replace("0x4011", "9" * 5000, 1), encoding="utf-8")
    (tmp_path / "d.txt").write_bytes(b"\x00\x01 binary")
    with pytest.raises(InputError) as caught:
        pipeline.run(tmp_path)
    found = [(Path(e.path).name, e.pos) for e in caught.value.all]
    assert found == [("a.txt", source.Pos(35, 26)), ("c.txt", source.Pos(74, 9)), ("d.txt", source.Pos(1, 1))]
    rendered = caught.value.render().split("\n")
    assert rendered[0].endswith("a.txt:35:26: error: unexpected character '$'; expected one of '(', ')', '*', ',', "
                                "';', '[', '^', '{', identifier")
    assert rendered[-1] == "3 errors"


def test_errors_of_later_stages_are_reported_beside_a_file_that_failed_to_read(tmp_path: Path) -> None:
    """The files read go on to merge: one run names the unreadable file and the merge's error of another."""
    seed = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    (tmp_path / "a.txt").write_text(seed.replace("ID3D10Buffer *resource,", "ID3D10Buffer *res$ource,", 1),
                                    encoding="utf-8")
    (tmp_path / "b.txt").write_text("Overview\n\n    Widgets.\n\nNew Procedures and Functions\n\n"
                                    "    cl_int clDoWidgetACME(cl_context context);\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        pipeline.run(tmp_path)
    found = [(Path(e.path).name, e.message.split(":")[0]) for e in caught.value.all]
    assert found == [("a.txt", "unexpected character '$'; expected one of '(', ')', '*', ',', ';', '[', '^', '{', "
                               "identifier"), ("b.txt", "cannot tell which extension this file describes")]


# -- every file under --specs contributes or is named ----------------------------------------------------------

#: Markdown a spec may end in, begin with, or be copied beside: headings and a table, more of them than any
#: seed has marks of its own format.
MARKDOWN = "".join(f"\n## Note {n}\n\nSome words.\n" for n in range(60)) + "\n| a | b |\n| --- | --- |\n"


def _seeds_with(name: str, text: str, tmp_path: Path) -> Path:
    specs = tmp_path / "specs"
    shutil.copytree(SPECS, specs)
    (specs / name).write_text(text, encoding="utf-8")
    return specs


@pytest.mark.parametrize("name", SEEDS)
@pytest.mark.parametrize("where", ["end", "start"])
def test_a_spec_holding_markdown_headings_is_still_read(name: str, where: str, tmp_path: Path,
                                                        main: Callable[..., CliRun]) -> None:
    """A text that ends in (or begins with) Markdown headings was taken for a note and skipped, exit 0, no word.
    (The collapsed text's grammar wants a title first: a preface of headings is an error at it, never silence.)"""
    text = (SPECS / name).read_text(encoding="utf-8")
    specs = _seeds_with(name, text + MARKDOWN if where == "end" else MARKDOWN + "\n" + text, tmp_path)
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    if where == "start" and name == "cl_nv_d3d11_sharing.txt":
        assert run.status == 2 and run.err.startswith(f"specs/{name}:2:1: error: unexpected word '##'"), run.err
        return
    assert run.status == 0, run.err
    irs = {p.name: read.load(p) for p in (tmp_path / "out" / "ir").glob("*.yaml")}
    assert any(f"specs/{name}" in {s.path for s in ir.sources} for ir in irs.values())
    for file, ir_read in irs.items():
        committed = read.load(ROOT / "generated" / "ir" / file)
        assert [f.name for f in ir_read.functions] == [f.name for f in committed.functions]
        assert [t.name for t in ir_read.tokens] == [t.name for t in committed.tokens]
        assert len([e for f in ir_read.functions for e in f.errors]) == len(
            [e for f in committed.functions for e in f.errors])


def test_a_note_a_spec_format_fits_by_chance_is_skipped_with_a_warning(tmp_path: Path,
                                                                       main: Callable[..., CliRun]) -> None:
    """A README with man-page references and bullets fits the reference-page format; read as one it states
    nothing, so it is passed over, and said at default verbosity (a damaged spec could look the same)."""
    note = ("# About these specs\n\n" + "".join(f"## Part {n}\n\nWords.\n\n" for n in range(8))
            + "\u2022 see clGetDeviceIDs(3)\n\u2022 and clCreateContext(3)\n\u2022 and clFinish(3)\n")
    specs = _seeds_with("NOTES.md", note, tmp_path)
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    assert ("specs/NOTES.md:1:1: warning: taken for a Markdown note and skipped: read as refpage, which it also looks "
            "like, it states no prototype, token, condition or table") in run.err
    assert "specs/README.md" not in run.err  # a plain note: said with -v only


def test_hidden_entries_under_the_specs_are_named_in_a_note(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """A hidden file or folder (version control's, an editor's swap file) is not read, and -v names each."""
    specs = _seeds_with(".cl_khr_d3d11_sharing.txt.swp", "\x00binary swap\n", tmp_path)
    (specs / ".git").mkdir()
    (specs / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    quiet = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert quiet.status == 0 and ".git" not in quiet.err, quiet.err
    told = main("generate", "--force", "-v", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert told.status == 0, told.err
    assert "specs/.cl_khr_d3d11_sharing.txt.swp: note: hidden (its name begins with a dot); not read" in told.err
    assert "specs/.git: note: hidden" in told.err and "specs/.git/HEAD" not in told.err


@pytest.mark.parametrize(("text", "why"), [
    ("Name Strings\n\n    cl_acme_empty\n\nContact\n\n    Someone\n\nOverview\n\n    Nothing here yet.\n",
     "nothing was read from it but the extension's name"),
    ("Name Strings\n\n    cl_nv_d3d10_sharing\n\nNew Tokens\n\n    Accepted as a Direct3D 10 device source in the\n"
     "    <d3d_device_source> parameter of clGetDeviceIDsFromD3D10NV:\n\n"
     "        CL_D3D10_DEVICE_NV                     0x4010\n",
     "it was read to hold 1 token, none of which the IR keeps (other places state them for it, or the diagnostics "
     "at them say why)"),
])
def test_a_text_of_which_the_ir_keeps_nothing_is_a_warning(text: str, why: str, tmp_path: Path,
                                                          main: Callable[..., CliRun]) -> None:
    specs = _seeds_with("extra.txt", text, tmp_path)
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    (said,) = [line for line in run.err.splitlines() if line.startswith("specs/extra.txt:")]
    assert ": warning: read as registry text of " in said and said.endswith(why + " (is it in the format it was "
                                                                            "taken for?)" if "name" in why else why)


def test_a_text_in_a_legacy_encoding_is_read_and_named_in_a_note(
    main: Callable[..., CliRun], tmp_path: Path,
) -> None:
    """An older registry text written on Windows (cp1252: `é`, its curly quotes) was refused as "not UTF-8"."""
    text = WIDGET.replace("Version 3, 2026", "Version 3, 2026 (Ren\u00e9e, \u201cdraft\u201d)")
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "widget.txt").write_bytes(text.encode("cp1252"))
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"))
    assert run.status == 0, run.err
    ir_ = read.load(tmp_path / "out" / "ir" / "cl_acme_widget.yaml")
    (note,) = [d for d in ir_.diagnostics if d.kind == "legacy-encoding"]
    assert note.severity == "note" and "read as cp1252" in note.message and note.where.pos.line == 7
    carried = tmp_path / "out" / "cl_d3d_sharing" / "specs" / "widget.txt"
    assert "Ren\u00e9e" in carried.read_text(encoding="utf-8")


#: A made-up text that adds only kernel-language built-ins (OpenCL C: vector types, address spaces, overloads,
#: a block) and one host token: nothing to bind, its tokens to keep.
BUILTINS = """\
Name Strings

    cl_acme_kernel_dot

New Procedures and Functions

    int acme_dot(char4 a, char4 b);
    uint acme_dot(uchar4 a, uchar4 b);
    void acme_store(volatile __global uint *where, uint value);
    int acme_enqueue(queue_t queue, void (^block)(void));

New Tokens

    Accepted as the <param_name> parameter of clGetDeviceInfo:

        CL_DEVICE_DOT_ACME      0x4F00
"""


def test_a_text_of_kernel_language_built_ins_is_kept_not_refused(
    main: Callable[..., CliRun], tmp_path: Path,
) -> None:
    """Such texts were refused ("`volatile __global uint *` is not a C type", "the type char4 ... is defined
    nowhere"): the built-ins are kept in the IR and listed on the extension's page; the module holds the tokens."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "dot.txt").write_text(BUILTINS)
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"))
    assert run.status == 0, run.err
    ir_ = read.load(tmp_path / "out" / "ir" / "cl_acme_kernel_dot.yaml")
    assert ir_.functions == ()
    assert [(b.name, b.return_type, [c_type for _, c_type in b.params]) for b in ir_.builtins] == [
        ("acme_dot", "int", ["char4", "char4"]), ("acme_dot", "uint", ["uchar4", "uchar4"]),
        ("acme_store", "void", ["volatile __global uint *", "uint"]),
        ("acme_enqueue", "int", ["queue_t", "void ( ^ )(void)"])]
    page = (tmp_path / "out" / "docs" / "cl_acme_kernel_dot" / "index.md").read_text(encoding="utf-8")
    assert "`uint acme_dot(uchar4 a, uchar4 b)`" in page and "Built-in function" in page
    module = (tmp_path / "out" / "cl_d3d_sharing" / "cl_acme_kernel_dot.py").read_text(encoding="utf-8")
    assert "CL_DEVICE_DOT_ACME: Final = " in module and "acme_dot" not in module


#: A made-up stub, as the registry keeps for the texts that moved: no specification, only where it is now.
POINTER = """\
The cl_acme_widget specification is no longer written in plain text.

Please refer to the extension specification here:

https://example.org/registry/cl_acme_widget.html
"""


def test_a_text_that_only_points_to_its_specification_is_skipped_with_a_warning(
    main: Callable[..., CliRun], tmp_path: Path,
) -> None:
    """Such a stub was refused ("cannot recognise the format"), and with it every text of the folder."""
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "widget.txt").write_text(WIDGET)
    (tmp_path / "specs" / "moved.txt").write_text(POINTER)
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"))
    assert run.status == 0, run.err
    assert "specs/moved.txt:1:1: warning: no specification but the address of one" in run.err
    assert (tmp_path / "out" / "ir" / "cl_acme_widget.yaml").is_file()
    (tmp_path / "specs" / "widget.txt").unlink()
    alone = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "other"))
    assert alone.status == 2 and "holds no spec" in alone.err


def test_a_long_text_of_no_format_is_refused_though_it_gives_an_address(
    main: Callable[..., CliRun], tmp_path: Path,
) -> None:
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "long.txt").write_text(POINTER + "Some words.\n" * 60)
    run = main("generate", "--specs", str(tmp_path / "specs"), "--out", str(tmp_path / "out"))
    assert run.status == 2 and "cannot recognise the format of this file" in run.err
