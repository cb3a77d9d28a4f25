# Two commands work on a fresh machine: `make demo` and `make test` (each creates .venv on first run).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export ASSISTANT_DEMO_HOME ?= $(CURDIR)/.demo-home
DEMO_POLICY ?= examples/policies/amazon.com.html

.PHONY: venv export-models demo test wheel-check clean-demo rasa-venv chat-venv rasa-train rasa-test rasa-cv web-deps chromium chat-test-setup \
	demo-store chat serve stop

venv: $(STAMP)

$(STAMP): pyproject.toml requirements/constraints.txt
	$(PYTHON) -m venv $(VENV)
	# The CPU build of torch first, so nothing pulls the multi-GB CUDA build from the registry.
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -c requirements/constraints.txt -e ".[test,corpus]"
	touch $(STAMP)

# Each shipped model's ONNX graph, exported once into the user's cache (ASSISTANT_ONNX_CACHE), so the first
# `assistant ask` on a fresh machine is fast; quick when the cache already holds them.
export-models: $(STAMP)
	$(BIN)/assistant export

demo: $(STAMP) export-models
	ASSISTANT_HOME=$(ASSISTANT_DEMO_HOME) $(BIN)/python -m assistant.frontends.demo $(DEMO_POLICY)

# The wheel check first (a few minutes), so pytest's summary is the last line. The tests run on TEST_WORKERS
# processes (pytest-xdist), each test module on one of them, the chat's tests together (tests/conftest.py).
TEST_WORKERS ?= 2
test: $(STAMP) export-models chat-test-setup rasa-test
	scripts/wheel_check.sh
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

wheel-check: $(STAMP)
	scripts/wheel_check.sh

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

# The engine environment's chat extra: rasa-sdk for the custom actions, playwright for the browser test.
CHAT_STAMP := $(VENV)/.chat-installed

chat-venv: $(CHAT_STAMP)

$(CHAT_STAMP): $(STAMP) pyproject.toml requirements/rasa-actions-constraints.txt
	$(BIN)/pip install --quiet -c requirements/rasa-actions-constraints.txt -e ".[chat]"
	touch $(CHAT_STAMP)

# Rasa reads only these files (data/ also holds the pinned lists of the screening and web-page corpora).
RASA_DATA := data/nlu.yml data/stories.yml data/rules.yml
RASA_MODEL := models/privacy-assistant.tar.gz
# A trained model is kept in the per-user cache under a hash of all it is trained from (config, domain, data, the
# pinned Rasa environment), as the ONNX graphs are: a fresh clone on the same machine copies it instead of training.
RASA_CACHE ?= $(or $(ASSISTANT_CACHE),$(HOME)/.cache/privacy-assistant)/rasa
export RASA_TELEMETRY_ENABLED := false
export TF_CPP_MIN_LOG_LEVEL := 2
export ACTIONS_PORT ?= 5055
export RASA_PORT ?= 5005
export WEB_PORT ?= 8000

rasa-train: $(RASA_MODEL)

$(RASA_MODEL): $(RASA_STAMP) config.yml domain.yml $(RASA_DATA)
	@key=$$(cat config.yml domain.yml $(RASA_DATA) $(RASA_REQS) | sha256sum | cut -c1-16); \
	cached="$(RASA_CACHE)/privacy-assistant-$$key.tar.gz"; \
	if [ -f "$$cached" ]; then \
		mkdir -p models && cp "$$cached" $(RASA_MODEL) && echo "rasa model: $$cached (cached)"; \
	else \
		$(RASA_BIN)/rasa train --data $(RASA_DATA) --config config.yml --domain domain.yml \
			--out models --fixed-model-name privacy-assistant && \
		mkdir -p "$(RASA_CACHE)" && cp $(RASA_MODEL) "$$cached.partial" && mv "$$cached.partial" "$$cached"; \
	fi

# Rasa test stories: every turn's intent and action must be predicted (no action server needed).
rasa-test: $(RASA_MODEL)
	$(RASA_BIN)/rasa test core --model $(RASA_MODEL) --stories tests/chat/test_stories.yml \
		--out test-artifacts/rasa-core --fail-on-prediction-errors

# NLU cross-validation for docs/results.md (minutes; not part of make test).
RASA_CV_FOLDS ?= 3
rasa-cv: $(RASA_STAMP)
	$(RASA_BIN)/rasa test nlu --nlu data/nlu.yml --config config.yml --cross-validation \
		--folds $(RASA_CV_FOLDS) --out test-artifacts/rasa-nlu-cv

# The chat page's client library (socket.io-client) and axe-core (for the browser test) from the npm
# registry; web/server.py serves socket.io-client locally.
WEB_STAMP := web/node_modules/.installed

web-deps: $(WEB_STAMP)

$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

# Debian's headless Chromium for the Playwright test (never `playwright install`).
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; \
	fi

chat-test-setup: $(CHAT_STAMP) $(RASA_MODEL) $(WEB_STAMP) chromium

# The bundled example policies in the demo store.
demo-store: $(STAMP)
	ASSISTANT_HOME=$(ASSISTANT_DEMO_HOME) $(BIN)/python scripts/ingest_examples.py

# Chat in the terminal: action server in the background, `rasa shell` here (/stop or Ctrl-D ends).
chat: $(CHAT_STAMP) $(RASA_MODEL) demo-store
	ASSISTANT_HOME=$(ASSISTANT_DEMO_HOME) scripts/serve.sh shell

# Action server, Rasa server (REST + socketio) and the chat page in the background; `make stop` ends them.
serve: $(CHAT_STAMP) $(RASA_MODEL) $(WEB_STAMP) demo-store
	ASSISTANT_HOME=$(ASSISTANT_DEMO_HOME) scripts/serve.sh start

stop:
	scripts/serve.sh stop
