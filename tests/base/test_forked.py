"""Reading in two processes: the answers in order, input errors as answers, a failing child changes nothing."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline
from generator.base import forked, timing
from generator.base.errors import Gather, InputError, InputErrors
from generator.base.knowledge import load
from generator.base.source import Pos
from tests.support import ROOT, SPECS

BIG = [forked.SMALLEST] * 6


#: How long a process waits for the other to take an item before the test fails: only a hang is that slow.
HANG = 120.0


class Meeting:
    """Work for `in_two` that makes each process take an item before either goes on (its first item waits, up to
    HANG seconds, until the other process has taken one): which process takes what then depends on the queue,
    not on how soon a loaded machine lets the child start. Both ends of two pipes, made before the fork."""

    def __init__(self) -> None:
        self.here = os.getpid()
        self.pipes = {"child": os.pipe(), "here": os.pipe()}  # the pipe each process writes to
        self.met = False  # in each process's own copy

    def say_and_wait(self) -> None:
        mine, theirs = ("here", "child") if os.getpid() == self.here else ("child", "here")
        os.write(self.pipes[mine][1], b".")
        ready, _, _ = select.select([self.pipes[theirs][0]], [], [], HANG)
        assert ready, f"the other process took no item within {HANG} s"
        self.met = True

    def __call__(self, _: object) -> int:
        if not self.met:
            self.say_and_wait()
        return os.getpid()

    def close(self) -> None:
        for read_end, write_end in self.pipes.values():
            os.close(read_end)
            os.close(write_end)


@pytest.fixture
def meeting() -> Iterator[Meeting]:
    made = Meeting()
    yield made
    made.close()


def test_items_are_taken_from_one_queue_so_that_neither_process_waits_long(meeting: Meeting) -> None:
    """An item that takes long in the child does not hold this process up: it takes the rest meanwhile. The
    child's first item lasts until this process has done the seven others (a process that waited on the child
    would wait for ever: HANG fails it)."""
    here = os.getpid()
    done_here = os.pipe()

    def slow_in_a_child(item: int) -> int:
        meeting(item)
        if os.getpid() != here:
            ready, _, _ = select.select([done_here[0]], [], [], HANG)
            assert ready, "this process did not take the other items"
        elif len(taken) == 6:
            os.write(done_here[1], b".")
        else:
            taken.append(item)
        return os.getpid()

    taken: list[int] = []
    try:
        pids = forked.in_two(slow_in_a_child, list(range(8)), [forked.SMALLEST] * 8)
    finally:
        os.close(done_here[0])
        os.close(done_here[1])
    assert pids.count(here) == 7 and len(set(pids)) == 2


def test_first_runs_here_before_any_item() -> None:
    done: list[str] = []
    forked.in_two(lambda item: done.append(f"item {item}"), [1, 2], BIG[:2], first=lambda: done.append("first"))
    assert done[0] == "first"
    forked.in_two(lambda item: done.append(f"small {item}"), [1, 2], [1, 1], first=lambda: done.append("again"))
    assert done[-3:] == ["again", "small 1", "small 2"]


def square_or_refuse(item: int) -> int:
    if item == 3:
        raise InputError("three.txt", Pos(3, 1), "three is refused")
    if item == 4:
        raise InputErrors([InputError("four.txt", Pos(4, 1), "one"), InputError("four.txt", Pos(4, 2), "two")])
    return item * item


def test_answers_and_input_errors_come_back_in_order() -> None:
    answers = forked.in_two(square_or_refuse, list(range(6)), BIG)
    assert answers[:3] == [0, 1, 4] and answers[5] == 25
    three, four = answers[3], answers[4]
    assert isinstance(three, InputError) and (three.path, three.pos, three.message) == (
        "three.txt", Pos(3, 1), "three is refused")
    assert isinstance(four, InputErrors) and [e.message for e in four.errors] == ["one", "two"]


def test_half_of_the_work_is_done_in_a_child_and_none_below_the_smallest_input(meeting: Meeting) -> None:
    here = os.getpid()
    pids = forked.in_two(meeting, list(range(4)), [forked.SMALLEST] * 4)
    assert len(set(pids)) == 2 and here in pids
    assert set(forked.in_two(lambda _: os.getpid(), list(range(4)), [10] * 4)) == {here}


def test_a_child_that_fails_leaves_its_share_to_this_process() -> None:
    here = os.getpid()

    def fails_in_a_child(item: int) -> tuple[int, int]:
        time.sleep(0.05)
        if os.getpid() != here:
            raise RuntimeError("a bug that shows only in the child")
        return item, os.getpid()

    assert forked.in_two(fails_in_a_child, list(range(6)), BIG) == [(i, here) for i in range(6)]


def test_an_error_here_leaves_no_child_behind() -> None:
    here = os.getpid()

    def fails_here(item: int) -> int:
        if os.getpid() == here:
            raise RuntimeError("a bug")
        time.sleep(0.1)  # the child is slow: this process takes an item too
        return item

    with pytest.raises(RuntimeError, match="a bug"):
        forked.in_two(fails_here, list(range(6)), BIG)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_child_the_system_reaped_still_answers(meeting: Meeting) -> None:
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        pids = forked.in_two(meeting, list(range(4)), BIG[:4])
    finally:
        signal.signal(signal.SIGCHLD, previous)
    assert len(set(pids)) == 2


CHILD_OUTLIVES = """
import os, sys, time
from generator.base import forked, timing
def slow(item):
    if os.getpid() != here:
        print(os.getpid(), flush=True)
        time.sleep(30)
    time.sleep(1)
    return item
here = os.getpid()
forked.in_two(slow, [1, 2, 3, 4], [forked.SMALLEST] * 4)
"""


def test_a_child_dies_with_the_run() -> None:
    """A run killed while its child reads (SIGKILL: no handler runs) leaves no child behind to hold its lock."""
    run = subprocess.Popen([sys.executable, "-c", CHILD_OUTLIVES], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert run.stdout is not None
    child = int(run.stdout.readline())
    run.kill()
    run.wait()
    ends = time.monotonic() + HANG  # the system kills it at once; only a child that outlives the run is slower
    while time.monotonic() < ends:
        if not alive(child):
            return
        time.sleep(0.05)
    raise AssertionError(f"the child {child} outlived the run")


def alive(process: int) -> bool:
    """Whether `process` still runs (a zombie waiting for a parent that does not reap it has ended)."""
    try:
        with open(f"/proc/{process}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_no_fork_to_be_had_means_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise BlockingIOError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert set(forked.in_two(lambda _: os.getpid(), list(range(4)), BIG[:4])) == {os.getpid()}


def test_beside_answers_what_the_call_returns_or_raises_from_a_child() -> None:
    here = os.getpid()
    beside = forked.Beside(lambda: (os.getpid(), [1, 2]))
    pid, answer = beside.result()
    assert pid != here and answer == [1, 2]
    refused = forked.Beside(lambda: square_or_refuse(4))
    with pytest.raises(InputErrors) as raised:
        refused.result()
    assert [e.message for e in raised.value.errors] == ["one", "two"]


class Clock:
    """A clock that moves only when told (and a child's copy of it, only in the child)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


def test_a_childs_stage_times_are_the_runs_and_its_wait_is_charged_to_no_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a child did shows under its own stages (`make bench` reads them); waiting for it is no work: the
    child's clock moves 0.05 s in its stage, this process's 7 s while it waits."""
    clock = Clock()
    monkeypatch.setattr(timing, "_mark", timing._mark)  # put back afterwards, as the clock is
    monkeypatch.setattr(timing, "time", clock)

    def work() -> int:
        with timing.stage("work in a child"):
            clock.now += 0.05
        return 1

    timing.reset()
    beside = forked.Beside(work)
    clock.now += 0.25  # this process's own work meanwhile: `other`
    real_finish = forked._finish

    def finish(child: tuple[int, int]) -> Any:
        clock.now += 7.0  # the wait
        return real_finish(child)

    monkeypatch.setattr(forked, "_finish", finish)
    assert beside.result() == 1
    totals = timing.totals()
    assert round(totals["work in a child"], 6) == 0.05 and round(totals[timing.OTHER], 6) == 0.25


def test_beside_does_the_work_here_when_the_child_fails_and_close_leaves_nothing() -> None:
    here = os.getpid()

    def fails_in_a_child() -> int:
        if os.getpid() != here:
            os._exit(3)
        return 7

    assert forked.Beside(fails_in_a_child).result() == 7
    abandoned = forked.Beside(lambda: time.sleep(30))
    abandoned.close()
    abandoned.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_the_seeds_read_in_two_processes_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(Path(SPECS).iterdir())
    knowledge = load()
    two = pipeline.read(paths, knowledge, Gather())
    monkeypatch.setattr(forked, "FORK", False)
    one = pipeline.read(paths, knowledge, Gather())
    assert two == one


def test_least_sets_how_much_work_is_worth_a_child(meeting: Meeting) -> None:
    """Below `least` the items are done here; at it, a child takes some (the emission's queue forks for any)."""
    here = os.getpid()
    assert set(forked.in_two(lambda _: os.getpid(), list(range(4)), [1] * 4)) == {here}
    assert len(set(forked.in_two(meeting, list(range(4)), [1] * 4, least=0))) == 2


_TWO_THREADS = """
import threading
from generator.base import forked
made, started = forked._queue, forked._start
queues, forks = threading.Barrier(2), threading.Barrier(2)
def together(barrier):
    try:
        barrier.wait(timeout=1)  # unless something keeps the two threads apart
    except threading.BrokenBarrierError:
        pass
def queue(order):
    pipes = made(order)
    together(queues)  # both queues made before either child is forked
    return pipes
def start(function):
    child = started(function)
    together(forks)  # both children forked before either thread closes its copy of its queue's write end
    return child
forked._queue, forked._start = queue, start
results = []
def run():
    results.append(forked.in_two(lambda i: i * i, list(range(6)), [forked.SMALLEST] * 6))
threads = [threading.Thread(target=run) for _ in range(2)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(results == [[i * i for i in range(6)]] * 2)
"""


def test_two_threads_in_two_at_once_do_not_wait_on_each_other() -> None:
    """Two runs in two threads of one process (the registry tests do this): forked, each child held the other
    thread's queue open (or a lock another thread held at the fork), and both runs waited for ever. With a
    second thread running, nothing is forked. The barriers would make both queues and both children at the same
    moment, were they made; a hang is the failure (children die with it)."""
    done = subprocess.run([sys.executable, "-c", _TWO_THREADS], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout == "True\n", done.stderr


_SMALL_PIPES = """
import fcntl, os
from generator.base import forked
made = os.pipe
def small():
    read_end, write_end = made()
    fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: what Linux gives a user past its share of pipe memory
    return read_end, write_end
os.pipe = small
here = os.getpid()
print(set(forked.in_two(lambda _: os.getpid(), list(range(2000)), [forked.SMALLEST] * 2000)) == {here})
"""


def test_a_queue_its_pipe_cannot_hold_is_done_here() -> None:
    """2,000 items are 8,000 bytes of queue: a 4 KiB pipe would take half, and the writer, with nobody yet to
    read, would wait for ever. The items are then done here."""
    done = subprocess.run([sys.executable, "-c", _SMALL_PIPES], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout == "True\n", done.stderr
