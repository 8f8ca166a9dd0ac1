# Two commands: `make run` serves the platform, `make test` runs every test.
# Both set everything up first (virtualenv, packages, database). See README.md.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
# pytest-xdist workers of each test run: one per core of a 2-core machine. Each has its own test
# database and Redis database (config/settings/test.py).
TEST_WORKERS ?= 2

.PHONY: run test test-steps setup venv dev migrate demo static serve worker beat bench lint typecheck imports test-browser test-sqlite clean

# `make run` installs what the platform needs; `make test` adds the test and benchmark tools.
$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(DEV_STAMP)

venv: $(STAMP)

dev: $(DEV_STAMP)

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

static: venv
	$(PY) manage.py collectstatic --noinput --verbosity 0

setup: demo static

run: setup
	@echo "Serving on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	@bash scripts/serve.sh $(HOST) $(PORT)

# The ASGI server alone (production runs several of these behind a proxy).
serve: venv
	$(VENV)/bin/uvicorn config.asgi:application --app-dir platform --host $(HOST) --port $(PORT) --lifespan off --no-proxy-headers --ws-max-size 1048576

worker: venv
	cd platform && ../$(VENV)/bin/celery -A config worker --loglevel INFO

beat: venv
	cd platform && ../$(VENV)/bin/celery -A config beat --loglevel INFO

# Every step below, then its running time (also when a step fails): "make test: NNN s".
test:
	@start=$$(date +%s); $(MAKE) --no-print-directory test-steps; rc=$$?; \
	  echo "make test: $$(( $$(date +%s) - start )) s"; exit $$rc

test-steps: dev migrate
	$(PY) manage.py check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	PYTHONPATH=platform $(VENV)/bin/lint-imports
	$(VENV)/bin/pytest -n $(TEST_WORKERS) -m "not browser" ; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 1; fi; exit $$rc
	if [ -n "$$DATABASE_URL" ]; then $(MAKE) test-sqlite; fi
	$(MAKE) test-browser

# The embedded mode's SQLite, when the run above was on PostgreSQL: the modules whose SQL differs
# by database (the ledger, settlement, history, integrity, operators' figures, the live store).
test-sqlite: dev
	env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL $(VENV)/bin/pytest -n $(TEST_WORKERS) -m "not browser" \
	  tests/wallet tests/history tests/integrity tests/operations tests/tables tests/games/live tests/kernel/test_rows.py

# Browser tests (Chromium + Playwright) in their own run; scripts/ci_system_packages.sh installs
# Chromium and the CJK font. Screenshots of every table page land in artifacts/.
test-browser: dev
	bash scripts/ci_system_packages.sh
	$(VENV)/bin/pytest -n $(TEST_WORKERS) -m browser tests/browser ; rc=$$?; if [ $$rc -eq 5 ]; then echo "no browser tests collected"; exit 1; fi; exit $$rc

lint: dev
	$(VENV)/bin/ruff check .

# mypy with the settings in pyproject.toml: strict for games/engine and wallet, the default checks elsewhere.
typecheck: dev
	$(VENV)/bin/mypy

# The import contracts of pyproject.toml ([tool.importlinter]; docs/ARCHITECTURE.md "Imports").
imports: dev
	PYTHONPATH=platform $(VENV)/bin/lint-imports

# Every benchmark, one after the other (figures in bench/README.md). Needs PostgreSQL and Redis.
bench: dev
	$(PY) bench/eval5.py
	$(PY) bench/arrange_latency.py --hands 1000
	$(PY) bench/strength.py --deals 20000 --workers 2
	$(PY) bench/ledger.py
	$(PY) bench/export.py
	bash bench/live_load.sh 20 20
	bash bench/noisy_neighbour.sh 20 10

clean:
	rm -rf $(VENV) var staticfiles
