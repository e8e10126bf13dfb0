"""Merging an extension's sources and naming its token groups (its types: `test_introduced_types.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from generator import pipeline
from generator.base.errors import InputError
from generator.base.source import Pos
from generator.ir import files as ir
from generator.ir import read
from generator.ir.model import Extension
from tests import samples
from tests.pathological import assert_linear
from tests.samples import WIDGET
from tests.support import SPECS, CliRun, generate_texts


@pytest.fixture(scope="module")
def widget(tmp_path_factory: pytest.TempPathFactory) -> pipeline.Result:
    folder = tmp_path_factory.mktemp("widget")
    (folder / "widget.txt").write_text(WIDGET, encoding="utf-8")
    return pipeline.run(folder)


@pytest.fixture(scope="module")
def extension(widget: pipeline.Result) -> Extension:
    (only,) = widget.extensions
    return only


def test_group_names(extension: Extension) -> None:
    # own function: its parameter; core function: the parameter's C type; error codes: one group
    assert {t.name: t.group for t in extension.tokens} == {
        "CL_WIDGET_FAST_ACME": "mode",
        "CL_WIDGET_SLOW_ACME": "mode",
        "CL_CONTEXT_WIDGET_ACME": "context_info",
        "CL_WIDGET_TOO_HIGH_ACME": "error_code",
    }
    assert [g.c_type for g in extension.token_groups if g.name == "mode"] == ["cl_widget_mode_acme"]


def test_an_undefined_type_carrying_tokens_is_an_enumeration(extension: Extension, widget: pipeline.Result) -> None:
    types = {t.name: (t.kind, t.c_type, t.defined) for t in extension.types}
    assert types == {"cl_widget_mode_acme": ("enum", "cl_uint", False), "UINT": ("platform", "unsigned int", True)}
    assert any(d.kind == "undefined-type" and "cl_widget_mode_acme" in d.message for d in widget.diagnostics)


def test_core_functions_get_the_errors_added_to_them(extension: Extension) -> None:
    core = extension.function("clGetContextInfo")
    assert core is not None and core.core
    assert [e.code for e in core.errors] == ["CL_INVALID_VALUE"]
    assert [p.name for p in core.params][:2] == ["context", "param_name"]  # from data/opencl_core.json


def test_the_tables_are_canonical(extension: Extension) -> None:
    (table,) = extension.tables
    assert (table.name, table.columns) == ("context_info", ("context_info", "type", "description"))


def test_crosschecks_on_a_new_extension(widget: pipeline.Result) -> None:
    kinds = {d.kind for d in widget.diagnostics}
    assert {"wrong-function", "undefined-token", "not-a-property", "table-type"} <= kinds


def test_conflicting_token_values_are_reported(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(WIDGET, encoding="utf-8")
    (tmp_path / "b.txt").write_text(WIDGET.replace("0x7002", "0x7009").replace("Version 3", "Version 4"),
                                    encoding="utf-8")
    result = pipeline.run(tmp_path)
    conflicts = [d for d in result.diagnostics if d.kind == "token-conflict"]
    assert len(conflicts) == 1 and "CL_WIDGET_SLOW_ACME is 0x7009" in conflicts[0].message
    assert result.extensions[0].token("CL_WIDGET_SLOW_ACME").value == 0x7002  # type: ignore[union-attr]


def test_repeated_and_clashing_tokens_are_reported(tmp_path: Path) -> None:
    text = WIDGET.replace("        CL_WIDGET_SLOW_ACME      0x7002\n",
                          "        CL_WIDGET_SLOW_ACME      0x7001\n        CL_WIDGET_FAST_ACME      0x7001\n")
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    kinds = [d.kind for d in pipeline.run(tmp_path).diagnostics]
    assert kinds.count("repeated-token") == 1 and kinds.count("value-clash") == 1


def test_a_parameter_named_only_in_the_body(tmp_path: Path) -> None:
    text = WIDGET.replace("cl_widget_mode_acme mode,\n                          UINT level)",
                          "cl_widget_mode_acme,\n                          UINT level)", 1)
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(tmp_path).extensions
    function = extension.function("clDoWidgetACME")
    assert function is not None and [p.name for p in function.params] == ["context", "mode", "level"]


def test_names_too_long_for_a_file_and_files_without_an_extension_are_all_reported(tmp_path: Path) -> None:
    """Each extension and function name becomes a file name (`ir/<extension>.yaml`, `<module>/<function>.md`)."""
    long_extension = "cl_acme_" + "w" * 300
    (tmp_path / "a.txt").write_text(WIDGET.replace("cl_acme_widget", long_extension), encoding="utf-8")
    (tmp_path / "b.txt").write_text(WIDGET.replace("cl_acme_widget", "cl_acme_gadget")
                                    .replace("clDoWidgetACME", "clDo" + "W" * 300 + "ACME"), encoding="utf-8")
    (tmp_path / "c.txt").write_text(WIDGET.replace("cl_acme_widget", "no extension named"), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        pipeline.run(tmp_path)
    found = [(Path(e.path).name, e.pos, e.message.split(" is ")[0]) for e in caught.value.all]
    assert found == [
        ("a.txt", Pos(3, 5), f"extension {long_extension[:40]}..."),
        ("c.txt", Pos(1, 1), "cannot tell which extension this file describes: it never names an extension string"),
        ("b.txt", Pos(11, 5), f"function clDo{'W' * 36}..."),
    ]


def test_thousands_of_groups_of_one_name_take_linear_time(tmp_path: Path) -> None:
    """`thing`, `thing_2`, ...: each group's number is counted on from the last, not searched from 2."""
    assert_linear("unnamed-groups", tmp_path)


_NAMED_ONLY = """Name Strings

    cl_acme_gauge

New Tokens

    None

Additions to Chapter 4

    This extension adds to table 4.3:

  |------------------------------------------------------------|
  | CL_DEVICE_GAUGE_SIZE_ACME   |  cl_uint  |  The gauge's size. |
  | CL_DEVICE_GAUGE_LEVEL_ACME  |  cl_bool  |  CL_TRUE if level. |
  |------------------------------------------------------------|

    CL_DEVICE_GAUGE_SIZE_ACME may be queried with clGetDeviceInfo; CL_INVALID_VALUE is a core code.
"""


def test_tokens_named_without_values_are_kept_without_one(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text(_NAMED_ONLY, encoding="utf-8")
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    assert [(t.name, t.value, t.group, t.source.pos.line) for t in extension.tokens] == [
        ("CL_DEVICE_GAUGE_SIZE_ACME", None, None, 14), ("CL_DEVICE_GAUGE_LEVEL_ACME", None, None, 14)]
    warned = [d.message for d in result.diagnostics if d.kind == "token-without-value"]
    assert len(warned) == 2 and "no constant or enumeration member" in warned[0]


def test_a_text_that_gives_values_introduces_no_token_by_name(tmp_path: Path) -> None:
    heading = "Additions to Chapter 5 of the OpenCL 1.2 Specification\n"
    text = WIDGET.replace(heading, f"{heading}\n    CL_WIDGET_TYPO_ACME is misspelt.\n", 1)
    assert "CL_WIDGET_TYPO_ACME" in text
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(tmp_path).extensions
    assert extension.token("CL_WIDGET_TYPO_ACME") is None


def test_a_list_of_new_tokens_without_values_names_the_tokens(tmp_path: Path) -> None:
    text = _NAMED_ONLY.replace("    None\n", "    CL_GAUGE_LISTED_ACME is a new property name.\n")
    (tmp_path / "g.txt").write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(tmp_path).extensions
    assert [t.name for t in extension.tokens] == ["CL_GAUGE_LISTED_ACME"]


def test_two_declarations_in_another_order_are_an_input_error(tmp_path: Path) -> None:
    body = "        cl_int clDoWidgetACME(cl_context context,\n"
    assert body in WIDGET
    text = WIDGET.replace(body + "                              cl_widget_mode_acme mode,\n"
                          "                              UINT level)",
                          body + "                              UINT level,\n"
                          "                              cl_widget_mode_acme mode)")
    assert text != WIDGET
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        pipeline.run(tmp_path)
    assert "parameter 'level' in place 2, but at" in caught.value.render()
    assert "contradicts itself on the order of the arguments" in caught.value.render()


def test_a_list_of_new_token_names_keeps_its_group(tmp_path: Path) -> None:
    text = _NAMED_ONLY.replace("    None\n", "    Accepted as a query in the <param_name> parameter of "
                               "clGetDeviceInfo:\n\n"
                               "        CL_DEVICE_GAUGE_SIZE_ACME\n        CL_DEVICE_GAUGE_LEVEL_ACME\n")
    (tmp_path / "g.txt").write_text(text, encoding="utf-8")
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    assert [(t.name, t.value, t.group) for t in extension.tokens] == [
        ("CL_DEVICE_GAUGE_SIZE_ACME", None, "device_info"), ("CL_DEVICE_GAUGE_LEVEL_ACME", None, "device_info")]
    assert [d.kind for d in result.diagnostics].count("token-without-value") == 2


def test_a_value_given_later_fills_a_name_listed_without_one(tmp_path: Path) -> None:
    text = _NAMED_ONLY.replace("    None\n", "        CL_DEVICE_GAUGE_SIZE_ACME\n\n"
                               "        CL_DEVICE_GAUGE_SIZE_ACME  0x4200\n")
    (tmp_path / "g.txt").write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(tmp_path).extensions
    assert [(t.name, t.value) for t in extension.tokens] == [("CL_DEVICE_GAUGE_SIZE_ACME", 0x4200)]


_OTHERS = WIDGET.replace("Additions to Chapter 5 of the OpenCL 1.2 Specification\n", (
    "Additions to Chapter 5 of the OpenCL 1.2 Specification\n\n"
    "    Add to the list of errors for clCreateFromGadgetOTHER:\n\n"
    "    \"CL_INVALID_VALUE if <gadget> is a widget.\"\n\n"
    "    Add to the list of errors for clCreateFromWidgetACME:\n\n"
    "    \"CL_INVALID_VALUE if <widget> is a gadget.\"\n"), 1)


def test_conditions_of_another_vendors_function_are_kept_with_no_prototype(tmp_path: Path) -> None:
    assert _OTHERS != WIDGET
    (tmp_path / "w.txt").write_text(_OTHERS, encoding="utf-8")
    result = pipeline.run(tmp_path)
    (extension,) = result.extensions
    other = extension.function("clCreateFromGadgetOTHER")
    assert other is not None and other.external and not other.core and other.foreign
    assert (other.return_type, other.params, [e.code for e in other.errors]) == (None, (), ["CL_INVALID_VALUE"])
    (said,) = [d.message for d in result.diagnostics if d.kind == "external-function"]
    assert "clCreateFromGadgetOTHER" in said and "no prototype" not in said and "whose prototype" in said
    # a function of the extension's own vendor that no source declares is a slip, not another's function
    assert extension.function("clCreateFromWidgetACME") is None
    assert any(d.kind == "unknown-function" and "clCreateFromWidgetACME" in d.message for d in result.diagnostics)
    entry = next(f for f in ir.to_dict(extension)["functions"] if f["name"] == "clCreateFromGadgetOTHER")
    assert entry["external"] is True and "return_type" not in entry and "params" not in entry
    back = read.record(extension).function("clCreateFromGadgetOTHER")
    assert back is not None and back.params == ()  # read back as no parameters: the docs and coverage iterate them


def test_a_bit_of_a_cast_number_is_a_token_value(tmp_path: Path) -> None:
    text = WIDGET.replace("0x7001", "((cl_bitfield)1 << 0)", 1).replace("0x7002", "(((cl_bitfield)1) << 33)", 1)
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    (extension,) = pipeline.run(tmp_path).extensions
    assert [(t.name, t.value) for t in extension.tokens][:2] == [("CL_WIDGET_FAST_ACME", 1),
                                                                 ("CL_WIDGET_SLOW_ACME", 1 << 33)]


# -- conflicting duplicates: diagnostics naming both places, never "the first/last wins" in silence ------------

def test_a_parameter_described_twice_otherwise_in_one_text_is_a_warning(tmp_path: Path,
                                                                      main: Callable[..., CliRun]) -> None:
    text = WIDGET.replace("    <mode> is the widget mode.\n", "    <mode> is the widget mode.\n\n"
                          "    <mode> is how fast the widget turns.\n")
    run = generate_texts(tmp_path, main, {"w.txt": text})
    assert run.status == 0, run.err
    assert ("specs/w.txt:54: warning: clDoWidgetACME: parameter mode is described again here, otherwise than at "
            "specs/w.txt:52:5; the first is preferred") in run.err
    (function,) = read.load(tmp_path / "out" / "ir" / "cl_acme_widget.yaml").functions[:1]
    assert next(p for p in function.params if p.name == "mode").description == "mode is the widget mode."


def test_a_token_two_texts_give_two_values_says_which_is_used(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    run = generate_texts(tmp_path, main, {"a.txt": WIDGET, "b.txt": WIDGET.replace("0x7002", "0x7009")})
    assert "specs/b.txt:20: warning: CL_WIDGET_SLOW_ACME is 0x7009 here but 0x7002 at specs/a.txt:20:9, which is used" \
        in run.err


# -- a function a text declares never leaves the package without a diagnostic ---------------------------------

EXTRA = "    cl_int clUndoWidgetACME(cl_context context)\n"


def test_a_function_only_a_second_full_text_declares_is_named(tmp_path: Path, main: Callable[..., CliRun]) -> None:
    """The second text's list of new functions only corroborated the first's: a function only it declares left
    the package with a note at -v (on another line)."""
    level = "                          UINT level)\n\n"
    second = WIDGET.replace("Version 3", "Version 4").replace(f"{level}New Tokens", f"{level}{EXTRA}\nNew Tokens")
    run = generate_texts(tmp_path, main, {"a.txt": WIDGET, "b.txt": second})
    assert run.status == 0, run.err
    assert ("specs/b.txt:15: warning: clUndoWidgetACME is declared in this text's list of new functions, but "
            "specs/a.txt, whose list is followed, does not declare it: it is left out of the IR and the package") \
        in run.err


def test_a_function_a_page_describes_and_the_summary_lacks_is_named(tmp_path: Path,
                                                                   main: Callable[..., CliRun]) -> None:
    """A reference page (no list of new functions) describing a function the extension's list lacks: left out
    with no word."""
    page = (SPECS / "clEnqueueAcquireD3D11ObjectsKHR.txt").read_text(encoding="utf-8")
    page = page.replace("clEnqueueAcquireD3D11ObjectsKHR", "clEnqueueFlushD3D11ObjectsKHR")
    khr = (SPECS / "cl_khr_d3d11_sharing.txt").read_text(encoding="utf-8")
    run = generate_texts(tmp_path, main, {"cl_khr_d3d11_sharing.txt": khr, "page.txt": page})
    assert run.status == 0, run.err
    said = [line for line in run.err.splitlines() if "clEnqueueFlushD3D11ObjectsKHR is described here" in line]
    assert len(said) == 1 and said[0].startswith("specs/page.txt:") and said[0].endswith(
        "but missing from the list of new functions of specs/cl_khr_d3d11_sharing.txt: it is left out of the IR "
        "and the package")


@pytest.mark.parametrize(("followed", "other", "kept"), [
    ("    Version 1, December 7, 2009\n", "    Version 2, March 1, 2010\n", "'Version 1, December 7, 2009', which "
     "the IR keeps"),
    ("", "    Version 2, March 1, 2010\n", "none, so the IR has no revision"),
])
def test_two_texts_stating_two_revisions_say_which_is_kept(tmp_path: Path, main: Callable[..., CliRun],
                                                           followed: str, other: str, kept: str) -> None:
    """The revision is the followed text's: another text of the extension stating another one was passed over with
    no more than a note under `-v` ("this one only corroborates it")."""
    text = (SPECS / "cl_nv_d3d10_sharing.txt").read_text(encoding="utf-8")
    version = "Version\n\n    Version 1, December 7, 2009\n\n"
    assert version in text
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "a.txt").write_text(text.replace(version, f"Version\n\n{followed}\n" if followed else ""),
                                 encoding="utf-8")
    (specs / "b.txt").write_text(text.replace(version, f"Version\n\n{other}\n"), encoding="utf-8")
    run = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.status == 0, run.err
    assert (f"specs/b.txt:7: warning: this text gives the revision 'Version 2, March 1, 2010'; specs/a.txt, which is "
            f"followed, gives {kept}") in run.err.splitlines()


def test_a_token_the_registry_files_under_another_extension_is_not_introduced_by_name(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    """A text of no token section introduces the names with its vendor's suffix it uses, but not another
    extension's that it only mentions (cl_khr_throttle_hints names a priority hint)."""
    specs = spec_dir({"cl_khr_lanes.txt": samples.LANES_2017})
    result = pipeline.run(specs)
    (extension,) = result.extensions
    assert [t.name for t in extension.tokens] == [
        "CL_QUEUE_LANES_KHR", "CL_QUEUE_LANES_ONE_KHR", "CL_QUEUE_LANES_TWO_KHR"]
    said = [d for d in result.diagnostics if "CL_QUEUE_PRIORITY_HIGH_KHR" in d.message]
    assert [(d.kind, d.where.pos.line) for d in said] == [("defined-elsewhere", 6)]
    (alone,) = pipeline.run(specs, lean=False).extensions
    assert alone.token("CL_QUEUE_PRIORITY_HIGH_KHR") is not None  # the text alone cannot tell whose it is


def test_two_tokens_of_no_group_with_one_value_are_a_clash(tmp_path: Path) -> None:
    """Tokens after a sentence that says nothing of what takes them: one value for two is still said (it was
    not, while the check skipped tokens of no group)."""
    text = WIDGET.replace("New Tokens\n", "New Tokens\n\n    Frobnicated quietly by the twin:\n\n"
                          "        CL_TWIN_FIRST_ACME       0x7401\n        CL_TWIN_SECOND_ACME      0x7401\n", 1)
    (tmp_path / "w.txt").write_text(text, encoding="utf-8")
    clashes = [d for d in pipeline.run(tmp_path).diagnostics if d.kind == "value-clash"]
    assert [d.message for d in clashes] == ["CL_TWIN_SECOND_ACME has the value 0x7401 of CL_TWIN_FIRST_ACME, both in "
                                            "no group"]


def test_a_token_the_text_lists_as_new_is_its_own_whatever_the_registry_files(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    """A list of new tokens says whose they are: the registry's filing under another extension does not drop one
    (it did, with only a note)."""
    text = samples.LANES_2017.replace("[[cl_khr_lanes-host-side", "=== New Tokens\n\nThe following tokens are new "
                                      "with this extension:\n\n* +CL_QUEUE_PRIORITY_HIGH_KHR+, a priority of a lane\n"
                                      "* +CL_QUEUE_LANES_KHR+, the property of lanes\n\n[[cl_khr_lanes-host-side", 1)
    (extension,) = pipeline.run(spec_dir({"cl_khr_lanes.txt": text})).extensions
    assert {"CL_QUEUE_PRIORITY_HIGH_KHR", "CL_QUEUE_LANES_KHR"} <= {t.name for t in extension.tokens}
