"""Is a handle a live OpenCL object? Asked before a handle the package cannot vouch for (a bare address, a
PyOpenCL object) reaches the driver, so that a released or made-up handle raises a clear error instead of
crashing inside it.

Copied by the generator as it is (it needs nothing from the specs); do not edit.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

from . import _library, _lifetime
from ._core_ffi import ffi
from ._memory import memory
from .errors import CLError, LibraryNotFoundError

# -- is a handle an OpenCL object? ---------------------------------------------------
#
# Every object of an ICD (platform, device, context, queue, memory object, event)
# begins with its vendor's dispatch-table pointer, the same word for all objects of
# one ICD, and the loader calls through it. Freeing the object overwrites that word (the
# allocator keeps its own bookkeeping there) or unmaps the page. So reading the first
# word safely and comparing it with the platforms' words tells an object from garbage and
# a released handle from a live one, before the driver dereferences it. The word might be
# overwritten again by a new object of the same ICD at the same address: then the handle
# names that new object, as it would in C. The kind of an object is not in it: the
# platforms and the devices they list are known by address; a memory object the package
# watches is one; the other kinds are told apart by the driver, as in C.


class Known(NamedTuple):
    """What this process's OpenCL library lists, read once: platforms and root devices by address, and the
    dispatch words their objects start with. `failure` says why there is nothing to compare with."""

    words: frozenset[int]
    platforms: frozenset[int]
    devices: frozenset[int]
    failure: str | None = None


_known: Known | None = None
_NO_DISPATCH = "its first word is no OpenCL platform's dispatch table (a released object, or none at all)"


def known() -> Known:
    """The platforms, devices and dispatch words of this process (asked again while no library loads)."""
    global _known
    if _known is not None:
        return _known
    failure: str | None
    try:
        found = _library.platforms()
    except LibraryNotFoundError as missing:
        return Known(frozenset(), frozenset(), frozenset(),
                     f"no OpenCL library is loaded ({str(missing).splitlines()[0]})")
    except _library.QueryFailed as failed:
        found, failure = [], f"the OpenCL library's {failed.function} failed ({failed.code})"
    except CLError as failed:  # an answer too large to take (`_library.answered`)
        found, failure = [], f"the OpenCL library's {failed.function} failed ({failed.detail})"
    else:
        failure = None if found else "the OpenCL library lists no platform, so no OpenCL object exists"
    devices: set[int] = set()
    for platform in found:
        # a platform whose devices cannot be listed: an address of one is no listed device
        with contextlib.suppress(_library.QueryFailed, CLError):
            devices.update(_library.address(d) for d in _library.devices(platform))
    platforms = {_library.address(p) for p in found}
    read = memory()
    words = {read.word(p) for p in platforms} if read is not None else set()
    made = Known(frozenset(w for w in words if w), frozenset(platforms), frozenset(devices), failure)
    with _library.lock:
        _known = made
    return made


def live(handle: int) -> bool:
    """Whether the OpenCL object at `handle`, whose kind its caller vouches for (a PyOpenCL object of the
    right class), may still be alive: False when its first word cannot be read or is no platform's dispatch
    word, so a released handle raises a clear error instead of crashing inside the driver. True when this
    system cannot tell, or has no platform to compare with (the lookup then says why)."""
    return dead(handle) is None


def dead(handle: int) -> str | None:
    """Why the object at `handle` is not alive, as `live` judges it (None: it may be)."""
    _lifetime.settle()
    # NULL is the driver's business; a watched object is not destroyed yet
    if handle == 0 or handle in _lifetime.watched:
        return None
    read = memory()
    if read is None:
        return None
    word = read.word(handle)
    if word is None:
        return "nothing can be read there"
    words = known().words
    return None if not words or word in words else _NO_DISPATCH


def refusal(handle: int, c_type: str) -> str | None:
    """Why `handle`, an address given where a handle of `c_type` belongs, whose kind nobody vouches for (a bare
    int, an `int_ptr` of a class that is not PyOpenCL's), is not one; None when it may be (or this system cannot
    tell). Asked on every call: a bare address can be released and reused at any time."""
    if _lifetime.destroyed:
        _lifetime.settle()
    if handle == 0:
        return None  # NULL: the driver's to refuse
    if handle in _lifetime.watched:
        return None if c_type == _library.MEM_NAME else "it is a memory object"
    read = memory()
    if read is None:
        return None
    word = read.word(handle)
    if word is None:
        return "nothing can be read there"
    found = known()
    if found.failure is not None:
        return found.failure
    if c_type == _library.PLATFORM_TYPE_NAME:
        return None if handle in found.platforms else "it is none of this process's OpenCL platforms"
    if word not in found.words:
        return _NO_DISPATCH
    if handle in found.platforms:
        return "it is an OpenCL platform"
    if c_type == _library.DEVICE_TYPE_NAME:
        return None if handle in found.devices else ("it is none of the devices this process's platforms list (a "
                                                     "sub-device: pass a cffi handle or a PyOpenCL Device)")
    if handle in found.devices:
        return "it is an OpenCL device"
    return None


def listed_platform(handle: int) -> bool:
    """Whether `handle` is one of the platforms this process's OpenCL library lists (loading it if need be)."""
    found = known()
    if found.failure is not None and not found.platforms:
        _library.platforms()  # raises LibraryNotFoundError where that is the failure
    return handle in found.platforms


#: Handles of other kinds than memory objects found live, not read again: OpenCL tells when it destroys a
#: memory object (then `watched` holds it until then), never when it destroys a queue or an event, so these are
#: checked once per address. A PyOpenCL queue used after its `with` block is then the driver's to judge, as
#: in C. Emptied when it grows past `_MOST_SEEN` (a program that makes events for ever).
seen_alive: set[int] = set()
_MOST_SEEN = 4096


def live_object(handle: int, memory: bool) -> bool:
    """`live`, asked once per object: a live memory object is watched until OpenCL destroys it, the address of
    a live object of another kind is kept in `seen_alive`."""
    if _lifetime.destroyed:
        _lifetime.settle()
    if handle in seen_alive or handle in _lifetime.watched:
        return True
    if not live(handle):
        return False
    if memory:
        with contextlib.suppress(_library.QueryFailed):  # not a memory object after all: the driver will say so
            _lifetime.on_destroyed(ffi.cast(_library.MEM, handle), _ignore)
    else:
        if len(seen_alive) >= _MOST_SEEN:
            seen_alive.clear()
        seen_alive.add(handle)
    return True


def _ignore(address: int) -> None:
    """A watcher that only keeps the address in `watched` while the object lives."""
