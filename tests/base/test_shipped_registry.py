"""The registry XML the project ships (generator/base/shipped_registry.py) and its refresh (`make data
REGISTRY=path`, data/make_data.py --registry)."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import pipeline
from generator.base import knowledge, shipped_registry
from generator.base.errors import InputError
from generator.base.knowledge import DATA_DIR
from tests.samples import GADGET, OWN_XML

GIT = ("git", "-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "commit.gpgsign=false")


def test_the_copy_is_the_file_its_provenance_describes() -> None:
    described = shipped_registry.provenance()
    data = (DATA_DIR / described.file).read_bytes()
    assert hashlib.sha256(data).hexdigest() == described.sha256
    assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == described.blob
    spec, _ = shipped_registry.read()
    assert spec.path == "data/registry/cl.xml" and spec.digest == described.sha256


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of data/'s script and hand-written files, which the generator reads instead of data/."""
    data = tmp_path / "data"
    data.mkdir()
    for name in ("make_data.py", "conventions.yaml", "registry.yaml"):
        shutil.copy(DATA_DIR / name, data)
    monkeypatch.setattr(shipped_registry, "DATA_DIR", data)
    monkeypatch.setattr(knowledge, "DATA_DIR", data)
    return data


def make_data(data: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(data / "make_data.py"), *argv], capture_output=True, text=True,
                          check=False, stdin=subprocess.DEVNULL)


def checkout(folder: Path, text: str) -> Path:
    """A git checkout holding `text` as xml/cl.xml, committed, with an origin whose URL holds a user's token;
    `build/` is ignored."""
    (folder / "xml").mkdir(parents=True)
    (folder / "xml" / "cl.xml").write_text(text, encoding="utf-8")
    (folder / ".gitignore").write_text("build/\n", encoding="utf-8")
    for argv in (("init", "-q"), ("add", "."), ("commit", "-qm", "registry"),
                 ("remote", "add", "origin", "https://alice:ghp_SECRET@github.com:443/Acme/Registry.git")):
        subprocess.run([*GIT, "-C", str(folder), *argv], check=True, capture_output=True)
    return folder / "xml" / "cl.xml"


def test_a_registry_copied_from_a_checkout_names_its_commit_and_is_read(scratch: Path, tmp_path: Path,
                                                                        headers: None) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")  # CI has it: .ci/run clones the project
    path = checkout(tmp_path / "upstream", OWN_XML)
    done = make_data(scratch, "--registry", str(path))
    assert done.returncode == 0, done.stderr
    assert (scratch / "registry" / "cl.xml").read_text(encoding="utf-8") == OWN_XML
    commit = subprocess.run(["git", "-C", str(path.parent), "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    described = shipped_registry.provenance()
    assert (described.source, described.commit) == ("Acme/Registry xml/cl.xml", commit)
    assert described.described().startswith(f"Acme/Registry xml/cl.xml @ {commit[:12]}, ")
    spec, _ = shipped_registry.read()
    assert spec.text == OWN_XML
    assert "SECRET" not in (scratch / "registry.yaml").read_text(encoding="utf-8")
    path.write_text(OWN_XML.replace("0x4000", "0x4001"), encoding="utf-8")  # changed since the commit: none named
    assert make_data(scratch, "--registry", str(path)).returncode == 0
    described = shipped_registry.provenance()
    assert described.commit is None and described.described().startswith("Acme/Registry xml/cl.xml @ blob ")
    ignored = path.parent.parent / "build" / "cl.xml"  # a file the checkout ignores is no commit's either
    ignored.parent.mkdir()
    ignored.write_text(OWN_XML, encoding="utf-8")
    assert make_data(scratch, "--registry", str(ignored)).returncode == 0
    assert shipped_registry.provenance().commit is None


def test_a_copy_outside_a_checkout_records_no_path_of_the_machine(scratch: Path, tmp_path: Path,
                                                                  headers: None) -> None:
    (tmp_path / "mine.xml").write_text(OWN_XML, encoding="utf-8")
    assert make_data(scratch, "--registry", str(tmp_path / "mine.xml")).returncode == 0
    described = shipped_registry.provenance()
    assert (described.source, described.commit) == ("mine.xml", None)
    assert str(tmp_path) not in (scratch / "registry.yaml").read_text(encoding="utf-8")


def test_check_and_a_copy_together_are_refused(scratch: Path, tmp_path: Path) -> None:
    (tmp_path / "cl.xml").write_text(OWN_XML, encoding="utf-8")
    done = make_data(scratch, "--check", "--registry", str(tmp_path / "cl.xml"))
    assert done.returncode == 2 and "--check compares and writes nothing" in done.stderr
    assert not (scratch / "registry").exists()


@pytest.mark.parametrize(("text", "said"), [
    ("<registry><types>\n<type", ":2:1: error: not well-formed XML"),
    ("Name String\n\n    cl_acme_gadget\n", ": error: not a registry XML"),
])
def test_a_file_that_is_no_registry_is_refused_and_nothing_is_written(scratch: Path, tmp_path: Path, text: str,
                                                                      said: str, headers: None) -> None:
    before = (scratch / "registry.yaml").read_bytes()
    (tmp_path / "cl.xml").write_text(text, encoding="utf-8")
    done = make_data(scratch, "--registry", str(tmp_path / "cl.xml"))
    assert done.returncode == 2 and done.stderr.startswith(f"{tmp_path / 'cl.xml'}{said}"), done.stderr
    assert "Traceback" not in done.stderr
    assert not (scratch / "registry").exists() and (scratch / "registry.yaml").read_bytes() == before


def test_a_provenance_that_breaks_its_schema_is_an_input_error(scratch: Path) -> None:
    text = (scratch / "registry.yaml").read_text(encoding="utf-8")
    (scratch / "registry.yaml").write_text(text.replace("sha256: ", "sha256: x"), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        shipped_registry.provenance()
    assert refused.value.path.endswith("data/registry.yaml") and "sha256" in refused.value.render()


@pytest.mark.usefixtures("knowledge")  # the core declarations, read from the real data/ before the scratch
def test_the_copy_is_never_read_through_a_link(scratch: Path, tmp_path: Path) -> None:
    """Even to a file inside data/ that is the very copy described: the project's files are read as they are."""
    shutil.copy(DATA_DIR / "registry" / "cl.xml", scratch / "real.xml")
    (scratch / "registry").mkdir()
    (scratch / "registry" / "cl.xml").symlink_to("../real.xml")
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "cl_acme_gadget.txt").write_text(GADGET, encoding="utf-8")
    with pytest.raises(InputError, match="never through a link") as refused:
        pipeline.run(specs)
    assert refused.value.path == "data/registry/cl.xml"
