"""Types a text uses but never defines: what it says of them instead, each reading with a warning that says
from what.

C needs every type the generated declarations name. A text may leave one undefined and still say what it is:

- a token group is passed in it: an OpenCL enumeration (`enum_base_type` of `data/conventions.yaml`);
- a parameter's description says a value of a known type is cast into it ("_display_ should be of type
  EGLDisplay, cast into the type CLeglDisplayKHR"): that type, from `data/platform_types.json` or core OpenCL;
- it is only ever passed behind a pointer: C needs no more than its name (an opaque struct).

Anything else stays undefined, and the C declarations' check (`cdef_checks`) refuses it, naming the type and
the data file where knowledge of it would go.
"""

from __future__ import annotations

import re

from generator.base.diagnostics import Location, Sink
from generator.base.kinds import Kind
from generator.base.knowledge import Knowledge
from generator.base.type_spelling import base_type
from generator.ir.model import Extension, TypeInfo

#: "of type EGLDisplay, cast into the type CLeglDisplayKHR" (words, never runs of one class side by side).
_CAST = re.compile(r"\btype ([A-Za-z_]\w*),? (?:cast|converted) (?:in)?to (?:the )?(?:type )?([A-Za-z_]\w*)")


def undefined(extension: Extension, name: str, where: Location, knowledge: Knowledge, sink: Sink,
              by_value: bool) -> list[TypeInfo]:
    """What `name`, used at `where` and never defined, is taken to be: its TypeInfo, after the known type it is
    made of when that needs declaring too."""
    groups = [g.name for g in extension.token_groups if g.c_type and base_type(g.c_type) == name]
    if groups:
        sink.warning(where, Kind.UNDEFINED_TYPE,
                     f"type {name} is used but never defined in the text; taken as {knowledge.enum_base_type} "
                     f"(OpenCL's type for enumerations) because it carries the tokens of group {groups[0]}",
                     extension=extension.name)
        return [TypeInfo(name, "enum", knowledge.enum_base_type, where, defined=False)]
    cast = _cast_from(extension, name, knowledge)
    if cast is not None:
        known, param, said = cast
        platform = knowledge.platforms.get(known)
        origin = f"{platform}'s, data/platform_types.json" if platform else "core OpenCL's"
        sink.warning(where, Kind.UNDEFINED_TYPE,
                     f"type {name} is used but never defined in the text; taken as {known} ({origin}) because "
                     f"the description of parameter {param!r} says a value of type {known} is cast into it",
                     extension=extension.name, related=(said,))
        made_of = [TypeInfo(known, "platform", knowledge.platform_types[known], where)] if platform else []
        return [*made_of, TypeInfo(name, "typedef", known, where, defined=False)]
    if not by_value:
        sink.warning(where, Kind.UNDEFINED_TYPE,
                     f"type {name} is used but never defined in the text; taken as an opaque type (`typedef struct "
                     f"{name} {name};`) because the text passes only pointers to it", extension=extension.name)
        return [TypeInfo(name, "opaque", None, where, defined=False)]
    sink.warning(where, Kind.UNDEFINED_TYPE, f"type {name} is used but never defined in the text",
                 extension=extension.name)
    return [TypeInfo(name, "typedef", None, where, defined=False)]


def _cast_from(extension: Extension, name: str, knowledge: Knowledge) -> tuple[str, str, Location] | None:
    """(the known type, the parameter, where it is said) of the first parameter description saying its value
    is cast into `name`. Only a type C can be given (a platform typedef or a core type) is taken."""
    for function in extension.functions:
        for param in function.params:
            if not param.description or base_type(param.type) != name:
                continue
            for match in _CAST.finditer(param.description):
                known, into = match.groups()
                usable = known in knowledge.platform_types or known in knowledge.core_types
                if into == name and usable and param.description_source is not None:
                    return known, param.name, param.description_source
    return None
