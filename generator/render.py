"""The jinja2 environment every template is rendered in, and the filters that keep spec text out of code.

Spec text reaches generated Python only through `py` (a `repr` literal) or
`docstring` (a docstring with every quote and backslash escaped); names only
after `naming.identifier`. HTML templates are autoescaped.
"""

from __future__ import annotations

import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from generator.knowledge import ROOT

TEMPLATES = ROOT / "templates"


def py(value: Any) -> str:
    """A Python literal for a str, int, bool or None."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise TypeError(f"no literal for {type(value).__name__}")


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
    items: list[str] = []
    for line in paragraph.splitlines():
        if line.startswith("- ") or not items:
            items.append(line)
        else:
            items[-1] += " " + line
    return items


def _wrap(item: str, width: int) -> str:
    indent = "  " if item.startswith("- ") else ""
    return "\n".join(textwrap.wrap(" ".join(item.split()), width, subsequent_indent=indent,
                                   break_long_words=False, break_on_hyphens=False)) or item


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["html", "htm"], default_for_string=False, default=False),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["py"] = py
    env.filters["docstring"] = docstring
    env.globals["zip"] = zip
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def template_paths() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*.j2"))
