"""Python names for C names, and the check every name passes before it reaches a template.

A spec is outside input: a name it defines becomes Python code only if it is a
plain identifier that is not a keyword, so no text of a spec can turn into
anything but a name.
"""

from __future__ import annotations

import builtins
import keyword
import re

from generator.base.diagnostics import Location
from generator.base.errors import InputError
from generator.base.source import Pos

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

#: The longest file name most file systems take, in bytes: NAME_MAX of Linux, the BSDs and macOS (255 UTF-16 units
#: on Windows; a name that reaches a file is ASCII).
NAME_MAX = 255
#: What the longest file named after a spec name adds to it: `_<module>_ffi.cpython-3NN.opt-2.pyc`, the bytecode
#: Python caches for an extension's cffi module, is 28 bytes around the module's name (itself part of the
#: extension string); `ir/<extension>.yaml` and the docs' `<module>/<function>.md` add less.
FILE_NAME_ROOM = 32

#: What the templates themselves bind at the top of an extension module (imports, helpers, metadata).
#: A spec name taking one of these would hide it; `tests/base/test_naming.py` reads the generated modules
#: to keep this list complete.
MODULE_NAMES = frozenset({
    "Any", "Array", "CData", "C_NAMES", "Callable", "Check", "Condition", "ERROR_NAMES", "EXTENSION", "Final",
    "GENERATOR_VERSION", "IntEnum", "Iterator", "Literal", "Mapping", "Pointer", "REVISION", "SOURCES", "Sequence",
    "Tracker", "VENDOR", "TYPE_CHECKING", "overload", "pyopencl",
    "_CHECKS", "_CONDITIONS", "_ERRORS", "_Refused", "_binding", "_error", "_errors", "_lookup", "_lookup_later",
    "Binding", "Entry", "_library", "_lifetime", "_marshal", "_state",
    "_violation", "annotations", "conditions", "contextmanager", "ffi", "supported",
    "_CData", "_Handle", "_NULL", "__all__", "_cffi_backend", "_length", "_typeof", "_unpack",
})
#: What the templates bind at the top of an extension module for the wrappers' fast paths, one per C type
#: or function, named from it with one of these prefixes (`_type_cl_mem_ptr`, `_min_cl_uint`,
#: `_fn_clFooKHR`, `_unchecked_clFooKHR`): no spec name may start with one.
MODULE_PREFIXES = ("_type_", "_min_", "_max_", "_fn_", "_unchecked_")
#: What the wrappers' bodies bind or read besides their parameters and the module's names.
LOCAL_NAMES = frozenset({
    "args", "check", "code", "failed", "found", "function", "held", "i", "raised", "refused", "result", "_core",
    "_event", "_item", "_made", "_platform", "_properties", "BaseException", "Exception", "ValueError", "bool",
    "dict", "int", "isinstance", "issubclass", "len", "list", "min", "object", "range", "str", "tuple", "type",
})
#: The keywords the templates add to the wrappers: `platform` for a function no handle leads, and
#: `as_pyopencl` for one that hands back handles.
PLATFORM_KEYWORD = "platform"
PYOPENCL_KEYWORD = "as_pyopencl"
#: The package's own modules (and the cdef of the core declarations, `_cdef/core.h`).
PACKAGE_MODULES = frozenset({
    "__init__", "errors", "_library", "_lifetime", "_liveness", "_memory", "_binding", "_marshal", "_state",
    "_core_ffi", "core", "py",
})
#: What errors.py binds besides the exception class of each error code.
ERRORS_MODULE_NAMES = frozenset({
    "BY_NAME", "CLError", "CORE", "Check", "Condition", "Error", "ExtensionNotSupportedError", "Iterable",
    "LibraryNotFoundError", "Mapping", "NamedTuple", "Path", "Sequence", "TEXTS", "_kind", "_restore", "_shown",
    "annotations", "error",
    "_WITH_PYOPENCL", "__all__", "_plain", "attach_release_failure", "raised", "scope", "sys", "violation",
    "TypeVar", "_E",
})
#: The wrappers' own variable for parameter `p` is one of these prefixes and `p`.
LOCAL_PREFIXES = ("c_", "k_", "l_", "n_", "o_", "given_")


def identifier(name: str, source: Location | None = None, what: str = "name") -> str:
    """`name` if Python can use it as one; an input error at `source` otherwise."""
    if IDENTIFIER.match(name) and not keyword.iskeyword(name) and not keyword.issoftkeyword(name):
        return name
    raise error_at(source, f"{what} {name!r} cannot be a Python name")


def file_name_problem(name: str, what: str) -> str | None:
    """Why `name`, which becomes part of a file name, is too long for one, or None."""
    most = NAME_MAX - FILE_NAME_ROOM
    size = len(name.encode("utf-8", "surrogateescape"))
    if size <= most:
        return None
    return (f"{what} {name[:40]}... is {size} bytes long; it names generated files, and {most} bytes is the most "
            f"that leaves room for what their names add ({NAME_MAX} bytes per file name)")


#: Python's builtins: a module-level name that took one would hide it from every function of the module
#: (`type`, `len`, `issubclass` in the wrappers; `KeyError` in a table lookup).
BUILTINS = frozenset(dir(builtins))


class Namespace:
    """The names one generated module binds: each spec name at most once, none of the templates' own. With
    `module_level`, no builtin either."""

    def __init__(self, reserved: frozenset[str], *also: frozenset[str], module_level: bool = False) -> None:
        self.taken: dict[str, str] = {name: f"the generated module's own {name!r}" for name in reserved}
        self.also = also  # more reserved names, looked up where they are (one function's check of its own)
        self.module_level = module_level

    def claim(self, name: str, source: Location | None, what: str) -> None:
        if name in self.taken:
            raise error_at(source, f"{what} {name!r} clashes with {self.taken[name]}")
        if self.module_level and name in BUILTINS:
            raise error_at(source, f"{what} {name!r} would hide Python's builtin {name!r} from the generated module")
        if any(name in reserved for reserved in self.also):
            raise error_at(source, f"{what} {name!r} clashes with the generated module's own {name!r}")
        if name.startswith(MODULE_PREFIXES):
            raise error_at(source, f"{what} {name!r} starts like the generated module's own names "
                                 f"({', '.join(MODULE_PREFIXES)})")
        self.taken[name] = f"the {what} at {source}"


def check_parameters(names: list[str], source: Location | None, also: frozenset[str] = frozenset()) -> None:
    """Parameters of one function: none may hide a name the wrapper's body uses (`also`: the module's functions,
    the keywords the templates add)."""
    space = Namespace(frozenset(), MODULE_NAMES | LOCAL_NAMES, also)  # `also` is looked in, never copied
    for name in names:
        if name.startswith("_"):  # the templates' own names start so (and C reserves many such)
            raise error_at(source, f"parameter {name!r} starts with an underscore, which the generated code keeps "
                                 "for its own names")
        space.claim(name, source, "parameter")
    given = set(names)
    for name in names:
        for prefix in LOCAL_PREFIXES:
            if prefix + name in given:
                raise error_at(source, f"parameter {prefix + name!r} clashes with the wrapper's own variable "
                                     f"for parameter {name!r}")


def error_at(source: Location | None, message: str) -> InputError:
    """An input error at the line of `source` (the IR keeps no column), or at no place when there is none."""
    return InputError(source.path, Pos(source.pos.line, 1), message) if source else InputError("<specs>", None, message)


def class_name(c_name: str, acronyms: frozenset[str]) -> str:
    """`gl_object_type` -> `GLObjectType`: words capitalised, acronyms and words with digits in capitals."""
    words = [w for w in c_name.split("_") if w]
    return "".join(w.upper() if w.upper() in acronyms or any(c.isdigit() for c in w) else w.capitalize() for w in words)


def member_name(c_name: str, prefix: str, suffix: str) -> str:
    """`CL_GL_OBJECT_BUFFER_KHR` -> `GL_OBJECT_BUFFER`; the C name itself when the short one is no identifier."""
    short = c_name
    if prefix and short.startswith(prefix):
        short = short[len(prefix):]
    if suffix and short.endswith(suffix):
        short = short[: -len(suffix)]
    if not short or not IDENTIFIER.match(short) or keyword.iskeyword(short) or short.startswith("_"):
        return c_name
    return short


#: One word of a C function name: "IDs", "Texture2D", "GL4", "Create".
_WORD = re.compile(r"[A-Z0-9]+s(?=[A-Z]|$)|[A-Z][a-z]+(?:[0-9]+[A-Z]?)?(?![a-z])|[A-Z0-9]+(?![a-z])|[A-Z][a-z]*|[a-z]+")


def snake_name(c_name: str, prefix: str, suffix: str) -> str:
    """`clGetWidgetIDsFromFooKHR` -> `get_widget_ids_from_foo`: prefix and suffix off, words in snake case."""
    name = c_name.removeprefix(prefix)
    if suffix and name.endswith(suffix):
        name = name[: -len(suffix)]
    return "_".join(word.lower() for word in _WORD.findall(name))
