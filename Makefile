# benchdash: `make up` runs the product, `make test` runs every suite.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

# `make check`: the edit-test loop (lint, types, unit suites); `make test`: everything.
.PHONY: up down deps-up deps-test install check check-backend check-runners check-frontend test lint test-backend test-runners test-integration \
	test-suites test-systems test-frontend test-fuzz test-flaky test-compose bench bench-bigread \
	clean-data

# What a fresh machine lacks is installed (as root) or named with the command to run.
deps-up:
	@python3 scripts/ensure-deps up

deps-test:
	@python3 scripts/ensure-deps test

up: deps-up install
	@$(PY) scripts/up.py

# Stop a stack left running: native processes, the embedded PostgreSQL, a Compose stack.
down:
	@if [ -x $(PY) ]; then $(PY) scripts/up.py down; else python3 scripts/up.py down; fi

install: $(STAMP)

$(STAMP): backend/pyproject.toml $(wildcard runners/pyproject.toml)
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e 'backend[dev]'
	@if [ -f runners/pyproject.toml ]; then $(PIP) install -q -e 'runners[dev,agent]'; fi
	@touch $(STAMP)

PY_SCRIPTS := scripts/offline-images scripts/route-table scripts/check-module-size scripts/ensure-deps \
	scripts/check-error-log scripts/check-survivors

# ruff over every Python file of the repository (runners/ by its own settings, the top-level
# systems/ hold none), backend/benchdash/systems included.
lint: install
	$(VENV)/bin/ruff format --check . $(PY_SCRIPTS)
	$(VENV)/bin/ruff check . $(PY_SCRIPTS)
	$(VENV)/bin/python scripts/check-module-size
	cd backend && ../$(VENV)/bin/mypy benchdash
	cd backend && ../$(VENV)/bin/lint-imports

# The edit-test loop: lint and types of every part, the backend suite (real PostgreSQL), the
# runner unit tests and the frontend's Vitest; no systems, integration or browser tests.
# After lint, the three suites run at once (each one's output kept together); the backend
# suite in two processes, a database each (pytest-xdist).
check: install
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory lint && \
	$(MAKE) --no-print-directory -j3 --output-sync=target check-backend check-runners \
	  check-frontend || exit 1; \
	echo "make check: passed in $$(( $$(date +%s) - start )) s"

check-backend:
	cd backend && ../$(VENV)/bin/pytest -q -p no:randomly -n 2

check-runners:
	$(MAKE) --no-print-directory -C runners test PY=$(abspath $(PY))

check-frontend:
	$(MAKE) --no-print-directory -C frontend typecheck lint unit

test-backend: lint
	cd backend && ../$(VENV)/bin/pytest -n 2

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

# The embedded PostgreSQL is held by ownership (scripts/pgowner.py): `make test` starts it and
# marks it as its own (or adopts one whose holder is gone, as after a killed `make up`), and
# stops it at the end only if the mark still names this run; one held by a live `make up`, or
# started by hand, is left running.
# Every API the suites start appends each 5xx it answers (but 503) to one error log, checked
# after the suites: a 500 no test asserted on still fails `make test`.
# Last, scripts/check-survivors names every process the suites started that still runs (marked
# by BENCHDASH_TEST_RUN, or running from this clone), stops it and fails the run.
# TEST_SUITES: the targets run between (a test of this recipe names a smaller one).
TEST_SUITES ?= test-suites
ERROR_LOG = $(abspath $(or $(BENCHDASH_DATA_DIR),.data))/test-errors.jsonl
test: deps-test install
	@mkdir -p $(dir $(ERROR_LOG)); rm -f $(ERROR_LOG); \
	$(PY) scripts/pgowner.py hold --owner $$$$ --by "make test" || exit 1; \
	BENCHDASH_TEST_RUN=$$$$ BENCHDASH_ERROR_LOG=$(ERROR_LOG) $(MAKE) --no-print-directory \
	  $(addprefix -f ,$(MAKEFILE_LIST)) $(TEST_SUITES); rc=$$?; \
	$(PY) scripts/pgowner.py release --owner $$$$ || rc=1; \
	$(PY) scripts/check-error-log $(ERROR_LOG) || rc=1; \
	$(PY) scripts/check-survivors --run $$$$ || rc=1; \
	if [ $$rc = 0 ]; then echo "make test: every suite passed"; fi; exit $$rc

test-suites: test-backend test-runners test-integration test-systems test-frontend

# schemathesis over the live OpenAPI spec (every phase, stateful included), anonymous and with a
# token, then hypothesis over the SPA fallback and static routes (see tests/fuzz/run.py). A random
# seed is printed; FUZZ_SEED=N replays it. FUZZ_SECONDS=300 searches for that long (.ci/run).
test-fuzz: install
	@$(PIP) install -q -e 'backend[dev,fuzz]'
	$(PY) tests/fuzz/run.py $(if $(FUZZ_SECONDS),--seconds $(FUZZ_SECONDS)) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

# The Docker Compose stack for real (tests/compose/README.md): stand-in base images where no
# registry answers, every system's quick run in its runner container, restart, down + up.
# As root it installs and starts Docker itself. Not part of `make test`.
test-compose: install
	$(PY) -m tests.compose $(COMPOSE_ARGS)

# Flake guard: the Go suites 10 times under -race, cargo test 3 times, the backend suite
# 3 times in random order, the realistic upload streams with 60 examples each.
test-flaky: install
	@for d in systems/*/; do \
	  if [ -f $$d/go.mod ]; then echo "== go test -race -count=10 $$d"; \
	    (cd $$d && go test -race -count=10 ./...) || exit 1; fi; \
	  if [ -f $$d/Cargo.toml ]; then for i in 1 2 3; do echo "== cargo test $$d ($$i/3)"; \
	    (cd $$d && cargo test --locked -q) || exit 1; done; fi; \
	done
	@for i in 1 2 3; do echo "== backend, random order ($$i/3)"; \
	  (cd backend && ../$(VENV)/bin/pytest -q -p randomly) || exit 1; done
	@echo "== realistic upload streams, 60 examples each (hypothesis profile long)"
	cd backend && HYPOTHESIS_PROFILE=long ../$(VENV)/bin/pytest -q tests/results/test_stream_properties.py

bench: install
	$(PY) backend/bench/ingest.py
	$(PY) backend/bench/series.py
	$(PY) backend/bench/reads.py --reuse --trace-gc
	$(PY) backend/bench/lists.py

# 1,000-point reads with 20,000,000 measurements in monthly partitions, COPY-loaded (~11 GB,
# half an hour on 2 cores). BIGREAD_ARGS="--reuse": read the database loaded before; "--drop".
bench-bigread: install
	$(PY) backend/bench/bigread.py $(BIGREAD_ARGS)

clean-data:
	rm -rf .data
