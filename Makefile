# Two commands on a fresh machine: `make run` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck setup clean install-pi screens

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall when pyproject.toml changes; editable so the checkout is what runs.
$(STAMP): pyproject.toml systemd/constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' -c systemd/constraints.txt
	touch $(STAMP)

setup: $(STAMP)

# Off the Pi this is the simulated table with keyboard controls (a window, or headless without a display).
# One BLAS thread, as the service runs (systemd/jackpot-companion.service says why).
run: $(STAMP)
	OPENBLAS_NUM_THREADS=1 $(BIN)/companion run

# On Raspberry Pi OS: apt packages, the service user, a venv with system site packages, the unit.
install-pi:
	sudo scripts/install-pi.sh

# Every picture in the README and docs/, drawn from real games (tests/test_snapshots.py checks the
# screen's); the scoreboard's two are taken in Debian's headless Chromium when it is installed.
screens: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m companion.snapshots
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then \
		SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m tests.scoreboard_browser docs/screens; \
	else echo "screens: scoreboard pictures not retaken: apt-get install chromium chromium-driver"; fi

lint: $(STAMP)
	$(BIN)/ruff check companion hardware vision tests
	$(BIN)/mypy

# One test process per core; a file's tests stay in one process, so a module's costly fixture (a
# deck taught from the realcards photos) is made once, not once per process.
test: lint
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock $(BIN)/python -m pytest -n auto --dist loadfile

clean:
	rm -rf $(VENV) build *.egg-info
