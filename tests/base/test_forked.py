"""Reading in two processes: the answers in order, input errors as answers, a failing child changes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator import pipeline
from generator.base import forked
from generator.base.errors import Gather, InputError, InputErrors
from generator.base.knowledge import load
from generator.base.source import Pos
from tests.support import SPECS

BIG = [forked.SMALLEST] * 6


def test_the_heaviest_items_go_first_each_to_the_lighter_side() -> None:
    mine, theirs = forked.split([37, 34, 34, 26, 10, 5])
    assert sorted(mine + theirs) == list(range(6))
    loads = [sum([37, 34, 34, 26, 10, 5][i] for i in side) for side in (mine, theirs)]
    assert abs(loads[0] - loads[1]) <= 10


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


def test_half_of_the_work_is_done_in_a_child_and_none_below_the_smallest_input() -> None:
    here = os.getpid()
    pids = forked.in_two(lambda _: os.getpid(), list(range(4)), [forked.SMALLEST] * 4)
    assert len(set(pids)) == 2 and here in pids
    assert set(forked.in_two(lambda _: os.getpid(), list(range(4)), [10] * 4)) == {here}


def test_a_child_that_fails_leaves_its_share_to_this_process() -> None:
    here = os.getpid()

    def fails_in_a_child(item: int) -> tuple[int, int]:
        if os.getpid() != here:
            raise RuntimeError("a bug that shows only in the child")
        return item, os.getpid()

    assert forked.in_two(fails_in_a_child, list(range(6)), BIG) == [(i, here) for i in range(6)]


def test_an_error_here_leaves_no_child_behind() -> None:
    here = os.getpid()

    def fails_here(item: int) -> int:
        if os.getpid() == here:
            raise RuntimeError("a bug")
        return item

    with pytest.raises(RuntimeError, match="a bug"):
        forked.in_two(fails_here, list(range(6)), BIG)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_no_fork_to_be_had_means_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise BlockingIOError("fork: resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    assert set(forked.in_two(lambda _: os.getpid(), list(range(4)), BIG[:4])) == {os.getpid()}


def test_the_seeds_read_in_two_processes_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(Path(SPECS).iterdir())
    knowledge = load()
    two = pipeline.read(paths, knowledge, Gather())
    monkeypatch.setattr(forked, "FORK", False)
    one = pipeline.read(paths, knowledge, Gather())
    assert two == one
