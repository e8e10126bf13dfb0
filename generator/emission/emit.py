"""The text of every file under OUT (IR, package, docs); `writing.writer` puts them on disk."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Mapping
from typing import Any

from generator.base import knowledge, timing
from generator.base.errors import InputError, SchemaError
from generator.base.records import frozen
from generator.emission import ffi
from generator.emission.docs import model_docs, model_guides
from generator.emission.docs_model import Docs
from generator.emission.facade_code import facade_code
from generator.emission.mapping_code import mapping_code
from generator.emission.module_code import module_code
from generator.emission.package import model_package
from generator.emission.package_code import package_code
from generator.emission.package_model import Package
from generator.emission.render import TEMPLATE_CACHE, docs_templates, render, static_modules
from generator.ir import files as ir
from generator.ir import read, values
from generator.ir.model import Extension


@frozen
class Emitted:
    """Every file under OUT (relative path -> text), and what they were made from: the IR as the back end read
    it and the package model (`coverage` reads both)."""

    files: dict[str, str]
    irs: tuple[Extension, ...]
    package: Package


def api_digest(data: list[dict[str, Any]]) -> str:
    """Twelve hex digits of the sha256 of the IR (its dictionaries, keys sorted): the package's version's local
    part. The IR is what the package is made from, so two packages of different APIs differ here."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def outputs(made: list[Extension], texts: Mapping[str, str], *, recheck: bool = False) -> Emitted:
    """Every file the generator writes under OUT, of the extensions the front half `made`. The package and the docs
    are made from the IR as `diff` reads it back from these files (`ir.read.from_dict`), never from the front
    half's records (whose texts are not yet plain). `recheck` compiles every module again,
    even one compiled before to the byte (what `generate --force` asks: nothing taken from earlier runs).
    `texts` are the texts read (`pipeline.Result.texts`): the package carries those it cites."""
    with timing.stage("IR"):
        data = [ir.checked(extension) for extension in made]
        irs = tuple(read.from_dict(entry) for entry in data)
        for extension in irs:
            values.check_token_values(extension, knowledge.load())
    with timing.stage("package model"):
        package = model_package(list(irs), knowledge.load(), knowledge.load_package(), texts, api_digest(data))
    modules = package_files(package)
    files: dict[str, str] = {}
    for entry in data:  # the IR's texts, then the docs: the first input error in that order is raised
        with timing.stage("IR"):
            files[f"ir/{entry['name']}.yaml"] = ir.yaml_text(entry)
    with timing.stage("docs model"):
        model = model_docs(list(irs), package, model_guides(knowledge.read_guides()))
    files.update(modules)
    files.update(docs_files(model, package))
    with timing.stage("compile check"):
        compile_check(modules, recheck=recheck)
    return Emitted(files, irs, package)


def docs_files(docs: Docs, package: Package) -> dict[str, str]:
    """The reference pages under OUT/docs/, the hand-written guides beside them, the site's mkdocs.yml and the
    mkdocstrings templates it replaces (its docstrings shown as plain text)."""
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
    for api in docs.api:
        add(api.path, _markdown("docs/api.md.j2", page=api, **context))
    add(docs.kinds_page, _markdown("docs/diagnostics.md.j2", **context))
    add(docs.stylesheet, render("docs/extra.css.j2"))
    files = {f"docs/{path}": text for path, text in pages.items()}
    files["mkdocs.yml"] = render("docs/mkdocs.yml.j2", **context)
    # mkdocstrings looks for a replaced template under <custom_templates>/<handler>/<theme>/ (mkdocs.yml.j2 names both)
    files.update({f"{docs.templates}/python/material/{name}": text for name, text in docs_templates().items()})
    return files


def _markdown(template: str, **context: object) -> str:
    """A rendered page without trailing blanks (Markdown would read two as a line break)."""
    return "\n".join(line.rstrip() for line in render(template, **context).split("\n"))


def package_files(package: Package) -> dict[str, str]:
    """The generated package: its pyproject.toml at OUT's top, its modules in OUT/<name>/ (not yet checked to
    compile: `CompileCheck`). The code models (`module_code`, ...) are charged to "code model"; rendering and the
    cffi modules to their own stages."""
    with timing.stage("code model"):
        return _package_files(package)


def _package_files(package: Package) -> dict[str, str]:
    root = package.config.name
    context = {"package": package, "config": package.config, "core": package.config.core_functions,
               "constants": package.core_constants, "core_types": package.config.core_types,
               "destructor_callback": package.destructor_callback}
    code = package_code(package)
    files = {
        "pyproject.toml": render("package/pyproject.toml.j2", **context),
        "README.md": render("package/README.md.j2", **context),
        "LICENSE": package.config.licence_text,
        "NOTICE": render("package/NOTICE.j2", **context),
        f"{root}/__init__.py": render("package/__init__.py.j2", code=code, **context),
        f"{root}/py.typed": "",
        f"{root}/errors.py": render("package/errors.py.j2", errors=package.errors, code=code, **context),
        f"{root}/_library.py": render("package/_library.py.j2", **context),
        f"{root}/_lifetime.py": render("package/_lifetime.py.j2", **context),
        f"{root}/_binding.py": render("package/_binding.py.j2", **context),
    }
    files.update({f"{root}/{name}": text for name, text in static_modules().items()})
    files.update({f"{root}/specs/{text.path}": text.text for text in package.texts})
    core_cdef = render("package/_cdef/core.h.j2", **context)
    files[f"{root}/_cdef/core.h"] = core_cdef
    cdefs = {}
    for extension in package.extensions:
        files[f"{root}/{extension.module}.py"] = render("package/extension.py.j2", extension=extension,
                                                        code=module_code(extension, package), **context)
        cdefs[extension.module] = render("package/_cdef/extension.h.j2", extension=extension, **context)
        files[f"{root}/_cdef/{extension.module}.h"] = cdefs[extension.module]
    for facade in package.facades:
        files[f"{root}/{facade.module}.py"] = render("package/facade.py.j2", facade=facade,
                                                     code=facade_code(facade, package), **context)
        if facade.enums:
            files[f"{root}/{facade.enums_module}.py"] = render("package/enums.py.j2", facade=facade, **context)
    for mapping in package.mappings:
        files[f"{root}/{mapping.module}.py"] = render("package/mapping.py.j2", mapping=mapping,
                                                      code=mapping_code(mapping), **context)
    with timing.stage("cffi modules"):
        files.update({f"{root}/{name}": text for name, text in ffi.out_of_line(root, core_cdef, cdefs).items()})
    return files


def compile_check(files: dict[str, str], *, recheck: bool = False) -> None:
    """The last guard: a module that would not even parse is never written (`SchemaError` for the first such
    module). A module this interpreter compiled on an earlier run, to the byte, is not compiled again (the hashes
    are kept beside the compiled templates): a regeneration after a spec revision compiles only what changed.
    `recheck` compiles them all."""
    record = TEMPLATE_CACHE / f"compiled-{hashlib.sha256(sys.version.encode()).hexdigest()[:16]}.txt"
    before: set[str] = set()
    if not recheck:
        with contextlib.suppress(OSError):
            before = set(record.read_text(encoding="ascii").split())
    digests = {name: hashlib.sha256(text.encode()).hexdigest() for name, text in files.items()
               if name.endswith(".py")}
    error = first_error({name: files[name] for name, digest in digests.items() if digest not in before})
    if error is not None:
        raise SchemaError(f"{error}: a name from the specs got past the checks")
    if not set(digests.values()) <= before:
        with contextlib.suppress(OSError):  # no record only means compiling again next time
            TEMPLATE_CACHE.mkdir(exist_ok=True)
            record.write_text("\n".join(sorted(set(digests.values()))) + "\n", encoding="ascii")


def first_error(modules: dict[str, str]) -> str | None:
    """The first of `modules` (name -> text) that would not compile, as a message; None when all do."""
    for name, text in modules.items():
        try:
            compile(text, name, "exec", dont_inherit=True)  # to bytecode: faster than building the AST
        except SyntaxError as error:
            return f"{name} would not compile ({error.msg}, line {error.lineno})"
        except ValueError as error:  # a NUL in the text
            return f"{name} would not compile ({error})"
    return None
