"""Stage 9: the text of every file under OUT (IR, package, docs); `writer` puts them on disk."""

from __future__ import annotations

import contextlib
import hashlib
import sys

from generator import ffi, ir, knowledge, timing
from generator.docs import Docs, model_docs, model_guides
from generator.errors import InputError, SchemaError
from generator.package import Package, model_package
from generator.pipeline import Result
from generator.render import TEMPLATE_CACHE, render


def outputs(result: Result) -> dict[str, str]:
    """Relative path -> text of every file the generator writes under OUT."""
    with timing.stage("IR"):
        irs = [ir.to_dict(extension) for extension in result.extensions]
        files = {f"ir/{data['name']}.yaml": ir.dump(data) for data in irs}
    with timing.stage("package model"):
        package = model_package(irs, knowledge.load(), knowledge.load_package())
    files.update(package_files(package))
    with timing.stage("docs model"):
        docs = model_docs(irs, package, model_guides(knowledge.read_guides()))
    files.update(docs_files(docs, package))
    return files


def docs_files(docs: Docs, package: Package) -> dict[str, str]:
    """The reference pages under OUT/docs/, the hand-written guides beside them, and the site's mkdocs.yml."""
    context = {"docs": docs, "config": package.config}
    pages: dict[str, str] = {}

    def add(path: str, text: str) -> None:
        if path in pages:
            raise InputError("<specs>", None, f"two pages would be docs/{path} (a function or guide named like a page)")
        pages[path] = text

    add("index.md", _markdown("docs/index.md.j2", **context))
    for page in docs.extensions:
        add(page.path, _markdown("docs/extension.md.j2", page=page, **context))
        for function in page.functions:
            add(function.path, _markdown("docs/function.md.j2", page=function, extension=page, **context))
    for guide in docs.guides:
        add(guide.path, guide.text)
    files = {f"docs/{path}": text for path, text in pages.items()}
    files["mkdocs.yml"] = render("docs/mkdocs.yml.j2", **context)
    return files


def _markdown(template: str, **context: object) -> str:
    """A rendered page without trailing blanks (Markdown would read two as a line break)."""
    return "\n".join(line.rstrip() for line in render(template, **context).split("\n"))


def package_files(package: Package) -> dict[str, str]:
    """The generated package: its pyproject.toml at OUT's top, its modules in OUT/<name>/."""
    root = package.config.name
    context = {"package": package, "config": package.config, "core": package.config.core_functions,
               "constants": package.core_constants, "core_types": package.config.core_types,
               "destructor_callback": package.destructor_callback}
    files = {
        "pyproject.toml": render("package/pyproject.toml.j2", **context),
        f"{root}/__init__.py": render("package/__init__.py.j2", **context),
        f"{root}/py.typed": "",
        f"{root}/errors.py": render("package/errors.py.j2", errors=package.errors, **context),
        f"{root}/_runtime.py": render("package/_runtime.py.j2", **context),
        f"{root}/_marshal.py": render("package/_marshal.py.j2", **context),
        f"{root}/_state.py": render("package/_state.py.j2", **context),
    }
    core_cdef = render("package/_cdef/core.h.j2", **context)
    files[f"{root}/_cdef/core.h"] = core_cdef
    cdefs = {}
    for extension in package.extensions:
        files[f"{root}/{extension.module}.py"] = render("package/extension.py.j2", extension=extension, **context)
        cdefs[extension.module] = render("package/_cdef/extension.h.j2", extension=extension, **context)
        files[f"{root}/_cdef/{extension.module}.h"] = cdefs[extension.module]
    for facade in package.facades:
        files[f"{root}/{facade.module}.py"] = render("package/facade.py.j2", facade=facade, **context)
    for mapping in package.mappings:
        files[f"{root}/{mapping.module}.py"] = render("package/mapping.py.j2", mapping=mapping, **context)
    with timing.stage("cffi modules"):
        files.update({f"{root}/{name}": text for name, text in ffi.out_of_line(root, core_cdef, cdefs).items()})
    with timing.stage("compile check"):
        _check_compiles(files)
    return files


def _check_compiles(files: dict[str, str]) -> None:
    """The last guard: a module that would not even parse is never written. A module this interpreter compiled
    on an earlier run, to the byte, is not compiled again (the hashes are kept beside the compiled templates):
    a regeneration after a spec revision compiles only what changed."""
    record = TEMPLATE_CACHE / f"compiled-{hashlib.sha256(sys.version.encode()).hexdigest()[:16]}.txt"
    try:
        before = set(record.read_text(encoding="ascii").split())
    except OSError:
        before = set()
    passed = set()
    for name, text in files.items():
        if name.endswith(".py"):
            digest = hashlib.sha256(text.encode()).hexdigest()
            if digest not in before:
                try:
                    compile(text, name, "exec", dont_inherit=True)  # to bytecode: faster than building the AST
                except SyntaxError as error:
                    raise SchemaError(f"{name} would not compile ({error.msg}, line {error.lineno}): "
                                      "a name from the specs got past the checks") from None
            passed.add(digest)
    if not passed <= before:
        with contextlib.suppress(OSError):  # no record only means compiling again next time
            TEMPLATE_CACHE.mkdir(exist_ok=True)
            record.write_text("\n".join(sorted(passed)) + "\n", encoding="ascii")
