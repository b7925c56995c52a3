# Two entry points for a fresh machine: `make main` (set up, then run the suite on the bundled data) and
# `make test` (set up, then run the tests). torch 2.13.0 is installed first: it is the CPU build on local disk,
# and any other torch request could pull a multi-GB CUDA build.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q
export HF_HUB_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup main test lint bench

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) "torch==2.13.0"
	$(PIP) -e ".[zoo,web,ray,dev]"
	touch $@

main: setup
	$(VENV)/bin/interpeval suite --out out/suite

test: setup
	$(PY) -m pytest -q -p no:cacheprovider

lint: setup
	$(VENV)/bin/ruff check src tests bench

bench: setup
	for script in bench/*.py; do $(PY) $$script || exit 1; done
