"""The documentation site, built once per session from the committed `generated/` (reader: `tests/docs/pages.py`),
and headless Chromium to open it.

The build runs as `make docs` runs it (strict: any warning fails it).
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest
import yaml

from tests.docs.pages import Site, build_site
from tests.support import GENERATED, generated_module, missing


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The site, built strictly into a temporary folder; a failed build fails every test that uses it."""
    return build_site(GENERATED / "mkdocs.yml", tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's headless Chromium (`missing` without it)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        missing("Debian's chromium (headless browser tests)")
    assert found is not None
    return found


@pytest.fixture(scope="session")
def irs() -> list[dict[str, Any]]:
    """The committed IR, one dictionary per extension."""
    found = []
    for path in sorted((GENERATED / "ir").glob("*.yaml")):
        with open(path, encoding="utf-8") as stream:
            found.append(yaml.safe_load(stream))
    return found


@pytest.fixture(scope="session")
def modules() -> dict[str, str]:
    """Extension string -> its module (the folder of its pages), as the package names them."""
    return dict(generated_module().EXTENSIONS)
