# One command to run, one to test; each installs what it needs into .venv first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: serve test proto bench clean

serve: $(VENV)/.installed
	$(BIN)/domino-rules serve

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

proto: $(VENV)/.installed-test
	$(BIN)/python proto/generate.py

bench: $(VENV)/.installed
	$(BIN)/python bench/bench.py

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

clean:
	rm -rf $(VENV) build *.egg-info service/*.egg-info .pytest_cache
