# benchdash: `make up` runs the product, `make test` runs every suite.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: up install test lint test-backend test-runners test-integration test-systems test-frontend bench clean-data

up: install
	@$(PY) scripts/up.py

install: $(STAMP)

$(STAMP): backend/pyproject.toml $(wildcard runners/pyproject.toml)
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e 'backend[dev]'
	@if [ -f runners/pyproject.toml ]; then $(PIP) install -q -e 'runners[dev,agent]'; fi
	@touch $(STAMP)

lint: install
	$(VENV)/bin/ruff format --check backend migrations scripts tests
	$(VENV)/bin/ruff check backend migrations scripts tests
	cd backend && ../$(VENV)/bin/mypy benchdash
	cd backend && ../$(VENV)/bin/lint-imports

test-backend: lint
	cd backend && ../$(VENV)/bin/pytest

test-runners: install
	@if [ -f runners/Makefile ]; then $(MAKE) -C runners test PY=$(abspath $(PY)); fi

test-integration: install
	$(VENV)/bin/pytest -ra -p no:cacheprovider tests/integration

test-systems:
	@for d in systems/*/; do \
	  if [ -f $$d/Makefile ]; then echo "== $$d"; $(MAKE) -C $$d test || exit 1; fi; \
	done

test-frontend:
	@if [ -f frontend/package.json ]; then $(MAKE) -C frontend test; fi

test: install test-backend test-runners test-integration test-systems test-frontend
	@echo "make test: every suite passed"

bench: install
	$(PY) backend/bench/ingest.py
	$(PY) backend/bench/series.py

clean-data:
	rm -rf .data
