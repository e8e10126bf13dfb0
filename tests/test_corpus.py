"""The corpus (tests/corpus/): real registry texts in every form, each generated alone and scored against its
truth. Until the generator reads them all in full, each text must keep at least the score recorded in
`corpus/floor.yaml`, so that what it reads today is never lost again."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests import scoring

ENTRIES = scoring.truth()


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, scoring.Score]:
    folder = tmp_path_factory.mktemp("corpus")
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip((e["file"] for e in ENTRIES), pool.map(lambda e: scoring.score_alone(e, folder), ENTRIES),
                        strict=True))


def test_every_text_of_the_corpus_has_its_truth() -> None:
    texts = {p.name for p in scoring.CORPUS.iterdir() if p.suffix in (".txt", ".asciidoc")}
    assert texts == {e["file"] for e in ENTRIES} and len(texts) == 26


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["file"])
def test_each_text_scores_at_least_its_floor(entry: dict[str, Any], scores: dict[str, scoring.Score]) -> None:
    result = scores[entry["file"]]
    floor = scoring.floors()[entry["file"]]
    assert result.ok >= floor, f"{result.ok}/{result.total} < {floor}:\n" + "\n".join(result.misses)


def test_the_floor_names_every_text_and_asks_no_more_than_its_truth(scores: dict[str, scoring.Score]) -> None:
    floors = scoring.floors()
    assert set(floors) == set(scores) and all(floors[name] <= s.total for name, s in scores.items())


def test_texts_to_refuse_are_refused_cleanly(tmp_path: Path) -> None:
    """A refusal is exit 2, nothing written, an error at the defect (scored, but asserted here whatever the
    floor says)."""
    for entry in ENTRIES:
        if str(entry["expected"]).startswith("refuse"):
            run = scoring.generate([entry["file"]], tmp_path / entry["file"])
            assert run.status == 2 and "Traceback" not in run.stderr, run.stderr
            assert not (tmp_path / entry["file"]).exists()
