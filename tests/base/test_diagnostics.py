"""The sink of diagnostics: identical ones once, and one fault said everywhere counted rather than listed."""

from __future__ import annotations

from generator.base.diagnostics import ALIKE, Location, Sink
from generator.base.kinds import Kind
from generator.base.source import Pos


def test_a_fault_said_in_many_places_is_listed_a_few_times_and_counted() -> None:
    """A token defined again 58,000 times on one line made an IR of 10 MB and 5.6 MB of docs (and a run past
    the fuzz bound): the first `ALIKE` are listed, one more says how many others there were."""
    sink = Sink()
    for column in range(1, ALIKE + 16):
        sink.warning(Location("specs/a.txt", Pos(1, column)), Kind.REPEATED_TOKEN, "CL_X is defined a second time",
                     extension="cl_x")
    sink.warning(Location("specs/a.txt", Pos(2, 1)), Kind.VALUE_CLASH, "something else", extension="cl_x")
    sink.warning(Location("specs/a.txt", Pos(2, 1)), Kind.VALUE_CLASH, "something else", extension="cl_x")  # identical
    found = sink.finished()
    assert len(sink.items) == ALIKE + 1 and len(found) == ALIKE + 2
    assert found[-1].message == "CL_X is defined a second time (15 more times like this, not listed one by one)"
    assert found[-1].where == Location("specs/a.txt", Pos(1, 1))


def test_faults_said_no_more_than_the_limit_are_all_listed() -> None:
    sink = Sink()
    for line in range(1, ALIKE + 1):
        sink.note(Location("specs/a.txt", Pos(line, 1)), Kind.NOT_KEPT, "the same words")
    assert sink.finished() == sink.items and len(sink.items) == ALIKE
