"""Work done in a forked child beside this process, where the system can fork, on the two cores a machine has.

`in_two`: work made of items each done on its own (a run's texts: detect,
front-end, extract; the IR's texts and the docs): a child and this process take
them from one queue, heaviest first, until none is left. `Beside`: one call in a
child (the inputs' hash, the compile check). A child sends back what it found, pickled, or
the `InputError` it met, which this process raises or answers as if it had met it
itself, so that what a run reports does not depend on which process did what; and
its stage times, which are added to the run's (`timing.add`). A child that fails
in any other way (a bug, a signal, an answer that will not pickle) changes nothing
but the time: this process does the work again, and raises what it raises. A
child dies with its run.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, Generic, NoReturn, TypeVar, cast

from generator.base import timing
from generator.base.errors import InputError, InputErrors

T = TypeVar("T")
R = TypeVar("R")

FORK = hasattr(os, "fork")
#: Less input than this (bytes, all items together) is read here alone: a child would cost more than it saves.
SMALLEST = 48 * 1024
#: prctl's option that has a process killed with its parent (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _can_fork() -> bool:
    """Whether work may go to a child: where the system forks, and only from a process running one thread. A
    child forked while another thread held a lock (an import's, a cache's) or had a pipe of its own open would
    wait for ever on it (two runs in two threads did, each child holding the other's queue open); the work is
    then done here, in the same time as without the second core."""
    return FORK and threading.active_count() == 1


def in_two(function: Callable[[T], R], items: list[T], weights: list[int],
           first: Callable[[], object] | None = None, *, least: int = SMALLEST) -> list[R | InputError]:
    """`function` over `items` (an input error it raises is the item's answer), in two processes when that pays
    (the weights add up to `least`). Both take the next item, heaviest first, from one queue, so that they finish
    together whatever each item costs; this process does `first` before it takes any (work the child does not
    need: an import, what this process alone goes on with)."""
    queue = None
    if _can_fork() and 2 <= len(items) <= _MOST_QUEUED and sum(weights) >= least:
        queue = _queue(sorted(range(len(items)), key=lambda i: (-weights[i], i)))
    if queue is None:
        if first is not None:
            first()
        return [_attempt(function, item) for item in items]
    read_end, write_end = queue
    child: Beside[list[tuple[int, tuple[str, Any]]]] = Beside(
        lambda: [(i, _portable(_attempt(function, items[i]))) for i in _taken(read_end, write_end)],
        here=list)  # without the child's answers, what it took is done here again (below)
    os.close(write_end)  # the child closes its own copy: the queue ends when it is empty
    try:
        if first is not None:
            first()
        answers: dict[int, R | InputError] = {i: _attempt(function, items[i]) for i in _taken(read_end)}
        answered = child.result()
    finally:
        os.close(read_end)
        child.close()
    answers.update((i, _restored(*answer)) for i, answer in answered)
    for i in set(range(len(items))) - answers.keys():  # taken by a child that failed: done here again
        answers[i] = _attempt(function, items[i])
    return [answers[i] for i in range(len(items))]


#: An item's index as it goes through the queue: a read of one takes it whole (a pipe's reads are never split).
_INDEX = 4
#: As many items as the queue holds at once (4 bytes each in a pipe's buffer, which is 64 KiB on Linux).
_MOST_QUEUED = 4096


def _queue(order: list[int]) -> tuple[int, int] | None:
    """A pipe holding the indices in `order` (read end, write end), or None when no pipe is to be had or it would
    not hold them all (Linux gives a user past its share of pipe memory 4 KiB pipes): written without waiting,
    since nobody reads it yet."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    queued = b"".join(i.to_bytes(_INDEX, "little") for i in order)
    try:
        os.set_blocking(write_end, False)
        whole = os.write(write_end, queued) == len(queued)
        os.set_blocking(write_end, True)
    except OSError:  # full before the first byte
        whole = False
    if not whole:
        os.close(read_end)
        os.close(write_end)
        return None
    return read_end, write_end


def _taken(read_end: int, write_end: int | None = None) -> Iterator[int]:
    """The indices this process takes from the queue, one at a time, until it is empty. The child passes its copy
    of the write end, which it closes first: the queue is empty when neither process can add to it."""
    if write_end is not None:
        os.close(write_end)
    while len(index := os.read(read_end, _INDEX)) == _INDEX:
        yield int.from_bytes(index, "little")


class Beside(Generic[R]):
    """`function()` run in a forked child while this process goes on: `result` gives what it returned, or raises
    the input error it raised. Without a child (no fork, a limit on processes or pipes, a child that failed in
    any other way), `result` runs `function` here (or `here`, where running it again would not do): the answer
    is the same, only the time differs. `close` lets
    go of a child whose answer is no longer wanted (the run failed meanwhile); no process or pipe is left."""

    def __init__(self, function: Callable[[], R], here: Callable[[], R] | None = None) -> None:
        self._function = function
        self._here = here or function  # what `result` does without the child's answer
        self._child: tuple[int, int] | None = None
        if _can_fork():
            with contextlib.suppress(OSError):
                self._child = _start(function)

    @property
    def started(self) -> bool:
        """Whether a child is at work (until `result` or `close`): without one, `result` is `here`'s answer."""
        return self._child is not None

    def result(self) -> R:
        child, self._child = self._child, None
        if child is not None:
            with timing.waiting():
                said = _finish(child)
            if said is not None:
                kind, value, totals = said
                timing.add(totals)
                answer = _restored(kind, value)
                if isinstance(answer, InputError):
                    raise answer
                return cast(R, answer)
        return self._here()

    def close(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            _abandon(child)


def _attempt(function: Callable[[T], R], item: T) -> R | InputError:
    try:
        return function(item)
    except InputError as error:
        return error


def _start(function: Callable[[], object]) -> tuple[int, int]:
    """A child that writes `function()`'s answer to a pipe (pickled) and exits 0 only once it has."""
    answer, child_end = os.pipe()
    parent = os.getpid()
    try:
        process = os.fork()
    except OSError:
        os.close(answer)
        os.close(child_end)
        raise
    if process == 0:
        _child(function, parent, answer, child_end)
    os.close(child_end)
    return process, answer


def _child(function: Callable[[], object], parent: int, answer: int, child_end: int) -> NoReturn:
    """The child's whole life: `function()`'s answer written to `child_end`, then the exit (0 once written)."""
    status = 1
    try:
        os.close(answer)
        _die_with(parent)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # an interrupt ends the child; the parent reports it
        timing.reset()
        try:
            said = _portable(function())
        except InputError as error:
            said = _portable(error)
        data = pickle.dumps((*said, timing.totals()), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(child_end, "wb") as stream:
            stream.write(data)
        status = 0
    finally:
        os._exit(status)


def _die_with(parent: int) -> None:
    """Linux: the child is killed when the run's process dies, however it dies (a child left working would hold
    what the run held, such as the lock on OUT's folder, until it finished)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before that took effect
        os._exit(1)


def _portable(answer: object) -> tuple[str, Any]:
    """An answer as it crosses the pipe: an input error as its parts (its class takes them, not its `args`)."""
    if isinstance(answer, InputError):
        return ("input errors", [(e.path, e.pos, e.message, e.line_text) for e in answer.all])
    return ("answer", answer)


def _finish(child: tuple[int, int]) -> tuple[str, Any, dict[str, float]] | None:
    """The child's answer as it crossed the pipe, with its stage times, or None when it gave none."""
    process, answer = child
    try:
        with os.fdopen(answer, "rb") as stream:
            data = stream.read()
    except BaseException:  # an interrupt while waiting: the child goes too
        _end(process)
        raise
    try:
        status = os.waitstatus_to_exitcode(os.waitpid(process, 0)[1])
    except ChildProcessError:  # reaped by the system (SIGCHLD ignored): a whole answer says it finished
        status = 0
    try:
        said = pickle.loads(data) if status == 0 else None
    except Exception:
        return None
    if not (isinstance(said, tuple) and len(said) == 3 and said[0] in ("answer", "input errors")
            and isinstance(said[2], dict)):
        return None
    return said


def _restored(kind: str, value: Any) -> Any:
    if kind != "input errors":
        return value
    errors = [InputError(*parts) for parts in value]
    return errors[0] if len(errors) == 1 else InputErrors(errors)


def _abandon(child: tuple[int, int]) -> None:
    process, answer = child
    os.close(answer)
    _end(process)


def _end(process: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(process, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(process, 0)
