"""The registry XML the generator leans on when `--specs` holds none: a pinned copy of Khronos' `cl.xml`.

Khronos keeps prototypes, token values and types in the registry and leaves them out of its texts, and vendor
texts use types their base extensions define (a host-pointer struct, an EGL handle); without the registry such
a text is refused, or keeps gaps. The copy is knowledge like core OpenCL's declarations: `data/registry/cl.xml`,
with where it comes from in `data/registry.yaml` (both written by `make data REGISTRY=path`). It is read as any
registry XML (`frontends/registry_xml.py`) and named `data/registry/cl.xml` wherever the project lies, so that
the IR and the package name it alike on every machine.
"""

from __future__ import annotations

from generator.base import source
from generator.base.errors import InputError
from generator.base.knowledge import DATA_DIR, read_data
from generator.base.records import frozen
from generator.base.source import Pos, SpecFile

#: The provenance file under data/.
PROVENANCE = "registry.yaml"
#: How the project's own files are named (the copy is `data/<file>`), wherever the project lies.
FOLDER = "data/"


@frozen
class Provenance:
    """`data/registry.yaml`."""

    file: str  # under data/
    source: str  # repository and path it was copied from
    commit: str | None  # the commit, when the copy was made from a git checkout
    date: str | None  # the commit's date
    blob: str  # git's blob hash of the file (`git hash-object`): finds the upstream version without the commit
    sha256: str  # of the bytes: a copy that is not the one described is refused

    @property
    def name(self) -> str:
        """How every message, the IR and the package name the copy."""
        return f"{FOLDER}{self.file}"

    def described(self) -> str:
        """Where the copy comes from, in a few words."""
        version = f"{self.commit[:12]}" if self.commit else f"blob {self.blob[:12]}"
        return f"{self.source} @ {version}" + (f", {self.date}" if self.date else "")


def named(path: str) -> bool:
    """Whether a text the run read, as messages and the IR name it, is the project's copy (`data/...`)."""
    return path.startswith(FOLDER)


def provenance() -> Provenance:
    data = read_data(PROVENANCE)
    return Provenance(data["file"], data["source"], data.get("commit"), data.get("date"), data["blob"],
                      data["sha256"])


def read() -> tuple[SpecFile, Provenance]:
    """The shipped copy as read (opened beneath data/, no link followed), after checking it is the one
    `data/registry.yaml` describes."""
    described = provenance()
    spec = SpecFile.read(DATA_DIR / described.file, DATA_DIR, described.name)
    if spec.digest != described.sha256:
        raise InputError(f"data/{PROVENANCE}", Pos(1, 1), f"{described.name} is not the file this describes (its "
                         f"sha256 is {spec.digest}, not {described.sha256}); copy a registry XML with `make data "
                         "REGISTRY=path`, which writes both")
    return spec, described


def unchanged(described: Provenance) -> bool:
    """Whether the copy on disk is still the file `described` (its sha256), as `read` opens it (no link): a
    process that read it once may keep what it made of it while it is."""
    return source.digest(DATA_DIR / described.file, DATA_DIR, follow=False) == described.sha256
