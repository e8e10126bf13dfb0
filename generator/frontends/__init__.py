"""Stage 1: one front end per input format, each turning a `SpecFile` into a format-neutral `Document` with its
own grammar (`detect` tells the format from the content); the registry XML is read by `registry_xml`.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.base.source import SpecFile
from generator.frontends import asciidoc, collapsed, refpage, registry
from generator.frontends.document import Document

FRONTENDS: dict[str, Callable[[SpecFile], Document]] = {
    registry.FORMAT: registry.parse,
    collapsed.FORMAT: collapsed.parse,
    asciidoc.FORMAT: asciidoc.parse,
    refpage.FORMAT: refpage.parse,
}
