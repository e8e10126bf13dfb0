"""Reading and writing this process's own memory without crashing: whether an address a caller gave as a number
may be read or written, asked before the package (or the driver) does, so that a wrong address raises a clear
error instead of killing the process.

Copied by the generator as it is (it needs nothing from the specs); do not edit.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import NamedTuple

# -- reading this process's memory without crashing ------------------------------------
#
# Linux: `process_vm_readv` and `process_vm_writev` on this process copy through the
# page tables with the process's own permissions and fail instead of faulting: an
# unmapped page, a page mapped PROT_NONE, a read-only page for a write. (A `pread` of
# /proc/self/mem, used before, reads PROT_NONE pages too: the kernel forces that access.)
# Where a sandbox refuses those calls (Docker's default seccomp profile), /proc/self/maps says
# the same, more slowly, with a pread of /proc/self/mem for whether each page can be copied
# at all (a file mapping past its end, the kernel's [vvar] pages: SIGBUS when touched, though
# the maps say r; the package's own reads after a proof are loads). Windows:
# `ReadProcessMemory` and `VirtualQuery`. Elsewhere (macOS) nothing cheap can tell:
# addresses are trusted, as in C.

_WORD = ctypes.sizeof(ctypes.c_void_p)
_PAGE = mmap.PAGESIZE
_TOP = 1 << (8 * _WORD)
#: The most spans one call copies (Linux's IOV_MAX).
_SPANS = 1024


class Memory(NamedTuple):
    """How this process asks about its own memory: `word(where)` (None: not readable), and whether all `size`
    bytes at `where` may be read or written (an empty range, NULL or one past the address space: no)."""

    word: Callable[[int], int | None]
    readable: Callable[[int, int], bool]
    writable: Callable[[int, int], bool]


#: This system's `Memory` (None inside: no way to tell), made on first use.
_memory: list[Memory | None] = []
_lock = threading.Lock()


def _pages(where: int, size: int) -> Iterator[int]:
    """One address in each page of `size` bytes at `where`: touching one byte of a page proves the page."""
    yield where
    yield from range((where // _PAGE + 1) * _PAGE, where + size, _PAGE)


def _chunks(where: int, size: int) -> Iterator[list[int]]:
    chunk: list[int] = []
    for page in _pages(where, size):
        chunk.append(page)
        if len(chunk) == _SPANS:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _bounds(where: int, size: int) -> bool:
    return where > 0 and size > 0 and where + size <= _TOP


class _Span(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("length", ctypes.c_size_t)]


def _linux() -> Memory | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        read_v, write_v = libc.process_vm_readv, libc.process_vm_writev
    except (OSError, AttributeError):
        return _maps()
    for call in (read_v, write_v):
        call.restype = ctypes.c_ssize_t
        call.argtypes = [ctypes.c_int, ctypes.POINTER(_Span), ctypes.c_ulong, ctypes.POINTER(_Span), ctypes.c_ulong,
                         ctypes.c_ulong]

    # Each thread's own room for the spans and the bytes copied, made once and taken while in use: a finalizer
    # that asks again on this thread, in the middle of a question, makes its own instead of overwriting it.
    scratch = threading.local()

    def copy(call: Callable[..., int], pages: list[int]) -> bool:
        """One byte at each of `pages` copied to (`read_v`) or from (`write_v`) this thread's room."""
        found = getattr(scratch, "room", None)
        scratch.room = None
        if found is None:
            spans, data = (_Span * _SPANS)(), ctypes.create_string_buffer(_SPANS)
            local = _Span(ctypes.addressof(data), 0)
            found = (spans, ctypes.pointer(spans[0]), local, ctypes.pointer(local), data)
        spans, remote, local, local_pointer, _ = found
        for i, page in enumerate(pages):
            spans[i].base, spans[i].length = page, 1
        local.length = len(pages)
        done = int(call(os.getpid(), local_pointer, 1, remote, len(pages), 0)) == len(pages)
        scratch.room = found
        return done

    def probe(where: int, length: int, write: bool) -> int | None:
        """The `length` bytes (at most a word) at `where` as an int, None if they cannot be read; with `write`,
        written back as they were read, None if they cannot be written."""
        found = getattr(scratch, "probe", None)
        scratch.probe = None
        if found is None:
            value, remote = ctypes.c_size_t(), _Span(0, _WORD)
            local = _Span(ctypes.addressof(value), _WORD)
            found = (value, local, ctypes.pointer(local), remote, ctypes.pointer(remote))
        value, local, local_pointer, remote, remote_pointer = found
        value.value, local.length, remote.base, remote.length = 0, length, where, length
        pid = os.getpid()
        done = read_v(pid, local_pointer, 1, remote_pointer, 1, 0) == length and (
            not write or write_v(pid, local_pointer, 1, remote_pointer, 1, 0) == length)
        read = int(value.value) if done else None
        scratch.probe = found
        return read

    def word(where: int) -> int | None:
        return probe(where, _WORD, False) if _bounds(where, _WORD) else None

    def readable(where: int, size: int) -> bool:
        if not _bounds(where, size):
            return False
        if where % _PAGE + size <= _PAGE:  # within one page (a handle, an out-value, a short list): one byte
            return probe(where, 1, False) is not None
        return all(copy(read_v, chunk) for chunk in _chunks(where, size))

    def writable(where: int, size: int) -> bool:
        """Each page's probed byte read and written back unchanged (C writes there anyway during the call)."""
        if not _bounds(where, size):
            return False
        if where % _PAGE + size <= _PAGE:
            return probe(where, 1, True) is not None
        return all(copy(read_v, chunk) and copy(write_v, chunk) for chunk in _chunks(where, size))

    sample = ctypes.create_string_buffer(_WORD)
    if word(ctypes.addressof(sample)) is None:  # refused here (a sandbox's filter, an old kernel): ask the maps
        return _maps()
    return Memory(word, readable, writable)


def _maps() -> Memory | None:
    """/proc/self/maps for each mapping's permissions (read afresh for every question), and a pread of
    /proc/self/mem for the bytes, one in each page: the kernel copies them, and fails where a load would fault (a
    file mapping past the file's end, the kernel's [vvar] pages, device memory: SIGBUS when read, though the maps
    say r). /proc/self/mem alone reads a PROT_NONE page (the kernel forces the access): the maps say what may be
    asked. Where it cannot be read, the maps alone, and the kernel's [vvar] pages are refused by name."""
    path, memory_path = "/proc/self/maps", "/proc/self/mem"
    if not os.access(path, os.R_OK):
        return None

    def allows(where: int, size: int, permission: str) -> bool:
        if not _bounds(where, size):
            return False
        end = where + size
        try:
            with open(path, encoding="ascii", errors="replace") as maps:
                for line in maps:
                    fields = line.split(maxsplit=5)
                    low, _, high = fields[0].partition("-")
                    start, stop = int(low, 16), int(high, 16)
                    if stop <= where:
                        continue
                    if start > where or permission not in fields[1] or fields[-1].strip().startswith("[vvar"):
                        return False  # a gap, a page without the permission, the kernel's pages that fault
                    where = stop
                    if where >= end:
                        return True
        except (OSError, ValueError, IndexError):
            return False
        return False

    def copied(where: int, size: int, length: int) -> bytes | None:
        """The `length` bytes at `where` (none: b""), once one byte of every page of the `size` bytes there could be
        copied; None where one could not. Where /proc/self/mem cannot be read, what the maps allowed, as it is."""
        try:
            descriptor = os.open(memory_path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return ctypes.string_at(where, length)  # the maps alone: asked only where they allow it
        try:
            if any(len(os.pread(descriptor, 1, page)) != 1 for page in _pages(where, size)):
                return None
            found = os.pread(descriptor, length, where) if length else b""
        except OSError:
            return None
        finally:
            os.close(descriptor)
        return found if len(found) == length else None

    def word(where: int) -> int | None:
        found = copied(where, _WORD, _WORD) if allows(where, _WORD, "r") else None
        return None if found is None else int.from_bytes(found, sys.byteorder)

    def readable(where: int, size: int) -> bool:
        return allows(where, size, "r") and copied(where, size, 0) is not None

    def writable(where: int, size: int) -> bool:
        return allows(where, size, "w") and copied(where, size, 0) is not None

    return Memory(word, readable, writable)


def _windows() -> Memory | None:
    """`ReadProcessMemory` fails instead of faulting; `VirtualQuery` gives each region's protection."""
    if sys.platform != "win32":
        return None
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    read_memory = kernel32.ReadProcessMemory
    read_memory.argtypes = [wintypes.HANDLE, wintypes.LPCVOID, wintypes.LPVOID, ctypes.c_size_t,
                            ctypes.POINTER(ctypes.c_size_t)]
    read_memory.restype = wintypes.BOOL
    current = kernel32.GetCurrentProcess
    current.restype = wintypes.HANDLE

    class Region(ctypes.Structure):
        _fields_ = [("BaseAddress", ctypes.c_void_p), ("AllocationBase", ctypes.c_void_p),
                    ("AllocationProtect", wintypes.DWORD), ("RegionSize", ctypes.c_size_t),
                    ("State", wintypes.DWORD), ("Protect", wintypes.DWORD), ("Type", wintypes.DWORD)]

    query = kernel32.VirtualQuery
    query.argtypes = [wintypes.LPCVOID, ctypes.POINTER(Region), ctypes.c_size_t]
    query.restype = ctypes.c_size_t
    committed, guard = 0x1000, 0x100  # MEM_COMMIT, PAGE_GUARD
    # PAGE_READONLY, _READWRITE, _WRITECOPY, _EXECUTE_READ, _EXECUTE_READWRITE, _EXECUTE_WRITECOPY; the writable ones
    readable_pages, writable_pages = 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80, 0x04 | 0x08 | 0x40 | 0x80

    def allows(where: int, size: int, wanted: int) -> bool:
        if not _bounds(where, size):
            return False
        end, region = where + size, Region()
        while where < end:
            if not query(ctypes.c_void_p(where), ctypes.byref(region), ctypes.sizeof(region)):
                return False
            if region.State != committed or region.Protect & guard or not region.Protect & wanted:
                return False
            where = (region.BaseAddress or 0) + region.RegionSize
        return True

    def word(where: int) -> int | None:
        buffer, done = ctypes.create_string_buffer(_WORD), ctypes.c_size_t()
        if not _bounds(where, _WORD) or not read_memory(current(), ctypes.c_void_p(where), buffer, _WORD,
                                                         ctypes.byref(done)):
            return None
        return int.from_bytes(buffer.raw, sys.byteorder) if done.value == _WORD else None

    return Memory(word, lambda where, size: allows(where, size, readable_pages),
                  lambda where, size: allows(where, size, writable_pages))


def memory() -> Memory | None:
    """This process's way to ask about its own memory (None: this system cannot tell, and trusts addresses)."""
    if not _memory:
        with _lock:
            if not _memory:
                if sys.platform.startswith("linux"):
                    _memory.append(_linux())
                elif sys.platform == "win32":
                    _memory.append(_windows())
                else:
                    _memory.append(None)  # macOS and others: no cheap safe read; addresses are trusted
    return _memory[0]


def readable(where: int, size: int) -> bool:
    """Whether this process may read all `size` bytes at `where` (True where this system cannot tell)."""
    found = memory()
    return True if found is None else found.readable(where, size)


def writable(where: int, size: int) -> bool:
    """Whether this process may write all `size` bytes at `where` (True where this system cannot tell)."""
    found = memory()
    return True if found is None else found.writable(where, size)


def _forked() -> None:
    global _lock
    _lock = threading.Lock()
    _memory.clear()  # made afresh in the child (its own process id, its own maps)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)
