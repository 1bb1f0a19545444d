# One command to run, one to test; each installs what it needs into .venv first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: serve test lint proto bench tournament image smoke clean chromium

serve: $(VENV)/.installed
	$(BIN)/domino-rules serve

test: $(VENV)/.installed-test chromium
	$(BIN)/python -m pytest

# The playground's browser test (tests/browser) drives Debian's Chromium with its
# chromedriver; installed (as root, or with sudo) only when either is missing
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
chromium:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			chromium chromium-driver; \
	fi

# ruff (lint and format) and mypy --strict over the package, the tests and the benchmarks;
# buf lint of the contract and its breaking-change check against the released image
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/buf lint
	$(BIN)/buf breaking --against proto/buf-image.binpb

proto: $(VENV)/.installed-test
	$(BIN)/python proto/generate.py
	$(BIN)/python proto/openapi.py

# The speed targets, each as a ratio measured in the same run (see bench/README.md);
# the bots' tournament is longer: `make tournament`
bench: $(VENV)/.installed-bench
	$(BIN)/python bench/inprocess.py
	$(BIN)/python bench/tokens.py
	$(BIN)/python bench/doors.py
	$(BIN)/python bench/floor.py
	$(BIN)/python bench/servers.py

tournament: $(VENV)/.installed-bench
	$(BIN)/python bench/tournament.py

# The container image: docker when its daemon answers, otherwise podman, in the docker
# format (the OCI format has no HEALTHCHECK). See deploy/README.md.
VERSION     ?= $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
IMAGE       ?= domino-rules:$(VERSION)
BASE        ?= python:3.11-slim
IMAGE_FLAGS ?=
ENGINE      ?= $(shell docker info >/dev/null 2>&1 && echo docker || echo podman)

image:
	$(ENGINE) build $(if $(filter podman buildah,$(firstword $(ENGINE))),--format docker) \
		--build-arg BASE=$(BASE) $(IMAGE_FLAGS) -t $(IMAGE) .

smoke:
	ENGINE="$(ENGINE)" deploy/smoke.sh $(IMAGE)

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.installed-bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info service/*.egg-info .pytest_cache
