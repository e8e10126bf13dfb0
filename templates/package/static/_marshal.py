"""Python values to C arguments, with errors that name the parameter.

Handles and pointers take `None` (NULL), a cffi pointer, an int address, an
object with an `int_ptr` (PyOpenCL), a ctypes pointer or an object with ctypes'
`_as_parameter_` (COM objects from comtypes); `const T *` arrays also take a sequence;
integers take an `int` in the C type's range.

The wrappers convert the common exact cases inline (a cffi handle or pointer of the
parameter's own type, an int in range, None for a pointer, a list of cffi handles of
the element type) and call these functions for everything else: for a value both
accept, both give the same C value.

A PyOpenCL object of the wrong class for the handle type is a TypeError, one whose OpenCL
object was released a ValueError (`_liveness.live`). An address given as a number (an
int, another class's `int_ptr`, a ctypes pointer) is proved first (`_proved`): a live
OpenCL object where a handle belongs, every page readable (`access="in"`) or writable
(`"out"`) where C reads or writes. cffi pointers are trusted as in C, but a cffi array,
or the one item `ffi.new("T *")` makes, must hold what C reads or writes there.

The caller's objects are asked only through hooks guarded here (`__index__`,
`int_ptr`, `_as_parameter_`, iteration, `repr`): whatever such a hook raises, or
however deep it recurses, comes out as the TypeError naming the parameter, with the
hook's exception as its cause. Types are compared with `issubclass(type(x), ...)`,
never `isinstance`, which would ask an object's own `__class__` (nor a set of types,
which would ask a metaclass to hash); an `int` subclass is read as the int it is
(`int.__index__`), so its own comparisons are never asked.

Copied by the generator as it is (it needs nothing from the specs); do not edit.
"""

from __future__ import annotations

import ctypes
import operator
from collections.abc import Sequence
from functools import cache
from itertools import islice
from typing import Any, Protocol, TypeAlias

from . import _library, _lifetime, _liveness, _memory
from ._core_ffi import ffi as _core_ffi
from .errors import _kind as kind


class CData(Protocol):
    """A cffi object (a handle, pointer or array), as a type checker sees it: what the package returns and takes
    back. cffi's objects have these methods and no str, number, list or PyOpenCL object has all of them, so a
    string or a float given for a handle is an error to mypy and pyright, with or without cffi's stubs."""

    def __enter__(self) -> Any: ...

    def __float__(self) -> float: ...

    def __getitem__(self, index: Any, /) -> Any: ...

    def __setitem__(self, index: Any, value: Any, /) -> None: ...

    def __call__(self, *args: Any) -> Any: ...


class HasIntPtr(Protocol):
    """What PyOpenCL objects offer: the address of the C handle."""

    @property
    def int_ptr(self) -> int: ...


class HasAsParameter(Protocol):
    """What ctypes passes as a pointer (comtypes' COM objects among them): the object's `_as_parameter_`."""

    @property
    def _as_parameter_(self) -> Any: ...


#: ctypes pointers (comtypes' COM interface pointers are ctypes pointers too).
_CTYPES_POINTERS = (ctypes.c_void_p, ctypes._Pointer)

#: What a handle or pointer parameter accepts.
Pointer: TypeAlias = "CData | int | HasIntPtr | HasAsParameter | ctypes.c_void_p | ctypes._Pointer[Any] | None"
#: What a `const T *` parameter accepts.
Array: TypeAlias = "CData | int | Sequence[Pointer] | None"


#: cffi's class of the memory `ffi.new` owns: a pointer of it points to exactly one item.
_OWNED = type(_core_ffi.new("char *"))
#: How deep `_as_parameter_` may lead to another object with one.
_NESTING = 16
_ABSENT = object()


@cache
def limits(ffi: Any, c_type: str) -> tuple[int, int]:
    """The lowest and highest value of the C integer type `c_type`."""
    bits = 8 * ffi.sizeof(c_type)
    if int(ffi.cast(c_type, -1)) < 0:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def _where(function: str, param: str) -> str:
    return f"{function}() argument {param!r}"


def _cause(error: BaseException) -> str:
    """`Kind: message` of an exception a caller's object raised, whatever its `__str__` does."""
    try:
        message = str.__str__(str(error))
    except Exception:
        message = "(its message cannot be shown)"
    text = f"{kind(error)}: {message}" if message else kind(error)
    return text if len(text) <= 200 else text[:197] + "..."


def _number(value: int) -> str:
    """An int for a message (one too long to print in decimal is described)."""
    return str(value) if value.bit_length() <= 256 else f"a {value.bit_length()}-bit integer"


def attribute(value: object, name: str, param: str, function: str) -> Any:
    """`value.<name>`, or `_ABSENT`; whatever else asking raises is the parameter's TypeError."""
    try:
        return getattr(value, name)
    except AttributeError:
        return _ABSENT
    except Exception as error:
        raise TypeError(f"{_where(function, param)} is a {kind(value)} whose {name} raised {_cause(error)}") from error


#: The most items read from a sequence that is not a list or tuple (whose items exist already), or proved at an
#: address given as a number: a lazy sequence (a `range`, a class that makes its items when asked) may say or yield
#: any number, and a count any extent, and reading or proving them took memory and time without bound (each page
#: C writes is written to prove it: 2**32 - 1 devices at a large mapping committed every page of it).
MOST_ITEMS = 1 << 20


def _items(value: Any, param: str, function: str) -> list[Any]:
    """A sequence's items as a plain list. A list or tuple is read whole; any other sequence (a subclass too: its
    `__iter__` and `__len__` are its own hooks) only as far as its `len()` says, which may not pass `MOST_ITEMS`:
    one that yields more than it says (a `__getitem__` that never raises IndexError) is refused, not read for
    ever."""
    try:
        if type(value) is list or type(value) is tuple:
            return list(value)
        length = len(value)
        if length <= MOST_ITEMS:
            items = list(islice(iter(value), length + 1))
    except Exception as error:
        raise TypeError(f"{_where(function, param)} is a {kind(value)} whose items cannot be read "
                        f"({_cause(error)})") from error
    if length > MOST_ITEMS:
        raise ValueError(f"{_where(function, param)} is a {kind(value)} of {_number(length)} items, more than the "
                         f"{MOST_ITEMS} read from a sequence that is not a list or tuple")
    if len(items) > length:
        raise ValueError(f"{_where(function, param)} is a {kind(value)} that yields more items than its len() says "
                         f"({length})")
    return items


def _is_sequence(value: object) -> bool:
    try:
        return issubclass(type(value), Sequence)
    except Exception:
        return False


def snapshot(value: Any, param: str, function: str) -> Any:
    """A sequence's items as they are now (a tuple), for a call that must use them again later whatever the
    caller does to the sequence meanwhile; anything else as it is (the call it goes to judges it)."""
    if value is None or issubclass(type(value), (str, bytes)) or issubclass(type(value), _core_ffi.CData):
        return value
    if issubclass(type(value), (list, tuple)) or _is_sequence(value):
        return tuple(_items(value, param, function))
    return value


def flag(value: object, param: str, function: str) -> bool:
    """A yes/no keyword: its truth, asked once, before anything is done."""
    try:
        return bool(value)
    except Exception as error:
        raise TypeError(f"{_where(function, param)} is a {kind(value)} whose truth cannot be told "
                        f"({_cause(error)})") from error


def integer(ffi: Any, value: Any, c_type: str, param: str, function: str) -> int:
    """An integer argument: an int (or anything with `__index__`) in the C type's range, as an exact int."""
    if type(value) is bool:
        raise TypeError(f"{_where(function, param)} must be an int ({c_type}), not bool")
    if not issubclass(type(value), int):
        try:
            value = operator.index(value)  # IntEnum, numpy integers
        except TypeError as error:
            raise TypeError(f"{_where(function, param)} must be an int ({c_type}), not {kind(value)}") from error
        except Exception as error:
            raise TypeError(f"{_where(function, param)} is a {kind(value)} whose __index__ raised "
                            f"{_cause(error)}") from error
    number = int.__index__(value)
    low, high = limits(ffi, c_type)
    if not low <= number <= high:
        raise ValueError(f"{_where(function, param)} = {_number(number)} is out of range for {c_type} ({low}..{high})")
    return number


def context_properties(given: Any, own: dict[int, str], function: str) -> list[int]:
    """A context constructor's `properties=` as (name, value) pairs of the C list: a mapping of the core
    properties `_library.CONTEXT_PROPERTIES` names to values of their types. The extension's own properties
    (`own`: value -> keyword) are the constructor's keywords, and the platform its own: neither is taken here."""
    if given is None:
        return []
    try:
        pairs = list(dict(given).items())  # a mapping, or pairs; read once, whatever its hooks do
    except Exception as error:
        raise TypeError(f"{_where(function, 'properties')} must map context properties to values, not "
                        f"{kind(given)}") from error
    listed: list[int] = []
    for key, value in pairs:
        name = integer(_core_ffi, key, "intptr_t", "properties", function)
        where = f"properties[{_number(name)}]"
        if name in own:
            raise ValueError(f"{_where(function, where)}: give it as {function}({own[name]}=...)")
        if name == _library.CONTEXT_PLATFORM:
            raise ValueError(f"{_where(function, where)}: the platform is the devices' own, which {function}() "
                             "gives")
        if name not in _library.CONTEXT_PROPERTIES:
            known = ", ".join(f"{c_name} ({number})" for number, (c_name, *_) in _library.CONTEXT_PROPERTIES.items())
            raise ValueError(f"{_where(function, where)}: {_number(name)} is no context property {function}() "
                             f"takes; it takes {known or 'none'} besides its keywords")
        c_name, value_kind, low, high = _library.CONTEXT_PROPERTIES[name]
        if value_kind == "bool" and type(value) is not bool:
            raise TypeError(f"{_where(function, where)} ({c_name}) must be a bool, not {kind(value)}")
        number = int(value) if type(value) is bool else integer(_core_ffi, value, "intptr_t", where, function)
        if not low <= number <= high:
            raise ValueError(f"{_where(function, where)} ({c_name}) = {_number(number)} is out of range "
                             f"({low}..{high})")
        listed += [name, number]
    return listed


@cache
def _size(ffi: Any, c_type: str) -> int:
    return int(ffi.sizeof(c_type))


def _address(ffi: Any, value: int, param: str, function: str) -> int:
    value = int.__index__(value)
    low, high = limits(ffi, "uintptr_t")
    if not low <= value <= high:
        raise ValueError(f"{_where(function, param)} = {_number(value)} is not an address")
    return value


def _object_address(
    ffi: Any, value: object, int_ptr: object, c_type: str, param: str, function: str,
) -> tuple[int, bool]:
    """The address of a PyOpenCL(-like) object's handle, and whether its kind is vouched for (PyOpenCL's own class
    for `c_type`, checked, and found live here); the caller proves the other addresses."""
    name = kind(value)
    try:
        where = operator.index(int_ptr)  # type: ignore[arg-type]
    except Exception as error:  # PyOpenCL raises its own errors from int_ptr; a look-alike may give anything
        raise TypeError(f"{_where(function, param)} is a {name} whose int_ptr is not an address "
                        f"({_cause(error)})") from error
    where = _address(ffi, where, param, function)
    if c_type not in _lifetime.PYOPENCL_CLASSES:
        return where, False  # not an OpenCL handle (a resource pointer, an out-parameter): the caller judges it
    expected = _lifetime.pyopencl_class(c_type)
    if expected is None or _package(value) != expected.__module__.split(".")[0]:
        return where, False  # a look-alike: whatever its int_ptr says is proved as a bare address is
    if not issubclass(type(value), expected):
        raise TypeError(f"{_where(function, param)} must be a {expected.__name__} ({c_type}), not {name}")
    _RIGHT.setdefault(c_type, {})[id(type(value))] = type(value)
    if not _liveness.live_object(where, c_type == _library.MEM_NAME):
        raise ValueError(f"{_where(function, param)} is a {name} whose OpenCL object was released "
                         f"(0x{where:x} no longer holds a live {c_type}); pass a live object")
    return where, True


def _proved(
    ffi: Any, where: int, c_type: str, shown: str, param: str, function: str, access: str, count: int | None,
    count_name: str,
) -> int:
    """`where`, an address given as a Python number (`shown` says how), once proved to be what `c_type` and
    `access` say it is: a live OpenCL object where a handle belongs; readable or writable for its whole extent
    where C reads or writes (`count` items, one without it), and the handles read there proved in turn."""
    if c_type in _lifetime.PYOPENCL_CLASSES:
        reason = _liveness.refusal(where, c_type)
        if reason is not None:
            raise ValueError(f"{_where(function, param)} {shown} is not a live OpenCL object ({c_type}): {reason}")
        return where
    if not access or where == 0 or count == 0:
        return where  # passed on, never read here (the shared API's object); NULL; nothing to read or write
    items = 1 if count is None else count
    if items > MOST_ITEMS:  # each page is touched to prove it (a page C writes, written), each handle read is proved
        raise ValueError(f"{_where(function, param)} {shown} is to hold {count_name} = {count} items, more than the "
                         f"{MOST_ITEMS} proved at an address given as a number (a cffi array is taken as it is)")
    element = c_type.removesuffix(" *").removeprefix("const ")
    size = items * _size(ffi, element)
    if not (_memory.readable(where, size) if access == "in" else _memory.writable(where, size)):
        wanted = "readable" if access == "in" else "writable"
        counted = f" ({count_name} is {count})" if count is not None else ""
        raise ValueError(f"{_where(function, param)} {shown} does not hold {items} {wanted} items{counted}")
    if access == "in" and element in _lifetime.PYOPENCL_CLASSES:
        for i, item in enumerate(ffi.unpack(ffi.cast("uintptr_t *", where), items)):
            _proved(ffi, int(item), element, f"= 0x{int(item):x} (read at 0x{where:x})", f"{param}[{i}]", function,
                    "", None, "")
    return where


def _package(value: object) -> str:
    """The top package of `value`'s class ("" when its class will not say)."""
    try:
        module = type(value).__module__
    except Exception:
        return ""
    return module.split(".")[0] if type(module) is str else ""


#: PyOpenCL's own classes found to be the class of a C type's handles, by C type and id of the class: an object
#: of one is a handle of that type whose address needs no more checks once it was found live (`known`). Keyed
#: by id, so that no metaclass is asked to hash; the class is the value, which keeps its id its own.
_RIGHT: dict[str, dict[int, type]] = {}
#: cffi handles made from PyOpenCL objects' addresses, by (id of the cffi module, C type) and address: a handle is
#: only its address, so one made before serves again (whether the object is alive is asked every time).
_HANDLES: dict[tuple[int, str], dict[int, CData]] = {}
_MOST_HANDLES = 4096


def _handle(ffi: Any, c_type: str, where: int) -> CData:
    made = _HANDLES.get((id(ffi), c_type))
    if made is None:
        made = _HANDLES.setdefault((id(ffi), c_type), {})
    handle = made.get(where)
    if handle is None:
        if len(made) >= _MOST_HANDLES:
            made.clear()
        handle = made[where] = ffi.cast(c_type, where)
    return handle


def known(ffi: Any, value: Any, c_type: str) -> CData | None:
    """The handle of a PyOpenCL object of a class found right for `c_type` before, whose address is known alive;
    None for anything else (then `pointer` asks what it is). The wrappers' way for a PyOpenCL handle argument."""
    right = _RIGHT.get(c_type)
    if right is None or id(type(value)) not in right or _lifetime.destroyed:
        return None
    where = value.int_ptr
    if where not in _liveness.seen_alive and where not in _lifetime.watched:
        return None
    made = _HANDLES.get((id(ffi), c_type))
    handle = made.get(where) if made is not None else None
    return _handle(ffi, c_type, where) if handle is None else handle


def pyopencl_handles(ffi: Any, values: list[Any], c_type: str) -> list[CData] | None:
    """The handles of `values` when each is an object of a class of PyOpenCL's found right for `c_type` before,
    whose address is known alive: the usual list of a PyOpenCL program, without `pointer`'s questions for each.
    None for anything else, which goes item by item (`pointer`, whose errors name the item)."""
    right = _RIGHT.get(c_type)
    if right is None or _lifetime.destroyed:
        return None
    alive = _lifetime.watched if c_type == _library.MEM_NAME else _liveness.seen_alive
    made = _HANDLES.get((id(ffi), c_type), {})
    handles = []
    for value in values:
        if id(type(value)) not in right:
            return None
        where = value.int_ptr
        if where not in alive:
            return None
        handle = made.get(where)
        handles.append(_handle(ffi, c_type, where) if handle is None else handle)
    return handles


def pointer(
    ffi: Any, value: Any, c_type: str, param: str, function: str, *, exact: bool = False,
    count: int | None = None, count_name: str = "", null: bool = True, access: str = "",
) -> CData:
    """A pointer or handle argument. With `exact`, a cffi pointer must point to the right type, and a cffi
    array must hold `count` items (one without `count`: what C reads or writes there). Without `null`, None
    is refused (an item of a Pythonic list). `access`: "in" where C (or the package) reads there, "out"
    where C writes, "" where the pointer is only passed on: what an address given as a number is proved for."""
    found = known(ffi, value, c_type)  # PyOpenCL's own class, checked before: its address only
    if found is not None:
        return found
    for _ in range(_NESTING):
        if value is None:
            if not null:
                raise TypeError(f"{_where(function, param)} must be a handle ({c_type}), not None")
            return ffi.NULL
        if issubclass(type(value), ffi.CData):  # asks the object nothing (isinstance asks its __class__)
            return _cdata(ffi, value, c_type, param, function, exact, count, count_name)
        if type(value) is bool:
            raise TypeError(f"{_where(function, param)} must be a pointer ({c_type}), not bool")
        if issubclass(type(value), int):
            where = _address(ffi, value, param, function)
            return ffi.cast(c_type, _proved(ffi, where, c_type, f"= 0x{where:x}", param, function, access, count,
                                            count_name))
        int_ptr = attribute(value, "int_ptr", param, function)
        if int_ptr is not _ABSENT:
            where, vouched = _object_address(ffi, value, int_ptr, c_type, param, function)
            if not vouched:
                where = _proved(ffi, where, c_type, f"is a {kind(value)} whose int_ptr 0x{where:x}", param, function,
                                access, count, count_name)
            return ffi.cast(c_type, where)
        if issubclass(type(value), _CTYPES_POINTERS):
            where = ctypes.cast(value, ctypes.c_void_p).value or 0
            return ffi.cast(c_type, _proved(ffi, where, c_type, f"= {kind(value)}(0x{where:x})", param, function,
                                            access, count, count_name))
        inner = attribute(value, "_as_parameter_", param, function)  # ctypes' protocol; comtypes' COM pointers
        if inner is _ABSENT or inner is None or inner is value:
            raise TypeError(f"{_where(function, param)} must be {'None, ' if null else ''}a cffi pointer or an int "
                            f"address ({c_type}), not {kind(value)}")
        value = inner
    raise TypeError(f"{_where(function, param)}: its _as_parameter_ leads on more than {_NESTING} times")


def platform(ffi: Any, value: Any, param: str, function: str) -> CData:
    """A platform for the package's own questions (`supported`, `variant`, `platform_name`): any form a handle
    takes but None, and one of the platforms this process's OpenCL library lists (a cffi handle too: nothing else
    checks it before the driver reads it)."""
    handle = pointer(ffi, value, _library.PLATFORM_TYPE_NAME, param, function, exact=True, null=False)
    if not _liveness.listed_platform(_library.address(handle)):
        raise ValueError(f"{_where(function, param)} = 0x{_library.address(handle):x} is none of this process's "
                         "OpenCL platforms")
    return handle


def _let_be(handle: CData) -> None:
    """The release of `_COLLECTED`'s sample handle: nothing (it holds NULL)."""


#: cffi's class of a handle `ffi.gc` gave: released when garbage-collected (what the Pythonic functions return).
_COLLECTED = type(_core_ffi.gc(_core_ffi.cast("char *", 0), _let_be))


def question(ffi: Any, value: Any, c_type: str, param: str, function: str, *, releases: bool = False) -> CData:
    """A handle for the package's own questions about an object (`device_name`, `device_extensions`,
    `release_mem_object`): any form a handle takes but None, and a cffi handle proved alive too (its first word a
    platform's dispatch word), since these are no C functions, whose arguments C would trust. With `releases`,
    not a handle something else releases: a PyOpenCL object (its `release()`), or one the Pythonic functions
    returned (released when garbage-collected): releasing one here released it twice, which crashed later."""
    handle = pointer(ffi, value, c_type, param, function, exact=True, null=False)
    if releases and issubclass(type(value), _COLLECTED):
        raise TypeError(f"{_where(function, param)} is released when garbage-collected (a Pythonic function made "
                        "it): releasing it here would release it twice; `ffi.release(handle)` releases it now")
    if releases and _package(value) == "pyopencl":
        raise TypeError(f"{_where(function, param)} is a pyopencl.{kind(value)}, which releases its object itself: "
                        "releasing it here would release it twice; call its release()")
    reason = _liveness.dead(_library.address(handle)) if issubclass(type(value), ffi.CData) else None
    if reason is not None:
        raise ValueError(f"{_where(function, param)} = 0x{_library.address(handle):x} is not a live OpenCL object "
                         f"({c_type}): {reason}")
    return handle


def _cdata(
    ffi: Any, value: Any, c_type: str, param: str, function: str, exact: bool, count: int | None, count_name: str,
) -> CData:
    ctype = ffi.typeof(value)
    if ctype.kind not in ("pointer", "array"):
        raise TypeError(f"{_where(function, param)} must be a pointer ({c_type}), not {ctype.cname}")
    if exact and ctype.item is not ffi.typeof(c_type).item and value != ffi.NULL:
        raise TypeError(f"{_where(function, param)} must be {c_type}, not {ctype.cname}")
    extent = len(value) if ctype.kind == "array" else 1 if issubclass(type(value), _OWNED) else None
    if extent is not None and (exact or count is not None):
        needed = 1 if count is None else count
        if extent < needed:
            wants = f"{count_name} is {count}" if count is not None else "C reads or writes one item there"
            raise ValueError(f"{_where(function, param)} holds {extent} items but {wants}")
    return ffi.cast(c_type, value)


def array(
    ffi: Any, value: Any, element: str, handle: bool, param: str, function: str,
    count: int | None = None, count_name: str = "",
) -> CData:
    """A `const T *` argument; a sequence becomes a new C array that the caller keeps alive for the call.
    A sequence must have `count` items; a cffi array at least that many."""
    if handle and type(value) is list and (count is None or len(value) == count):
        found = pyopencl_handles(ffi, value, element)  # a PyOpenCL program's list, the usual case first
        if found:
            return ffi.new(f"{element}[]", found)
    if issubclass(type(value), (str, bytes)):
        raise TypeError(f"{_where(function, param)} must be a sequence or a pointer ({element} *), "
                        f"not {kind(value)}")
    if not issubclass(type(value), (list, tuple)) and not _is_sequence(value):
        return pointer(ffi, value, f"{element} *", param, function, exact=True, count=count, count_name=count_name,
                       access="in")
    values = _items(value, param, function)
    if count is not None and len(values) != count:
        raise ValueError(f"{_where(function, param)} has {len(values)} items but {count_name} is {count}")
    if handle:
        items: list[Any] = pyopencl_handles(ffi, values, element) or [
            pointer(ffi, item, element, f"{param}[{i}]", function, exact=True) for i, item in enumerate(values)]
    else:
        items = [integer(ffi, item, element, f"{param}[{i}]", function) for i, item in enumerate(values)]
    return ffi.new(f"{element}[]", items) if items else ffi.NULL


def handle_list(ffi: Any, value: Any, element: str, param: str, function: str) -> tuple[CData | None, int]:
    """A list of handles for the Pythonic functions: (C array, or None for an empty one; its length). A None
    item is refused: in a list of objects it is never one (the C functions pass None on as NULL, as C does)."""
    if value is None:
        return None, 0
    if type(value) is list:
        found = pyopencl_handles(ffi, value, element)  # a PyOpenCL program's list, the usual case first
        if found:
            return ffi.new(f"{element}[]", found), len(found)
    if issubclass(type(value), ffi.CData) and ffi.typeof(value).kind == "array":
        return pointer(ffi, value, f"{element} *", param, function, exact=True), len(value)
    if issubclass(type(value), (str, bytes)) or not (issubclass(type(value), (list, tuple)) or _is_sequence(value)):
        raise TypeError(f"{_where(function, param)} must be a sequence of handles ({element}), "
                        f"not {kind(value)}")
    values = _items(value, param, function)
    items = pyopencl_handles(ffi, values, element) or [
        pointer(ffi, entry, element, f"{param}[{i}]", function, exact=True, null=False)
        for i, entry in enumerate(values)]
    return (ffi.new(f"{element}[]", items) if items else None), len(items)
