# Two commands set everything up on a fresh machine: `make run` (the app) and `make test` (the tests).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
PORT ?= 8501
# make eval SPLIT=test|dev|all: the blind test split, the tuned dev split, or both (test first)
SPLIT ?= all
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: install run test test-fast eval bench index clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# torch first, pinned: the CPU wheel lies on disk; an unpinned torch pulls a multi-GB CUDA build.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

index: install
	$(BIN)/codeassist index

run: install index
	$(BIN)/streamlit run app.py --server.headless true --server.address 127.0.0.1 \
	  --server.port $(PORT) --browser.gatherUsageStats false

test: install
	$(BIN)/python -m pytest -q

test-fast: install
	$(BIN)/python -m pytest -q -m "not slow and not browser and not server"

eval: install
	$(BIN)/codeassist eval --split $(SPLIT)

bench: install
	$(BIN)/python -m codeassist.bench

clean:
	rm -rf data .pytest_cache test-artifacts
