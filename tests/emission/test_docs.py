"""The reference pages' model (generator/emission/docs.py): complete against the IR, honest about the generated code."""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import pipeline
from generator.base.errors import InputError
from generator.base.knowledge import read_guides
from generator.emission import emit
from generator.emission.docs import model_docs, model_family, model_guides, model_table, neutral, prototype
from generator.emission.docs_model import Docs, ErrorRow, ExtensionPage, FunctionPage, ParamRow, TokenGroup, TokenRow
from generator.emission.package_model import Package
from generator.ir import read
from generator.ir.codec import place
from generator.ir.model import Extension, Table
from tests.pathological import assert_linear
from tests.samples import WIDGET, WIDGET_XML
from tests.support import SPECS, CliRun, generated_module, packaged


@pytest.fixture(scope="module")
def irs(seed_result: pipeline.Result) -> list[Extension]:
    return [read.record(extension) for extension in seed_result.extensions]


@pytest.fixture(scope="module")
def package(irs: list[Extension]) -> Package:
    return packaged(irs)


@pytest.fixture(scope="module")
def docs(irs: list[Extension], package: Package) -> Docs:
    return model_docs(irs, package)


@pytest.fixture(scope="module")
def outputs(seed_result: pipeline.Result) -> dict[str, str]:
    return emit.outputs(seed_result.extensions, seed_result.texts).files


@pytest.fixture(scope="module")
def generated() -> Callable[[str], ModuleType]:
    """An extension module of the committed generated package, by module name (importing needs no OpenCL)."""
    return generated_module


def page_of(docs: Docs, extension: str) -> ExtensionPage:
    return next(page for page in docs.extensions if page.name == extension)


# neutral ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "vendor", "expected"), [
    ("CL_D3D10_DEVICE_KHR", "KHR", "CL_D3D10_DEVICE"),
    ("clFooKHR", "KHR", "clFoo"),
    ("cl_x_nv *", "nv", "cl_x *"),
    ("cl_d3d10_device_source_khr", "khr", "cl_d3d10_device_source"),
    ("clCreateContext", "KHR", "clCreateContext"),
    ("CL_KHR_IN_THE_MIDDLE", "KHR", "CL_KHR_IN_THE_MIDDLE"),
    ("const cl_mem *", "nv", "const cl_mem *"),
])
def test_neutral_takes_the_vendor_mark_off_the_end_only(name: str, vendor: str, expected: str) -> None:
    assert neutral(name, vendor) == expected


@pytest.mark.parametrize("name", ["KHR", "_KHR", "KHR *", "_KHR *"])
def test_neutral_never_leaves_a_name_empty(name: str) -> None:
    """A name that is nothing but the mark would match every other such name once emptied."""
    result = neutral(name, "KHR")
    assert result.strip(" *")
    if name.startswith("KHR"):
        assert result == name


@settings(max_examples=200, derandomize=True)
@given(st.text(alphabet="abKHR_ *", min_size=1, max_size=12))
def test_neutral_only_removes_a_mark_before_an_optional_pointer(name: str) -> None:
    result = neutral(name, "KHR")
    assert result
    if result != name:
        end = " *" if name.endswith(" *") else ""
        assert result.endswith(end)
        removed = name[: len(name) - len(end)][len(result) - len(end):]
        assert removed in ("KHR", "_KHR")


# prototype ----------------------------------------------------------------------------------------------------------


def test_prototype_puts_one_parameter_a_line() -> None:
    params = [("platform", "cl_platform_id"), ("num_entries", "cl_uint"), ("devices", "cl_device_id *")]
    lines = prototype("cl_int", "clGetThings", params).split("\n")
    assert lines[0] == "cl_int clGetThings("
    assert len(lines) == 1 + len(params)
    assert [line.strip().rstrip(",;").removesuffix(")") for line in lines[1:]] == [
        "cl_platform_id platform", "cl_uint num_entries", "cl_device_id *devices"]
    assert all(line.endswith(",") for line in lines[1:-1])
    assert lines[-1].endswith(");")


def test_prototype_without_parameters_says_void() -> None:
    assert prototype("cl_int", "clNothing", []) == "cl_int clNothing(void);"


def test_prototype_names_a_function_pointer_inside_its_declarator() -> None:
    text = prototype("cl_context", "clMake", [("pfn", "void ( * )(int)"), ("user_data", "void *")])
    assert "    void ( * pfn)(int),\n" in text
    assert text.endswith("void *user_data);")


# the model over the seed specs ---------------------------------------------------------------------------------------


def test_every_ir_function_has_exactly_one_page(irs: list[Extension], docs: Docs) -> None:
    pages = Counter((page.name, function.name, function.path)
                    for page in docs.extensions for function in page.functions)
    for data in irs:
        module = page_of(docs, data.name).module
        for function in data.functions:
            assert pages[data.name, function.name, f"{module}/{function.name}.md"] == 1, function.name
    assert sum(pages.values()) == sum(len(data.functions) for data in irs)
    paths = [function.path for page in docs.extensions for function in page.functions]
    assert len(paths) == len(set(paths))


def test_core_functions_have_no_python_signatures(irs: list[Extension], docs: Docs) -> None:
    """The package does not wrap core functions; their pages only list the conditions an extension adds."""
    seen = 0
    for data in irs:
        pages = {function.name: function for function in page_of(docs, data.name).functions}
        for function in data.functions:
            page = pages[function.name]
            assert page.core is function.core
            if page.core:
                seen += 1
                assert page.checked is None and page.pythonic is None
            else:
                assert page.checked is not None
    assert seen, "the seeds add conditions to core functions"


def test_function_pages_keep_the_ir_parameters_and_errors_in_order(irs: list[Extension], docs: Docs) -> None:
    for data in irs:
        pages = {function.name: function for function in page_of(docs, data.name).functions}
        for function in data.functions:
            page = pages[function.name]
            assert [(p.name, p.c_type) for p in page.params] == [(p.name, p.type) for p in function.params]
            assert [(e.code, e.condition) for e in page.errors] == [
                (e.code, e.condition) for e in function.errors]
            errors = generated_module("errors")  # the class each row names raises that code
            assert all(getattr(errors, e.exception.removeprefix("errors.")).name == e.code for e in page.errors)
            assert page.prototype is not None
            assert all(f" {p.name}" in page.prototype or f"*{p.name}" in page.prototype for p in page.params)


def test_every_ir_token_is_in_exactly_one_group_with_its_value(irs: list[Extension], docs: Docs) -> None:
    for data in irs:
        page = page_of(docs, data.name)
        found = [(group.name, token) for group in page.groups for token in group.tokens]
        for token in data.tokens:
            matches = [(group, row) for group, row in found if row.name == token.name]
            assert len(matches) == 1, token.name
            group, row = matches[0]
            assert (group, row.value) == (token.group, token.value)
        assert page.tokens == len(data.tokens)


def test_every_ir_table_row_is_kept_as_wide_as_the_columns(irs: list[Extension], docs: Docs) -> None:
    for data in irs:
        tables = {table.name: table for table in page_of(docs, data.name).tables}
        assert len(tables) == len(data.tables)
        for table in data.tables:
            page = tables[table.name]
            assert len(page.rows) == len(table.rows)
            for row, source in zip(page.rows, table.rows, strict=True):
                assert len(row) == len(page.columns)
                assert row[: len(source)] == tuple(str(cell) for cell in source)


def test_a_table_pads_short_rows_and_names_the_extra_columns_of_long_ones() -> None:
    table = model_table(Table("t", ("a", "b"), None, (("1",), ("1", "2", "3"), ("4", "5")),
                              (place("s:2"), place("s:3"), place("s:4")), place("s:1")))
    assert len(table.columns) == 3 and table.columns[:2] == ("a", "b")
    assert table.rows == (("1", "", ""), ("1", "2", "3"), ("4", "5", ""))
    assert table.header is None


def test_every_ir_diagnostic_is_on_its_extension_page(irs: list[Extension], docs: Docs) -> None:
    for data in irs:
        page = page_of(docs, data.name)
        listed = Counter((d.severity, d.kind, d.message, d.source) for d in page.diagnostics)
        expected = Counter((d.severity, d.kind, d.message, d.where.cited()) for d in data.diagnostics)
        assert listed == expected


# signatures against the generated code ------------------------------------------------------------------------------


def documented(signature: str) -> tuple[str, list[tuple[str, str | None, str | None]], str]:
    """`module.name(a: H, *, b=None) -> R` as (name, [(parameter or "*", hint, default)], R)."""
    head, rest = signature[: signature.index("(")], signature[signature.index("(") + 1:]
    inner, returns = rest[: rest.rindex(")")], rest[rest.rindex(")") + 1:]
    params = []
    for piece in inner.split(", ") if inner else []:
        piece, _, default = piece.partition("=")
        name, _, hint = piece.partition(": ")
        params.append((name, hint or None, default or None))
    assert returns.startswith(" -> "), signature
    return head.rsplit(".", 1)[1], params, returns.removeprefix(" -> ")


def declared(function: Callable[..., Any], hints: bool) -> list[tuple[str, str | None, str | None]]:
    """The parameters of a generated function in the same form, `*` where the keyword-only ones start."""
    params: list[tuple[str, str | None, str | None]] = []
    for param in inspect.signature(function).parameters.values():
        if param.kind is param.KEYWORD_ONLY and ("*", None, None) not in params:
            params.append(("*", None, None))
        hint = str(param.annotation) if hints and param.annotation is not param.empty else None
        params.append((param.name, hint, None if param.default is param.empty else repr(param.default)))
    return params


def own_pages(docs: Docs) -> Iterator[FunctionPage]:
    return (function for page in docs.extensions for function in page.own_functions)


def test_checked_signatures_are_those_of_the_generated_functions(
    docs: Docs, generated: Callable[[str], ModuleType],
) -> None:
    compared = 0
    for page in own_pages(docs):
        assert page.checked is not None
        assert page.checked.startswith(f"{page.module}.{page.name}(")
        name, params, returns = documented(page.checked)
        function = getattr(generated(page.module), name)
        assert params == declared(function, hints=True), page.name
        assert returns == inspect.signature(function).return_annotation, page.name
        compared += 1
    assert compared


def test_pythonic_signatures_are_those_of_the_generated_functions(
    docs: Docs, generated: Callable[[str], ModuleType],
) -> None:
    compared = 0
    for page in own_pages(docs):
        if page.pythonic is None:
            continue
        assert page.pythonic.startswith(f"{page.module}.")
        name, params, returns = documented(page.pythonic)
        function = getattr(generated(page.module), name)
        assert params == declared(function, hints=False), page.name
        assert returns == inspect.signature(function).return_annotation, page.name
        compared += 1
    assert compared


# families ------------------------------------------------------------------------------------------------------------


def test_families_are_the_facades_and_hold_every_extension_once(docs: Docs, package: Package) -> None:
    families = {family.name: [page.name for page in family.extensions] for family in docs.families}
    assert package.facades
    for facade in package.facades:
        assert families[facade.module] == [variant.extension for variant in facade.variants]
    placed = Counter(name for members in families.values() for name in members)
    assert placed == Counter(page.name for page in docs.extensions)


def test_family_rows_have_one_cell_per_extension(docs: Docs) -> None:
    for family in docs.families:
        for row in (*family.functions, *family.tokens):
            assert len(row.cells) == len(family.extensions), row.key
        for row in family.functions:
            for page, cell in zip(family.extensions, row.cells, strict=True):
                if cell is not None:
                    assert cell.path in {function.path for function in page.functions}
                    assert neutral(cell.text, page.vendor) == row.key


def test_missing_is_reported_exactly_for_rows_with_an_empty_cell(docs: Docs) -> None:
    for family in docs.families:
        missing = [d.subject for d in family.differences if d.kind == "missing"]
        gaps = [row.key for row in (*family.functions, *family.tokens) if None in row.cells]
        assert sorted(missing) == sorted(gaps), family.name


def synthetic_page(vendor: str, *, value: int = 1, objects: str = "const cl_mem *", bar: bool = True) -> ExtensionPage:
    """A small extension by `vendor`; pages of different vendors with the same arguments are the same extension."""
    module = f"{vendor.lower()}_x"

    def function(name: str, params: tuple[tuple[str, str], ...], codes: tuple[str, ...]) -> FunctionPage:
        return FunctionPage(
            name=name, path=f"{module}/{name}.md", extension=f"cl_{module}", module=module, core=False, external=False,
            prototype=prototype("cl_int", name, list(params)), checked=None, pythonic=None,
            params=tuple(ParamRow(n, t, None, None, None) for n, t in params),
            errors=tuple(ErrorRow(code, "when", "s:1", (), "errors.CLError") for code in codes),
            effects=(), source="s:1", declared_at=(),
        )

    functions = [function(f"clFoo{vendor}",
                          (("source", f"cl_source_{vendor.lower()}"), ("count", "cl_uint"), ("objects", objects)),
                          (f"CL_INVALID_X_{vendor}", "CL_INVALID_VALUE"))]
    if bar:
        functions.append(function(f"clBar{vendor}", (), ()))
    tokens = (TokenRow(f"CL_A_{vendor}", value, "s:2", f"{module}.CL_A_{vendor}"),
              TokenRow(f"CL_B_{vendor}", 0x4010, "s:3", f"{module}.CL_B_{vendor}"))
    return ExtensionPage(
        name=f"cl_{module}", path=f"{module}/index.md", vendor=vendor, revision=None, module=module, metadata=(),
        sources=(), types=(), functions=tuple(functions),
        groups=(TokenGroup("accepted", None, None, None, (), None, tokens),), tables=(), diagnostics=(),
        context_manager=None,
    )


def test_a_family_reports_exactly_its_differing_value_params_and_missing_function() -> None:
    khr, nv = synthetic_page("KHR"), synthetic_page("NV", value=2, objects="cl_mem *", bar=False)
    family = model_family("x", (khr, nv))
    assert sorted((d.subject, d.kind) for d in family.differences) == [
        ("CL_A", "value"), ("clBar", "missing"), ("clFoo", "params")]
    details = {d.subject: dict(d.details) for d in family.differences}
    assert details["clBar"] == {khr.name: "clBarKHR", nv.name: ""}
    assert "0x0001" in details["CL_A"][khr.name] and "0x0002" in details["CL_A"][nv.name]
    assert "const cl_mem *" in details["clFoo"][khr.name] and "const" not in details["clFoo"][nv.name]
    assert [row.key for row in family.functions] == ["clFoo", "clBar"]
    assert [row.cells[1] is None for row in family.functions] == [False, True]


def test_the_same_extension_by_two_vendors_has_no_differences() -> None:
    family = model_family("x", (synthetic_page("KHR"), synthetic_page("NV")))
    assert family.differences == ()
    assert all(None not in row.cells for row in (*family.functions, *family.tokens))
    assert len(family.functions) == 2 and len(family.tokens) == 2


# guides --------------------------------------------------------------------------------------------------------------


def test_guides_are_titled_by_their_first_heading_and_sorted_by_name(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("Intro\n## Not this\n# Second guide \n# Not this either\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("No heading at all\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("# Not a page\n", encoding="utf-8")
    guides = model_guides(read_guides(tmp_path))
    assert [(g.path, g.title) for g in guides] == [("a.md", "a"), ("b.md", "Second guide")]
    assert guides[0].text == "No heading at all\n"


def test_a_missing_guides_folder_gives_no_guides(tmp_path: Path) -> None:
    assert read_guides(tmp_path / "absent") == {}
    assert model_guides({}) == ()


# the written files ---------------------------------------------------------------------------------------------------


def nav_pages(entries: Any) -> Iterator[str]:
    """Every page path a mkdocs `nav` names: entries are paths or one-key dicts of a path or a nested list."""
    if isinstance(entries, str):
        yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from nav_pages(entry)
    elif isinstance(entries, dict):
        assert len(entries) == 1, entries
        yield from nav_pages(next(iter(entries.values())))
    else:
        raise AssertionError(f"not a nav entry: {entries!r}")


def test_outputs_hold_the_index_the_site_and_a_page_per_extension_and_function(
    outputs: dict[str, str], docs: Docs, package: Package,
) -> None:
    assert "docs/index.md" in outputs and "mkdocs.yml" in outputs
    assert docs.extensions
    for extension in package.extensions:
        assert f"docs/{extension.module}/index.md" in outputs
    for page in docs.extensions:
        assert f"docs/{page.path}" in outputs
        for function in page.functions:
            assert f"docs/{function.path}" in outputs


def test_the_nav_names_every_page_and_only_pages_that_exist(outputs: dict[str, str]) -> None:
    site = yaml.safe_load(outputs["mkdocs.yml"])
    named = list(nav_pages(site["nav"]))
    assert len(named) == len(set(named))
    pages = {path.removeprefix("docs/") for path in outputs if path.startswith("docs/") and path.endswith(".md")}
    assert set(named) == pages


def test_docstrings_carry_the_prototype_the_error_codes_and_an_existing_page(
    package: Package, outputs: dict[str, str], generated: Callable[[str], ModuleType],
) -> None:
    checked = 0
    for extension in package.extensions:
        module = generated(extension.module)
        for function in extension.functions:
            doc = inspect.getdoc(getattr(module, function.name))
            assert doc is not None
            assert f"{function.return_type} {function.name}(" in " ".join(doc.split())
            missing = [case.name for case in function.errors if case.name not in doc]
            assert missing == [], function.name
            references = [line for line in doc.splitlines() if line.startswith("Reference page: ")]
            assert references == [f"Reference page: {extension.module}/{function.name}.md in the reference docs"]
            assert "docs/" + references[0].split()[2] in outputs
            checked += 1
        for pythonic in extension.pythonic:
            doc = inspect.getdoc(getattr(module, pythonic.name)) or ""
            pages = [line.split()[2] for line in doc.splitlines() if line.startswith("Reference page: ")]
            assert pages == [f"{extension.module}/{pythonic.c_function}.md"]
            assert "docs/" + pages[0] in outputs
    assert checked


def test_a_name_whose_neutral_key_is_taken_in_its_own_extension_keeps_a_row() -> None:
    """An extension's own `clFooKHR` beside the core `clFoo` it adds conditions to: both stay in the index."""
    khr = synthetic_page("KHR")
    core = replace(khr.functions[0], name="clFoo", path="khr_x/clFoo.md", core=True)
    family = model_family("x", (replace(khr, functions=(*khr.functions, core)),))
    cells = [cell.text for row in family.functions for cell in row.cells if cell]
    assert sorted(cells) == ["clBarKHR", "clFoo", "clFooKHR"]


def test_two_pages_at_one_path_are_an_input_error(seed_result: pipeline.Result) -> None:
    """A guide named like a generated page would silently replace it: generation refuses instead."""
    irs = [read.record(e) for e in seed_result.extensions]
    package = packaged(irs)
    docs = model_docs(irs, package, model_guides({"index.md": "# Home by hand\n"}))
    with pytest.raises(InputError, match=r"docs/index\.md"):
        emit.docs_files(docs, package)


def test_thousands_of_tokens_take_linear_time(tmp_path: Path) -> None:
    """Tokens are sorted into their groups and rows once; a name is looked up, never searched for."""
    assert_linear("many-tokens", tmp_path)


def test_a_token_without_a_value_is_listed_as_such_and_not_in_the_package(
        tmp_path: Path, main: Callable[..., CliRun]) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "g.txt").write_text(
        "Name Strings\n\n    cl_acme_gauge\n\nNew Tokens\n\n    Accepted as a query in the <param_name> parameter of "
        "clGetDeviceInfo:\n\n        CL_DEVICE_GAUGE_SIZE_ACME\n\n        CL_DEVICE_GAUGE_LEVEL_ACME    0x4201\n",
        encoding="utf-8")
    done = main("generate", "--specs", str(specs), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert "CL_DEVICE_GAUGE_SIZE_ACME is introduced by this text without a value" in done.err
    page = (tmp_path / "out" / "docs" / "cl_acme_gauge" / "index.md").read_text(encoding="utf-8")
    assert "| `CL_DEVICE_GAUGE_SIZE_ACME` | not given in the text | — (no value to give it) |" in page
    module = (tmp_path / "out" / "cl_d3d_sharing" / "cl_acme_gauge.py").read_text(encoding="utf-8")
    assert "CL_DEVICE_GAUGE_LEVEL_ACME" in module and "CL_DEVICE_GAUGE_SIZE_ACME" not in module


# the registry XML ---------------------------------------------------------------------------------------------------


def test_a_page_says_what_came_from_the_registry_and_where_the_two_differ(
        spec_dir: Callable[[dict[str, str]], Path]) -> None:
    result = pipeline.run(spec_dir({"cl_acme_widget.txt": WIDGET, "cl.xml": WIDGET_XML}))
    irs = [read.record(extension) for extension in result.extensions]
    page = page_of(model_docs(irs, packaged(irs)), "cl_acme_widget")
    assert page.registry is not None and page.registry.endswith("cl.xml")
    assert [(f.what, f.name) for f in page.registry_facts] == [("type definition", "cl_widget_mode_acme")]
    assert {f.kind for f in page.registry_findings} == {
        "registry-prototype", "registry-conflict", "registry-missing", "registry-extra", "registry-elsewhere",
        "registry-unvalued"}
    assert all(f.prose.split(":")[0].endswith("cl_acme_widget.txt") and "cl.xml:" in f.registry
               for f in page.registry_findings)
    text = emit.outputs(result.extensions, result.texts).files[f"docs/{page.module}/index.md"]
    section = text[text.index("## The registry XML"):text.index("## Diagnostics")]
    assert "`cl_widget_mode_acme`" in section and section.count("| registry-") == len(page.registry_findings)


def test_a_page_made_without_the_registry_has_no_registry_section() -> None:
    alone = pipeline.run(SPECS, lean=False)
    files = emit.outputs(alone.extensions, alone.texts).files
    assert not [path for path, text in files.items() if "## The registry XML" in text]


def test_a_page_made_beside_the_project_s_registry_says_so(docs: Docs, outputs: dict[str, str]) -> None:
    assert all(page.registry == "data/registry/cl.xml" and page.registry_shipped for page in docs.extensions)
    page = outputs["docs/khr_d3d10/index.md"]
    assert "they were read beside the generator's copy of Khronos' registry XML,\n`data/registry/cl.xml`" in page
    assert "| type definition | `cl_d3d10_device_set_khr` | `data/registry/cl.xml:122` |" in page
