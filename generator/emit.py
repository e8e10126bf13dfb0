"""Stage 9: the output tree (IR, package, docs), written whole or not at all.

Everything is written into a fresh folder beside OUT and then put in OUT's
place in one step: on Linux the two folders are exchanged atomically
(`renameat2(RENAME_EXCHANGE)`), so a run killed at any moment leaves either
the old OUT or the new one, never a mix and never none. Elsewhere OUT goes to
`.OUT-previous` and the new folder to OUT by two renames; a run killed between
them leaves `.OUT-previous`, which the next run puts back before it starts.
"""

from __future__ import annotations

import ast
import ctypes
import ctypes.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

from generator import ffi, ir, knowledge
from generator.docs import Docs, model_docs, model_guides
from generator.errors import InputError
from generator.ir import SchemaError
from generator.package import Package, model_package
from generator.pipeline import Result
from generator.render import render


def outputs(result: Result) -> dict[str, str]:
    """Relative path -> text of every file the generator writes under OUT."""
    irs = [ir.to_dict(extension) for extension in result.extensions]
    files = {f"ir/{data['name']}.yaml": ir.dump(data) for data in irs}
    package = model_package(irs, knowledge.load(), knowledge.load_package())
    files.update(package_files(package))
    files.update(docs_files(model_docs(irs, package, model_guides(knowledge.read_guides())), package))
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
    files.update({f"{root}/{name}": text for name, text in ffi.out_of_line(root, core_cdef, cdefs).items()})
    for name, text in files.items():  # the last guard: a module that would not even parse is never written
        if name.endswith(".py"):
            try:
                compile(text, name, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
            except SyntaxError as error:
                raise SchemaError(f"{name} would not compile ({error.msg}, line {error.lineno}): "
                                  "a name from the specs got past the checks") from None
    return files


def recover(out: Path) -> None:
    """Undo what an interrupted run left: put back the OUT it had moved aside, remove its staging folders."""
    out = out.resolve()
    previous = out.with_name(f".{out.name}-previous")
    if previous.exists() and not out.exists():
        os.rename(previous, out)
    for left in out.parent.glob(f".{out.name}-staging-*"):
        shutil.rmtree(left, ignore_errors=True)


def write(out: Path, files: dict[str, str]) -> None:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    recover(out)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-staging-", dir=out.parent))
    try:
        for relative, text in sorted(files.items()):
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        if out.exists() and _exchange(staging, out):
            shutil.rmtree(staging, ignore_errors=True)  # now the old OUT
            return
        previous = out.with_name(f".{out.name}-previous")
        if previous.exists():
            shutil.rmtree(previous)
        if out.exists():
            os.rename(out, previous)
        os.rename(staging, out)
        shutil.rmtree(previous, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(done == 0)


def stale(out: Path, files: dict[str, str]) -> list[str]:
    """Files under OUT that differ from `files`, are missing, or should not be there."""
    present = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()} if out.exists() else set()
    differing = [
        name for name, text in files.items()
        if name not in present or (out / name).read_text(encoding="utf-8") != text
    ]
    return sorted(differing + [name for name in present if name not in files])
