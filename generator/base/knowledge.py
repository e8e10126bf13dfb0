"""What the generator knows from outside the specs, loaded from the declared files in `data/`.

Core OpenCL (types, constants, functions), the numeric values of external
enumerations of other APIs that the specs' tables use, and the naming conventions
of the API. The
generator's code holds none of these names; it asks this module.
"""

from __future__ import annotations

import json
import re
from dataclasses import field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from generator import ROOT
from generator.base import data_checks, safeload
from generator.base.records import frozen
from generator.base.schema import Check, compile_schema
from generator.base.source import display_path

DATA_DIR = ROOT / "data"
SCHEMA_PATH = Path(__file__).with_name("data.schema.json")
GUIDES_DIR = ROOT / "docs"  # pages written by hand, copied into the generated docs


@frozen
class CoreFunction:
    name: str
    return_type: str
    params: tuple[tuple[str, str], ...]  # (name, canonical C type)

    def param_type(self, name: str) -> str | None:
        return next((ctype for pname, ctype in self.params if pname == name), None)


@frozen
class Knowledge:
    naming: dict[str, re.Pattern[str]]
    enum_base_type: str
    error_type: str
    error_group: str
    bitfield_type: str
    #: The types of the platforms OpenCL shares objects with (Windows, GL, EGL ...), each as C's
    #: own types (`data/platform_types.json`); and their COM interfaces, which C knows only by name.
    platform_types: dict[str, str]
    core_types: dict[str, dict[str, str]]
    core_constants: dict[str, dict[str, Any]]
    core_functions: dict[str, CoreFunction]
    external_enums: dict[str, dict[str, int]]
    c_language: CLanguage
    #: Macros of the OpenCL headers a declaration may carry that make no part of a type (calling conventions,
    #: attributes, version suffixes).
    decorations: frozenset[str] = frozenset()
    #: OpenCL C's own types named as host types are (`cl_mem_fence_flags`): a built-in may take them.
    opencl_c_types: frozenset[str] = frozenset()
    opencl_c_qualifiers: frozenset[str] = frozenset()  # what qualifies a type in OpenCL C besides C's words
    platform_interfaces: frozenset[str] = frozenset()
    platforms: dict[str, str] = field(default_factory=dict)  # platform type -> its platform (`GL`, `Windows`)

    def is_function_name(self, word: str) -> bool:
        return bool(self.naming["function"].match(word))

    def is_constant_name(self, word: str) -> bool:
        return bool(self.naming["constant"].match(word))

    def is_interface(self, word: str) -> bool:
        return bool(self.naming["interface"].match(word)) or word in self.platform_interfaces

    def extension_parts(self, name: str) -> tuple[str, str] | None:
        """(vendor, rest) of an extension string, or None when `name` is not one."""
        match = self.naming["extension"].match(name)
        return (match["vendor"], match["name"]) if match else None

    def is_type_name(self, word: str) -> bool:
        """A name the API's naming gives its types (`cl_mem_info`, `cl_foo_khr`)."""
        return bool(self.naming["type"].match(word)) and "_" in word

    def without_api_prefix(self, c_type: str) -> str:
        """`cl_mem_info` -> `mem_info`: an API type's name without the API's prefix."""
        if self.naming["type"].match(c_type) and "_" in c_type:
            return c_type.split("_", 1)[1]
        return c_type

    def is_known_type(self, base: str) -> bool:
        """A C type the specs may use without defining: C, core OpenCL, platform or COM."""
        return (
            base in _C_TYPES
            or base in self.core_types
            or base in self.platform_types
            or self.is_interface(base)
        )

    def is_c_type(self, base: str) -> bool:
        """A type of the C language itself."""
        return base in _C_TYPES

    def is_handle(self, c_type: str) -> bool:
        """A core OpenCL handle type (`cl_mem`, `cl_context` ...)."""
        return self.core_types.get(c_type, {}).get("kind") == "handle"

    def group_key(self, group: str) -> str:
        """How the IR names a core group or external enum (`cl_channel_order` -> `channel_order`)."""
        return self.without_api_prefix(group) if self.naming["type"].match(group) else group.lower()

    @cached_property
    def core_groups(self) -> tuple[str, ...]:
        """The groups core constants belong to (`cl_channel_order` ...), sorted."""
        return tuple(sorted({str(entry["group"]) for entry in self.core_constants.values() if entry.get("group")}))

    def constant_group(self, name: str) -> str | None:
        """The enumeration a known constant belongs to (`cl_channel_order`, or an external enum's name)."""
        if name in self.core_constants:
            group = self.core_constants[name].get("group")
            return str(group) if group else None
        for enum, members in self.external_enums.items():
            if name in members:
                return enum
        return None

    def constant_group_key(self, name: str) -> str | None:
        """How the IR names the group a known constant belongs to (`group_key` of `constant_group`), looked up in an
        index made once: the tables of a text ask it of each of their cells."""
        return self._constant_group_keys.get(name)

    @cached_property
    def _constant_group_keys(self) -> dict[str, str]:
        names = {*self.core_constants, *(name for members in self.external_enums.values() for name in members)}
        return {name: self.group_key(group) for name in names if (group := self.constant_group(name)) is not None}


@frozen
class CLanguage:
    """`data/conventions.yaml` `c_language:`: what C reserves, and how deep a type may go."""

    keywords: frozenset[str]
    type_keywords: frozenset[str]
    reserved: re.Pattern[str]
    pointer_levels: int
    struct_nesting: int

    def refuses(self, name: str) -> str | None:
        """Why C cannot take `name` as a name it declares (a keyword, an identifier it reserves), or None."""
        if name in self.keywords:
            return "a C keyword"
        if self.reserved.match(name):
            return "an identifier C reserves for the implementation (an underscore and a capital or another underscore)"
        return None

    def is_builtin(self, c_type: str) -> bool:
        """A type C itself makes (`unsigned long`, `struct tag`), which no spec or data file defines."""
        return c_type.split(" ", 1)[0] in self.keywords


#: Types of the C language itself.
_C_TYPES = {"void", "char", "short", "int", "long", "float", "double", "size_t", "unsigned int", "intptr_t",
            "uintptr_t", "ptrdiff_t", *(f"{sign}int{bits}_t" for sign in ("", "u") for bits in (8, 16, 32, 64))}


#: libyaml's safe dumper when PyYAML has it (same result, several times faster).
SafeDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _pyopencl_errors(data: dict[str, Any], core: Knowledge) -> PyopenclErrors:
    codes = {name: name for name in (*data["memory_codes"], data["logic_at_most"])}
    data_checks.known(DATA_DIR, "package.yaml", ("pythonic", "pyopencl", "errors"), codes, core.core_constants,
                      "core OpenCL constant")
    return PyopenclErrors(data["memory"], tuple(data["memory_codes"]), data["logic"], data["logic_at_most"],
                          data["runtime"])


def _licence(name: str) -> str:
    """A licence text under data/ (its name checked by the schema: a path below data/, ending in .txt)."""
    path = DATA_DIR / name
    return safeload.read_text(path, display_path(path, Path.cwd()))


def read_data(name: str) -> dict[str, Any]:
    """A data file: JSON for those `data/make_data.py` makes, YAML for those written by hand.

    Both are input like the specs (a contribution may edit them), so they are read with the
    same bounds and checked against their part of `data.schema.json` before anything uses them.
    """
    path = DATA_DIR / name
    shown = display_path(path, Path.cwd())
    if name.endswith(".json"):
        data = safeload.load_json(path, shown)
        text = None
    else:
        text = safeload.read_text(path, shown)
        data = safeload.parse_yaml(text, shown)
    errors = _data_check(name)(data)
    if errors:
        raise safeload.schema_error(shown, text, errors[0], SCHEMA_PATH.name)
    assert isinstance(data, dict)
    return data


@cache
def _data_check(name: str) -> Check:
    definitions = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))["$defs"]
    return compile_schema({"$ref": f"#/$defs/{name}", "$defs": definitions})


@frozen
class PackageConfig:
    """`data/package.yaml`: the generated package's names and the core entry points it calls."""

    name: str
    distribution: str
    summary: str
    license: str  # an SPDX expression
    licence_text: str  # the text OUT/LICENSE holds
    notice: str  # what OUT/NOTICE says of the quoted texts
    classifiers: tuple[str, ...]
    requires_python: str  # the package's requires-python: the oldest Python it is tested on
    urls: dict[str, str]
    extras: dict[str, list[str]]
    module: re.Pattern[str]
    requires: tuple[str, ...]
    library_environment: str
    checks_environment: str  # read at import: "0" binds the functions without checks (README, Performance)
    library_names: dict[str, list[str]]
    core_functions: dict[str, str]
    core_constants: dict[str, str]
    handles: dict[str, str]
    core_types: dict[str, str]
    count_before_array: bool
    function_pointer_type: str
    calling_convention: str
    acronyms: frozenset[str]
    constant_prefix: str
    vendor_preference: tuple[str, ...]
    pythonic: Pythonic


@frozen
class Pythonic:
    """`data/package.yaml` `pythonic:`: how the snake_case layer names and owns things."""

    function_prefix: str
    wait_list_type: str
    wait_list_keyword: str
    names: dict[str, str]  # handle type -> the name of a parameter taking one (PyOpenCL's)
    owned: dict[str, str]  # handle type -> role of the core function that releases it
    context_manager: str
    context_constructor: str  # its name
    create_context: str  # the role of the core function it calls
    context_platform: str  # the role of the core constant that names the platform property
    #: The core context properties the constructor's `properties=` takes besides (C name -> its value's C type).
    context_properties: dict[str, str]
    info_queries: tuple[str, ...]  # roles of core info functions
    bool_type: str
    pyopencl_module: str
    pyopencl_classes: dict[str, str]
    pyopencl_errors: PyopenclErrors


@frozen
class PyopenclErrors:
    """PyOpenCL's exception class for an error code, by PyOpenCL's own rule: `memory` for `memory_codes`,
    `logic` for a code at or below the value of `logic_at_most`, `runtime` for any other failure."""

    memory: str
    memory_codes: tuple[str, ...]
    logic: str
    logic_at_most: str
    runtime: str


def read_guides(folder: Path = GUIDES_DIR) -> dict[str, str]:
    """The hand-written pages (`*.md`) of `folder`, by file name; none when it does not exist."""
    if not folder.is_dir():
        return {}
    return {path.name: safeload.read_text(path, display_path(path, Path.cwd())) for path in sorted(folder.glob("*.md"))}


#: The named groups the generator reads from the matches of `conventions.yaml`'s naming patterns.
_GROUPS = {"extension": ("vendor", "name")}


@cache
def load_package() -> PackageConfig:
    data = read_data("package.yaml")
    package, library = data["package"], data["library"]
    core = load()
    data_checks.known(DATA_DIR, "package.yaml", ("core_functions",), data["core_functions"], core.core_functions,
                      "core OpenCL function")
    data_checks.known(DATA_DIR, "package.yaml", ("core_constants",), data["core_constants"], core.core_constants,
                      "core OpenCL constant")
    data_checks.known(DATA_DIR, "package.yaml", ("pythonic", "owned"), data["pythonic"]["owned"],
                      data["core_functions"], "role of core_functions")
    constructor = data["pythonic"]["context_constructor"]
    roles = {role: role for role in (*data["pythonic"]["info_queries"], constructor["function"])}
    data_checks.known(DATA_DIR, "package.yaml", ("pythonic",), roles, data["core_functions"], "role of core_functions")
    data_checks.known(DATA_DIR, "package.yaml", ("pythonic", "context_constructor"),
                      {"platform": constructor["platform"]}, data["core_constants"], "role of core_constants")
    platform = data["core_constants"][constructor["platform"]]  # given by the constructor itself
    properties = {name: name for name, entry in core.core_constants.items()
                  if entry.get("group") == data["core_types"]["context_properties"] and name != platform}
    data_checks.known(DATA_DIR, "package.yaml", ("pythonic", "context_constructor", "properties"),
                      {name: name for name in constructor["properties"]}, properties,
                      f"core context property but {platform} (the constructor's own)")
    data_checks.c_types(DATA_DIR, "package.yaml", "context_constructor", constructor["properties"])
    return PackageConfig(
        name=package["name"],
        distribution=package["distribution"],
        summary=package["summary"],
        license=package["license"],
        licence_text=_licence(package["licence_file"]),
        notice=package["notice"],
        classifiers=tuple(package["classifiers"]),
        requires_python=package["requires_python"],
        urls=package["urls"],
        extras=package["extras"],
        module=data_checks.pattern(DATA_DIR, "package.yaml", ("package", "module"), package["module"], ["module"]),
        requires=tuple(package["requires"]),
        library_environment=library["environment"],
        checks_environment=library["checks_environment"],
        library_names=library["names"],
        core_functions=data["core_functions"],
        core_constants=data["core_constants"],
        handles=data["handles"],
        core_types=data["core_types"],
        count_before_array=bool(data["count_before_array"]),
        function_pointer_type=data_checks.template(DATA_DIR, "package.yaml", ("function_pointer_type",),
                                                   data["function_pointer_type"], "function"),
        calling_convention=data["calling_convention"],
        acronyms=frozenset(data["acronyms"]),
        constant_prefix=data["constant_prefix"],
        vendor_preference=tuple(data["vendor_preference"]),
        pythonic=Pythonic(
            function_prefix=data["pythonic"]["function_prefix"],
            wait_list_type=data["pythonic"]["wait_list"]["type"],
            wait_list_keyword=data["pythonic"]["wait_list"]["keyword"],
            names=data["pythonic"]["names"],
            owned=data["pythonic"]["owned"],
            context_manager=data["pythonic"]["context_manager"],
            context_constructor=data["pythonic"]["context_constructor"]["name"],
            create_context=data["pythonic"]["context_constructor"]["function"],
            context_platform=data["pythonic"]["context_constructor"]["platform"],
            context_properties=dict(data["pythonic"]["context_constructor"]["properties"]),
            info_queries=tuple(data["pythonic"]["info_queries"]),
            bool_type=data["pythonic"]["bool_type"],
            pyopencl_module=data["pythonic"]["pyopencl"]["module"],
            pyopencl_classes=data["pythonic"]["pyopencl"]["classes"],
            pyopencl_errors=_pyopencl_errors(data["pythonic"]["pyopencl"]["errors"], core),
        ),
    )


@cache
def load() -> Knowledge:
    conventions = read_data("conventions.yaml")
    core = read_data("opencl_core.json")
    enums = read_data("external_enums.json")
    platform = read_data("platform_types.json")["types"]
    platform_types = {name: str(entry["c_type"]) for name, entry in platform.items() if entry["kind"] == "typedef"}
    data_checks.c_types(DATA_DIR, "platform_types.json", "types", platform_types)
    functions = {
        name: CoreFunction(name, entry["return_type"], tuple((p["name"], p["type"]) for p in entry["params"]))
        for name, entry in core["functions"].items()
    }
    return Knowledge(
        naming={key: data_checks.pattern(DATA_DIR, "conventions.yaml", ("naming", key), pattern, _GROUPS.get(key, ()))
                for key, pattern in conventions["naming"].items()},
        enum_base_type=conventions["enum_base_type"],
        error_type=conventions["error_type"],
        error_group=conventions["error_group"],
        bitfield_type=conventions["bitfield_type"],
        platform_types=platform_types,
        platform_interfaces=frozenset(name for name, entry in platform.items() if entry["kind"] == "interface"),
        platforms={name: str(entry["platform"]) for name, entry in platform.items()},
        core_types=core["types"],
        core_constants=core["constants"],
        core_functions=functions,
        external_enums=enums["enums"],
        decorations=frozenset(core["decorations"]),
        opencl_c_types=frozenset(conventions["opencl_c"]["host_named_types"]),
        opencl_c_qualifiers=frozenset(conventions["opencl_c"]["qualifiers"]),
        c_language=CLanguage(
            keywords=frozenset(conventions["c_language"]["keywords"]),
            type_keywords=frozenset(conventions["c_language"]["type_keywords"]),
            reserved=re.compile(conventions["c_language"]["reserved"]),
            pointer_levels=int(conventions["c_language"]["pointer_levels"]),
            struct_nesting=int(conventions["c_language"]["struct_nesting"]),
        ),
    )
