# One command to run, one to test; each installs what it needs into .venv first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

# Every install takes the exact versions in constraints.txt (`make lock` makes it).
CONSTRAINTS := constraints.txt
PIP_INSTALL := $(BIN)/python -m pip install --quiet -c $(CONSTRAINTS)

.PHONY: serve test test-all lint proto bench tournament image smoke dist clean lock system-packages chromium nginx

serve: $(VENV)/.installed
	$(BIN)/domino-rules serve

# The whole suite (what CI runs), and the quick tier: all but the tests marked slow
test-all: $(VENV)/.installed-test system-packages
	$(BIN)/python -m pytest

test: $(VENV)/.installed-test system-packages
	$(BIN)/python -m pytest -m "not slow"

# Debian packages the test suite drives, installed (as root, or with sudo) only when one
# is missing: Chromium and its chromedriver (the playground's browser test, tests/browser)
# and nginx (a balancer in front of serve). grpcurl and buf come with the test extra.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
system-packages:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null 2>&1 || missing="$$missing chromium-driver"; \
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
			$$missing; \
	fi
chromium nginx: system-packages

# ruff (lint and format) and mypy --strict over the package, the tests and the benchmarks;
# buf lint of the contract and its breaking-change check against the released image; the
# OpenAPI document against the previous release's (docs/VERSIONING.md)
PREVIOUS_RELEASE := $(shell cat release/previous-release)
PREVIOUS_WHEEL   := tests/upgrade/$(PREVIOUS_RELEASE)/domino_rules-$(PREVIOUS_RELEASE)-py3-none-any.whl
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/buf lint
	$(BIN)/buf breaking --against proto/buf-image.binpb
	$(BIN)/python release/openapi_diff.py --against $(PREVIOUS_WHEEL)

proto: $(VENV)/.installed-test
	$(BIN)/python proto/generate.py
	$(BIN)/python proto/openapi.py
	$(BIN)/python docs/rules_page.py

# The speed targets, each as a ratio measured in the same run (see bench/README.md);
# the bots' tournament is longer: `make tournament`
bench: $(VENV)/.installed-bench
	$(BIN)/python bench/inprocess.py
	$(BIN)/python bench/tokens.py
	$(BIN)/python bench/doors.py cpu
	$(BIN)/python bench/doors.py floor
	$(BIN)/python bench/doors.py servers
	$(BIN)/python bench/flood.py
	$(BIN)/python bench/refusal.py
	$(BIN)/python bench/records.py
	$(BIN)/python bench/bots.py

tournament: $(VENV)/.installed-bench
	$(BIN)/python bench/tournament.py

# The container image: $(ENGINE) if given, else docker when its daemon answers, else
# podman, in the docker format (the OCI format has no HEALTHCHECK); with neither,
# deploy/engine.sh says so and what to do. See deploy/README.md.
VERSION     ?= $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
IMAGE       ?= domino-rules:$(VERSION)
BASE        ?= python:3.11-slim
IMAGE_FLAGS ?=
ENGINE      ?=

image:
	@engine=$$(ENGINE='$(ENGINE)' deploy/engine.sh) || exit 2; \
	first=$${engine%% *}; format=""; \
	case "$${first##*/}" in podman|buildah) format="--format docker";; esac; \
	set -x; \
	$$engine build $$format --build-arg BASE=$(BASE) $(IMAGE_FLAGS) -t $(IMAGE) .

# Every artifact of a release, all of one version, in dist/: both Python packages' wheels
# and sdists, the npm tarball, the contract bundle, and the image (its build context when
# no engine is present). release/dist.py; publishing them: docs/RELEASING.md.
dist: $(VENV)/.installed-test
	$(BIN)/python release/dist.py

smoke:
	@engine=$$(ENGINE='$(ENGINE)' deploy/engine.sh) || exit 2; \
	ENGINE="$$engine" deploy/smoke.sh $(IMAGE)

# constraints.txt anew: the newest versions pyproject.toml allows of every package the
# project and its test, dev, bench and otel extras pull in, installed into a fresh venv
# and frozen (the project itself left out). Run it after changing a dependency in
# pyproject.toml, and commit both files.
LOCK_EXTRAS := test,dev,bench,otel
lock:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --quiet --upgrade pip; \
	"$$tmp/venv/bin/python" -m pip install --quiet ".[$(LOCK_EXTRAS)]"; \
	{ \
		echo "# Every package the project and its extras ($(LOCK_EXTRAS)) install, at an exact version:"; \
		echo "# every pip install of the Makefile, CI and the Dockerfile takes -c $(CONSTRAINTS)."; \
		echo "# Made by 'make lock' (pip freeze of a fresh venv, Python $$("$$tmp/venv/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'))."; \
		echo "# After changing a dependency in pyproject.toml: make lock, and commit both files."; \
		"$$tmp/venv/bin/python" -m pip freeze --exclude domino-rules; \
	} > "$$tmp/constraints.txt"; \
	mv "$$tmp/constraints.txt" $(CONSTRAINTS); \
	echo "$(CONSTRAINTS): $$(grep -vc '^#' $(CONSTRAINTS)) packages"

$(VENV)/.installed: pyproject.toml $(CONSTRAINTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(PIP_INSTALL) -e .
	touch $@

# the tests run with the otel extra too: tracing's access-line ids are checked end to end
$(VENV)/.installed-test: $(VENV)/.installed
	$(PIP_INSTALL) -e '.[test,otel]'
	touch $@

$(VENV)/.installed-bench: $(VENV)/.installed-test
	$(PIP_INSTALL) -e '.[test,otel,bench]'
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-test
	$(PIP_INSTALL) -e '.[test,otel,dev]'
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info service/*.egg-info .pytest_cache
