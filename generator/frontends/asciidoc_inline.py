"""AsciiDoc inline markup to plain text: attribute references, cross-references, index terms, quotes.

The current Khronos sources write almost every name as an attribute reference that their build resolves
(`{clFoo}`, `{CL_X}`, `{cl_foo_TYPE}`); the build's attribute files are not part of a spec text, so a reference
the text does not define itself (`:name: value`) stands for the name inside it. Parameters (`_name_`) become
`<name>`, the registry style every front-end writes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType

from generator.base.records import mutable
from generator.frontends.common import collapse

#: The character attributes every AsciiDoc processor defines (Asciidoctor's "character replacement
#: attributes"): markup of the language, not names of a spec. `{zwsp}` splits long names in tables.
BUILT_IN: Mapping[str, str] = MappingProxyType({
    "blank": "", "empty": "", "sp": " ", "nbsp": " ", "zwsp": "", "wj": "", "apos": "'", "quot": '"',
    "lsquo": "\u2018", "rsquo": "\u2019", "ldquo": "\u201c", "rdquo": "\u201d", "deg": "\u00b0", "plus": "+",
    "brvbar": "\u00a6", "vbar": "|", "amp": "&", "lt": "<", "gt": ">", "startsb": "[", "endsb": "]",
    "caret": "^", "asterisk": "*", "tilde": "~", "backslash": "\\", "backtick": "`", "two-colons": "::",
    "two-semicolons": ";;", "cpp": "C++", "pp": "++",
})
#: What references may add to a text, all told: as much as the largest spec holds. References to attributes
#: whose values are references again would otherwise grow a text exponentially.
MAX_GROWTH = 8 * 1024 * 1024


class ExpansionError(Exception):
    """The references of a text have added more than `MAX_GROWTH` characters to it."""


@mutable
class Attributes:
    """The attributes a text has defined so far, and how much more their references may add to it."""

    values: dict[str, str] = field(default_factory=dict)
    budget: int = MAX_GROWTH


#: `{name}`: a name holds no brace, so a reference is found in one pass whatever the line.
_REFERENCE = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*+)\}")
#: The Khronos build's attribute for a type's link: `{cl_foo_TYPE}` is the type `cl_foo` (a type's name is
#: not all capitals, a constant's is).
_TYPE_SUFFIX = "_TYPE"
#: The build's attribute that places a constant's anchor where it is defined: `{CL_X_anchor}` is `CL_X`.
_ANCHOR_SUFFIX = "_anchor"
#: `:name: value`, `:name!:` (unset), as an attribute entry line holds them.
_ENTRY = re.compile(r"^:(?P<name>[A-Za-z0-9_][A-Za-z0-9_-]*+)(?P<unset>!?):(?:[ \t]++(?P<value>.*))?$")
#: An inline passthrough as a whole value (`pass:[ +]`): its text, as it is.
_PASSTHROUGH = re.compile(r"^pass:[a-z,]*+\[(?P<text>.*)\]$")

#: A hard line break (` +` ending a line); one right after a `_` splits a name over two lines (table cells).
_SPLIT_NAME = re.compile(r"_ \+[ \t]*+\n[ \t]*+(?=\w)")
_LINE_BREAK = re.compile(r" \+[ \t]*+(?:\n|$)")

#: An anchor inside a line (`[[id]]text`): it marks a place, it says nothing.
_INLINE_ANCHOR = re.compile(r"\[\[[^\[\]\n]*+\]\]")

_INDEX_TERM = "indexterm:["
#: `_name_`, also with an element: `_name[0]_` is `<name>[0]`.
_PARAMETER = re.compile(r"(?<![\w<])__?([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)(\[\w*\])?__?(?![\w])")
#: `_a phrase_`; words after the first may hold `_` (`_the param_names of clFoo_`), the first may not (`_cl_x
#: is ... _a phrase_` is a name, then a phrase). At most 256 characters: a line of many `_` that open nothing
#: is read in linear time.
_EMPHASIS = re.compile(r"(?<![\w<])_([^_\s]++(?:\s[\s\S]{0,256}?[^\s_])?)_(?![\w])")
#: `+text+`, the literal monospace of the AsciiDoc of 2017 (`+CL_INVALID_VALUE+`, `+cl_khr_fp16+`): the text.
_MONOSPACE = re.compile(r"(?<![\w+])\+([^+\s](?:[^+]{0,256}?[^+\s])?)\+(?![\w+])")
#: `**bold**` anywhere, even inside a word (unconstrained); the text between holds no `*`.
_UNCONSTRAINED_STRONG = re.compile(r"\*\*([^*]++)\*\*")
_STRONG = re.compile(r"(?<![\w*])\*([^*\s](?:[^*]*[^*\s])?)\*(?![\w*])")


def attribute_entry(line: str, attributes: Attributes) -> None:
    """Define (or unset) the attribute of an entry line in `attributes`; its value's references resolve now,
    as the AsciiDoc processor resolves them where the entry stands."""
    match = _ENTRY.match(line.strip())
    if match is None:
        return
    name = match["name"]
    if match["unset"]:
        attributes.values.pop(name, None)
        return
    value = resolve(match["value"] or "", attributes)
    passthrough = _PASSTHROUGH.match(value)
    attributes.values[name] = passthrough["text"] if passthrough else value


def resolve(text: str, attributes: Attributes | None = None) -> str:
    """Each `{name}`: the text's own definition, else a built-in character, else the name inside; an
    `ExpansionError` once the references have added more to the text than its budget."""
    if "{" not in text:
        return text

    def value(match: re.Match[str]) -> str:
        if attributes is None:
            return value_of(match[1], {})
        found = value_of(match[1], attributes.values)
        attributes.budget -= max(0, len(found) - len(match[0]))
        if attributes.budget < 0:
            raise ExpansionError(f"the attribute references of this text add more than {MAX_GROWTH} characters "
                                 "to it")
        return found

    return _REFERENCE.sub(value, text)


def value_of(name: str, attributes: Mapping[str, str]) -> str:
    if name in attributes:
        return attributes[name]
    if name in BUILT_IN:
        return BUILT_IN[name]
    typed = name[: -len(_TYPE_SUFFIX)]
    if name.endswith(_TYPE_SUFFIX) and typed and not typed.isupper():  # `{CL_EVENT_COMMAND_TYPE}` is a constant
        return typed
    return name.removesuffix(_ANCHOR_SUFFIX) or name


def inline(text: str, attributes: Attributes | None = None) -> str:
    """Plain text from AsciiDoc inline markup; parameters (`_name_`) become `<name>`."""
    text = resolve(text, attributes)
    if "+" in text:
        text = _MONOSPACE.sub(r"\1", _LINE_BREAK.sub(" ", _SPLIT_NAME.sub("_", text)))
    text = without_index_terms(_INLINE_ANCHOR.sub("", text) if "[[" in text else text)
    text = resolve_references(text)
    text = text.replace('"`', '"').replace('`"', '"').replace("`", "")
    text = _PARAMETER.sub(lambda m: f"<{m[1]}>{m[2] or ''}", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = _STRONG.sub(r"\1", _UNCONSTRAINED_STRONG.sub(r"\1", text))
    return collapse(text)


def without_index_terms(text: str) -> str:
    """`indexterm:[...]` removed up to its first `]`; one left open stays, as does all that follows.

    Found with `str.find` rather than a pattern: a pattern tried at each of many open terms would look for
    the `]` from each of them.
    """
    out: list[str] = []
    done = 0
    at = text.find(_INDEX_TERM)
    while at != -1:
        close = text.find("]", at + len(_INDEX_TERM))
        if close == -1:
            break
        out.append(text[done:at])
        done = close + 1
        at = text.find(_INDEX_TERM, done)
    out.append(text[done:])
    return "".join(out)


def resolve_references(text: str) -> str:
    """`<<id,label>>` becomes its label and `<<id>>` its id, in one pass.

    A reference runs from `<<` to the first `>` after it, which must be doubled; a comma before that `>`
    starts the label. The next comma and the next `>` are remembered between the `<<`s, so that many open
    `<<` cost one look each instead of a scan to the next `>` from every one of them.
    """
    out: list[str] = []
    done = 0
    comma = close = -1
    at = text.find("<<")
    while at != -1:
        if close < at + 2:
            close = text.find(">", at + 2)
            if close == -1:
                break
        if comma < at + 2:
            comma = text.find(",", at + 2)
            comma = len(text) if comma == -1 else comma
        if text.startswith(">>", close):
            out += [text[done:at], text[comma + 1 : close] if comma < close else text[at + 2 : close]]
            done = close + 2
            at = text.find("<<", done)
        else:
            at = text.find("<<", at + 1)
    out.append(text[done:])
    return "".join(out)
