"""The built site: no warnings, everything of the IR on its page, no broken internal link, a search index."""

from __future__ import annotations

import functools
import json
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from generator.emission.docs import prototype
from tests.docs.pages import Site, read_page, squeeze
from tests.support import cited, generated_module


def function_path(module: str, name: str) -> str:
    return f"{module}/{name}.md"


def test_the_build_prints_no_warning(site: Site) -> None:
    assert "WARNING" not in site.output
    assert (site.root / "index.html").is_file()


def test_every_function_has_its_page_with_prototype_parameters_and_every_condition(
    site: Site, irs: list[dict[str, Any]], modules: dict[str, str],
) -> None:
    for ir in irs:
        for function in ir["functions"]:
            page = site.page(function_path(modules[ir["name"]], function["name"]))
            params = [(p["name"], p["type"]) for p in function.get("params", ())]
            assert squeeze(prototype(function["return_type"], function["name"], params)) in map(squeeze, page.code)
            rows = page.rows
            for param in function.get("params", ()):
                assert any(row[0] == param["name"] and row[1] == param["type"] for row in rows), param
                if param.get("description"):
                    assert squeeze(param["description"]) in page.text
            for error in function["errors"]:
                matching = [row for row in rows if row[::2][:2] == [error["code"], squeeze(error["condition"])]]
                assert matching, (function["name"], error["code"], error["condition"])
                assert matching[0][-1] == cited(error) and matching[0][1].startswith("errors.")  # what to catch
                shown = re.findall(r"\b(host|state|driver):", matching[0][3])
                assert shown == [clause["class"] for clause in error.get("check", ())], matching[0][3]


def test_every_token_is_on_its_extension_page_with_its_value(
    site: Site, irs: list[dict[str, Any]], modules: dict[str, str],
) -> None:
    for ir in irs:
        rows = site.page(f"{modules[ir['name']]}/index.md").rows
        for token in ir["tokens"]:
            found = [row for row in rows if row[0] == token["name"]]
            assert found, token["name"]
            assert f"({token['value']})" in found[0][1] and int(found[0][1].split()[0], 0) == token["value"]


def test_every_table_row_is_on_its_extension_page_cell_for_cell(
    site: Site, irs: list[dict[str, Any]], modules: dict[str, str],
) -> None:
    for ir in irs:
        rows = site.page(f"{modules[ir['name']]}/index.md").rows
        for table in ir["tables"]:
            width = max(len(table["columns"]), *(len(r) for r in table["rows"]))
            columns = table.get("row_columns", [None] * len(table["rows"]))
            for row, source, column in zip(table["rows"], table["row_sources"], columns, strict=True):
                expected = [squeeze(str(cell)) for cell in row] + [""] * (width - len(row)) + [
                    cited({"source": source, "column": column})]
                assert expected in rows, (table["name"], row)


def test_every_diagnostic_is_on_its_extension_page(
    site: Site, irs: list[dict[str, Any]], modules: dict[str, str],
) -> None:
    for ir in irs:
        page = site.page(f"{modules[ir['name']]}/index.md")
        for diagnostic in ir["diagnostics"]:
            assert squeeze(diagnostic["message"]) in page.text


def test_the_index_sets_the_extensions_side_by_side(site: Site, irs: list[dict[str, Any]]) -> None:
    page = site.page("index.md")
    header = page.tables[0][0]
    assert header[1:] == [ir["name"] for ir in irs]
    cells = {cell for row in page.rows for cell in row}
    for ir in irs:
        for function in ir["functions"]:
            assert function["name"] in cells


def html_pages(site: Site) -> list[str]:
    """Every page of the site but the 404 page (whose links are absolute: it is served at any depth)."""
    return sorted(path for p in site.root.rglob("*.html")
                  if (path := p.relative_to(site.root).as_posix()) != "404.html"
                  and not path.startswith(("assets/", "search/")))


def broken_links(site: Site, page_path: str, hrefs: list[str]) -> list[str]:
    """The hrefs of `page_path` that lead inside the site to no file, or to no element with their fragment."""
    broken = []
    for href in hrefs:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page_path), unquote(parts.path))) \
            if parts.path else page_path
        file = site.root / target
        if file.is_dir() or parts.path.endswith("/"):
            file = file / "index.html"
        if not file.is_file() or (parts.fragment and parts.fragment not in _ids(file)):
            broken.append(href)
    return broken


@functools.cache
def _ids(file: Path) -> frozenset[str]:
    """The element ids of a built page, read once (every entry of an API page links to itself)."""
    return frozenset(read_page(file.read_text(encoding="utf-8")).ids)


def test_no_internal_link_is_broken_on_any_page(site: Site) -> None:
    pages = html_pages(site)
    assert len(pages) > 40
    for path in pages:
        page = read_page((site.root / path).read_text(encoding="utf-8"))
        assert broken_links(site, path, page.links) == [], path


@pytest.mark.parametrize("href", ["missing/index.html", "#no-such-anchor", "../khr_d3d11/#nowhere"])
def test_the_link_check_finds_a_broken_link(site: Site, href: str) -> None:
    assert broken_links(site, "khr_d3d11/clCreateContext/index.html", [href]) == [href]


def test_the_search_index_holds_every_function(site: Site, irs: list[dict[str, Any]], modules: dict[str, str]) -> None:
    index = json.loads((site.root / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {entry["location"].split("#")[0] for entry in index["docs"]}
    titles = " ".join(entry["title"] for entry in index["docs"])
    for ir in irs:
        for function in ir["functions"]:
            assert f"{modules[ir['name']]}/{function['name']}/" in locations
            assert function["name"] in titles


def test_every_public_name_of_the_package_has_its_reference_entry(site: Site) -> None:
    """The "Python API" pages: each public module's page has an entry for each name in its `__all__` (the
    errors, formats, facades' `variant()`, `acquired()`, `create_context`, the queries...) and its docstring, as
    help() shows it (plain text: its backticks, brackets and citations as written)."""
    package = generated_module()
    modules = {"": package} | {name: generated_module(name) for name in
                               ["errors", "formats", "d3d10", "d3d11", *package.EXTENSIONS.values()]}
    for name, module in modules.items():
        page = site.page(f"api/{name or 'index'}.md")
        dotted = module.__name__
        missing = [public for public in module.__all__ if f"{dotted}.{public}" not in page.ids]
        assert missing == [], dotted
        assert squeeze(module.__doc__) in page.text
    assert "cl_d3d_sharing.khr_d3d11.create_context" in site.page("api/khr_d3d11.md").ids
    assert "cl_d3d_sharing.errors.Condition.file" in site.page("api/errors.md").ids
