"""Comparing wordings and filling a damaged one's gaps."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.merging import textalign
from tests.pathological import assert_linear


def rename(name: str) -> str:
    return name.replace("GFX3", "GFX4")


def test_fill_gaps_inserts_lost_references_only() -> None:
    damaged = "is the number of entries that can be added to . If is not NULL then must be greater than zero."
    reference = ("<num_entries> is the number of entries that can be added to <devices>. If <devices> is not NULL "
                 "then <num_entries> must be greater than zero.")
    text, inserted = textalign.fill_gaps(damaged, reference)
    assert text == reference
    assert inserted == ["num_entries", "devices", "devices", "num_entries"]


def test_fill_gaps_keeps_the_damaged_words() -> None:
    text, inserted = textalign.fill_gaps("created with a GFX4 device from", "<context> created with a GFX3 device",
                                         rename)
    assert (text, inserted) == ("<context> created with a GFX4 device from", ["context"])


def test_fill_gaps_never_inserts_plain_words() -> None:
    assert textalign.fill_gaps("is zero", "the count is zero")[1] == []


def test_similarity_ignores_lost_references() -> None:
    assert textalign.similarity("if is zero", "if <n> is zero") == 1.0
    assert textalign.similarity("nothing alike here", "if <n> is zero") < 0.3


def test_coverage_tolerates_a_lost_beginning() -> None:
    assert textalign.coverage("<q> was not created", "context of <q> was not created") == 1.0


def test_differences() -> None:
    assert textalign.differences("<q> was made from an X", "<q> was made from a Y") == [("an x", "a y")]
    assert textalign.differences("was made", "then it was made", lost_start=True) == []
    assert textalign.differences("was made", "then it was made") == [("", "then it")]


def test_two_long_wordings_of_one_condition_take_linear_time(tmp_path: Path) -> None:
    """Wordings too long to be one sentence (MAX_PAIRS) are not aligned word by word."""
    assert_linear("sibling-conditions", tmp_path)


def test_wordings_past_the_bound_count_as_unlike() -> None:
    long = " ".join(["word"] * 600)
    assert textalign.similarity(long, long) == 0.0 and textalign.coverage(long, long) == 0.0
    assert textalign.fill_gaps(long, "<p> " + long) == (long, [])
    assert textalign.similarity("a b c", "a b c") == 1.0


def _chosen_by_similarity(damaged: str, candidates: list[str], least: float) -> int | None:
    scores = [textalign.similarity(damaged, text) for text in candidates]
    if not scores or max(scores) < least:
        return None
    return scores.index(max(scores))


WORDS = ["if", "<n>", "is", "zero", "the", "count", "of", "objects", "not", "valid", "and"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=8),
       st.lists(st.lists(st.sampled_from(WORDS), max_size=8), max_size=6),
       st.sampled_from([0.3, 0.5, 0.6, 0.7, 1.0]))
def test_most_similar_chooses_what_similarity_of_each_would(
    damaged: list[str], candidates: list[list[str]], least: float,
) -> None:
    """The first of the most similar wordings, if similar enough: ties, thresholds met exactly, empty texts."""
    texts = [" ".join(words) for words in candidates]
    expected = _chosen_by_similarity(" ".join(damaged), texts, least)
    assert textalign.most_similar(" ".join(damaged), [(t, str) for t in texts], least) == expected
