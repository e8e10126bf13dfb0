"""Reading a Khronos checkout (`recognise` tells one): each selected extension's document, cut out of the book."""

from __future__ import annotations

import posixpath
from dataclasses import replace
from pathlib import Path

from generator.base import timing
from generator.base.diagnostics import Location
from generator.base.errors import InputError, printable
from generator.base.kinds import Kind
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile, cited
from generator.frontends import asciidoc, registry_xml
from generator.frontends.book import assemble, blocks, preprocess
from generator.frontends.book.recognise import ASCIIDOC, Checkout, listed
from generator.frontends.document import Document, Omission
from generator.frontends.registry_xml import Registry


@frozen
class Read:
    documents: list[Document]
    registry: Registry
    texts: dict[str, str]
    digests: dict[str, str]
    undescribed: tuple[str, ...] = ()  # asked for, listed by the XML, stated nowhere in the book (`refuse_undescribed`)


def read(checkout: Checkout, extensions: list[str]) -> Read:
    """The document of each extension named, cut out of the book read once."""
    root = checkout.root
    with timing.stage("front-end registry XML"):
        registry_spec = SpecFile.read(root / checkout.registry.removeprefix("specs/"), root)
        registry = registry_xml.read(registry_spec)
    with timing.stage("front-end book"):
        budget = preprocess.Budget()
        book = preprocess.read_all(root, checkout.books, budget)
        found = blocks.find(book.lines)
        pages, candidates, claimed = _pages(root, book, budget)
    unknown = [name for name in extensions if name not in registry.extensions and name not in pages]
    if unknown:
        raise InputError(checkout.registry, None, f"--extension {printable(unknown[0])}: neither the registry XML nor "
                         "an appendix page of the book describes this extension (the XML lists "
                         f"{len(registry.extensions)}, for example {next(iter(registry.extensions), 'none')})")
    twice = next((name for name in extensions if name in claimed), None)
    if twice is not None:
        first, second = claimed[twice][:2]
        raise InputError(second.path, second.pos, f"a second appendix page for {twice} (the first: "
                         f"{first.precise()}): which of them describes it the run cannot tell")
    documents: list[Document] = []
    files = dict(book.files) | candidates
    undescribed: list[str] = []
    for name in dict.fromkeys(extensions):
        page = pages.get(name)
        with timing.stage("front-end book"):
            cut = assemble.assemble(name, book, found, page, registry)
        if not cut.read:
            undescribed.append(name)
        try:
            with timing.stage("front-end asciidoc"):
                document = asciidoc.parse(cut.spec)
        except InputError as error:
            raise _placed(error, cut, files | {registry_spec.path: registry_spec}) from None
        documents.append(replace(document, origins=cut.origins, extension=name,
                                 omissions=(*document.omissions, *_remarks(cut, book, page))))
    texts = {path: spec.text for path, spec in files.items()} | {registry_spec.path: registry_spec.text}
    digests = {path: spec.digest for path, spec in files.items()} | {registry_spec.path: registry_spec.digest}
    return Read(documents, registry, texts, digests, tuple(undescribed))


def refuse_undescribed(read: Read) -> None:
    """An input error naming the extensions asked for of which the book states nothing: the XML lists them, but
    their text is elsewhere (a vendor's in OpenCL-Registry), and a package of only their names would be empty."""
    names, registry = read.undescribed, read.registry
    if not names:
        return
    first = registry.extensions[names[0]]
    listed = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    these, it, its, that = ("this extension", "it", "its text is", "that text") if len(names) == 1 else \
        ("these extensions", "them", "their texts are", "those texts")
    raise InputError(first.where.path, first.where.pos, f"--extension {printable(listed)}: the registry XML lists "
                     f"{these}, but the book states nothing of {it} (no appendix page but its metadata, no reference "
                     f"page, no line inside `ifdef::<extension>[]`): {its} not the book's (a vendor's is in "
                     f"OpenCL-Registry's extensions/), and a package of a name alone would be empty; generate from "
                     f"{that}")


_Pages = tuple[dict[str, preprocess.Book], dict[str, SpecFile], dict[str, list[Location]]]


def _pages(root: Path, book: preprocess.Book, budget: preprocess.Budget) -> _Pages:
    """Each extension's appendix page: a file beside the book's own that includes the metadata the build makes
    for that extension (`include::{generated}/meta/<extension>.txt[]`). The build's appendix includes them from
    a list it makes from the XML; here they are found where they lie. Also every file read to find them, and
    for an extension more than one page claims, where each does."""
    folders = sorted({posixpath.dirname(path.removeprefix("specs/")) for path in book.files})
    pages: dict[str, preprocess.Book] = {}
    read: dict[str, SpecFile] = {}
    claims: dict[str, list[Location]] = {}
    for folder in folders:
        for name in listed(root, folder):
            shown = cited(posixpath.join(folder, name) if folder else name)
            if not name.endswith(ASCIIDOC) or shown in book.files:
                continue
            page = preprocess.read(root, shown, budget)
            read.update(page.files)
            named = next((line for line in page.lines if assemble.page_extension(line)), None)
            if named is not None:
                pages.setdefault(assemble.page_extension(named) or "", page)
                claims.setdefault(assemble.page_extension(named) or "", []).append(named.where)
    return pages, read, {name: found for name, found in claims.items() if len(found) > 1}


def _placed(error: InputError, cut: assemble.Assembled, files: dict[str, SpecFile]) -> InputError:
    """An error of the cut text, cited where its line comes from: the column moved to where the cut line stands in
    that line (a one-line `ifdef::a[text]` keeps only its text), or, for a line made from it (the XML's prototype,
    an attribute entry joined from several lines), the start of the line, with the made line quoted."""
    if error.path != cut.spec.path or error.pos is None or not 0 < error.pos.line <= len(cut.origins):
        return error
    origin = cut.origins[error.pos.line - 1]
    made = cut.spec.line(error.pos.line)
    spec = files.get(origin.path)
    if spec is None:
        return InputError(origin.path, Pos(origin.pos.line, error.pos.column), error.message, error.line_text)
    text = spec.line(origin.pos.line)
    offset = text.find(made) if made else -1
    if offset >= 0:
        return InputError(origin.path, Pos(origin.pos.line, error.pos.column + offset), error.message, text)
    return InputError(origin.path, Pos(origin.pos.line, 1), f"{error.message} (in `{made.strip()[:160]}`, which "
                      "the run makes from this line)", text)


def _remarks(cut: assemble.Assembled, book: preprocess.Book, page: preprocess.Book | None) -> list[Omission]:
    """What reading the book passed over, each where it stands in the book."""
    notes = [*book.notes, *(page.notes if page else ()), *cut.notes]
    remarks = [Omission(n.where.pos, n.kind, n.message, n.where, n.kind in ("unread-include", "ifeval"))
               for n in notes]
    firsts: dict[str, Location] = {}  # where the book first includes a file of each kind (one pass, not one a kind)
    for line in (*book.lines, *(page.lines if page else ())):
        if line.generated:
            firsts.setdefault(line.generated, line.where)
            firsts.setdefault(posixpath.dirname(line.generated), line.where)
    for kind in sorted(cut.generated_kinds):
        first = firsts.get(kind, cut.origins[0])
        remarks.append(Omission(first.pos, Kind.GENERATED_INCLUDE, f"the build makes the files of {{generated}}/{kind} "
                                "from the registry XML; the run does not, and reads them nowhere", first, True))
    if page is None:
        where = Location(cut.origins[0].path, Pos(1, 1))
        remarks.append(Omission(where.pos, Kind.NO_APPENDIX_PAGE, "no appendix page of the book describes this "
                                "extension: its metadata, revision and list of new enums are not read; what the "
                                "registry XML lists for it and no page here declares is named in what follows", where))
    return remarks
