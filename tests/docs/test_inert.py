"""Spec text on the site stays text: a site built from hostile specs, opened in headless Chromium.

The seeds are copied with hostile text in each place spec text reaches the site (a condition, a parameter's
description, a token group's sentence, table cells and column titles, the revision, a metadata field, in each of
the four formats) and two of them are renamed to hostile file names, which every citation of them carries (in a
code span, or in prose where the name holds a pipe).
`python -m generator generate` and a strict `mkdocs build` make the site; one Chromium opens every page that shows
the text, with its scripts, and two searches for it, from a server that records every path asked for.

Every payload holds what Markdown, HTML, Python-Markdown's extensions and mkdocstrings read as markup: raw HTML
with handlers, `javascript:` links and autolinks, images, reference links, escaped and numeric entities,
emphasis, code spans, attribute lists, footnotes, `md_in_html`, pipes, Jinja, and, after words too long to share a
line (so that a docstring's wrapping puts them at a line's start), `::: module`, `!!!`, headings, lists, quotes,
fences and link definitions. Each would ask the server for a path holding `hit-` if it ran or loaded anything.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml

from tests.docs.pages import Site, Visit, build_site, squeeze, visit
from tests.support import SPECS

NV10, NV11 = "cl_nv_d3d10_sharing.txt", "cl_nv_d3d11_sharing.txt"
KHR11, PAGE11 = "cl_khr_d3d11_sharing.txt", "clEnqueueAcquireD3D11ObjectsKHR.txt"
#: Longer than any docstring's width: alone on its line, so the word after it starts the next one.
LONG = "W" * 100


def payload(key: str, pipes: bool = True) -> str:
    """Hostile text for one place, between the markers `Zq<key>` and `qZ<key>` (no pipe where one would split a
    cell of the spec's own table)."""
    hit = f"hit-{key}"
    parts = [
        f"Zq{key}",
        f"<img src={hit}-img onerror=fetch('{hit}-js')>",
        f"<script type=module>fetch('{hit}-script')</script>",
        f"[link](javascript:fetch('{hit}-link')) <javascript:fetch('{hit}-auto')> ![pic]({hit}-pic)",
        "[ref][cl_d3d_sharing.errors] [cl_d3d_sharing.errors][]",
        f"&lt;iframe src={hit}-frame&gt; &#60;img src={hit}-entity&#62; \\<b\\>",
        "**bold** _em_ `code` ~~del~~ [^note] {{ 7*7 }} {% raw %}",
        "<div markdown=1>*md*</div>",
        f"\"><svg onload=fetch('{hit}-svg')> '><iframe src={hit}-quoted>",
        *(["| cell |"] if pipes else []),
        LONG, "!!! danger", LONG, "# heading", LONG, "- item", LONG, "> quote", LONG, "``` js", LONG, "~~~",
        # last, what holds a colon and a space: the collapsed text ends its paragraph there (its lost line breaks)
        LONG, "::: json", LONG, "::: cl_d3d_sharing.errors", LONG, f"[x]: javascript:fetch('{hit}-def')",
        f"{{: onclick=fetch('{hit}-attr') }}", f"qZ{key}",
    ]
    return " ".join(parts)


class Place(NamedTuple):
    key: str
    file: str
    after: str  # the payload goes right after the first occurrence of this (a renamed text: its new name)
    pages: tuple[str, ...]  # the site's pages that show it (Markdown paths)
    pipes: bool = True


BUFFER10, BUFFER11 = "nv_d3d10/clCreateFromD3D10BufferNV.md", "khr_d3d11/clCreateFromD3D11BufferKHR.md"
PLACES = [
    Place("revision", NV10, "Version 1, December 7, 2009", ("index.md", "nv_d3d10/index.md")),
    Place("metadata", NV10, "    OpenCL 1.0 is required", ("nv_d3d10/index.md",)),
    Place("group", NV10, "    Accepted as a Direct3D 10 device source", ("nv_d3d10/index.md", "api/nv_d3d10.md")),
    Place("condition", NV10, "CL_INVALID_VALUE if values specified in <flags> are not valid",
          (BUFFER10, "api/nv_d3d10.md")),
    Place("core", NV10, "CL_INVALID_MEM_OBJECT if <memobj> is a not a valid memory object",
          ("nv_d3d10/clGetMemObjectInfo.md", "api/nv_d3d10.md")),
    Place("parameter", NV10, "    <flags> is a bit-field", (BUFFER10, "api/nv_d3d10.md")),
    Place("cell", NV10, "on whic", ("nv_d3d10/index.md",)),
    Place("asciidoc", KHR11, "CL_INVALID_VALUE if values specified in _flags_ are not valid",
          (BUFFER11, "api/khr_d3d11.md")),
    Place("column", KHR11, "| *Property value", ("khr_d3d11/index.md",), pipes=False),
    Place("adoccell", KHR11, "| Specifies the ID3D11Device", ("khr_d3d11/index.md",), pipes=False),
    Place("history", KHR11, "| 2020-04-21 | 1.0.0", ("index.md", "khr_d3d11/index.md"), pipes=False),
    Place("collapsed", NV11, "* CL_INVALID_VALUE if values specified in are not valid",
          ("nv_d3d11/clCreateFromD3D11BufferNV.md", "api/nv_d3d11.md")),
    Place("refpage", PAGE11, "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue",
          ("khr_d3d11/clEnqueueAcquireD3D11ObjectsKHR.md", "api/khr_d3d11.md")),
]
#: A version-history table for the AsciiDoc text (the seeds have none), whose version cell is a place.
HISTORY = """
==== Version History

[cols="1,1,3",options="header",]
|====
| *Date*     | *Version* | *Description*
| 2020-04-21 | 1.0.0 | First assigned version.
|====
"""
#: The NVIDIA D3D10 text's file name: HTML, a link, a directive, an attribute list, quotes, brackets, a pipe.
NAME = ("Zqname <img src=hit-name-img onerror=fetch('hit-name-js')> [l](javascript:fetch('hit-name-link')) "
        "::: json {: onclick=fetch('hit-name-attr')} &lt;b&gt; | ` (x) [y] 'q' \"dq\" qZname.txt")
#: The NVIDIA D3D11 text's: backticks that would close a code span early around HTML, no pipe (a citation holding a
#: pipe is prose, one without is a code span).
TICKS = ("Zqticks `<img src=hit-ticks-img onerror=fetch('hit-ticks-js')>` `` ``` "
         "[l](javascript:fetch('hit-ticks-link')) \\` qZticks.txt")
#: Each renamed text as a place: its new name, which every citation of it carries.
NAMES = [Place("name", NV10, NAME, ("index.md", "nv_d3d10/index.md", BUFFER10, "api/nv_d3d10.md")),
         Place("ticks", NV11, TICKS, ("index.md", "nv_d3d11/index.md", "nv_d3d11/clCreateFromD3D11BufferNV.md",
                                      "api/nv_d3d11.md"))]
#: What the site is searched for (Material's search box, opened with `?q=`): a condition shown by an API page
#: and a function page, a group's sentence shown by an extension page and an API page.
SEARCHES = ["Zqcondition", "Zqgroup"]
#: The elements a page's own content (its article, the search results) is made of; spec text adds none.
CONTENT = {"a", "article", "blockquote", "br", "button", "code", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6",
           "li", "mark", "nav", "ol", "p", "pre", "small", "span", "strong", "table", "tbody", "td", "th", "thead",
           "tr", "ul"}
#: Attributes that hold a URL.
URLS = {"href", "src", "action", "formaction", "data", "poster", "background", "xlink:href", "srcdoc"}


def hostile_specs(folder: Path) -> None:
    """The seeds copied into `folder`, a payload at each place, the NVIDIA texts renamed (`NAMES`)."""
    shutil.copytree(SPECS, folder)
    texts = {path.name: path.read_text(encoding="utf-8") for path in folder.iterdir()}
    anchor = "[[cl_khr_d3d11_sharing-new-procedures-and-functions]]"
    assert anchor in texts[KHR11]
    texts[KHR11] = texts[KHR11].replace(anchor, HISTORY + "\n" + anchor, 1)
    for place in PLACES:
        text = texts[place.file]
        assert place.after in text, place
        texts[place.file] = text.replace(place.after, f"{place.after} {payload(place.key, place.pipes)}", 1)
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    for renamed in NAMES:
        (folder / renamed.file).rename(folder / renamed.after)


class Hostile(NamedTuple):
    out: Path
    site: Site
    arrived: dict[str, str]  # each place's payload as the IR keeps it (a format's own markup read), by key


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    """The hostile specs generated (`--specs specs --out out` in a fresh folder) and the site built strictly."""
    top = tmp_path_factory.mktemp("hostile")
    hostile_specs(top / "specs")
    done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", "specs", "--out", "out"],
                          cwd=top, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    texts = [text for path in sorted((top / "out" / "ir").glob("*.yaml")) for text in _strings(_load(path))]
    arrived = {}
    for key in [place.key for place in [*PLACES, *NAMES]]:
        found = [m[0] for text in texts if (m := re.search(rf"Zq{key}\b.*?(?:qZ{key}|\Z)", text, re.DOTALL))]
        assert found, f"the payload at {key} is not in the IR"
        arrived[key] = max(found, key=len)
    return Hostile(top / "out", build_site(top / "out" / "mkdocs.yml", top / "site"), arrived)


@pytest.fixture(scope="module")
def shown(hostile: Hostile, chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Visit:
    """Every page that shows a payload, and the searches, as Chromium shows them (one run)."""
    return visit(chromium, hostile.site.root, [*map(url, _pages()), *(f"/?q={term}" for term in SEARCHES)],
                 tmp_path_factory.mktemp("profile"))


def url(markdown_path: str) -> str:
    stem = markdown_path.removesuffix(".md")
    return "/" + (stem.removesuffix("index") if stem == "index" or stem.endswith("/index") else stem + "/")


def _pages() -> list[str]:
    return sorted({page for place in [*PLACES, *NAMES] for page in place.pages})


def _load(path: Path) -> Any:
    with open(path, encoding="utf-8") as stream:
        return yaml.safe_load(stream)


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return [value] if isinstance(value, str) else []


def test_every_payload_reaches_the_ir_with_its_markup(hostile: Hostile) -> None:
    """The classic text keeps the payload as written (but for the table cell: its table's reading ends the row at
    the pipes); each other format reads its own markup (AsciiDoc's `*bold*`, `_em_`, backticks; the reference
    page's repair of broken lines), the HTML, Markdown and directives stay."""
    for place in PLACES:
        text = hostile.arrived[place.key]
        if place.file == NV10 and place.key != "cell":
            assert text == payload(place.key, place.pipes), place.key
        parts = ("<img src=", "onerror=", "<script", "javascript:", "!!! danger", "# heading", "::: json")
        for part in parts[:-1] if place.file == NV11 else parts:
            assert part in text, (place.key, part)
    for renamed in NAMES:
        assert hostile.arrived[renamed.key] == renamed.after.removesuffix(".txt")


def test_the_hostile_site_builds_strictly_without_a_warning(hostile: Hostile) -> None:
    assert "WARNING" not in hostile.site.output and "Traceback" not in hostile.site.output
    assert (hostile.site.root / "api" / "nv_d3d10" / "index.html").is_file()


def test_no_payload_ran_or_loaded_anything(shown: Visit) -> None:
    assert len(shown.requests) > len(shown.pages)  # the pages, their scripts and styles, the search index
    assert "/search/search_index.json" in shown.requests
    assert [path for path in shown.requests if "hit-" in path] == []


def test_no_page_has_an_injected_element_handler_or_javascript_link(shown: Visit) -> None:
    for where, page in shown.pages.items():
        results = where.endswith(" results")
        for element in page.elements:
            for name, value in element.attributes:
                assert not name.startswith("on"), (where, element)
                assert "hit-" not in value and "Zq" not in value, (where, element)
                assert not (name in URLS and re.sub(r"[\s\x00-\x1f]", "", value).lower().startswith(
                    ("javascript:", "vbscript:", "data:"))), (where, element)
            if element.in_article or results:
                assert element.tag in CONTENT, (where, element)


def test_every_payload_is_shown_as_written_on_each_page_that_shows_it(hostile: Hostile, shown: Visit) -> None:
    for place in [*PLACES, *NAMES]:
        expected = squeeze(hostile.arrived[place.key])
        for page in place.pages:
            assert expected in shown.pages[url(page)].text, (place.key, page)


@pytest.mark.parametrize("renamed", NAMES, ids=[renamed.key for renamed in NAMES])
def test_every_citation_and_message_shows_the_file_name_as_written(shown: Visit, renamed: Place) -> None:
    """A name reaches the pages in citations (the Source column of a function's errors and of the diagnostics)
    and in diagnostics' messages that cite another place of its text."""
    _, extension, function, _ = renamed.pages
    name = f"specs/{squeeze(renamed.after)}:"
    errors = [row for row in shown.pages[url(function)].rows if row[0].startswith("CL_")]
    assert len(errors) >= 3 and all(row[-1].startswith(name) for row in errors), errors
    diagnostics = [row for row in shown.pages[url(extension)].rows if row[:1] in (["warning"], ["note"])]
    assert len(diagnostics) >= 5 and all(row[-1].startswith(name) for row in diagnostics), diagnostics
    assert [row for row in diagnostics if row[1] == "prototype-conflict" and f"at {name}" in row[2]]


def test_no_page_pulls_in_another_modules_documentation(shown: Visit) -> None:
    """`::: json` and `::: cl_d3d_sharing.errors` in the text (at a line's start in every docstring) are text."""
    for where, page in shown.pages.items():
        assert not any(i == "json" or i.startswith(("json.", "cl_d3d_sharing.errors")) for i in page.ids), where
        assert "JSON (JavaScript Object Notation)" not in page.text, where
        if not where.startswith("/api/"):  # a page of mkdocstrings' own is an API page
            assert not any(i.startswith("cl_d3d_sharing.") for i in page.ids), where
            assert not any("doc-object" in dict(e.attributes).get("class", "") for e in page.elements), where


@pytest.mark.parametrize("term", SEARCHES)
def test_a_search_shows_the_payload_as_text(hostile: Hostile, shown: Visit, term: str) -> None:
    results = shown.pages[f"/?q={term} results"]
    assert len([e for e in results.elements if e.tag == "li"]) >= 2, results.text[:500]
    head = squeeze(hostile.arrived[term.removeprefix("Zq")]).split(LONG)[0]
    assert head in results.text


def test_the_docstrings_keep_the_payload_as_plain_text_for_help(hostile: Hostile) -> None:
    """What help() shows: the text itself, unescaped, in the generated module's docstrings."""
    package = hostile.out / "cl_d3d_sharing"
    trees = [ast.parse(path.read_text(encoding="utf-8"))  # the module, and the enums it shares with its variants
             for path in [package / "nv_d3d10.py", *package.glob("_*_enums.py")]]
    docs = " ".join(squeeze(ast.get_docstring(node, clean=True) or "") for tree in trees for node in ast.walk(tree)
                    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef))
    for key in ("group", "condition", "core", "parameter", "name"):
        assert squeeze(hostile.arrived[key]) in docs, key
