"""The corpus (tests/corpus/): real registry texts in every form, each generated alone, all together, and the
current texts each with the registry XML, scored against their truth: in full."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests import scoring

ENTRIES = scoring.truth()


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each text generated alone: `<folder>/<text>` is its OUT."""
    return tmp_path_factory.mktemp("corpus")


@pytest.fixture(scope="module")
def scores(alone: Path) -> dict[str, scoring.Score]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip((e["file"] for e in ENTRIES), pool.map(lambda e: scoring.score_alone(e, alone), ENTRIES),
                        strict=True))


def test_every_text_of_the_corpus_has_its_truth() -> None:
    texts = {p.name for p in scoring.CORPUS.iterdir() if p.suffix in (".txt", ".asciidoc")}
    assert texts == {e["file"] for e in ENTRIES} and len(texts) == 26


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["file"])
def test_each_text_alone_scores_in_full(entry: dict[str, Any], scores: dict[str, scoring.Score]) -> None:
    result = scores[entry["file"]]
    assert result.clean, f"{result.ok}/{result.total}:\n" + "\n".join(result.misses)


def test_texts_to_refuse_are_refused_cleanly(tmp_path: Path) -> None:
    """A refusal is exit 2, nothing written, an error at the defect (scored, but asserted here whatever the
    floor says)."""
    for entry in ENTRIES:
        if str(entry["expected"]).startswith("refuse"):
            run = scoring.generate([entry["file"]], tmp_path / entry["file"])
            assert run.status == 2 and "Traceback" not in run.stderr, run.stderr
            assert not (tmp_path / entry["file"]).exists()


_IMPORT_ALL = """
import importlib, pkgutil, sys
for out in sys.argv[1:]:
    for name in [m for m in sys.modules if m == "cl_d3d_sharing" or m.startswith("cl_d3d_sharing.")]:
        del sys.modules[name]
    sys.path.insert(0, out)
    package = importlib.import_module("cl_d3d_sharing")
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module("cl_d3d_sharing." + module.name)
    sys.path.remove(out)
    print(out, flush=True)
"""


def test_every_package_of_the_corpus_imports(alone: Path, scores: dict[str, scoring.Score]) -> None:
    """Each text's own package (the compile guard passed when the run wrote it), every module imported."""
    outs = [str(alone / e["file"]) for e in ENTRIES if not str(e["expected"]).startswith("refuse")]
    done = subprocess.run([sys.executable, "-c", _IMPORT_ALL, *outs], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == outs


def test_all_the_texts_together_score_as_each_alone(tmp_path: Path, scores: dict[str, scoring.Score]) -> None:
    """One run over every text to generate: revisions of one extension in two forms merge, and nothing read
    alone is lost together."""
    entries = [e for e in ENTRIES if not str(e["expected"]).startswith("refuse")]
    out = tmp_path / "all"
    run = scoring.generate([e["file"] for e in entries], out)
    assert run.status == 0, run.stderr[-3000:]
    for entry in entries:
        together = scoring.score(entry, scoring.ir_of(run, out, entry["extension"]))
        assert together.clean, (entry["file"], together.misses)


#: Conditions the generator keeps only by inference, each with the diagnostic that says so: (text, function,
#: code, kind and words of the diagnostic at the condition's line).
_INFERRED = [
    ("cl_intel_d3d11_nv12_media_sharing.registry.txt", "clCreateFromD3D11Texture2DKHR",
     "CL_INVALID_D3D11_RESOURCE_KHR", "registry-function",
     "which the registry XML declares (for cl_khr_d3d11_sharing)"),
    ("cl_intel_simultaneous_sharing.registry.txt", "clCreateContext", "CL_INVALID_PROPERTY",
     "inferred-owner", "named last"),
]


@pytest.mark.parametrize(("text", "function", "code", "kind", "words"), _INFERRED, ids=[s[0] for s in _INFERRED])
def test_each_condition_kept_by_inference_is_said(text: str, function: str, code: str, kind: str, words: str,
                                                  alone: Path, scores: dict[str, scoring.Score]) -> None:
    entry = next(e for e in ENTRIES if e["file"] == text)
    line = next(c["line"] for c in {**entry["errors"], **entry["core_functions"]}[function] if c["code"] == code)
    ir = scoring.ir_of(scoring.Run(None, 0, ""), alone / text, entry["extension"]).ir or {}
    kept = next(f for f in ir["functions"] if f["name"] == function)
    assert any(e["code"] == code for e in kept["errors"])
    said = [d["message"] for d in ir.get("diagnostics") or [] if d["kind"] == kind
            if abs(int(str(d.get("source", ":0")).rsplit(":", 1)[-1] or 0) - line) <= 3]
    assert any(words in message for message in said), said


#: The texts whose IR keeps less than was read from them, and how many conditions (the rest keep all).
_TALLY_DIFFERENCES: dict[str, int] = {}


def test_the_tally_of_each_text_is_equal_or_each_difference_is_said(alone: Path,
                                                                    scores: dict[str, scoring.Score]) -> None:
    differences = {}
    for entry in ENTRIES:
        ir = scoring.ir_of(scoring.Run(None, 0, ""), alone / entry["file"], entry["extension"]).ir
        if ir is None:
            continue
        (source,) = ir["sources"]
        counts = source["tally"]
        assert counts["prototypes"]["read"] == counts["prototypes"]["kept"], entry["file"]
        assert counts["tokens"]["read"] == counts["tokens"]["kept"], entry["file"]
        if counts["conditions"]["read"] != counts["conditions"]["kept"]:
            differences[entry["file"]] = counts["conditions"]["read"] - counts["conditions"]["kept"]
        # each condition not kept has a diagnostic of its own saying why, not the tally's general note
        assert not [d for d in ir["diagnostics"] if d.get("kind") == "not-kept"], entry["file"]
    assert differences == _TALLY_DIFFERENCES


REGISTRY = "registry/cl.xml"
CURRENT = [e for e in ENTRIES if e["form"] == "adoc2024"]


@pytest.fixture(scope="module")
def with_registry(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, scoring.Run]]:
    """Each current text generated with the registry XML beside it: its OUT and what the run left."""
    folder = tmp_path_factory.mktemp("registry")

    def one(entry: dict[str, Any]) -> tuple[Path, scoring.Run]:
        out = folder / entry["file"]
        return out, scoring.ir_of(scoring.generate([entry["file"], REGISTRY], out), out, entry["extension"])

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip((e["file"] for e in CURRENT), pool.map(one, CURRENT), strict=True))


@pytest.mark.parametrize("entry", CURRENT, ids=lambda e: e["file"])
def test_each_current_text_with_the_registry_has_the_registrys_values(
        entry: dict[str, Any], with_registry: dict[str, tuple[Path, scoring.Run]]) -> None:
    _, run = with_registry[entry["file"]]
    result = scoring.score(entry, run)
    assert run.status == 0 and result.clean, (run.stderr[-2000:], result.misses)
    tokens = {t["name"]: t for t in (run.ir or {})["tokens"]}
    for want in (t for t in entry["tokens"] if t.get("registry_value") is not None):
        got = tokens[want.get("registry_name") or want["name"]]
        assert got["value"] == want["registry_value"], want["name"]
        if want["value"] is None:  # the text gives none: the value is the registry's, and says so
            assert str(got["value_source"]).split("/")[-1].startswith("cl.xml:"), got
        else:
            assert "value_source" not in got
    assert not [t for t in tokens.values() if t["value"] is None]


def test_every_current_package_with_the_registry_imports(with_registry: dict[str, tuple[Path, scoring.Run]]) -> None:
    outs = [str(out) for out, _ in with_registry.values()]
    done = subprocess.run([sys.executable, "-c", _IMPORT_ALL, *outs], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == outs
