"""Pathological lines: for each shape of input that once took time quadratic in its length, a seed spec with
such a line put where the generator reads it. The tests bound each shape's scaling in counted work
(`assert_linear`), `make fuzz` runs them at 256 KB, and `make bench --only linear` prints their time per KB.

A shape's `build(size)` returns the seed's text with about `size` bytes of the pathological line or lines
in it; the shapes are classes of input, each named after the form, not after the code that was slow.

The work counted is the run's function calls, each function's apart: Python's and the builtins' (`cProfile`,
which counts them; the numbers are the same on a loaded machine or an idle one, where times are not: a
stage's time grew 25-fold when the machine was busy). Quadratic work that loops in Python calls something in
its loop: some function's count grows with the square of the input. The count does not see work inside one
builtin call (a regular expression that backtracks over a line, a search of a list): that is what
`make bench --only linear` times, from 1 KB to 1 MB, and what the CPU bound of each run catches when it is
gross (at 256 KB in `make fuzz`, a shape once took minutes).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.fuzz import harness
from tests.support import SPECS, calls_counted, grown

#: Far below quadratic (64 for 8 times the size), far above linear (8).
RATIO_BOUND = 20.0
#: Calls a function may add by whatever its ratio: a few more calls of a rare path are not quadratic work (a
#: quadratic step at the smallest size of the tests adds hundreds of thousands).
FLOOR = 20_000


@dataclass(frozen=True)
class Shape:
    name: str
    seed: str  # the file of specs/ it goes into
    what: str  # the form of the line, and what reads it
    build: Callable[[int], str]
    size: int = 8 * 1024  # the smaller size its test runs it at: large enough for quadratic work to show
    partner: tuple[str, Callable[[int], str]] | None = None  # a second file the shape needs, and its text

    def files(self, size: int) -> dict[str, bytes]:
        files = {self.seed: self.build(size).encode()}
        if self.partner is not None:
            name, build = self.partner
            files[name] = build(size).encode()
        return files


def _seed(name: str) -> str:
    return (SPECS / name).read_text(encoding="utf-8")


def _replace(seed: str, old: str, new: Callable[[int], str], first: bool = False) -> Callable[[int], str]:
    """A builder that puts `new(size)` where the seed has `old` (which it must have once, or at `first`)."""
    text = _seed(seed)
    assert text.count(old) == 1 or (first and old in text), (seed, old)
    return lambda size: text.replace(old, new(size), 1)


def _filled(build: Callable[[int], str], line: str) -> Callable[[int], str]:
    """`build`, with as many bytes of ordinary lines added at the end: a line holding most of a text makes it
    a text whose line breaks were lost (`detect`), another format than the one the shape is for."""
    return lambda size: build(size) + _repeat(line, size)


def _registry(old: str, new: Callable[[int], str]) -> Callable[[int], str]:
    """As `_replace` in the NV D3D10 registry text, filled."""
    return _filled(_replace(_NV10, old, new), "    Another line of the revision history.\n")


def _asciidoc(old: str, new: Callable[[int], str], first: bool = False) -> Callable[[int], str]:
    return _filled(_replace(_KHR11, old, new, first), "Another line of the issues.\n")


def _page(name: str, old: str, new: Callable[[int], str]) -> Callable[[int], str]:
    return _filled(_replace(name, old, new), "Another line of the page.\n")


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


_NV10 = "cl_nv_d3d10_sharing.txt"
_NV11 = "cl_nv_d3d11_sharing.txt"
_KHR11 = "cl_khr_d3d11_sharing.txt"
_PAGE = "clEnqueueAcquireD3D11ObjectsKHR.txt"
_BROKEN_PAGE = "clEnqueueReleaseD3D10ObjectsKHR.txt"
#: The first two errors of the NV D3D10 buffer function.
_BUFFER_ERRORS = ("      * CL_INVALID_CONTEXT if <context> is not a valid context.\n\n"
                  "      * CL_INVALID_VALUE if values specified in <flags> are not valid.\n")
_OVERVIEW = "This section describes the *cl_khr_d3d11_sharing* extension."
_CELL = "| Specifies the ID3D11Device * to use for Direct3D 11 interoperability.\n"
_KB = 1024
#: Invisible and look-alike characters (`base/normalise.py`), with plain words between.
_HIDDEN = " wo\u200brd\u00ad \u202eab e\ufb00ect cl\u0430x \U000e0041 \u3000"


def _many_tokens(size: int, named: str = "MANY") -> str:
    """Thousands of tokens, each defined, then thousands of names in a paragraph (the same ones, or others)."""
    count = size // 70
    lines = "".join(f"        CL_D3D10_MANY_{i}_NV    {0x5000 + i}\n" for i in range(count))
    names = " ".join(f"CL_D3D10_{named}_{i}_NV" for i in range(count))
    return f"{lines}\n    These are {names}.\n\n"


def _many_functions(size: int) -> str:
    return "".join(f"    cl_int clManyFn{i}NV(cl_context context, cl_uint n{i})\n\n" for i in range(size // 60))


def _many_groups(size: int) -> str:
    return "".join(f"    Accepted as a thing in the <p{i}> parameter of clFoo{i}NV:\n\n"
                   f"        CL_GRP_{i}_NV    {0x6000 + i}\n\n" for i in range(size // 120))


def _unnamed_groups(size: int) -> str:
    """Thousands of token groups whose sentence names no parameter: each is named after what it accepts."""
    return "".join(f"    Accepted as a thing in the parameter of clFoo{i}NV:\n\n"
                   f"        CL_UNNAMED_{i}_NV    {0x7000 + i}\n\n" for i in range(size // 100))


def _names_and_words(size: int) -> str:
    names = ", ".join(f"name_{i}" for i in range(size // 50))
    return f"OpenCL Specification[1]\n\n{names}\n\n{_repeat('name_x ', size)}are words.\n"


#: The AsciiDoc text's condition and the reference page's, which corroborates it.
_KHR_VALUE = "`NULL` value or if _num_objects_ > 0 and _mem_objects_ is `NULL`."
_PAGE_VALUE = "not a NULL value or if num_objects > 0 and mem_objects is NULL."

SHAPES: dict[str, Shape] = {shape.name: shape for shape in (
    Shape("token-padded", _NV10, "a token definition padded with blanks, its value not a number (registry)",
          _registry("CL_D3D10_DEVICE_NV                     0x4010\n",
                    lambda n: f"CL_D3D10_DEVICE_NV{' ' * n}0x4010,\n")),
    Shape("prose-padded", _NV10, "a line of prose with a run of blanks after its first word (registry)",
          _registry("    The goal of", lambda n: f"    The{' ' * n}goal of")),
    Shape("declaration-padded", _NV10, "a prototype with a run of blanks between return type and name (registry)",
          _registry("\n    cl_int clGetDeviceIDsFromD3D10NV(",
                    lambda n: f"\n    cl_int{' ' * n}clGetDeviceIDsFromD3D10NV(")),
    Shape("condition-padded", _NV10, "an error condition with a run of blanks inside (registry)",
          _registry(_BUFFER_ERRORS, lambda n: _BUFFER_ERRORS.replace("<context> ", f"<context>{' ' * n}", 1))),
    Shape("clause-chain", _NV10, "an error condition of thousands of `, or if` clauses (condition grammar)",
          _registry(_BUFFER_ERRORS, lambda n: _BUFFER_ERRORS.replace(
              "context.", f"context{_repeat(', or if <context> is NULL', n)}.", 1))),
    Shape("accepted-phrase", _NV10, "a token group sentence of many `in the` and no `parameter of` (phrases)",
          _registry("    Accepted as a Direct3D 10",
                    lambda n: f"    Accepted as{_repeat(' in the', n)}\n\n    Accepted as a Direct3D 10")),
    Shape("return-sentences", _NV10, "a paragraph of thousands of `it will return CL_X if` sentences, a long code "
          "and a long word before a verb (error sentences)",
          _registry(_BUFFER_ERRORS, lambda n: _BUFFER_ERRORS + "\n    " + _repeat(
              "Then it will return CL_INVALID_VALUE if the widget is busy. ", n) + "CL_" + "A" * (n // 8)
              + " will be returned and " + "b" * (n // 8) + " returns CL_INVALID_VALUE.\n")),
    Shape("table-row-words", _NV10, "a table row whose last cell holds thousands of words (registry table)",
          _registry("to use for Direct3D 10 \n", lambda n: f"to use for Direct3D 10{_repeat(' word', n)}\n"),
          128 * _KB),
    Shape("reference-markers", _KHR11, "a paragraph of many unclosed cross-references `<<a,` (AsciiDoc)",
          _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + _repeat(" <<a,", n))),
    Shape("index-terms", _KHR11, "a paragraph of many unclosed `indexterm:[` (AsciiDoc)",
          _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + _repeat(" indexterm:[", n)), 128 * _KB),
    Shape("table-cell-lines", _KHR11, "a table cell continued over thousands of lines (AsciiDoc table)",
          _replace(_KHR11, _CELL, lambda n: _CELL + _repeat("more\n", n)), 64 * _KB),
    Shape("inline-markup", _KHR11, "a paragraph of many unclosed `{name`, `**`, `_a`, `_a b` and `+a b`, and "
          "attribute references (AsciiDoc)",
          _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + _repeat(" {name **x _a {CL_A} _b c +d e", n)), 64 * _KB),
    Shape("nested-items", _KHR11, "an error code's thousands of sub-items, with include and conditional lines "
          "among them (AsciiDoc)", _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + "\n\n* {CL_INVALID_VALUE}\n"
                                             + _repeat("** if _a_ is 0, or\ninclude::a.txt[]\nifdef::b[]\n", n)),
          32 * _KB),
    Shape("mixed-listing", _KHR11, "a listing of a typedef, then thousands of token lines and comments (AsciiDoc)",
          _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + "\n\n[source]\n----\ntypedef cl_uint cl_mix_t;\n" + "".join(
              f"/* the next one */\nCL_MIX_{i}_KHR {i}\n" for i in range(n // 32)) + "----\n"), 16 * _KB),
    Shape("section-titles", _NV11, "many section titles that never end, `Additions to Chapter 1 of the` (collapsed)",
          _replace(_NV11, "Direct3D 11. This is designed",
                   lambda n: f"Direct3D 11.{_repeat(' Additions to Chapter 1 of the', n)} \" This is designed"),
          32 * _KB),
    Shape("open-description", _NV11, "a description that lost its subject, then thousands of sentences (collapsed)",
          _replace(_NV11, "by clGetPlatformIDs.", lambda n: f"by clGetPlatformIDs.{_repeat(' Sentences.', n)}"),
          192 * _KB),
    Shape("term-line-blanks", _BROKEN_PAGE, "a line of blanks in a paragraph of broken lines (reference page)",
          _page(_BROKEN_PAGE, "A pointer to a list", lambda n: f"{' ' * n}X\nA pointer to a list")),
    Shape("parameter-list", _PAGE, "a list of hundreds of parameter names, then a description of thousands of words "
          "(reference page)", _page(_PAGE, "OpenCL Specification[1]\n", _names_and_words), 32 * _KB),
    Shape("many-tokens", _NV10, "thousands of token definitions, each named again in prose (registry)",
          _registry("        CL_D3D10_DXGI_ADAPTER_NV               0x4011\n\n",
                    lambda n: "        CL_D3D10_DXGI_ADAPTER_NV               0x4011\n" + _many_tokens(n)), 64 * _KB),
    Shape("undefined-names", _NV10, "thousands of tokens, and prose naming thousands that are not defined (registry)",
          _registry("        CL_D3D10_DXGI_ADAPTER_NV               0x4011\n\n",
                    lambda n: "        CL_D3D10_DXGI_ADAPTER_NV               0x4011\n" + _many_tokens(n, "UNDEFINED")),
          32 * _KB),
    Shape("many-functions", _NV10, "thousands of prototypes in the list of new functions (registry)",
          _registry("Functions\n\n", lambda n: "Functions\n\n" + _many_functions(n)), 12 * _KB),
    Shape("many-parameters", _NV10, "a prototype of thousands of parameters (registry)",
          _registry("\n    cl_int clGetDeviceIDsFromD3D10NV(\n", lambda n: "\n    cl_int clGetDeviceIDsFromD3D10NV(\n"
                    + "".join(f"        cl_uint p{i},\n" for i in range(n // 20))), 16 * _KB),
    Shape("many-groups", _NV10, "thousands of token groups, each its sentence and one token (registry)",
          _registry("    Accepted as a Direct3D 10", lambda n: _many_groups(n) + "    Accepted as a Direct3D 10"),
          64 * _KB),
    Shape("unnamed-groups", _NV10, "thousands of token groups that name no parameter, so share one name (registry)",
          _registry("    Accepted as a Direct3D 10", lambda n: _unnamed_groups(n) + "    Accepted as a Direct3D 10"),
          32 * _KB),
    Shape("struct-members", _NV10, "a struct typedef of thousands of members, a blank line between each (registry)",
          _registry("\nNew Tokens\n", lambda n: "\nNew Types\n\n    typedef struct _cl_many_nv\n    {\n"
                    + "".join(f"        cl_uint m{i};\n\n" for i in range(n // 20))
                    + "    } cl_many_nv;\n\nNew Tokens\n"),
          16 * _KB),
    Shape("code-comments", _KHR11, "a source block of thousands of comments and `#define` lines (AsciiDoc)",
          _asciidoc(_OVERVIEW, lambda n: _OVERVIEW + "\n\n[source,c]\n----\ntypedef cl_uint cl_many_khr;\n"
                    + _repeat("/* a note */ // and another\n#define CL_MANY_KHR 0x1\n", n) + "----\n"), 16 * _KB),
    Shape("hidden-characters", _NV10, "prose of thousands of invisible characters, bidirectional controls, tag "
          "characters, ligatures and words mixing scripts, on a line and on lines (registry)",
          _registry("    The goal of", lambda n: "    The" + _repeat(_HIDDEN, n // 2) + "\n   "
                    + _repeat(_HIDDEN + "\n   ", n // 2) + " goal of")),
    Shape("damaged-conditions", _NV10, "an error list of thousands of conditions, each holding a bidirectional "
          "control (registry)",
          _registry(_BUFFER_ERRORS, lambda n: _BUFFER_ERRORS + "".join(
              f"\n      * CL_INVALID_VALUE if \u202e<flags> is {i}.\n" for i in range(n // 45)))),
    Shape("sibling-conditions", _PAGE, "the same long error condition in a reference page and in its extension's "
          "text (AsciiDoc), aligned word by word",
          _page(_PAGE, _PAGE_VALUE, lambda n: _PAGE_VALUE[:-1] + _repeat(" and a b", n) + "."),
          partner=(_KHR11, _asciidoc(_KHR_VALUE, lambda n: _KHR_VALUE[:-1] + _repeat(" and a b", n) + ".", True))),
)}


@dataclass(frozen=True)
class Measured:
    outcome: harness.Outcome
    stages: dict[str, float]  # the run's own seconds per stage (`generate --timings`)
    calls: dict[str, int]  # the calls the run made, per function (`counted`; empty when not counted)


#: The repeated units of the shapes (and a few more forms of them), for the fuzz run's random placement.
UNITS = (" ", "\t", ", or if <p> is NULL", " in the", " word", " <<a,", " <<", " indexterm:[", "more\n", " {name",
         "**", "** if a, or\n", "include::a[]\n",
         " Additions to Chapter 1 of the", " Sentences.", "name_x ", " and a b", "CL_A_B 1 ", " *", "_a ", "|")


def run(shape: Shape, size: int, folder: Path, bound: float = harness.TIME_BOUND, count: bool = False) -> Measured:
    """`generate` on the shape at `size`, in a forked child killed after `bound` seconds of CPU; `count`: with
    its calls counted (`counted`)."""
    files = shape.files(size)
    (folder / "specs").mkdir(parents=True)
    for name, data in files.items():
        (folder / "specs" / name).write_bytes(data)
    timings, calls = folder / "timings.json", folder / "calls.json"
    outcome = harness.run(folder, files, ("--timings", str(timings)), bound,
                          (lambda: counted(calls)) if count else None)
    stages = json.loads(timings.read_text()) if timings.exists() and outcome.verdict != "FAIL" else {}
    counts = json.loads(calls.read_text()) if calls.exists() and outcome.verdict != "FAIL" else {}
    return Measured(outcome, stages, counts)


@contextmanager
def counted(into: Path) -> Iterator[None]:
    """The calls of the block, per function (`support.calls_counted`), written to `into` as JSON."""
    with calls_counted() as calls:
        yield
    into.write_text(json.dumps(calls, sort_keys=True), encoding="utf-8")


def growth(base: Measured, small: Measured, large: Measured) -> list[str]:
    """The functions whose calls grew faster than linear work can: the calls the shape adds (the shape at its
    size and at 8 times it, less the seed with the least of the shape) more than RATIO_BOUND times, by more
    than FLOOR calls. The counts are exact: the seed's own calls, the same in each run, drop out whole."""
    return grown(small.calls, large.calls, RATIO_BOUND, FLOOR, base.calls)


def assert_linear(name: str, folder: Path, factor: int = 8) -> None:
    """The shape at its size and at `factor` times it: both end within the harness's bound (a hang fails there)
    with valid output or a clean error, and no function's calls grow more than RATIO_BOUND times (quadratic
    work grows `factor` squared times)."""
    shape = SHAPES[name]
    warm()
    base, small, large = (run(shape, size, folder / label, count=True)
                          for label, size in (("base", 0), ("small", shape.size), ("large", shape.size * factor)))
    for measured in (base, small, large):
        outcome = measured.outcome
        assert outcome.verdict != "FAIL", f"{name}: {outcome.reason}\n{outcome.stderr[-2000:]}"
    grown = growth(base, small, large)
    assert not grown, f"{name}, {shape.size} -> {shape.size * factor} bytes: {grown}"


@cache
def warm() -> None:
    """One counted run judged in this process before any is measured: what judging a run leaves in this
    process's caches (the schema, the IR reader) is then there for every measured child alike."""
    with tempfile.TemporaryDirectory() as folder:
        run(SHAPES["token-padded"], 0, Path(folder), count=True)
