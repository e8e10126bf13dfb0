"""The facades: one module per extension that several vendors publish (`x` over `khr_x` and `nv_x`), whose
`variant(platform)` returns the module a platform supports, typed as the `Variant` protocol.

What the variants share is declared once, so that the protocol can promise it: a token group that every variant
has under one class name, with the same members and values, is one enum class in the facade's private module
(`_x_enums`), which each variant imports. A program then reads a member through `Variant` and hands it to one of
the protocol's functions, and a type checker takes it for either variant. The protocol's functions take what
every variant takes; where the variants' annotations differ, `Any`.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterable
from dataclasses import replace

from generator.base import naming
from generator.base.knowledge import PackageConfig
from generator.base.records import frozen
from generator.emission.interop import ContextConstructor, InfoQuery
from generator.emission.package_model import EnumModel, ExtensionModule
from generator.emission.pythonic_model import ContextManager, PythonicFunction
from generator.emission.sorting import dunder_all


@frozen
class Facade:
    module: str
    variants: tuple[ExtensionModule, ...]  # in the order they are tried
    enums: tuple[EnumModel, ...] = ()  # the token groups every variant shares, declared in `enums_module`

    @property
    def enums_module(self) -> str:
        return enums_module(self.module)

    @property
    def public(self) -> tuple[str, ...]:
        """Its `__all__`, in the order ruff wants (RUF022)."""
        return dunder_all([*(enum.class_name for enum in self.enums), "EXTENSIONS", "VARIANTS", "Variant",
                           "supported", "variant", "variants"])

    @property
    def enums_public(self) -> tuple[str, ...]:
        """The `__all__` of its enums module."""
        return dunder_all(enum.class_name for enum in self.enums)

    @property
    def common(self) -> tuple[PythonicFunction, ...]:
        """The Pythonic functions every variant has, by the same name and signature: the `Variant` protocol
        that `variant()` returns (the C-named functions and tokens differ between vendors)."""
        first, *others = self.variants
        shapes = [{f.name: f.shape for f in other.pythonic} for other in others]
        return tuple(f for f in first.pythonic if all(shape.get(f.name) == f.shape for shape in shapes))

    @property
    def protocol(self) -> tuple[tuple[PythonicFunction, tuple[tuple[str, str], ...]], ...]:
        """Each common function with the annotation of each input in the protocol: what every variant takes."""
        return tuple((function, self.inputs(function)) for function in self.common)

    def inputs(self, function: PythonicFunction) -> tuple[tuple[str, str], ...]:
        """(name, annotation) of each input of `function` as the protocol declares it: the variants' own where
        they agree (a shared enum through its module, as the protocol's property of that name hides the class),
        else `Any`."""
        shared = {enum.class_name for enum in self.enums}
        versions = [next(f for f in variant.pythonic if f.name == function.name) for variant in self.variants]
        enum_hints = [{hint.name: hint for hint in version.hints} for version in versions]
        plain_hints = [dict(version.plain_hints) for version in versions]
        found = []
        for name, plain in function.plain_hints:
            enums = [hints.get(name) for hints in enum_hints]
            plains = {hints.get(name) for hints in plain_hints}
            if all(hint is None for hint in enums):
                found.append((name, plain if plains == {plain} else "Any"))
            elif enums[0] is not None and enums[0].enum in shared and all(hint == enums[0] for hint in enums):
                found.append((name, enums[0].annotation(self.enums_module)))
            else:
                found.append((name, "Any"))
        return tuple(found)

    @property
    def context(self) -> ContextConstructor | None:
        """The context constructor, when every variant has one with the same keywords."""
        shapes = {None if v.context is None else (v.context.name, tuple(p.keyword for p in v.context.properties))
                  for v in self.variants}
        return self.variants[0].context if len(shapes) == 1 else None

    @property
    def queries(self) -> tuple[InfoQuery, ...]:
        """The info queries every variant has, by the same name and answer kind."""
        first, *others = self.variants
        shapes = [{(q.name, q.truth) for q in other.queries} for other in others]
        return tuple(q for q in first.queries if all((q.name, q.truth) in shape for shape in shapes))

    @property
    def context_manager(self) -> ContextManager | None:
        """The context manager, when every variant has it with the same inputs."""
        managers = [variant.context_manager for variant in self.variants]
        first = managers[0]
        if first is None or any(m is None or (m.name, m.acquire.shape) != (first.name, first.acquire.shape)
                                for m in managers):
            return None
        return first

    @property
    def manager_inputs(self) -> tuple[tuple[str, str], ...]:
        manager = self.context_manager
        return self.inputs(manager.acquire) if manager is not None else ()


def enums_module(facade: str) -> str:
    """The private module of a facade's shared enums."""
    return f"_{facade}_enums"


def model_facades(extensions: Iterable[ExtensionModule], config: PackageConfig,
                  ) -> tuple[tuple[ExtensionModule, ...], tuple[Facade, ...]]:
    """Variants of one extension by different vendors, grouped under the module name without the vendor; the
    extensions again, each enum they share marked with the module that declares it."""
    extensions = tuple(extensions)
    groups: dict[str, list[ExtensionModule]] = {}
    for extension in extensions:
        prefix = f"{extension.vendor.lower()}_"
        if extension.module.startswith(prefix):
            groups.setdefault(extension.module[len(prefix):], []).append(extension)
    taken = {e.module for e in extensions}
    preference = {vendor: i for i, vendor in enumerate(config.vendor_preference)}

    def order(e: ExtensionModule) -> tuple[int, str]:
        return preference.get(e.vendor, len(preference)), e.vendor

    facades = [Facade(name, tuple(sorted(variants, key=order))) for name, variants in sorted(groups.items())
               if name not in taken and naming.IDENTIFIER.match(name) and not keyword.iskeyword(name)]
    shared_by: dict[str, dict[str, str]] = {}  # extension module -> class name -> the module declaring it
    for i, facade in enumerate(facades):
        enums = _shared_enums(facade)
        facades[i] = replace(facade, enums=enums)
        for variant in facade.variants:
            shared_by[variant.module] = {enum.class_name: facade.enums_module for enum in enums}
    marked = {e.module: _marked(e, shared_by.get(e.module, {})) for e in extensions}
    facades = [replace(f, variants=tuple(marked[v.module] for v in f.variants)) for f in facades]
    return tuple(marked[e.module] for e in extensions), tuple(facades)


def _shared_enums(facade: Facade) -> tuple[EnumModel, ...]:
    """The enums every variant declares alike (class name, members' names and values), in the first's order,
    each with the variants' descriptions and citations."""
    by_name = [{enum.class_name: enum for enum in variant.enums} for variant in facade.variants]
    shared = []
    for enum in facade.variants[0].enums:
        versions = [enums.get(enum.class_name) for enums in by_name]
        if any(v is None or _members(v) != _members(enum) for v in versions):
            continue
        described = [(variant.extension, version) for variant, version in zip(facade.variants, versions, strict=True)
                     if version is not None]
        doc = "; ".join(f"{extension}: {version.doc}" + (f" [{version.source.cited()}]" if version.source else "")
                        for extension, version in described)
        shared.append(replace(enum, doc=doc, source=None, shared=facade.enums_module))
    return tuple(shared)


def _members(enum: EnumModel) -> tuple[tuple[str, int], ...]:
    return tuple((m.name, m.value) for m in enum.members)


def _marked(extension: ExtensionModule, shared: dict[str, str]) -> ExtensionModule:
    if not shared:
        return extension
    enums = tuple(replace(e, shared=shared[e.class_name]) if e.class_name in shared else e for e in extension.enums)
    return replace(extension, enums=enums)
