# Two entry points for a fresh machine: `make main` (set up, then run the suite on the bundled data) and
# `make test` (set up, then run the tests). torch 2.13.0 is installed first: it is the CPU build on local disk,
# and any other torch request could pull a multi-GB CUDA build.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --disable-pip-version-check -q
export HF_HUB_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup browser main test lint bench mutation

# The browser tests drive Debian's headless Chromium (never a downloaded browser). `make test` installs it when
# missing and sets INTERPEVAL_REQUIRE_BROWSER=1, under which a skipped browser test fails the run (tests/conftest.py);
# `make test REQUIRE_BROWSER=0` lets them skip on a machine where apt-get cannot run.
REQUIRE_BROWSER ?= 1

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) "torch==2.13.0"
	$(PIP) -e ".[zoo,web,ray,dev]"
	touch $@

main: setup
	$(VENV)/bin/interpeval suite --out out/suite

browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  { $$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q \
	    --no-install-recommends chromium chromium-driver; } || echo "warning: could not install chromium" >&2; \
	fi

test: setup browser
	INTERPEVAL_REQUIRE_BROWSER=$(REQUIRE_BROWSER) $(PY) -m pytest -q -p no:cacheprovider

lint: setup
	$(VENV)/bin/ruff check src tests bench

bench: setup
	for script in bench/*.py; do $(PY) $$script || exit 1; done

# Mutation testing (mutmut) of the modules that produce published numbers, each against its own tests, under nice;
# CPU-heavy, so not part of `make test` or CI. `make mutation ONLY=evaluate` narrows it; see tools/mutation.py.
mutation: setup
	$(PY) tools/mutation.py $(ONLY)
