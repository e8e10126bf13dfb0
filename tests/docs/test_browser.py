"""The index and a function page as headless Chromium renders them (Debian's `chromium`, which .ci/run installs).

The site is served on a loopback port; Chromium loads each page, runs its scripts and
prints the resulting DOM (`--dump-dom`), which is read like any other page. Every
internal link on the rendered pages is then fetched from the same server.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.error import HTTPError
from urllib.parse import urljoin, urlsplit
from urllib.request import urlopen

import pytest

from generator.emission.docs import prototype
from tests.docs.pages import Page, Site, Visit, read_page, render, squeeze, visit

FUNCTION = ("cl_khr_d3d11_sharing", "clCreateFromD3D11BufferKHR")


#: A page of the test's own, served beside the site: it loads a site page in a frame and writes, for each inline
#: code element there, how the browser lets it break (computed `word-break` and `overflow-wrap`).
PROBE = """<!doctype html><html><body><article></article><iframe style="width:360px;height:600px"
 src="/khr_d3d11/clCreateFromD3D11BufferKHR/" onload="
  var found = [];
  this.contentDocument.querySelectorAll('.md-typeset code').forEach(function (code) {
    var style = getComputedStyle(code);
    found.push(style.wordBreak + ' ' + style.overflowWrap);
  });
  var pre = document.createElement('pre');
  pre.textContent = found.join('\\n');
  document.querySelector('article').appendChild(pre);"></iframe></body></html>"""


#: A page of the test's own that loads an extension's page in a frame as wide as a desktop's window and writes,
#: for each label of the site's navigation on screen, the characters the reader sees (those inside the label's
#: box), a tab, and the whole label.
NAVIGATION = """<!doctype html><html><body><article></article><iframe style="width:1280px;height:900px"
 src="/khr_d3d11/" onload="
  var found = [], doc = this.contentDocument;
  doc.querySelectorAll('.md-sidebar--primary .md-nav__link .md-ellipsis').forEach(function (label) {
    if (!label.getClientRects().length) return;
    var box = label.getBoundingClientRect(), shown = '';
    label.childNodes.forEach(function (node) {
      if (node.nodeType !== 3) return;
      for (var i = 0; i < node.length; i++) {
        var range = doc.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        var at = range.getBoundingClientRect();
        if (at.width > 0 && at.left >= box.left - 0.5 && at.right <= box.right + 0.5) shown += node.data[i];
      }
    });
    found.push(shown.trim() + '\\t' + label.textContent.trim());
  });
  var pre = document.createElement('pre');
  pre.textContent = found.join('\\n');
  document.querySelector('article').appendChild(pre);"></iframe></body></html>"""

PROBES = {"/_probe.html": PROBE, "/_navigation.html": NAVIGATION}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path not in PROBES:
            return super().do_GET()
        body = PROBES[self.path].encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


@pytest.fixture(scope="module")
def server(site: Site) -> Iterator[str]:
    """The site served on a free loopback port; its base URL."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site.root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def broken(base: str, page_url: str, page: Page) -> list[str]:
    """Internal links of a rendered page that the server does not answer, or whose fragment the target lacks."""
    failed = []
    for href in page.links:
        url = urljoin(page_url, href)
        if not url.startswith(base):
            continue
        parts = urlsplit(url)
        try:
            with urlopen(parts._replace(fragment="").geturl(), timeout=30) as response:
                target = read_page(response.read().decode("utf-8"))
        except HTTPError:
            failed.append(href)
            continue
        if parts.fragment and parts.fragment not in target.ids:
            failed.append(href)
    return failed


def test_the_rendered_function_page_shows_its_prototype_and_error_table(
    chromium: str, server: str, irs: list[dict[str, Any]], modules: dict[str, str], tmp_path: Path,
) -> None:
    extension, name = FUNCTION
    function = next(f for ir in irs if ir["name"] == extension for f in ir["functions"] if f["name"] == name)
    url = f"{server}{modules[extension]}/{name}/"
    page = render(chromium, url, tmp_path / "profile")
    params = [(p["name"], p["type"]) for p in function["params"]]
    assert squeeze(prototype(function["return_type"], name, params)) in map(squeeze, page.code)
    errors = next(table for table in page.tables if table[0][:3] == ["Code", "Raises", "Condition"])
    assert [row[::2][:2] for row in errors[1:]] == [[e["code"], squeeze(e["condition"])] for e in function["errors"]]
    assert broken(server, url, page) == []


def test_the_rendered_index_links_every_extension_and_no_link_is_broken(
    chromium: str, server: str, irs: list[dict[str, Any]], modules: dict[str, str], tmp_path: Path,
) -> None:
    page = render(chromium, server, tmp_path / "profile")
    assert page.tables[0][0][1:] == [ir["name"] for ir in irs]
    assert {f"{modules[ir['name']]}/" for ir in irs} <= set(page.links)
    assert broken(server, server, page) == []


def test_the_link_check_notices_a_missing_page(server: str) -> None:
    page = Page(links=["nowhere/", "#nothing", "https://example.org/"])
    assert broken(server, server, page) == ["nowhere/", "#nothing"]


def test_code_and_paths_never_break_mid_word(chromium: str, server: str, tmp_path: Path) -> None:
    """Material lets inline code break anywhere, cutting C names and citations in two; the site's style sheet
    lets them break only where a line may break (a too-wide table scrolls instead)."""
    page = render(chromium, f"{server}_probe.html", tmp_path / "profile")
    styles = page.code[0].split("\n")
    assert len(styles) > 20
    assert set(styles) == {"normal normal"}


def test_the_api_page_shows_each_constant_with_its_value(
    chromium: str, server: str, irs: list[dict[str, Any]], modules: dict[str, str], tmp_path: Path,
) -> None:
    """Beside each C name on a module's API page, the value as the headers write it and in decimal."""
    extension = FUNCTION[0]
    page = render(chromium, f"{server}api/{modules[extension]}/", tmp_path / "profile")
    tokens = next(ir for ir in irs if ir["name"] == extension)["tokens"]
    assert len(tokens) > 10
    for token in tokens:
        value = token["value"]
        shown = f"0x{value:04X} ({value})" if value >= 0 else str(value)
        assert f"{token['name']} : Final {shown}" in page.text, token["name"]


def test_navigation_labels_tell_apart_functions_whose_names_differ_at_their_end(
    chromium: str, server: str, tmp_path: Path,
) -> None:
    """A label too long for the sidebar loses its start, not its end: `..._texture2d` and `..._texture3d` (and
    their C names) show what tells them apart, and every label a reader sees in a section is its own."""
    page = render(chromium, f"{server}_navigation.html", tmp_path / "profile")
    labels = [line.split("\t") for line in page.code[0].split("\n")]
    functions = [(shown, whole) for shown, whole in labels if " · " in whole]
    assert len(functions) >= 24, labels  # the Pythonic functions of the four extensions
    assert any(shown.replace("·", "") != whole.replace(" · ", "") for shown, whole in functions), \
        "no label is too long for the sidebar: the test shows nothing"
    for shown, whole in functions:
        assert whole.endswith(shown[-12:]), (shown, whole)
    sections: list[list[str]] = []
    for shown, whole in labels:
        if " · " not in whole:
            sections.append([])
        elif sections:
            sections[-1].append(shown)
    assert all(len(set(section)) == len(section) for section in sections), sections
    assert any("Texture2D" in shown for shown, _ in functions) and any("Texture3D" in shown for shown, _ in functions)


#: Queries typed into the site's search box, key by key, as a reader types them: part of a name, and words of one.
QUERIES = ["texture3d", "interop user sync"]


@pytest.fixture(scope="module")
def searched(chromium: str, site: Site, tmp_path_factory: pytest.TempPathFactory) -> Visit:
    return visit(chromium, site.root, [f"/#typed={query}" for query in QUERIES], tmp_path_factory.mktemp("profile"))


def _results(searched: Visit, query: str) -> list[str]:
    """The pages and places a typed query's results lead to, in their order, as paths with their fragments."""
    found = []
    for link in searched.pages[f"/#typed={query} results"].links:
        parts = urlsplit(link)
        found.append(parts.path + (f"#{parts.fragment}" if parts.fragment else ""))
    return found


def test_a_typed_part_of_a_name_finds_each_function_of_that_name(
    searched: Visit, irs: list[dict[str, Any]], modules: dict[str, str],
) -> None:
    """Typed `texture3d`, the search answers with every function page whose name holds it, a page of one first:
    the index splits names at underscores and capitals (it found nothing: names were one word each)."""
    results = _results(searched, "texture3d")
    wanted = {f"/{modules[ir['name']]}/{f['name']}/" for ir in irs for f in ir["functions"]
              if "texture3d" in f["name"].lower() and not f.get("core")}
    assert len(wanted) == 4 and wanted <= set(results), results
    assert results[0] in wanted


def test_typed_words_find_the_constant_they_name(searched: Visit) -> None:
    assert "/api/#cl_d3d_sharing.CL_CONTEXT_INTEROP_USER_SYNC" in _results(searched, "interop user sync")

