"""Damaged copies of the committed IR files, for `diff`: the byte-level damage of the spec cases, and YAML's own.

An IR file is input too (a contribution may edit `generated/ir`), so the same kinds
of damage apply; YAML adds its structure: anchors and aliases, tags, indicators,
deep nesting, keys repeated, values of another kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from tests.fuzz.mutations import DuplicateLines, InsertText, Mutation, _at, _fraction, mutations
from tests.support import GENERATED

#: The seeds: the committed IR files, by file name.
IR_SEEDS: dict[str, bytes] = {p.name: p.read_bytes() for p in sorted((GENERATED / "ir").glob("*.yaml"))}

#: Pieces of YAML syntax that mean something to a parser, put in anywhere (`InsertText`).
SYNTAX = ("&a ", "*a", "&a [1, 2]\nb: *a\n", "!!python/object/apply:os.system ['true'] ", "!!str ", "!custom ",
          "? ", "- ", ": ", "{", "}", "[", "]", ", ", "---\n", "...\n", "<<: {a: 1}\n", "~", "\t", "'", '"', "#",
          "%YAML 1.1\n", "|\n", ">-\n", "\\", "\ufeff", "\x85", "\u2028", "0x", "1e400", "9" * 5000, ".nan", "yes",
          "2001-02-30", "=", "null: x\n", "1: x\n")


@dataclass(frozen=True)
class Nest:
    """A value made `depth` levels deep: in flow brackets, or in block sequences on one line."""

    at: int
    depth: int
    flow: bool

    def apply(self, data: bytes) -> bytes:
        cut = _at(self.at, len(data))
        if self.flow:
            return data[:cut] + b"[" * self.depth + data[cut:] + b"]" * self.depth
        return data[:cut] + b"- " * self.depth + data[cut:]


IrMutation = Mutation | Nest

ir_mutations: st.SearchStrategy[IrMutation] = st.one_of(
    mutations,
    st.builds(InsertText, _fraction, st.sampled_from(SYNTAX)),
    st.builds(Nest, _fraction, st.sampled_from([2, 63, 64, 65, 1000, 200_000]), st.booleans()),
    st.builds(DuplicateLines, _fraction, st.just(1), st.just(1)),  # a key again in its mapping
)


@dataclass(frozen=True)
class IrCase:
    seed: str
    changes: tuple[IrMutation, ...]

    def damaged(self) -> bytes:
        data = IR_SEEDS[self.seed]
        for change in self.changes:
            data = change.apply(data)
        return data

    def kinds(self) -> str:
        return "+".join(type(change).__name__ for change in self.changes)


ir_cases: st.SearchStrategy[IrCase] = st.builds(
    IrCase, st.sampled_from(sorted(IR_SEEDS)), st.lists(ir_mutations, min_size=1, max_size=4).map(tuple))
