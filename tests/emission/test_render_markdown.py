"""The Markdown filters, read back by the real Python-Markdown (what MkDocs renders the pages with).

Spec text is hostile input for a Markdown page: whatever it holds must come out as the same
text, never as a link, emphasis, code, a heading or raw HTML.
"""

from __future__ import annotations

import html.parser

import markdown  # type: ignore[import-untyped]  # no stubs in the test extra
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mkdocstrings import AutoDocProcessor

from generator.emission.render import block, code, md, relative, sentence

PROSE_EXTENSIONS = ["tables", "attr_list"]
PARAGRAPH_TAGS = {"p"}
TABLE_TAGS = {"table", "thead", "tbody", "tr", "th", "td"}

HOSTILE = [
    "<script>alert(1)</script>",
    "*em* _em_ __strong__",
    "[link](http://x)",
    "![img](x.png)",
    "`code`",
    "a | b",
    "# heading",
    "1. item",
    "- item",
    "+ item",
    "> quote",
    "{#id}",
    "text {: .class }",
    "&amp; &lt;",
    "a\\b",
    "trailing \\",
    "<http://auto.link>",
    "<b>bold</b> &copy;",
    "snake_case_name and _leading and trailing_",
    "Ünïcødé — 中文 ✓ \u00a0non-breaking",
    "first line\nsecond line\n\nthird paragraph",
    "=== setext",
    "--- rule",
    "*** rule",
    "___",
]

#: Characters Markdown, its tables and attribute lists, or HTML read as markup, with letters and whitespace.
MARKUP_ALPHABET = "ab1 \n\t\\`*_{}[]()#+-=.!|<>&:;~\"'/^%@é中—\u00a0"


class Collector(html.parser.HTMLParser):
    """The elements of an HTML fragment, its text, and the text of each table cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("td", "th"):
            self._cell = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(source: str, extensions: list[str]) -> Collector:
    collector = Collector()
    collector.feed(markdown.markdown(source, extensions=extensions))
    collector.close()
    return collector


def collapsed(text: str) -> str:
    return " ".join(text.split())


def assert_prose_paragraph(text: str) -> None:
    """`md(text)` as a paragraph shows exactly the text, in nothing but a paragraph."""
    found = parse(str(md(text)), PROSE_EXTENSIONS)
    assert set(found.tags) <= PARAGRAPH_TAGS, (text, found.tags)
    assert collapsed("".join(found.text)) == collapsed(text)


def assert_prose_cell(text: str) -> None:
    """`md(text)` in a table cell shows exactly the text, in that cell, with no element of its own."""
    found = parse("| a | b |\n| --- | --- |\n| " + md(text) + " | y |", PROSE_EXTENSIONS)
    assert set(found.tags) <= TABLE_TAGS, (text, found.tags)
    assert [collapsed(cell) for cell in found.cells] == ["a", "b", collapsed(text), "y"]


@pytest.mark.parametrize("text", HOSTILE)
def test_md_shows_hostile_text_as_written_in_a_paragraph(text: str) -> None:
    assert_prose_paragraph(text)


@pytest.mark.parametrize("text", HOSTILE)
def test_md_shows_hostile_text_as_written_in_a_table_cell(text: str) -> None:
    assert_prose_cell(text)


#: What opens a block at a line's start in the site's Markdown (mkdocstrings, superfences) or in extensions it
#: could enable (admonition, definition lists, pymdownx's blocks).
LINE_OPENERS = ["::: json", ":::json", "# ::: json", "!!! danger \"x\"", "??? note", "~~~", "~~~ js", "``` js",
                ": definition", "/// details", "- [ ] task", "+ item", "1) item", "=== tab"]
SITE_EXTENSIONS = ["tables", "attr_list", "toc", "pymdownx.superfences", "admonition", "def_list", "pymdownx.details",
                   "pymdownx.blocks.details", "pymdownx.tabbed", "pymdownx.tasklist"]


@pytest.mark.parametrize("text", LINE_OPENERS)
def test_md_at_a_line_start_opens_no_block(text: str) -> None:
    """Where a template puts prose at a line's start (a quoted sentence), a spec text that starts like a block
    stays a paragraph of its own text; `::: module` would pull another module's reference into the page."""
    line = str(md(text))
    assert not AutoDocProcessor.regex.search(line), line
    for source in (f"{line}\n\n{line}\n", f"> {line}\n"):
        found = parse(source, SITE_EXTENSIONS)
        assert set(found.tags) <= PARAGRAPH_TAGS | {"blockquote"}, (text, found.tags)
        assert collapsed(text) in collapsed("".join(found.text)), (text, found.text)


def test_md_output_is_one_line() -> None:
    """A newline in spec text would end a table row or start a block."""
    assert "\n" not in md("a\nb\r\nc\n\n- d")


@settings(max_examples=200, derandomize=True)
@given(st.text(alphabet=MARKUP_ALPHABET, max_size=40))
def test_md_round_trips_any_markup_in_a_paragraph(text: str) -> None:
    assert_prose_paragraph(text)


@settings(max_examples=200, derandomize=True)
@given(st.text(alphabet=MARKUP_ALPHABET, max_size=40))
def test_md_round_trips_any_markup_in_a_table_cell(text: str) -> None:
    assert_prose_cell(text)


@pytest.mark.parametrize("text", [
    "clGetDeviceIDsFromD3D10KHR", "const cl_mem *", "a`b", "`starts", "ends`", "``", "a ``` b `",
    "<script>&amp;", "*not em* [no link](x)", "back\\slash\\", "two\n  lines",
])
def test_code_is_one_code_span_holding_the_text(text: str) -> None:
    found = parse(str(code(text)), PROSE_EXTENSIONS)
    assert found.tags == ["p", "code"]
    assert "".join(found.text) == collapsed(text)


@settings(max_examples=200, derandomize=True)
@given(st.text(alphabet=MARKUP_ALPHABET.replace("|", ""), max_size=30).filter(lambda text: bool(text.split())))
def test_code_round_trips_any_text_without_a_pipe(text: str) -> None:
    found = parse(str(code(text)), PROSE_EXTENSIONS)
    assert found.tags == ["p", "code"], (text, found.tags)
    assert "".join(found.text) == collapsed(text)


def test_code_with_a_pipe_falls_back_to_prose_that_keeps_the_table() -> None:
    """A pipe would end the cell even inside a code span in Python-Markdown's tables."""
    text = "a | b `c`"
    assert code(text) == md(text)
    assert_prose_cell(text)


def test_code_of_nothing_is_nothing() -> None:
    assert code("") == ""
    assert code(" \n ") == ""


@pytest.mark.parametrize("text", [
    "cl_int clFoo(void);", "a\n```\nb", "````", "x ``` y\n`````", "<script>&amp;", "", "\n\nlines\n\n kept\n",
    "~~~\nnot a fence\n~~~",
])
def test_block_is_one_fenced_block_holding_the_text(text: str) -> None:
    found = parse(str(block(text, "c")), ["fenced_code"])
    assert found.tags == ["pre", "code"]
    assert "".join(found.text) == text.rstrip("\n") + "\n"


def test_block_fence_is_longer_than_any_backtick_run() -> None:
    fence = str(block("a ````` b", "c")).split("\n", 1)[0]
    assert fence == "``````c"


@pytest.mark.parametrize(("text", "first"), [
    ("One. Two. Three.", "One."),
    ("No full stop", "No full stop."),
    ("Ends with one.", "Ends with one."),
    ("Spread\n  over   lines. Next", "Spread over lines."),
    ("version 1.2 stays whole. Next", "version 1.2 stays whole."),
    (None, ""),
    ("Is it a question?", "Is it a question?"),
    ("A flag, e.g. CL_X or i.e. this one. Next", "A flag, e.g. CL_X or i.e. this one."),
    ("", ""),
    ("   ", ""),
])
def test_sentence_is_the_first_sentence_with_its_full_stop(text: str | None, first: str) -> None:
    assert sentence(text) == first


@pytest.mark.parametrize(("target", "page", "link"), [
    ("a/b.md", "a/c.md", "b.md"),
    ("index.md", "a/c.md", "../index.md"),
    ("a/b.md", "index.md", "a/b.md"),
    ("a/b.md", "c/d.md", "../a/b.md"),
    ("index.md", "index.md", "index.md"),
])
def test_relative_links_between_pages_of_the_docs_root(target: str, page: str, link: str) -> None:
    assert relative(target, page) == link
