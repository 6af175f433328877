# Touchline: `make run` runs the simulated table with its web page, `make test` runs every test.
# Both create the virtual environment in .venv on first use.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml scripts/bootstrap.sh | cksum | cut -d' ' -f1)

.PHONY: run test quick bench soak venv browser clean pi-check

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

# The inner loop (about half a minute): everything but the slow, browser and whole-game tests, which make test
# runs too; on every core, keeping compiled modules between runs (PYTHONDONTWRITEBYTECODE would compile all each time).
quick: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest --quick -q -n auto

bench: $(STAMP)
	$(BIN)/python -m bench

# An accelerated 8-hour shop day against touchline run --sim (about 20 minutes; not part of `make test`).
soak: $(STAMP)
	$(BIN)/python -m tests.soak.day

# Opt-in, not part of `make test`: installs Touchline in emulated Debian Bookworm arm64 and armhf userlands
# (systemd/pi-check.sh; needs root, mmdebstrap, qemu-user-static and binfmt-support) and fetches the page.
pi-check:
	bash systemd/pi-check.sh $(PI_CHECK_ARCHS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
