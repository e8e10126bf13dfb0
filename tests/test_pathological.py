"""The linearity check of the pathological shapes (tests/pathological.py): counted work, not time, catches a
quadratic step planted in the generator, lets a linear one pass, and counts a run the same way twice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator import pipeline
from tests import pathological
from tests.support import grown


def _step() -> None:
    """One step of the planted work."""


def _planted(steps: Callable[[int], int]) -> Callable[..., Any]:
    """`pipeline.read_one` doing `steps(n)` steps more, n being a 32nd of the file's longest line."""
    real = pipeline.read_one

    def read_one(*args: Any) -> Any:
        answer = real(*args)
        for _ in range(steps(max(map(len, answer[0].text.split("\n"))) // 32)):
            _step()
        return answer

    return read_one


def test_a_quadratic_step_planted_in_the_generator_is_caught_and_a_linear_one_is_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """A step for each pair of 32-byte pieces of a line (a search from each position of the line, as a padded token
    once had): 64 times the steps for 8 times the line, whatever the machine's load; the failure names the
    function. A step per piece, 64 times as many steps at each size, is linear and passes."""
    monkeypatch.setattr(pipeline, "read_one", _planted(lambda n: 64 * n))
    pathological.assert_linear("token-padded", tmp_path / "linear")
    monkeypatch.setattr(pipeline, "read_one", _planted(lambda n: n * n))
    with pytest.raises(AssertionError, match=r"tests/test_pathological\.py:\d+\(_step\): [\d,]+ -> [\d,]+ calls"):
        pathological.assert_linear("token-padded", tmp_path / "quadratic")


def test_a_run_is_counted_the_same_twice(tmp_path: Path) -> None:
    """Counts are work, not time: the same run twice differs by a few calls a function at most (a regular
    expression compiled once more, as what the test process has cached differs)."""
    shape = pathological.SHAPES["many-tokens"]
    first, second = (pathological.run(shape, shape.size, tmp_path / name, count=True) for name in ("one", "two"))
    assert sum(first.calls.values()) > 100_000
    assert grown(first.calls, second.calls, 1.0, 100) == [] and grown(second.calls, first.calls, 1.0, 100) == []
