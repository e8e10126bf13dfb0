"""Is a handle still alive? Asked before a bare address or a PyOpenCL object reaches the driver, so that a
released handle raises a clear error instead of crashing inside it.

Copied by the generator as it is (it needs nothing from the specs); do not edit.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from . import _library
from ._core_ffi import ffi
from . import _lifetime
from .errors import LibraryNotFoundError

# -- is a handle still alive? ---------------------------------------------------
#
# Every object of an ICD (platform, device, context, queue, memory object, event)
# begins with its vendor's dispatch-table pointer, the same word for all objects of
# one ICD. Freeing the object overwrites that word (the allocator keeps its own
# bookkeeping there) or unmaps the page. So reading the first word, with a read
# that fails instead of crashing on an unmapped address, and comparing it with the
# platforms' words tells a released handle from a live one, before the driver
# dereferences it. The word might be overwritten again by a new object of the same
# ICD at the same address: then the handle names that new object, as it would in C.
# glibc's allocator always overwrites the first word of a freed block; an allocator
# that left it alone would make a released handle look alive (the old behaviour).

_WORD = ffi.sizeof("void *")
#: How this process reads one word of its own memory without crashing (None inside: no way on this
#: system). Made on first use, and made afresh in a forked child, whose memory is its own.
_reader: list[Callable[[int], int | None] | None] = []
#: The dispatch words of every platform's ICD, read once on first use.
_dispatch: frozenset[int] | None = None


def _proc_mem_reader() -> Callable[[int], int | None] | None:
    """Linux: `pread` of /proc/self/mem fails with EIO on an unmapped address (about 2 µs a read)."""
    try:
        fd = os.open("/proc/self/mem", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # no procfs (a container without it, another Unix): no way to tell

    def read(where: int) -> int | None:
        try:
            data = os.pread(fd, _WORD, where)
        except (OSError, OverflowError, ValueError):
            return None
        return int.from_bytes(data, sys.byteorder) if len(data) == _WORD else None

    return read


def _windows_reader() -> Callable[[int], int | None] | None:
    """Windows: `ReadProcessMemory` on this process fails instead of faulting on an unmapped address."""
    if sys.platform != "win32":
        return None
    import ctypes
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    read_memory = kernel32.ReadProcessMemory
    read_memory.argtypes = [wintypes.HANDLE, wintypes.LPCVOID, wintypes.LPVOID, ctypes.c_size_t,
                            ctypes.POINTER(ctypes.c_size_t)]
    read_memory.restype = wintypes.BOOL
    current = kernel32.GetCurrentProcess
    current.restype = wintypes.HANDLE
    process = current()

    def read(where: int) -> int | None:
        buffer = ctypes.create_string_buffer(_WORD)
        done = ctypes.c_size_t()
        if not read_memory(process, ctypes.c_void_p(where), buffer, _WORD, ctypes.byref(done)):
            return None
        return int.from_bytes(buffer.raw, sys.byteorder) if done.value == _WORD else None

    return read


def _read_word() -> Callable[[int], int | None] | None:
    if not _reader:
        with _library.lock:
            if not _reader:
                if sys.platform.startswith("linux"):
                    _reader.append(_proc_mem_reader())
                elif sys.platform == "win32":
                    _reader.append(_windows_reader())
                else:
                    _reader.append(None)  # macOS and others: no cheap safe read; handles are trusted
    return _reader[0]


def _dispatch_words(read: Callable[[int], int | None]) -> frozenset[int]:
    global _dispatch
    if _dispatch is None:
        try:
            found = _library.platforms()
        except (LibraryNotFoundError, _library.QueryFailed):
            found = []
        words = {read(_library.address(platform)) for platform in found}
        with _library.lock:
            _dispatch = frozenset(w for w in words if w)
    return _dispatch


def readable(where: int, size: int) -> bool:
    """Whether this process may read `size` bytes at `where` (their first and last word; True where this
    system cannot tell), before the package reads memory a caller gave by its bare address."""
    read = _read_word()
    if read is None:
        return True
    return where != 0 and read(where) is not None and read(where + max(size, _WORD) - _WORD) is not None


def live(handle: int) -> bool:
    """Whether the OpenCL object at `handle` may still be alive: False only when it surely is not
    (its first word is no ICD's dispatch table, or its memory is gone), so a released handle raises
    a clear error instead of crashing inside the driver. True when this system cannot tell."""
    _lifetime.settle()
    if handle == 0 or handle in _lifetime.watched:  # NULL is the driver's business; a watched object is not destroyed yet
        return True
    read = _read_word()
    if read is None:
        return True
    words = _dispatch_words(read)
    if not words:
        return True  # no platform to compare with
    return read(handle) in words


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
        try:
            _lifetime.on_destroyed(ffi.cast(_library.MEM, handle), _ignore)
        except _library.QueryFailed:
            pass  # not a memory object after all: the driver will say so
    else:
        if len(seen_alive) >= _MOST_SEEN:
            seen_alive.clear()
        seen_alive.add(handle)
    return True


def _ignore(address: int) -> None:
    """A watcher that only keeps the address in `watched` while the object lives."""


def _forked() -> None:
    _reader.clear()  # the parent's /proc/self/mem would read the parent's memory


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)
