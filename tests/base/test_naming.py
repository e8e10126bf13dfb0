"""Python names from C names, and the identifier check every spec name passes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import yaml

from generator.base import naming
from generator.base.errors import InputError
from generator.emission.facades import enums_module
from generator.ir.codec import place
from tests.pathological import assert_linear
from tests.support import GENERATED, generated_module

ACRONYMS = frozenset({"KHR", "NV", "CL", "GL"})


@pytest.mark.parametrize(("c_name", "expected"), [
    ("mem_info", "MemInfo"),
    ("gl_object_type", "GLObjectType"),
    ("invalid_gfx4_device_khr", "InvalidGFX4DeviceKHR"),
    ("d3d_device_source", "D3DDeviceSource"),
    ("__odd__name", "OddName"),
])
def test_class_names(c_name: str, expected: str) -> None:
    assert naming.class_name(c_name, ACRONYMS) == expected


@pytest.mark.parametrize(("c_name", "expected"), [
    ("CL_GL_OBJECT_BUFFER_KHR", "GL_OBJECT_BUFFER"),
    ("CL_RGBA", "RGBA"),
    ("CL_2D_THING_KHR", "CL_2D_THING_KHR"),  # a short name may not start with a digit
    ("CL_NONE_KHR", "NONE"),
    ("CL_None_KHR", "CL_None_KHR"),  # `None` is a keyword: the C name stays
    ("CL_KHR", "KHR"),
])
def test_member_names(c_name: str, expected: str) -> None:
    assert naming.member_name(c_name, "CL_", "_KHR") == expected


@pytest.mark.parametrize("name", ["class", "None", "match", "a-b", "1abc", "x y", "a\nb", "", "name\"", "é"])
def test_what_cannot_be_a_python_name_is_an_input_error(name: str) -> None:
    with pytest.raises(InputError) as caught:
        naming.identifier(name, place("specs/x.txt:12"), "token")
    assert caught.value.render().startswith(f"specs/x.txt:12:1: error: token {name!r} cannot be a Python name")


def test_a_plain_identifier_passes() -> None:
    assert naming.identifier("clFooKHR", None) == "clFooKHR"


def _module_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def _spec_names() -> set[str]:
    """Every name the committed IR defines, and the Python names the package made of them."""
    found: set[str] = set()
    for path in (GENERATED / "ir").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found |= {f["name"] for f in data["functions"]} | {t["name"] for t in data["tokens"]}
        found |= {p["name"] for f in data["functions"] for p in f["params"]}
    return found


def _shared_enum_modules() -> set[str]:
    """The modules of the enums the facades' variants share: one per facade that has any."""
    facades = {p.stem for p in (GENERATED / "cl_d3d_sharing").glob("[!_]*.py")
               if "VARIANTS" in dir(generated_module(p.stem))}
    return {enums_module(facade) for facade in facades if (GENERATED / "cl_d3d_sharing" /
                                                             f"{enums_module(facade)}.py").exists()}


def test_the_reserved_names_cover_what_the_extension_template_binds() -> None:
    """Every name an extension module binds or reads that no spec gave it is reserved against spec names.

    Run over the committed generated modules, so a template change that adds a helper, an import or a
    local fails here until `naming` reserves it.
    """
    package = generated_module()
    spec = _spec_names()
    shared = _shared_enum_modules()
    assert shared, "the shared enums are told apart"
    for module in package.EXTENSIONS.values():
        tree = ast.parse((GENERATED / "cl_d3d_sharing" / f"{module}.py").read_text(encoding="utf-8"))
        made = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        own = _module_level_names(tree) - spec - {n for n in made if not n.startswith("_")} - {"annotations"}
        classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)} | {  # and those its variants share
            alias.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.module in shared for alias in n.names}
        prefixed = {n for n in own if n.startswith(naming.MODULE_PREFIXES)}
        assert prefixed, "the fast paths' constants are told apart"
        assert own - classes - prefixed <= naming.MODULE_NAMES, module
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            params = {a.arg for a in function.args.args + function.args.kwonlyargs}
            used = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)} - params - spec
            used = {n for n in used if not n.startswith(naming.LOCAL_PREFIXES + naming.MODULE_PREFIXES)}
            assert used <= naming.MODULE_NAMES | naming.LOCAL_NAMES | made | classes, (module, function.name)


@pytest.mark.parametrize("name", ["_type_cl_mem", "_min_cl_uint", "_max_x", "_fn_clFooKHR"])
def test_a_spec_name_may_not_start_like_the_modules_own_constants(name: str) -> None:
    space = naming.Namespace(naming.MODULE_NAMES)
    with pytest.raises(InputError) as caught:
        space.claim(name, place("specs/x.txt:3"), "token")
    assert "starts like the generated module's own names" in caught.value.render()


def test_the_reserved_names_cover_what_errors_py_binds() -> None:
    tree = ast.parse((GENERATED / "cl_d3d_sharing" / "errors.py").read_text(encoding="utf-8"))
    errors = generated_module("errors")
    made_from_codes = {cls.__name__ for cls in errors.BY_NAME.values()}
    assert _module_level_names(tree) - made_from_codes <= naming.ERRORS_MODULE_NAMES


def test_the_package_modules_are_reserved() -> None:
    own = {p.stem for p in (GENERATED / "cl_d3d_sharing").glob("*.py")}
    package = generated_module()
    made = set(package.EXTENSIONS.values()) | {f"_{m}_ffi" for m in package.EXTENSIONS.values()}
    public = {m for m in own - made if not m.startswith("_")}
    facades_and_tables = {m for m in public if {"VARIANTS", "TABLES"} & set(dir(generated_module(m)))}
    assert facades_and_tables, "the facades and table modules are told apart"
    shared = _shared_enum_modules()
    assert shared <= own, "the facades' shared enums are told apart"
    assert own - made - facades_and_tables - shared <= naming.PACKAGE_MODULES


def test_a_name_that_becomes_a_file_name_leaves_room_for_what_the_file_name_adds() -> None:
    longest = "x" * (naming.NAME_MAX - naming.FILE_NAME_ROOM)
    assert naming.file_name_problem(longest, "function") is None
    assert f"_{longest}_ffi.cpython-313.opt-2.pyc".__len__() <= naming.NAME_MAX
    problem = naming.file_name_problem(longest + "x", "function")
    assert problem == (f"function {'x' * 40}... is 224 bytes long; it names generated files, and 223 bytes is the "
                       "most that leaves room for what their names add (255 bytes per file name)")


def test_a_prototype_of_thousands_of_parameters_takes_linear_time(tmp_path: Path) -> None:
    """A wrapper's parameters are checked against sets, not lists, and the module's names are not copied."""
    assert_linear("many-parameters", tmp_path)
