"""The jinja2 environment every template is rendered in, and the filters that keep spec text out of code.

Spec text reaches generated Python only through `py` (a `repr` literal) or
`docstring` (a docstring with every quote and backslash escaped); names only
after `naming.identifier`. Markdown templates (`*.md.j2`) are autoescaped for
HTML (their macros too: `_macros.md.j2`), and spec text reaches them through `md`
(prose, every character Markdown or HTML would read as markup escaped), `code`
(an inline code span), `block` (a fenced block) or `url` (a link target), which
return markup the autoescape leaves alone. The docstrings reach the site's API pages
as text: `templates/docs/static/docstring.html.jinja` replaces mkdocstrings' template.
"""

from __future__ import annotations

import contextlib
import hashlib
import posixpath
import re
import sys
from functools import cache
from pathlib import Path
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from generator import ROOT
from generator.base import timing

TEMPLATES = ROOT / "templates"
#: Compiled templates, kept between runs as Python keeps .pyc files (compiling them takes a run 0.14 s).
TEMPLATE_CACHE = TEMPLATES / "__pycache__"


def py(value: object) -> str:
    """A Python literal for a str, int, bool or None."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise TypeError(f"no literal for {type(value).__name__}")


def toml(value: str) -> str:
    """A TOML basic string of `value`, as a reader of pyproject.toml expects it (`"cffi>=1.16"`): Jinja's
    `tojson` escapes `<`, `>` and `&` for HTML, and JSON's escapes of characters beyond the BMP are pairs TOML
    does not take. Only what TOML requires is escaped: the quote, the backslash, control characters."""
    escaped = "".join(f"\\u{ord(c):04X}" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in
                      value.replace("\\", "\\\\").replace('"', '\\"'))
    return f'"{escaped}"'


def docstring(text: str, indent: int = 0, width: int = 100) -> str:
    """A triple-quoted docstring literal of `text`, wrapped; paragraphs are kept."""
    pad = " " * indent
    paragraphs = ["\n".join(_wrap(item, width - indent) for item in _items(p)) for p in text.strip().split("\n\n")]
    body = "\n\n".join(paragraphs).replace("\\", "\\\\").replace('"', '\\"')
    lines = body.split("\n")
    if len(lines) == 1:
        return f'"""{lines[0]}"""'
    joined = "\n".join((pad + line) if line else "" for line in lines[1:])
    return f'"""{lines[0]}\n{joined}\n{pad}"""'


def _items(paragraph: str) -> list[str]:
    """A paragraph's bullet items (lines starting `- `), or the paragraph as one item."""
    items: list[list[str]] = []  # each item's lines, joined once
    for line in paragraph.splitlines():
        if line.startswith("- ") or not items:
            items.append([line])
        else:
            items[-1].append(line)
    return [" ".join(lines) for lines in items]


def _wrap(item: str, width: int) -> str:
    """`item`'s words in lines of at most `width` characters (a longer word alone on its line), a bullet's
    continuation lines indented under its text: what `textwrap.wrap` makes of them without breaking words or
    hyphens, in a third of its time (docstrings are a tenth of the package's rendering)."""
    indent = "  " if item.startswith("- ") else ""
    lines: list[str] = []
    line = ""
    for word in item.split():
        if line and len(line) + 1 + len(word) > width - (len(indent) if lines else 0):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join([lines[0], *(indent + rest for rest in lines[1:])]) if lines else item


_MARKDOWN_SPECIAL = re.compile(r"[\\`*\[\]{}|<>&#]|(?<![^\W_])_|_(?![^\W_])")
_HTML = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
#: What opens a block at a line's start: a list, a setext rule or tab (`===`), a fence (`~~~`), an admonition (`!!!`,
#: `???`), a definition, a block (`///`) or mkdocstrings' `::: module` (which would put another module's reference
#: into the page). "#" is escaped wherever it stands.
_LINE_START = re.compile(r"^(?:[+\-=:!?~/]|\d+(?=[.)]))")
#: Markdown has no backslash escape for these
_LINE_START_ESCAPE = {"=": "&#61;", ":": "&#58;", "?": "&#63;", "~": "&#126;", "/": "&#47;"}


_BACKTICKS = re.compile(r"`+")
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)\. ")  # not after "e.g." or "i.e."


def sentence(text: str | None) -> str:
    """The first sentence of `text` (up to its first full stop followed by a space)."""
    first = _SENTENCE_END.split(" ".join((text or "").split()), 1)[0]
    return first if first.endswith((".", "?", "!")) or not first else first + "."


def relative(target: str, page: str) -> str:
    """The link from `page` to `target`, both relative to the docs root."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def md(text: object) -> Markup:
    """Prose for a Markdown paragraph or table cell: one line, shown as written, never markup.

    An underscore between two letters or digits is left as it is (Markdown reads it as a
    letter there), so C names stay readable in the page source.
    """
    line = " ".join(str(text).split())
    line = _MARKDOWN_SPECIAL.sub(lambda m: _HTML.get(m[0], "\\" + m[0]), line)
    return Markup(_LINE_START.sub(_escape_line_start, line))


def _escape_line_start(match: re.Match[str]) -> str:
    """What keeps a line's first characters from starting a heading or a list."""
    found = match[0]
    if found.isdigit():
        return found + "\\"
    return _LINE_START_ESCAPE.get(found, "\\" + found)


def code(text: object) -> Markup:
    """An inline code span of `text` (one line); prose when a pipe would end a table cell."""
    line = " ".join(str(text).split())
    if "|" in line or not line:
        return md(line)
    ticks = "`" * (max(map(len, _BACKTICKS.findall(line)), default=0) + 1) if "`" in line else "`"
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return Markup(f"{ticks}{pad}{line}{pad}{ticks}")


def url(path: str) -> Markup:
    """A relative link target, percent-encoded so that spaces and brackets cannot end it."""
    return Markup(quote(path, safe="/#.-_~"))


def block(text: object, language: str = "") -> Markup:
    """A fenced code block, its fence longer than any run of backticks in `text`."""
    body = str(text).rstrip("\n")
    fence = "`" * max(3, max(map(len, _BACKTICKS.findall(body)), default=0) + 1)
    return Markup(f"{fence}{language}\n{body}\n{fence}")


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, keyed by the template's text, this module's text, Jinja's version and
    the interpreter's.

    The environment's settings live in this module and are not part of Jinja's own
    key, hence the module's hash in the file names. What Jinja keeps is one Python's
    marshalled bytecode, which another refuses: the file names carry the interpreter's
    tag, as `.pyc` files do, so that Pythons sharing a checkout keep a cache each
    (`make pythons`) rather than replacing each other's. A folder that cannot be
    written only means no cache.
    """

    def __init__(self, folder: Path) -> None:
        key = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:16]
        super().__init__(str(folder), f"%s-{key}.{sys.implementation.cache_tag}.cache")

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> _BytecodeCache | None:
    try:
        TEMPLATE_CACHE.mkdir(exist_ok=True)
    except OSError:
        return None
    return _BytecodeCache(TEMPLATE_CACHE)


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "htm", "md.j2"], default_for_string=False, default=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py"] = py
    env.filters["toml"] = toml
    env.filters["docstring"] = docstring
    env.filters["sentence"] = sentence
    env.filters["md"] = md
    env.filters["code"] = code
    env.filters["block"] = block
    env.filters["url"] = url
    env.globals["zip"] = zip
    env.globals["relative"] = relative
    return env


def render(template: str, **context: object) -> str:
    with timing.stage("template compile"):
        compiled = environment().get_template(template)
    with timing.stage("template render"):
        return compiled.render(**context)


#: The package's modules that need nothing from the specs or the data: copied as they are, so that they stay
#: plain Python that ruff, mypy and an editor read.
STATIC = TEMPLATES / "package" / "static"


def static_modules() -> dict[str, str]:
    """The static modules by file name, with their text."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("*.py"))}


#: The templates of mkdocstrings' Python handler that the site replaces, copied as they are (they are Jinja
#: templates of mkdocstrings, not of the generator).
DOCS_STATIC = TEMPLATES / "docs" / "static"


def docs_templates() -> dict[str, str]:
    """The replaced templates by file name, with their text."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(DOCS_STATIC.glob("*.jinja"))}
