"""The 2026 OpenCL book the book tests and the benchmark read (tests/corpus/opencl-docs-2026), and what they
ask of its registry XML, read as the tests read it."""

from __future__ import annotations

import re
from pathlib import Path

from generator.base.source import SpecFile
from generator.frontends import registry_xml
from generator.frontends.registry_xml import Registry

SNAPSHOT = Path(__file__).resolve().parents[1] / "corpus" / "opencl-docs-2026"
#: A reference page's opening line, and the function it describes.
REFPAGE = re.compile(r"^\[open,(?:[^\]]*,)?refpage='(\w+)'")


def registry() -> Registry:
    return registry_xml.read(SpecFile.read(SNAPSHOT / "xml" / "cl.xml", SNAPSHOT))


def with_pages(xml: Registry) -> dict[str, set[str]]:
    """The extensions of the XML some of whose commands have reference pages in the book, with their commands."""
    pages = {name for path in (SNAPSHOT / "api").glob("*.asciidoc")
             for line in path.read_text(encoding="utf-8").split("\n") if (m := REFPAGE.match(line)) for name in [m[1]]}
    chosen = {name: {r.name for r in xml.extensions[name].required if r.kind == "command"} for name in xml.extensions}
    return {name: commands for name, commands in chosen.items() if commands & pages}
