"""The documentation site, built once per session from the committed `generated/`, and a reader of its pages.

The build runs as `make docs` runs it (strict: any warning fails it). Pages are read
with `html.parser`: the text of the page's article (the part that is the page's own,
not the navigation), its tables row by row, its links and its element ids.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml

from tests.conftest import GENERATED, generated_module


@dataclass
class Page:
    """What a reader sees of one HTML page."""

    text: str = ""  # the article's text, whitespace collapsed
    tables: list[list[list[str]]] = field(default_factory=list)  # article tables: rows of cell texts
    code: list[str] = field(default_factory=list)  # the text of each <pre> in the article
    links: list[str] = field(default_factory=list)  # every href on the page
    ids: set[str] = field(default_factory=set)  # every element id on the page

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


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The site, built strictly into a temporary folder; a failed build fails every test that uses it."""
    root = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(GENERATED / "mkdocs.yml"),
         "--site-dir", str(root)],
        capture_output=True, text=True, env=environment, timeout=300, check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return Site(root, output)


@pytest.fixture(scope="session")
def irs() -> list[dict[str, Any]]:
    """The committed IR, one dictionary per extension."""
    found = []
    for path in sorted((GENERATED / "ir").glob("*.yaml")):
        with open(path, encoding="utf-8") as stream:
            found.append(yaml.safe_load(stream))
    return found


@pytest.fixture(scope="session")
def modules() -> dict[str, str]:
    """Extension string -> its module (the folder of its pages), as the package names them."""
    return dict(generated_module().EXTENSIONS)
