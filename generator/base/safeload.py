"""Reading the YAML and JSON files the generator did not write in this run: IR files, `data/`, the previous OUT/ir.

Each is input like a spec, possibly edited by hand or by a hostile contribution,
so each is bounded before it is parsed: its size before it is read, its nesting
while libyaml's parser streams its events (PyYAML's composer recurses, in C for
libyaml, and a few hundred thousand `[` crash the process). The composer here
builds the values from those events with a stack instead, refuses anchors and
aliases (the IR never uses them, and they let a small file expand without bound),
explicit tags, duplicate keys and a second document, and says where each fault
stands. Every failure is an `InputError`, so a command reports it and exits 2.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from generator.base.errors import InputError
from generator.base.source import Pos, position_of

#: The most such a file may hold: 100 times the largest known (an IR of about 60 kB, `data/` of 100 kB).
MAX_BYTES = 8 * 1024 * 1024
#: The deepest nesting of collections: the IR's is 11, `data/`'s 5; well below what Python's recursion
#: limit allows the schema check to walk.
MAX_DEPTH = 64

#: libyaml's parser when PyYAML has it (several times faster), with the safe resolver and constructors.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: Characters YAML does not allow in a stream (it allows a byte-order mark only at the start): the complement of
#: its printable set (tab, line ends, x20-x7E, x85, xA0-uD7FF, uE000-uFFFD, the planes above) written out, which
#: compiles in a tenth of the time the negated set takes (`re` walks each character of a wide range).
_NOT_PRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufeff\ufffe\uffff]")
#: What YAML reads as a line break (libyaml's marks count lines by these).
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
#: A JSON string, or one bracket (the depth check skips what strings hold).
_JSON_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_JSON_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_JSON_PAIR = re.compile(r"\[\]|\{\}")
_JSON_TOKEN = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[\[\]{}]')

#: Where a value stands in a document: its keys and indexes from the top.
Path_ = tuple[str | int, ...]


def read_text(path: Path, shown: str | None = None, limit: int = MAX_BYTES) -> str:
    """A regular file's text as UTF-8 (a leading byte-order mark dropped), refused past `limit` bytes.

    Opened without blocking and checked to be a regular file first, so that a FIFO,
    a device or a folder named like an IR file is an error instead of a hang; opened
    without following a link (O_NOFOLLOW), so that one swapped in for the file cannot
    make an error quote a line of a file outside the inputs.
    """
    shown = str(path) if shown is None else shown
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        why = "a symbolic link, which is not followed" if error.errno == errno.ELOOP and os.path.islink(path) else (
            error.strerror)
        raise InputError(shown, None, f"cannot read this file: {why}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(shown, None, "a folder, not a file" if stat.S_ISDIR(mode) else "not a regular file")
        raw = _read_at_most(descriptor, limit + 1)
    except OSError as error:
        raise InputError(shown, None, f"cannot read this file: {error.strerror}") from None
    finally:
        os.close(descriptor)
    return decode(raw, shown, limit)


def decode(raw: bytes, shown: str, limit: int = MAX_BYTES) -> str:
    """The bytes of a file (`shown`) as UTF-8 text (a leading byte-order mark dropped), refused past `limit`."""
    if len(raw) > limit:
        pos = position_of(raw[:limit].decode("utf-8", "replace"), limit)
        raise InputError(shown, pos, f"the file goes on past {limit / 2**20:g} MiB here, far more than any such file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        pos = position_of(raw[: error.start].decode("utf-8", "replace"), error.start)
        raise InputError(shown, pos, "not UTF-8 text") from None


def _read_at_most(descriptor: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0 and (chunk := os.read(descriptor, size)):
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def load_yaml(path: Path, shown: str | None = None) -> Any:
    """The one YAML document of a file, as plain dicts, lists and scalars."""
    shown = str(path) if shown is None else shown
    return parse_yaml(read_text(path, shown), shown)


def parse_yaml(text: str, shown: str) -> Any:
    return _compose(text, shown, None)


def yaml_marks(text: str, shown: str) -> dict[Path_, Pos]:
    """Where each value of a document (already parsed once) stands: a mapping's value at its key.

    Kept apart from `parse_yaml` so that a document that loads cleanly pays nothing for it.
    """
    marks: dict[Path_, Pos] = {}
    _compose(text, shown, marks)
    return marks


def line_of(text: str, number: int) -> str:
    """Line `number` (1-based) as YAML counts lines, for the excerpt under an error."""
    lines = _BREAK.split(text)
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    return _NOT_PRINTABLE.sub("\ufffd", line)  # shown on a terminal: no escape sequence gets through


def schema_error(shown: str, text: str | None, error: tuple[Path_, str], schema: str) -> InputError:
    """The first error a schema check found in a document, at the line of the offending value of its YAML `text`
    (the file as a whole for JSON, `text` None, whose parser keeps no places)."""
    place, message = error
    pos, line = None, None
    if text is not None:
        marks = yaml_marks(text, shown)
        while place not in marks:  # a key the schema names that the document lacks
            place = place[:-1]
        pos = marks[place]
        line = line_of(text, pos.line)
    where = "/".join(str(step) for step in error[0])
    return InputError(shown, pos, f"breaks {schema} at /{where}: {message}"[:_LONGEST], line)


#: The longest message about a value (schema messages quote the offending key, which may be long).
_LONGEST = 300


class _Frame:
    """A collection being built: the container, and for a mapping the key read but not yet given a value."""

    __slots__ = ("container", "key", "key_pos", "path")

    def __init__(self, container: dict[Any, Any] | list[Any], path: Path_) -> None:
        self.container = container
        self.key: Any = _NO_KEY
        self.key_pos = Pos(1)
        self.path = path


_NO_KEY = object()
#: Makes the error for a fault at an event.
_Fault = Callable[[Any, str], InputError]
_SCALAR_NODE = yaml.ScalarNode


def _compose(text: str, shown: str, marks: dict[Path_, Pos] | None) -> Any:
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        before = _BREAK.split(text[: bad.start()])
        pos = Pos(len(before), len(before[-1]) + 1)
        raise InputError(shown, pos, f"character U+{ord(bad[0]):04X} is not allowed in YAML", line_of(text, pos.line))
    loader = _Loader(text)
    try:
        return _events_to_value(loader, text, shown, marks)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = "; ".join(part for part in (error.problem, error.context) if part) or "not valid YAML"
        if mark is None:
            raise InputError(shown, None, f"not valid YAML: {message}") from None
        pos = _pos(mark)
        raise InputError(shown, pos, f"not valid YAML: {message}", line_of(text, pos.line)) from None
    except yaml.YAMLError as error:
        raise InputError(shown, None, f"not valid YAML: {error}") from None
    finally:
        loader.dispose()


def _pos(mark: Any) -> Pos:
    return Pos(mark.line + 1, mark.column + 1)


def _events_to_value(loader: Any, text: str, shown: str, marks: dict[Path_, Pos] | None) -> Any:
    def fault(event: Any, message: str) -> InputError:
        pos = _pos(event.start_mark)
        return InputError(shown, pos, message, line_of(text, pos.line))

    loader.get_event()  # the stream's start
    if isinstance(loader.peek_event(), yaml.StreamEndEvent):
        raise InputError(shown, Pos(1), "no YAML document in this file")
    loader.get_event()  # the document's start
    stack: list[_Frame] = []
    root: Any = _NO_KEY
    while root is _NO_KEY:
        event = loader.get_event()
        kind = type(event)
        if kind is yaml.AliasEvent:
            raise fault(event, f"an alias (*{event.anchor}): these files use no anchors or aliases")
        if kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            done = stack.pop()
            if done.key is not _NO_KEY:
                raise fault(event, "a key without a value")
            value: Any = done.container
        else:
            if event.anchor is not None:
                raise fault(event, f"an anchor (&{event.anchor}): these files use no anchors or aliases")
            if event.tag is not None and event.tag != _DEFAULT_TAGS.get(kind):
                raise fault(event, f"an explicit tag ({event.tag}): these files use none")
            if kind is yaml.ScalarEvent:
                value = _scalar(loader, event, fault)
            else:
                if len(stack) >= MAX_DEPTH:
                    raise fault(event, f"nested more than {MAX_DEPTH} levels deep, far deeper than any such file")
                container: Any = {} if kind is yaml.MappingStartEvent else []
                path = _child_path(stack, marks, event)
                stack.append(_Frame(container, path))
                continue
        if not stack:
            root = value
            if marks is not None and () not in marks:
                marks[()] = _pos(event.start_mark)
            break
        if marks is not None and kind is yaml.ScalarEvent:
            _child_path(stack, marks, event)
        _attach(stack[-1], value, event, fault)
    loader.get_event()  # the document's end
    following = loader.get_event()
    if not isinstance(following, yaml.StreamEndEvent):
        raise fault(following, "a second YAML document: these files hold one")
    return root


_DEFAULT_TAGS = {yaml.SequenceStartEvent: "tag:yaml.org,2002:seq", yaml.MappingStartEvent: "tag:yaml.org,2002:map"}


def _child_path(stack: list[_Frame], marks: dict[Path_, Pos] | None, event: Any) -> Path_:
    """The path of the value that `event` starts (recorded in `marks` when there are any)."""
    if marks is None:
        return ()
    if not stack:
        marks[()] = _pos(event.start_mark)
        return ()
    parent = stack[-1]
    if isinstance(parent.container, list):
        path = (*parent.path, len(parent.container))
        marks[path] = _pos(event.start_mark)
    elif parent.key is _NO_KEY:  # a key, not a value: it has no path of its own
        return parent.path
    else:
        path = (*parent.path, parent.key)
        marks[path] = parent.key_pos
    return path


def _scalar(loader: Any, event: Any, fault: _Fault) -> Any:
    tag = loader.resolve(_SCALAR_NODE, event.value, event.implicit)
    construct = loader.yaml_constructors.get(tag)
    if construct is None:
        raise fault(event, f"cannot read {event.value!r} here (YAML reads it as {tag})")
    try:
        return construct(loader, _SCALAR_NODE(tag, event.value, event.start_mark, event.end_mark, event.style))
    except (yaml.YAMLError, ValueError, OverflowError) as error:
        raise fault(event, f"cannot read {event.value[:40]!r}: {_reason(error)}") from None


def _reason(error: Exception) -> str:
    """An exception's message without the advice for programmers after its first clause."""
    return str(error).split(";")[0]


def _attach(frame: _Frame, value: Any, event: Any, fault: _Fault) -> None:
    container = frame.container
    if isinstance(container, list):
        container.append(value)
    elif frame.key is not _NO_KEY:
        container[frame.key] = value
        frame.key = _NO_KEY
    else:
        if not isinstance(value, str):
            what = "a collection" if isinstance(value, (dict, list)) else f"{value!r}"
            raise fault(event, f"{what} as a key: keys here are text (quote it)")
        if value in container:
            raise fault(event, f"the key {value!r} again: each key may stand once in a mapping")
        frame.key = value
        frame.key_pos = _pos(event.start_mark)


def load_json(path: Path, shown: str | None = None) -> Any:
    """The JSON value of a file, nesting and duplicate keys checked; `NaN` and `Infinity` refused."""
    shown = str(path) if shown is None else shown
    text = read_text(path, shown)
    _check_json_depth(text, shown)
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        pos = Pos(error.lineno, error.colno)
        raise InputError(shown, pos, f"not valid JSON: {error.msg}", line_of(text, pos.line)) from None
    except ValueError as error:  # a key twice, a constant, a number too long to read
        raise InputError(shown, None, f"not valid JSON here: {_reason(error)}") from None


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(key for index, (key, _) in enumerate(pairs) if key in dict(pairs[:index]))
        raise ValueError(f"the key {twice!r} stands twice in one object")
    return found


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _check_json_depth(text: str, shown: str) -> None:
    """Refuse nesting past MAX_DEPTH before `json` recurses into it: pairs of brackets are taken out level by level."""
    outside = "".join(text.split('"')[0::2]) if '\\"' not in text else _JSON_STRING.sub("", text)
    brackets = _JSON_NOT_BRACKET.sub("", outside)
    for _ in range(MAX_DEPTH):
        brackets, count = _JSON_PAIR.subn("", brackets)
        if not brackets:
            return
        if not count:
            break  # unbalanced: `json` says where, once the depth is known to be within the bound
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        depth += _JSON_STEP.get(match[0], 0)
        if depth > MAX_DEPTH:
            pos = position_of(text, match.start())
            message = f"nested more than {MAX_DEPTH} levels deep, far deeper than any such file"
            raise InputError(shown, pos, message, line_of(text, pos.line))


_JSON_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
