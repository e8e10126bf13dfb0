"""What the package saw of earlier calls, which the spec's `state` conditions are checked against.

One `Tracker` per extension module keeps which memory objects are acquired and
which (context, resource, subresource) already has a memory object. It knows only
what went through this package: an object it never saw is never reported, so a
check cannot fire on a guess. A tracked memory object is forgotten when OpenCL
destroys it, so an address the driver hands out again starts afresh. Effects are
recorded only after a call succeeded, so a failed call changes nothing. Memory
objects are kept as cffi handles (they hash and compare by address); the questions
answer with addresses, and `snapshot` gives addresses.

A wrapper holds the objects it speaks of (`hold` ... `let_go`) from its state check
to its record: a second call on any of them (from another thread) waits until the
first has recorded, so records follow the order the driver saw. Without it, a thread
that passed its check while another thread's acquire was in flight could reach the
driver after that thread's release, record its acquire first, and have it wiped by
the late release record: its own release would then be refused as "not acquired".
Calls on other objects do not wait: driver calls are not serialised.

While a call holds its objects no other call changes what is recorded about them, so
the questions and records need no lock: each is one or two set operations, each of
which CPython runs whole (only OpenCL destroying an object in use could race them,
and that call is the caller's bug either way).

OpenCL reports a destroyed object from inside its release, which a finalizer may run
on a thread that is inside any section of this module (the cycle collector runs
wherever an allocation triggers it). So the report is only queued there
(`_lifetime.destroyed`), and the tracker forgets the object at its next call
(`_lifetime.settle`, before a hold and before recording a new object), outside the
driver. Every tracker uses the package's one lock (`_library.lock`), which is
re-entrant, for the finalizers that call the package themselves: with a single lock
no two threads can each hold what the other waits for. A hold whose call is no longer
running (an interrupt that lands between `hold` and `let_go`, a thread that ended)
is dropped by the next call that waits for it; after `fork` the child drops what the
threads it does not have held.

Copied by the generator as it is (it needs nothing from the specs); do not edit.
"""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

from . import _library, _lifetime
from ._core_ffi import ffi

_Key = tuple[int, int, "int | None"]
CData = Any  # a cffi handle (cffi ships no type hints)

#: The uncontended `hold` relies on the GIL (see there); a free-threaded build takes the lock every time.
_GIL: bool = getattr(sys, "_is_gil_enabled", lambda: True)()
_get_ident = threading.get_ident
_getframe = sys._getframe
#: How long a waiting call waits before it looks for holds whose calls are no longer running.
_STALE_AFTER = 0.5
_destroyed = _lifetime.destroyed
_settle = _lifetime.settle
_MEM = _library.MEM
_SUCCESS = _library.SUCCESS


class Refused:
    """What `Tracker.transit` returns when its state check fires (in place of the driver's code): `found` is the
    address of the object it found. Returned, not raised: the wrapper raises its own error, and one exception
    raised and caught on the way costs more than the check."""

    __slots__ = ("found",)

    def __init__(self, found: int | None) -> None:
        self.found = found


class _Nested:
    """A thread's call made while its outer call holds objects: what the thread holds now, and before. Each
    level keeps the frame of the call that took it, so that a hold whose call is no longer running (an
    interrupt between `hold` and `let_go`) can be told from a live one (`_still_running`)."""

    __slots__ = ("frame", "keys", "outer")

    def __init__(self, outer: Any, keys: Collection[Hashable], frame: FrameType) -> None:
        self.outer = outer
        self.keys = keys
        self.frame = frame

    def all_keys(self) -> set[Hashable]:
        return {key for level in _levels(self) for key in _keys(level)}


def _levels(held: Any) -> list[Any]:
    """A thread's holds, outermost first: an `(keys, frame)` pair, then the `_Nested` levels on it."""
    found = []
    while isinstance(held, _Nested):
        found.append(held)
        held = held.outer
    found.append(held)
    return found[::-1]


def _keys(level: Any) -> Collection[Hashable]:
    return level.keys if isinstance(level, _Nested) else level[0]


def _frame(level: Any) -> FrameType:
    return level.frame if isinstance(level, _Nested) else level[1]


def _still_running(held: Any, top: FrameType | None) -> Any:
    """`held` cut down to the levels whose calls are still on their thread's stack (`top`, its innermost
    frame; None for a thread that ended), or None when none is: a call always takes its hold in a frame that
    runs until it lets go, so a hold whose frame has left the stack can never be let go."""
    running = set()
    while top is not None:
        running.add(id(top))
        top = top.f_back
    kept = None
    for level in _levels(held):
        if id(_frame(level)) not in running:
            break
        kept = level
    return kept


class Tracker:
    def __init__(self) -> None:
        self._acquired: set[CData] = set()
        self._known: set[CData] = set()
        self._wraps: dict[_Key, int] = {}
        #: Every key recorded under each memory object's address (more than one when a finalizer wrapped a new
        #: object at an address whose old object's end was being handled: see `forget`).
        self._wrap_of: dict[int, set[_Key]] = {}
        #: The calls in flight (checking, calling the driver, recording), by thread: the keys (memory
        #: objects, wrap keys) each holds with the frame that holds them, a `_Nested` where calls nest.
        self._calls: dict[int, Any] = {}
        #: Threads waiting in `hold` (changed under the lock): a call that ends wakes them only if any.
        self._waiting = 0
        #: On the package's one lock (`_library.lock`): one lock cannot be taken in two orders.
        self._idle = threading.Condition(_library.lock)
        _trackers.add(self)

    def _forked(self) -> None:
        """In a forked child: the calls of threads the child does not have will never end."""
        me = _get_ident()
        self._idle = threading.Condition(_library.lock)  # the lock the child's `_library` made afresh
        held = self._calls.get(me)
        self._calls = {} if held is None else {me: held}
        self._waiting = 0

    # -- holding objects from check to record ---------------------------------

    def hold(self, keys: Collection[Hashable], frame: FrameType | None = None) -> Any:
        """Hold `keys` for one call's check, driver call and record; give what it returns to `let_go`.
        Waits while another thread's call holds any of them (all keys are taken at once, so no two calls
        deadlock); the same thread may nest. `frame`: the frame that lets go (the caller's by default).

        The usual case takes no lock: the call announces itself (one dict store) and, if it is then the
        only call in flight, no other call can be on its objects. Of two threads announcing at once, at
        least one sees two calls in flight, since each looks only after its own store (the GIL runs them one
        at a time), and takes the locked way, which compares its keys with every call announced."""
        if _destroyed:
            _settle()
        me = _get_ident()
        calls = self._calls
        entry = (keys, frame or _getframe(1))
        if me in calls or not _GIL:
            return self._hold_locked(entry, me, announced=False)  # a nested call (or no GIL)
        calls[me] = entry
        try:
            if len(calls) == 1:
                return me
            return self._hold_locked(entry, me, announced=True)
        except BaseException:  # an interrupt after the announcement: this call holds nothing
            if calls.get(me) is entry:
                del calls[me]
            raise

    def let_go(self, held: Any) -> None:
        """End the call `hold` returned `held` for: its keys are free, and threads waiting for them wake."""
        if held.__class__ is int and _GIL:
            self._calls.pop(held, None)  # gone if a fork's child dropped it
            if self._waiting:  # read after the store above: a waiter counts itself before it looks
                with self._idle:
                    self._idle.notify_all()
            return
        with self._idle:
            if isinstance(held, _Nested):
                self._calls[_get_ident()] = held.outer
            else:
                self._calls.pop(held, None)
            if self._waiting:
                self._idle.notify_all()

    @contextmanager
    def holding(self, keys: Collection[Hashable]) -> Iterator[None]:
        """`hold` and `let_go` around a block (held in the frame of the `with`, since this generator's own frame
        leaves the stack while the block runs)."""
        held = self.hold(keys, _getframe(2))
        try:
            yield
        finally:
            self.let_go(held)

    def transit(self, kind: str, objects: Collection[CData], function: Callable[..., int], *args: Any) -> int | Refused:
        """`function(*args)`, a driver call that acquires (`kind` "acquire") or releases ("release") `objects`,
        with its state check before it and its record after a success, held as one step: what a wrapper
        would write as `hold`, `acquired`/`released`, the call, `acquire`/`release`, `let_go`, with the
        check and the record inline (the wrappers' hot path: each Python call saved is some 50 ns). Returns the
        driver's code, or a `Refused` when the check fires (the driver is not called)."""
        held = self.hold(objects)
        try:
            acquired = self._acquired
            if kind == "acquire":
                if not acquired.isdisjoint(objects):
                    return Refused(self.acquired(objects))
                code = function(*args)
                if code == _SUCCESS:
                    if not self._known.issuperset(objects):
                        self._watch(objects)
                    acquired.update(objects)
                    return code
            elif acquired.issuperset(objects):  # all acquired, so all known: the usual release
                code = function(*args)
                if code == _SUCCESS:
                    acquired.difference_update(objects)
                    return code
            else:
                found = self.released(objects)
                if found is not None:
                    return Refused(found)
                code = function(*args)
                if code == _SUCCESS:
                    self.release(objects)
                    return code
            self.doubt(objects)
            return code
        finally:
            self.let_go(held)

    def _hold_locked(self, entry: tuple[Collection[Hashable], FrameType], me: int, announced: bool) -> Any:
        """The way with the lock: another call is in flight, this call nests, or there is no GIL. Like `hold`,
        each attempt announces the call before it looks, so that of two threads that announce at once, at
        least one sees the other (and the lock orders their looks). A wait that sees no call end for a while
        looks for holds whose calls are no longer running (`_drop_stale`)."""
        with self._idle:
            self._waiting += 1  # before looking: a call that ends after the look wakes this one
            try:
                outer = None if announced else self._calls.get(me)
                if outer is not None:
                    outer = _still_running(outer, _getframe())  # an outer hold this thread left behind is gone
                held: Any = me if outer is None else _Nested(outer, *entry)
                while True:
                    self._calls[me] = entry if outer is None else held
                    if not self._in_use(entry[0], me):
                        return held
                    if outer is None:
                        del self._calls[me]  # a waiting call holds nothing...
                    else:
                        self._calls[me] = outer  # ... but its thread's outer call keeps what it holds
                    self._idle.notify_all()  # a thread that waited for this one may go now
                    if not self._idle.wait(_STALE_AFTER):
                        self._drop_stale(me)
            finally:
                self._waiting -= 1

    def _in_flight(self) -> list[tuple[int, Any]]:
        """The calls in flight, as (thread, what it holds). Calls that take the lock-free way come and go
        meanwhile, so the threads are copied first in the one step no other code can run inside: `list` of the
        dict. Not `dict.copy()`: on CPython 3.11 the cycle collector (so finalizers, so other threads) may run
        between its copy of the entries and of their count, and the copy then fails to iterate ("dictionary
        keys changed during iteration"); nor `items()`, whose pairs are allocations it may run at."""
        calls = self._calls
        return [(thread, held) for thread in list(calls) if (held := calls.get(thread)) is not None]

    def _in_use(self, keys: Collection[Hashable], me: int) -> bool:
        """Whether another thread's call holds any of `keys`, or has announced it is about to (under the
        lock)."""
        for thread, held in self._in_flight():
            if thread == me:
                continue
            if not (held.all_keys() if isinstance(held, _Nested) else set(held[0])).isdisjoint(keys):
                return True
        return False

    def _drop_stale(self, me: int) -> None:
        """Under the lock: forget the holds (or the levels of them) whose calls are no longer running. Only an
        interrupt can leave one (a KeyboardInterrupt at the first instruction of `let_go`), or a thread that
        ended inside a call; without this, every later call on those objects would wait for ever."""
        running = sys._current_frames()
        for thread, held in self._in_flight():
            if thread == me:
                continue
            kept = _still_running(held, running.get(thread))
            if kept is held or self._calls.get(thread) is not held:
                continue
            if kept is None:
                del self._calls[thread]
            else:
                self._calls[thread] = kept

    # -- questions: the offending address, or None --------------------------

    def acquired(self, objects: Iterable[CData]) -> int | None:
        """The first of `objects` that is acquired."""
        acquired = self._acquired
        if acquired.isdisjoint(objects):
            return None
        return next((_library.address(o) for o in objects if o in acquired), None)

    def released(self, objects: Iterable[CData]) -> int | None:
        """The first of `objects` this package saw and that is not acquired."""
        known, acquired = self._known, self._acquired
        if acquired.issuperset(objects) or known.isdisjoint(objects):
            return None
        return next((_library.address(o) for o in objects if o in known and o not in acquired), None)

    def wrapped(self, scope: int, resource: int, subresource: int | None) -> int | None:
        """The memory object already made from `resource` (`subresource`) in `scope`."""
        return self._wraps.get((scope, resource, subresource))

    # -- effects of successful calls ----------------------------------------

    def acquire(self, objects: Collection[CData]) -> None:
        if not self._known.issuperset(objects):
            self._watch(objects)
        self._acquired.update(objects)

    def release(self, objects: Collection[CData]) -> None:
        if not self._known.issuperset(objects):
            self._watch(objects)
        self._acquired.difference_update(objects)

    def doubt(self, objects: Collection[CData]) -> None:
        """The driver refused a call on `objects` (not acquired, already acquired, not valid, ...): what this
        tracker recorded about them may be wrong, since something outside the package acquired or released
        them. It forgets it, so that its checks never refuse a call the driver would take; it learns them
        again from their next successful call."""
        with self._idle:
            self._known.difference_update(objects)
            self._acquired.difference_update(objects)

    def wrap(self, scope: int, resource: int, subresource: int | None, mem: int) -> None:
        _settle(wait=True)  # `mem` may be the address of an object destroyed during the call
        self._watch((ffi.cast(_MEM, mem),))
        with self._idle:
            key = (scope, resource, subresource)
            self._wraps[key] = mem
            self._wrap_of.setdefault(mem, set()).add(key)

    def forget(self, mem: int) -> None:
        """Drop all state recorded under `mem`'s address (OpenCL destroyed the object; called by
        `_lifetime.settle`). All of it: a finalizer that runs while the report is handled may have made a new
        object at the same address and recorded it before this, and what cannot be told apart is forgotten.
        The tracker may know less than there is (the driver then checks), never what is no longer true."""
        handle = ffi.cast(_MEM, mem)
        with self._idle:
            self._known.discard(handle)
            self._acquired.discard(handle)
            for key in self._wrap_of.pop(mem, ()):
                if self._wraps.get(key) == mem:
                    del self._wraps[key]

    def clear(self) -> None:
        """Forget everything (for tests, or after tearing down all contexts)."""
        with self._idle:
            self._known.clear()
            self._acquired.clear()
            self._wraps.clear()
            self._wrap_of.clear()

    def _watch(self, objects: Iterable[CData]) -> None:
        """Know the objects not known yet, and have OpenCL say when it destroys them."""
        for mem in objects:
            with self._idle:
                if mem in self._known:
                    continue
                self._known.add(mem)
            # not a live memory object after all: the driver will say so on its next use
            with suppress(_library.QueryFailed):
                _lifetime.on_destroyed(mem, self.forget)

    def snapshot(self) -> dict[str, Any]:
        """The tracked state, for tests and debugging: addresses."""
        _settle(wait=True)
        with self._idle:
            return {"acquired": {_library.address(m) for m in list(self._acquired)},
                    "known": {_library.address(m) for m in list(self._known)}, "wraps": dict(self._wraps)}


#: Every tracker, for `_forked_child`.
_trackers: weakref.WeakSet[Tracker] = weakref.WeakSet()


def _forked_child() -> None:
    for tracker in _trackers:
        tracker._forked()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked_child)
