"""A reader of the documentation site's pages, the site as built, and the site as headless Chromium shows it:
what the docs tests read.

Pages are read with `html.parser`: the text of the page's article (the part that is the page's own, not the
navigation), its tables row by row, its links, its element ids and every element with its attributes. A plain
module: the tests import it, never the conftest that builds the site.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar


@dataclass(frozen=True)
class Element:
    """One element of a page: its tag, its attributes, and whether it stands in the page's article."""

    tag: str
    attributes: tuple[tuple[str, str], ...]
    in_article: bool


@dataclass
class Page:
    """What a reader sees of one HTML page."""

    text: str = ""  # the article's text, whitespace collapsed
    tables: list[list[list[str]]] = field(default_factory=list)  # article tables: rows of cell texts
    code: list[str] = field(default_factory=list)  # the text of each <pre> in the article
    links: list[str] = field(default_factory=list)  # every href on the page
    ids: set[str] = field(default_factory=set)  # every element id on the page
    elements: list[Element] = field(default_factory=list)  # every element on the page, in order

    @property
    def rows(self) -> list[list[str]]:
        """The rows of all its tables, in order."""
        return [row for table in self.tables for row in table]


class _Reader(HTMLParser):
    VOID: ClassVar[frozenset[str]] = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.article = 0  # depth inside <article>, 0 outside
        self.pre: list[str] | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.page.elements.append(Element(tag, tuple((k, v or "") for k, v in attrs), self.article > 0))
        if found.get("id"):
            self.page.ids.add(str(found["id"]))
        if tag == "a" and found.get("href") is not None:
            self.page.links.append(str(found["href"]))
        if tag in self.VOID:
            if tag == "br" and self.cell is not None:
                self.cell.append(" ")
            return
        if tag == "article" or self.article:
            self.article += 1
        if not self.article:
            return
        if tag == "table":
            self.page.tables.append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "pre":
            self.pre = []

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.article:
            return
        self.article -= 1
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.page.tables[-1].append(self.row)
            self.row = None
        elif tag == "pre" and self.pre is not None:
            self.page.code.append("".join(self.pre))
            self.pre = None

    def handle_data(self, data: str) -> None:
        if not self.article:
            return
        self.chunks.append(data)
        for sink in (self.cell, self.pre):
            if sink is not None:
                sink.append(data)

    def close(self) -> None:
        super().close()
        self.page.text = " ".join(" ".join(self.chunks).split())


def read_page(html: str) -> Page:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.page


def squeeze(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Site:
    root: Path
    output: str  # what the build printed

    def page(self, markdown_path: str) -> Page:
        """The built page of a Markdown page (`khr_d3d11/index.md`, `khr_d3d11/clX.md`)."""
        return read_page(self.html_file(markdown_path).read_text(encoding="utf-8"))

    def html_file(self, markdown_path: str) -> Path:
        stem = markdown_path.removesuffix(".md")
        if stem == "index" or stem.endswith("/index"):
            return self.root / stem.removesuffix("index") / "index.html"
        return self.root / stem / "index.html"


def build_site(config: Path, root: Path) -> Site:
    """The site of `config`, built as `make docs` builds it (strict: any warning fails it) into `root`."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config), "--site-dir", str(root)],
        capture_output=True, text=True, env=environment, timeout=300, check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return Site(root, output)


# -- the site in headless Chromium (Debian's `chromium`, which .ci/run installs) ------------------------------

#: The flags a root session needs here: no sandbox, and no background network (the machine has none).
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def render(chromium: str, url: str, profile: Path) -> Page:
    """The page at `url` after Chromium has loaded it and run its scripts."""
    done = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "<article" in done.stdout, done.stderr[-2000:]
    return read_page(done.stdout)


#: A page of the tests' own that opens site pages in frames, waits until each has loaded (a search until it has
#: its results), and writes each frame's DOM, and a search frame's results, as text into its own. A frame whose
#: address ends in `#typed=<query>` has the query typed into the search box, key by key, once the search is ready.
#: The page's load (on which Chromium prints the DOM) waits for a frame the server answers only once it has
#: written them.
PROBE = """<!doctype html><html><body><div id="out"></div>{frames}<script>
function typed(frame) {{
  var src = frame.getAttribute('src'), at = src.indexOf('#typed=');
  return at < 0 ? null : decodeURIComponent(src.slice(at + 7));
}}
function searching(frame) {{ return frame.getAttribute('src').indexOf('?q=') >= 0 || typed(frame) !== null; }}
function type(doc, query) {{
  var input = doc.querySelector('.md-search__input');
  input.focus();
  for (var i = 0; i < query.length; i++) {{
    input.value += query[i];
    input.dispatchEvent(new KeyboardEvent('keydown', {{key: query[i], bubbles: true}}));
    input.dispatchEvent(new Event('input', {{bubbles: true}}));
    input.dispatchEvent(new KeyboardEvent('keyup', {{key: query[i], bubbles: true}}));
  }}
}}
function ready(frame) {{
  var doc = frame.contentDocument;
  if (!doc || doc.readyState !== 'complete') return false;
  var meta = doc.querySelector('.md-search-result__meta');  // "Initializing search", then the query's answer
  var text = meta === null ? 'Initializing' : meta.textContent;
  if (typed(frame) !== null && !frame.hasAttribute('data-typed')) {{
    if (text.indexOf('Initializing') >= 0) return false;
    type(doc, typed(frame));
    frame.setAttribute('data-typed', '');
    return false;
  }}
  return !searching(frame) || (text.indexOf('Initializing') < 0 && text.indexOf('Type to start') < 0);
}}
function write(src, html) {{
  var pre = document.createElement('pre');
  pre.setAttribute('data-src', src);
  pre.textContent = html;
  document.getElementById('out').appendChild(pre);
}}
function poll() {{
  var frames = Array.prototype.slice.call(document.querySelectorAll('iframe.page'));
  if (!frames.every(ready)) {{ setTimeout(poll, 100); return; }}
  setTimeout(function () {{
    frames.forEach(function (frame) {{
      var doc = frame.contentDocument;
      write(frame.getAttribute('src'), doc.documentElement.outerHTML);
      var results = doc.querySelector('.md-search-result');
      if (searching(frame)) write(frame.getAttribute('src') + ' results', results.outerHTML);
    }});
    fetch('/_written');
  }}, 300);
}}
poll();
</script><iframe src="/_gate" style="display:none"></iframe></body></html>"""


@dataclass
class Visit:
    """What Chromium showed of some pages of a site, and every path the site's server was asked for meanwhile."""

    pages: dict[str, Page]  # by the URL opened (`/khr_d3d11/`); a search's results under `<url> results`
    requests: list[str]


class _Recorder(SimpleHTTPRequestHandler):
    """Serves the site and the probe, and records every path asked for (on the server's `requests`)."""

    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        if self.path == "/_probe.html":
            return self._answer(self.server.probe)
        if self.path == "/_gate":
            self.server.written.wait(150)
            return self._answer("")
        if self.path == "/_written":
            self.server.written.set()
            return self._answer("")
        return super().do_GET()

    def _answer(self, text: str) -> None:
        body = text.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    def __init__(self, root: Path, probe: str) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_Recorder, directory=str(root)))
        self.probe = probe
        self.requests: list[str] = []
        self.written = threading.Event()


@contextmanager
def _serving(root: Path, probe: str) -> Iterator[_Server]:
    """`root` served on a free loopback port while the block runs."""
    httpd = _Server(root, probe)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def visit(chromium: str, root: Path, urls: list[str], profile: Path) -> Visit:
    """Open every URL of the site at `root` in one headless Chromium (each in a frame of the probe page), with
    their scripts run and their searches (`?q=`, or a query typed: `#typed=`) answered."""
    frames = "".join(f'<iframe class="page" src="{url}"></iframe>' for url in urls)
    with _serving(root, PROBE.format(frames=frames)) as httpd:
        done = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                               f"http://127.0.0.1:{httpd.server_address[1]}/_probe.html"],
                              capture_output=True, text=True, timeout=240, check=False)
        requests = list(httpd.requests)
    assert done.returncode == 0, done.stderr[-2000:]
    written = _Written()
    written.feed(done.stdout)
    written.close()
    searches = [url for url in urls if "?q=" in url or "#typed=" in url]
    assert sorted(written.found) == sorted([*urls, *(f"{url} results" for url in searches)]), \
        ("the probe did not write every page", sorted(written.found), done.stderr[-2000:])
    return Visit({src: read_page(html) for src, html in written.found.items()}, requests)


class _Written(HTMLParser):
    """The probe's DOM: the text of each `<pre data-src=...>` it wrote (a frame's HTML), by its source."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self._src: str | None = None
        self._chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        src = dict(attrs).get("data-src")
        if tag == "pre" and src is not None:
            self._src, self._chunks = src, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre" and self._src is not None:
            self.found[self._src] = "".join(self._chunks)
            self._src = None

    def handle_data(self, data: str) -> None:
        if self._src is not None:
            self._chunks.append(data)
