"""A reader of the documentation site's pages, and the site as built: what the docs tests read.

Pages are read with `html.parser`: the text of the page's article (the part that is the page's own, not the
navigation), its tables row by row, its links and its element ids. A plain module: the tests import it, never
the conftest that builds the site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar


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
