"""The documentation site, built once per session from the committed `generated/` (reader: `tests/docs/pages.py`).

The build runs as `make docs` runs it (strict: any warning fails it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
import yaml

from tests.docs.pages import Site
from tests.support import GENERATED, generated_module


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """The site, built strictly into a temporary folder; a failed build fails every test that uses it."""
    root = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(GENERATED / "mkdocs.yml"),
         "--site-dir", str(root)],
        capture_output=True, text=True, env=environment, timeout=300, check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return Site(root, output)


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
