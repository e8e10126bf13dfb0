"""Scores the generator's IR for the corpus texts (`tests/corpus/`) against their truth (`truth.yaml`).

The rules are the corpus' own (its `check_corpus.py`, kept outside the project): per text, the functions
found, their prototypes (types compared without spacing, `[]` as `*`, callbacks without argument names),
the tokens found and their values where the text gives one, and every error condition (the same code within
two lines of the truth's line, else the same code anywhere, each IR condition used once); one point for the
IR being written at all. A text the truth says to refuse scores its point when nothing was written, the exit
status was 2 and an error cites a line of the defect.

`python -m tests.scoring` generates every corpus text alone, prints each text's score and misses, and the
corpus' total; it exits 1 when the corpus does not score in full (`make test` asserts that it does).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).resolve().parent / "corpus"
_C_WORDS = {"int", "char", "short", "long", "float", "double", "void", "signed", "unsigned"}
_ERROR_LINE = re.compile(r":(\d+)(?::\d+)?: error:")


@dataclass(frozen=True)
class Run:
    """What `generate` left for one text: its IR (None when none was written), exit status and messages."""

    ir: dict[str, Any] | None
    status: int
    stderr: str


@dataclass
class Score:
    text: str
    ok: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)

    def count(self, good: bool, miss: str) -> None:
        self.total += 1
        self.ok += good
        if not good:
            self.misses.append(miss)

    @property
    def clean(self) -> bool:
        return self.ok == self.total


def canonical_type(c_type: object) -> str:
    """`const cl_mem *` == `const cl_mem*`; `void * []` == `void **`; a callback without argument names."""
    text = re.sub(r"\b(CL_CALLBACK|CL_API_CALL)\b", "", str(c_type))
    callback = re.match(r"^(.*?)\(\s*\*\s*\w*\s*\)\s*\((.*)\)\s*$", text)
    if callback:
        arguments = ",".join(canonical_type(_without_name(a)) for a in callback.group(2).split(","))
        return f"{canonical_type(callback.group(1))}(*)({arguments})"
    return re.sub(r"\s+", "", text).replace("[]", "*")


def _without_name(argument: str) -> str:
    words = re.findall(r"[A-Za-z_]\w*", argument)
    types = [w for w in words if w not in ("const", "struct")]
    if len(types) > 1 and words[-1] not in _C_WORDS and argument.rstrip().endswith(words[-1]):
        return argument.rstrip()[: -len(words[-1])]
    return argument


def _line_of(source: object) -> int | None:
    match = re.search(r":(\d+)\s*$", str(source or ""))
    return int(match.group(1)) if match else None


def _as_int(value: object) -> object:
    try:
        return int(value, 0) if isinstance(value, str) else value
    except ValueError:
        return value


def score(entry: dict[str, Any], run: Run) -> Score:
    result = Score(entry["file"])
    if str(entry["expected"]).startswith("refuse"):
        _score_refusal(entry, run, result)
        return result
    ir = run.ir or {}
    result.count(run.ir is not None, f"no IR written for {entry['extension']}")
    functions = {f.get("name"): f for f in ir.get("functions") or []}
    said = " ".join(str(d.get("message", d)) for d in ir.get("diagnostics") or [])
    for want in entry["functions"]:
        got = functions.get(want["name"])
        if want["params"] is None:  # named without a prototype: listed, or at least warned about
            result.count(got is not None or want["name"] in said, f"function neither listed nor warned about: "
                         f"{want['name']}")
            continue
        result.count(got is not None, f"function missing: {want['name']}")
        have = [(canonical_type(p.get("type")), p.get("name")) for p in (got or {}).get("params") or []]
        need = [(canonical_type(p["type"]), p["name"]) for p in want["params"]]
        right = got is not None and have == need and canonical_type(got.get("return_type")) == canonical_type(
            want["return_type"])
        result.count(right, f"prototype differs: {want['name']}: "
                     f"{(got or {}).get('return_type')} {(got or {}).get('params')}")
    tokens = {t.get("name"): _as_int(t.get("value")) for t in ir.get("tokens") or []}
    for want in entry["tokens"]:
        name = next((n for n in (want["name"], want.get("registry_name")) if n in tokens), None)
        result.count(name is not None, f"token missing: {want['name']}")
        if want["value"] is not None:
            got_value = tokens.get(name) if name else None
            result.count(got_value == want["value"], f"token value: {want['name']}: want {want['value']}, "
                         f"got {got_value}")
    if entry.get("errors") != "unknown":
        for name, wanted in {**entry["errors"], **entry["core_functions"]}.items():
            got_errors = [(e.get("code"), _line_of(e.get("source")))
                          for e in (functions.get(name) or {}).get("errors") or []]
            _score_errors(name, wanted, got_errors, result)
    return result


def _score_errors(function: str, wanted: list[dict[str, Any]], got: list[tuple[str, int | None]],
                  result: Score) -> None:
    """Near lines first (within 2), then by code anywhere; each condition of the IR used once."""
    free = list(got)
    left = []
    for want in wanted:
        close = [g for g in free if g[0] == want["code"] and g[1] is not None and abs(g[1] - want["line"]) <= 2]
        if close:
            free.remove(min(close, key=lambda g: abs((g[1] or 0) - want["line"])))
            result.count(True, "")
        else:
            left.append(want)
    for want in left:
        same = next((g for g in free if g[0] == want["code"]), None)
        if same is not None:
            free.remove(same)
        result.count(same is not None, f"{function}: error missing: {want['code']} (line {want['line']})")


def _score_refusal(entry: dict[str, Any], run: Run, result: Score) -> None:
    lines = [int(m.group(1)) for m in _ERROR_LINE.finditer(run.stderr)]
    ranges = entry.get("refuse_at") or [[0, 10**9]]
    cited = any(first <= n <= last for n in lines for first, last in ranges)
    if run.ir is not None or run.status != 2:
        result.count(False, f"not refused (exit {run.status}): {entry['expected']}")
    else:
        result.count(cited, f"refused, but the error should cite a line in {ranges}")


def truth() -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = yaml.safe_load((CORPUS / "truth.yaml").read_text(encoding="utf-8"))["files"]
    return files


def generate(texts: list[str], out: Path) -> Run:
    """`generate` on `texts` (names in the corpus) together, in a new interpreter, into `out`."""
    specs = out.parent / f"{out.name}.specs"
    specs.mkdir(parents=True)
    for name in texts:
        (specs / Path(name).name).write_bytes((CORPUS / name).read_bytes())
    done = subprocess.run([sys.executable, "-m", "generator", "generate", "--specs", str(specs), "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    return Run(None, done.returncode, done.stderr)


def ir_of(run: Run, out: Path, extension: str) -> Run:
    path = out / "ir" / f"{extension}.yaml"
    ir = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None
    return Run(ir if isinstance(ir, dict) else None, run.status, run.stderr)


def score_alone(entry: dict[str, Any], folder: Path) -> Score:
    """The text generated alone, in its own specs folder, scored."""
    out = folder / entry["file"]
    return score(entry, ir_of(generate([entry["file"]], out), out, entry["extension"]))


def main() -> int:
    verbose = "-q" not in sys.argv
    ok = total = clean = 0
    entries = truth()
    scores = {}
    with tempfile.TemporaryDirectory() as folder:
        for entry in entries:
            result = scores[entry["file"]] = score_alone(entry, Path(folder))
            ok, total, clean = ok + result.ok, total + result.total, clean + result.clean
            print(f"{entry['file']}: {result.ok}/{result.total}")
            for miss in result.misses if verbose else []:
                print(f"    {miss}")
    print(f"files clean: {clean}/{len(entries)}")
    print(f"corpus: {ok}/{total}")
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
