# Touchline: `make run` runs the simulated table with its web page, `make test` runs every test.
# Both create the virtual environment in .venv on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml scripts/bootstrap.sh | cksum | cut -d' ' -f1)

.PHONY: run test bench venv browser clean

venv: $(STAMP)

$(STAMP): pyproject.toml scripts/bootstrap.sh
	PYTHON=$(PYTHON) bash scripts/bootstrap.sh $(VENV)
	touch $@

run: $(STAMP)
	$(BIN)/touchline run --sim

browser:
	bash scripts/ensure-chromium.sh

test: $(STAMP) browser
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
