# Two entry points: `make run` (the main job on the embedded defaults) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run serve test setup bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/memfix autofix samples/shop

serve: $(STAMP)
	$(BIN)/memfix serve

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks.webhook
	$(BIN)/python -m benchmarks.ring
	$(BIN)/python -m benchmarks.autofix

clean:
	rm -rf $(VENV) .pytest_cache
