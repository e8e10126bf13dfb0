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
# The Pythons the project is tested on: the full suite on the one .venv is made of, the quick suite on each
# (pyproject.toml's classifiers and data/package.yaml's say the same: tests/test_pythons.py checks).
PYTHONS := 3.11 3.12 3.13
# The quick suite: the base and package tests, and generation byte-identical to generated/.
QUICK := tests/base tests/package tests/test_pythons.py
MAIN_PYTHON := $(shell $(if $(wildcard $(PY)),$(PY),$(PYTHON)) -c 'import sys; print(*sys.version_info[:2], sep=".")' 2>/dev/null)
# The full suite covers the quick one on .venv's Python: `make test` adds the quick suite on the others.
OTHER_PYTHONS := $(filter-out $(MAIN_PYTHON),$(PYTHONS))

.PHONY: generate test lint check docs data fuzz bench clean pythons missing-pythons

generate: $(GENERATOR_READY)
	$(PY) -m generator generate

test: $(TESTS_READY) lint
	$(PY) -m pytest
	$(if $(OTHER_PYTHONS),$(MAKE) --no-print-directory $(addprefix quick-,$(OTHER_PYTHONS)))

# the quick suite on every Python of PYTHONS: on .venv's, and on each other in .venv-3.12 etc. (made on first use,
# with the quick extra); one this machine lacks is a note, and under CI=true an error
pythons: $(addprefix quick-,$(PYTHONS))

quick-$(MAIN_PYTHON): $(TESTS_READY)
	$(PY) -m pytest -q $(QUICK)

# The interpreter of Python $*, as $$found: `python$*` when it answers as that version, else one of pyenv's $*.x
# (pyenv's shims answer only for the versions its `global` names; its folder is looked in without pyenv on PATH,
# newest first). Empty when there is none.
FIND_PYTHON = found=; for candidate in python$* $$(ls -d "$${PYENV_ROOT:-$$HOME/.pyenv}"/versions/$*.*/bin/python$* 2>/dev/null | sort -rV); do \
	    if [ "$$("$$candidate" -c 'import sys; print(*sys.version_info[:2], sep=".")' 2>/dev/null)" = "$*" ]; then \
	        found=$$candidate; break; fi; done

quick-%:
	@$(FIND_PYTHON); \
	if [ -z "$$found" ]; then \
	    if [ "$$CI" = true ]; then echo "make: error: no Python $*: CI runs the quick suite on every Python of $(PYTHONS)" >&2; exit 1; fi; \
	    echo "note: no Python $* (pyenv install $*, or uv python install $*): the quick suite does not run on it"; \
	else \
	    $(MAKE) --no-print-directory quick-run-$* QUICK_PYTHON="$$found"; \
	fi

# (a recipe that names $$(MAKE) runs under `make -n` too: the suite itself is run by the make it starts)
# (a static pattern: make would take `quick-%` for quick-run-3.12 while .venv-3.12 is not made yet)
$(addprefix quick-run-,$(PYTHONS)): quick-run-%: .venv-%/.quick-installed
	.venv-$*/bin/python -m pytest -q $(QUICK)

.venv-%/.quick-installed: pyproject.toml
	test -x .venv-$*/bin/python || $(or $(QUICK_PYTHON),python$*) -m venv .venv-$*
	.venv-$*/bin/python -m pip install --quiet --disable-pip-version-check -e ".[quick]"
	touch $@

# the Pythons of PYTHONS this machine lacks, one a line (.ci/run installs them)
missing-pythons:
	@for v in $(PYTHONS); do $(MAKE) --no-print-directory -s found-python-$$v >/dev/null 2>&1 || echo $$v; done

found-python-%:
	@$(FIND_PYTHON); [ -n "$$found" ] && echo "$$found"

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
	rm -rf $(VENV) $(addprefix .venv-,$(PYTHONS)) .pytest_cache .mypy_cache .ruff_cache site templates/__pycache__
