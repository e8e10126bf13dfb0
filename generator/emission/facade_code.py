"""A facade module's code as lines (`FacadeCode`), made from its model for `facade.py.j2`: its imports, `__all__`,
the members of its `Variant` protocol (the functions every variant has, one level deeper than the variants define
them) and its tables of variants, each laid out within the line length (`emission.layout`).
"""

from __future__ import annotations

from generator.base.records import frozen
from generator.emission.facades import Facade
from generator.emission.layout import STEP, Bracket, Text, tuple_of
from generator.emission.module_code import assigned, used_names
from generator.emission.package_model import Package
from generator.emission.pythonic_model import PythonicFunction
from generator.emission.signatures import Lines, Param, context_params, define, overloads, pythonic_params
from generator.emission.sorting import imports


@frozen
class FacadeCode:
    standard: Lines  # the imports from the standard library, as ruff's isort orders them
    imports: Lines  # from the package's own modules
    pyopencl: bool  # whether an annotation names PyOpenCL's classes (imported for type checkers only)
    public: Lines  # `__all__`
    members: tuple[Lines, ...]  # the protocol's, each a property or method stub
    variants: Lines  # VARIANTS and EXTENSIONS


#: What a facade may import from the standard library, (module, name): each where its code uses it.
_STANDARD = (("collections.abc", "Mapping"), ("collections.abc", "Sequence"), ("contextlib", "AbstractContextManager"),
             ("typing", "TYPE_CHECKING"), ("typing", "Any"), ("typing", "Final"), ("typing", "Literal"),
             ("typing", "Protocol"), ("typing", "overload"))
#: The names the template's own code uses in every facade.
_TEMPLATE_USES = frozenset({"Final", "Protocol", "_library", "_marshal", "ffi", "Pointer",
                            "ExtensionNotSupportedError", "raised"})


def facade_code(facade: Facade, package: Package) -> FacadeCode:
    """The code of one facade module."""
    keyword = package.config.pythonic.wait_list_keyword
    members = _members(facade, keyword)
    modules = [variant.module for variant in facade.variants]
    used = used_names(line for member in members for line in member)
    used |= _TEMPLATE_USES | set(modules)
    pyopencl = package.config.pythonic.pyopencl_module in used
    if pyopencl:
        used.add("TYPE_CHECKING")
    shared = [enum.class_name for enum in facade.enums]
    package_names = [(".", "_library", None), (".", "_marshal", None), *((".", module, None) for module in modules),
                     *([(".", facade.enums_module, None)] if shared and facade.enums_module in used else []),
                     *((f".{facade.enums_module}", name, None) for name in shared),  # for `__all__`
                     ("._core_ffi", "ffi", None), ("._marshal", "CData", None), ("._marshal", "Pointer", None),
                     (".errors", "ExtensionNotSupportedError", None), (".errors", "raised", None)]
    return FacadeCode(
        standard=tuple(imports((module, name, None) for module, name in _STANDARD if name in used)),
        imports=tuple(imports(entry for entry in package_names if entry[1] in used or entry[1] in shared)),
        pyopencl=pyopencl,
        public=assigned("__all__", Bracket("[", tuple(Text(n) for n in facade.public), "]", broken=True)),
        members=members,
        variants=(*assigned("VARIANTS: Final[tuple[Variant, ...]]", tuple_of(modules)),
                  *assigned("EXTENSIONS: Final", tuple_of(Text(v.extension) for v in facade.variants))),
    )


def _members(facade: Facade, keyword: str) -> tuple[Lines, ...]:
    """The protocol's members: its `EXTENSION` and shared enums as properties, `supported`, and every function
    every variant has (with its `@overload`s)."""
    def stub(name: str, params: list[str | Param], returns: str, decorators: tuple[str, ...] = ()) -> Lines:
        return define(name, params, returns, STEP, stub=True, decorators=decorators, one_line=True)

    members = [stub("EXTENSION", ["self"], "str", ("@property",))]
    members += [stub(enum.class_name, ["self"], f"type[{facade.enums_module}.{enum.class_name}]", ("@property",))
                for enum in facade.enums]
    members.append(stub("supported", ["self", Param("platform", "Pointer")], "bool"))
    for function, hints in facade.protocol:
        members += _method(function, hints, keyword)
    context = facade.context
    if context is not None:
        members += overloads(context.name, context.overloads,
                             lambda flag: context_params(context, flag, method=True), STEP)
    members += [stub(query.name, ["self", Param(query.handle, "Pointer")], query.hint) for query in facade.queries]
    manager = facade.context_manager
    if manager is not None:
        params = pythonic_params(manager.acquire, keyword, hints=facade.manager_inputs, method=True)
        members.append(define(manager.name, params, "AbstractContextManager[Any]", STEP, stub=True))
    return tuple(members)


def _method(function: PythonicFunction, hints: tuple[tuple[str, str], ...], keyword: str) -> list[Lines]:
    """A common function as the protocol declares it: its overloads, or its one stub."""
    if function.overloads:
        return list(overloads(function.name, function.overloads,
                              lambda flag: pythonic_params(function, keyword, flag=flag, hints=hints, method=True),
                              STEP))
    return [define(function.name, pythonic_params(function, keyword, hints=hints, method=True),
                   function.returns_hint, STEP, stub=True)]
