# The two commands of a fresh clone: `make generate` and `make test`.
# Each makes .venv when missing and installs what it needs into it.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
GENERATOR_READY := $(VENV)/.generator-installed
TESTS_READY := $(VENV)/.tests-installed
DOCS_READY := $(VENV)/.docs-installed
BENCH_READY := $(VENV)/.bench-installed
# Material for MkDocs prints a notice about MkDocs 2 on every build; it is not about this site.
MKDOCS := NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs

.PHONY: generate test lint check docs data fuzz bench clean

generate: $(GENERATOR_READY)
	$(PY) -m generator generate

test: $(TESTS_READY) lint
	$(PY) -m pytest

lint: $(TESTS_READY)
	$(PY) -m ruff check generator tests data examples generated
	$(PY) -m mypy
	cd generated && ../$(PY) -m mypy --config-file pyproject.toml --cache-dir ../.mypy_cache/generated cl_d3d_sharing

# the long fuzz run: 10,000 damaged specs through `generate` on every core (a fixed-seed share runs in `make test`)
fuzz: $(TESTS_READY)
	$(PY) -m tests.fuzz --cases 10000

# generation time per stage, scaling over corpora of 10-200 specs (and its plot), call overhead; exit 1 on a missed target
bench: $(TESTS_READY) $(BENCH_READY)
	$(PY) -m tests.bench

# exit 1 when generated/ is not what `make generate` would write
check: $(GENERATOR_READY)
	$(PY) -m generator check

# the HTML site of generated/docs/ in site/; any warning fails the build
docs: $(DOCS_READY)
	$(MKDOCS) build --strict --config-file generated/mkdocs.yml --site-dir $(CURDIR)/site

# remake data/ from the installed official headers (Debian opencl-c-headers, mingw-w64-common, libgl-dev, libegl-dev, libva-dev);
# with REGISTRY=path/to/cl.xml, also replace the registry XML the generator leans on (data/registry/cl.xml)
data: $(GENERATOR_READY)
	$(PY) data/make_data.py $(if $(REGISTRY),--registry '$(subst ','\'',$(REGISTRY))')

$(PY):
	$(PYTHON) -m venv $(VENV)

$(GENERATOR_READY): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(TESTS_READY): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $@ $(GENERATOR_READY) $(DOCS_READY)

$(BENCH_READY): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[bench]"
	touch $@ $(GENERATOR_READY)

$(DOCS_READY): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[docs]"
	touch $@ $(GENERATOR_READY)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site templates/__pycache__
