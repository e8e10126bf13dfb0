"""The table of `make bench --only linear` (tests/bench/linear.py): cost per KB and its growth."""

from __future__ import annotations

from tests.bench import linear


def row(at_64k: float | None, at_1m: float | None) -> linear.Row:
    per_kb: list[float | None] = [0.001] * len(linear.SIZES)
    per_kb[linear.SIZES.index(64 * 1024)], per_kb[-1] = at_64k, at_1m
    return linear.Row("shape", tuple(per_kb))


def test_flat_cost_per_kb_meets_the_target_and_growing_cost_misses_it() -> None:
    assert row(0.002, 0.003).met
    assert not row(0.002, 0.032).met  # quadratic: 16 times the size, 16 times the cost per KB
    assert not row(0.002, None).met  # no result within the bound


def test_the_table_has_a_row_per_shape_and_marks_killed_runs() -> None:
    text = linear.table([row(0.002, 0.004), row(0.002, None)])
    lines = text.splitlines()
    assert len(lines) == 4 and "2.0x" in lines[2] and "killed" in lines[3]
