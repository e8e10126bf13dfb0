"""Stage 5: the prose against the registry XML, for errata neither finds alone.

Khronos makes the C headers from the registry and never reads the prose; the prose holds what the registry
does not (error conditions). Where both speak of one thing they should agree: each prototype (return type,
parameters' types and names), each token (the registry has it, under the extension, with the same value),
and each function or token the registry's extension requires should be one the texts introduce. Every
difference is a warning at the prose, citing the registry's line.
Whatever the registry gave because a text left it out (`prototype_source`, `value_source`) is not compared
with itself.

A name the registry defines twice (`duplicates`) is read as its first definition; two unlike definitions are an
input error where the run uses the name (which one the IR should hold, nothing tells), a warning where it does
not, and two alike a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import get_close_matches

from generator.base.c_decl import CFunction
from generator.base.diagnostics import ALIKE, Location, Sink
from generator.base.errors import Gather, InputError
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.source import Pos
from generator.extraction.facts import SourceFacts, primary_first, primary_source
from generator.frontends.registry_index import Rope
from generator.frontends.registry_xml import Registry, RegistryExtension
from generator.ir.model import Extension, Function, Token
from generator.merging.merge_tokens import spellings

_NAME = re.compile("[^\0]+")


def check(extensions: list[Extension], facts: list[SourceFacts], registry: Registry, knowledge: Knowledge,
          sink: Sink) -> None:
    for extension in extensions:
        sources = [f for f in facts if f.extension == extension.name]
        primary = primary_source(sources)
        anchor = primary.extension_where or Location(primary.path, Pos(1, 1))
        _Checker(extension, registry, knowledge, sink, anchor, spellings(sorted(sources, key=primary_first))).run()


_WHAT = {"enum": "the value of", "command": "the prototype of", "type": "the definition of type",
         "extension": "the names required by extension"}


def duplicates(extensions: list[Extension], registry: Registry, sink: Sink) -> None:
    """Report the names the registry XML defines twice (see the module's docstring); raise for those in use. Each
    kind of finding is listed `ALIKE` times, then counted: a hostile registry may define a great many twice."""
    used = {e.name for e in extensions}
    for extension in extensions:
        used.update(t.name for t in extension.tokens)
        used.update(f.name for f in extension.functions)
        used.update(t.name for t in extension.types)
    entries = [entry for e in extensions if (entry := registry.extensions.get(e.name)) is not None]
    errors = Gather()
    counted = {"error": 0, "warning": 0, "note": 0}
    for twice in registry.duplicates():
        what = f"{_WHAT[twice.kind]} {twice.name}"
        said = f"`{twice.shown(1)}` here but `{twice.shown(0)}` at {twice.first.precise()}"
        in_use = twice.name in used or any(entry.requires(twice.name) for entry in entries)
        severity = "note" if not twice.conflicting else "error" if in_use else "warning"
        counted[severity] += 1
        if counted[severity] > ALIKE:
            continue
        if severity == "note":
            sink.note(twice.second, Kind.REGISTRY_DUPLICATE,
                      f"{what} is given again here, as at {twice.first.precise()}", related=(twice.first,))
        elif severity == "error":
            errors.add(registry.spec.error(twice.second.pos, f"the registry XML gives {what} twice: {said}; which "
                                           "one the IR should hold, nothing tells"))
        else:
            sink.warning(twice.second, Kind.REGISTRY_DEFINED_TWICE, f"the registry XML gives {what} twice: {said}; no "
                         "extension generated here uses it (the first would be read)", related=(twice.first,))
    anchor = Location(registry.path, Pos(1, 1))
    if counted["note"] > ALIKE:
        sink.note(anchor, Kind.REGISTRY_DUPLICATE, f"the registry XML gives {counted['note'] - ALIKE} more names again "
                  "as before, not listed one by one")
    if counted["warning"] > ALIKE:
        sink.warning(anchor, Kind.REGISTRY_DEFINED_TWICE, f"the registry XML gives {counted['warning'] - ALIKE} more "
                     "names no extension generated here uses two unlike definitions, not listed one by one")
    if counted["error"] > ALIKE:
        errors.add(registry.spec.error(Pos(1, 1), f"the registry XML gives {counted['error'] - ALIKE} more names "
                                       "this run uses two unlike definitions, not listed one by one"))
    errors.check()


class _Checker:
    def __init__(self, extension: Extension, registry: Registry, knowledge: Knowledge, sink: Sink,
                 anchor: Location, spelled: dict[str, str]) -> None:
        self.extension = extension
        self.spelled = spelled  # each token's value as its text spells it (`merge_tokens.spellings`)
        self.registry = registry
        self.knowledge = knowledge
        self.sink = sink
        self.anchor = anchor  # where the text names its extension: findings about the whole extension go there
        self.entry: RegistryExtension | None = registry.extensions.get(extension.name)
        self.suggested: set[str] = set()  # registry names offered for a misspelt token: not reported again
        self._unclaimed: str | None = None

    def warn(self, where: Location, kind: Kind, message: str, related: Location | None = None) -> None:
        self.sink.warning(where, kind, message, extension=self.extension.name,
                          related=(related or Location(self.registry.path, Pos(1, 1)),))

    def run(self) -> None:
        if self.entry is None:
            message = (f"the registry XML has no extension {self.extension.name}: only the names it has are compared "
                       "with it")
            if self.registry.shipped is None:
                self.warn(self.anchor, Kind.REGISTRY_NO_EXTENSION, message)
            else:  # not the user's registry: a text may well be of an extension it never listed
                self.sink.note(self.anchor, Kind.REGISTRY_NO_EXTENSION, f"{message} (it is the project's copy, "
                               f"{self.registry.shipped})", extension=self.extension.name,
                               related=(Location(self.registry.path, Pos(1, 1)),))
        for function in self.extension.functions:
            if not function.foreign and function.return_type is not None and function.prototype_source is None:
                self.function(function)
        for token in self.extension.tokens:
            self.token(token.name, token.source)
            self.value(token)
        self.extras()

    def function(self, function: Function) -> None:
        command = self.registry.commands.get(function.name)
        if command is None:
            if self.entry is None:
                return  # said once for the extension
            self.warn(function.source, Kind.REGISTRY_MISSING, f"{function.name} is declared here, but the registry XML "
                      "has no such command")
            return
        try:
            theirs = self.registry.prototype(function.name)
        except InputError as error:
            self.warn(command.where, Kind.REGISTRY_UNREADABLE, f"{error.message}; {function.name} is not compared",
                      function.source)
            return
        if theirs is not None:
            self.prototype(function, theirs, command.where)
        if self.entry is not None and not self.entry.requires(function.name):
            self.elsewhere(function.name, "command", function.source, command.where)

    def prototype(self, function: Function, theirs: CFunction, where: Location) -> None:
        def differs(what: str, here: str, there: str) -> None:
            self.warn(function.source, Kind.REGISTRY_PROTOTYPE, f"{function.name}: {what} is `{here}` here but "
                      f"`{there}` in the registry XML", where)

        if function.return_type != theirs.return_type:
            differs("the return type", str(function.return_type), theirs.return_type)
        if len(function.params) != len(theirs.params):
            differs("the number of parameters", str(len(function.params)), str(len(theirs.params)))
            return
        for index, (ours, other) in enumerate(zip(function.params, theirs.params, strict=True), start=1):
            if ours.type != other.type:
                differs(f"the type of parameter {index} ({ours.name})", ours.type, other.type)
            if other.name and ours.name != other.name:
                differs(f"the name of parameter {index}", ours.name, other.name)

    def token(self, name: str, where: Location) -> None:
        if name not in self.registry.enums:
            if self.entry is None:
                return  # said once for the extension
            meant = get_close_matches(name, self.unclaimed(), 1, 0.85)
            self.suggested.update(meant)
            self.warn(where, Kind.REGISTRY_MISSING, f"{name} is defined here, but the registry XML has no such enum"
                      + (f"; it has {meant[0]}, which no text here defines" if meant else ""),
                      self.registry.enums[meant[0]].where if meant and meant[0] in self.registry.enums else None)
        elif self.entry is not None and not self.entry.requires(name):
            self.elsewhere(name, "enum", where, self.registry.enums[name].where)

    def unclaimed(self) -> Iterator[str]:
        """What the registry's extension requires that is no command and no token of the texts: the names a
        misspelt token may have meant. Read once, and kept as one string of the names between NULs, which no XML
        holds (an extension may require hundreds of thousands of names: as strings, 60 bytes each)."""
        if self._unclaimed is None:
            names = Rope()
            for required in self.entry.required if self.entry else ():
                if required.name not in self.registry.commands and self.extension.token(required.name) is None:
                    names.add(f"{required.name}\0")
            self._unclaimed = str(names)
        return (found[0] for found in _NAME.finditer(self._unclaimed))

    def value(self, token: Token) -> None:
        """The text's value against the registry's; one the text left out is the registry's already."""
        registered = self.registry.enums.get(token.name)
        if registered is None or token.value_source is not None:
            return
        if registered.value is None:
            self.sink.note(token.source, Kind.REGISTRY_UNVALUED, f"the registry's value of {token.name} is "
                           f"`{registered.literal}`, no integer constant: " + ("it is not compared" if token.value
                           is not None else "the token stays without a value"), extension=self.extension.name,
                           related=(registered.where,))
        elif token.value is not None and token.value != registered.value:
            self.warn(token.source, Kind.REGISTRY_CONFLICT, f"{token.name} is {self.spelled.get(token.name, '')} "
                      f"here but {registered.literal} in the registry at {registered.where.precise()}; the text's "
                      "value is used", registered.where)

    def elsewhere(self, name: str, kind: str, where: Location, registered: Location) -> None:
        """A name the registry has, but not under this extension: under another (a note: texts often introduce
        what a layered extension adds), or under none (a warning)."""
        others = [e.name for e in self.registry.requiring(name)]
        message = f"{name} is not among the {kind}s the registry's {self.extension.name} requires"
        if others:
            self.sink.note(where, Kind.REGISTRY_ELSEWHERE, f"{message}; it is required by {', '.join(others)}",
                           extension=self.extension.name, related=(registered,))
        else:
            self.warn(where, Kind.REGISTRY_MISSING, f"{message}, nor by any other extension", registered)

    def extras(self) -> None:
        """What the registry's extension requires and no text introduces (core names aside): each of the first
        `ALIKE` of a kind, then how many more (a registry may have its extension require thousands)."""
        if self.entry is None:
            return
        more = {"command": 0, "enum": 0}
        for required in self.entry.required:
            if required.kind == "command" and self.extension.function(required.name) is None \
                    and required.name not in self.knowledge.core_functions:
                what = f"the command {required.name}, which no text here declares"
            elif required.kind == "enum" and self.extension.token(required.name) is None \
                    and required.name not in self.knowledge.core_constants and required.name not in self.suggested:
                what = f"the enum {required.name}, which no text here defines"
            else:
                continue
            more[required.kind] += 1
            if more[required.kind] <= ALIKE:
                self.warn(self.anchor, Kind.REGISTRY_EXTRA, f"the registry's {self.extension.name} requires {what}",
                          required.where)
        for kind, count in more.items():
            if count > ALIKE:
                self.warn(self.anchor, Kind.REGISTRY_EXTRA, f"the registry's {self.extension.name} requires "
                          f"{count - ALIKE} more {kind}s that no text here introduces, not listed one by one")
