#!/usr/bin/env bash
# The wheel check (part of `make test`): build the wheel from this checkout, install it into a fresh
# virtual environment, and run the assistant from outside the checkout: --help, an ingest, an ask.
# It fails if anything the assistant needs (weights, corpora, word lists) is missing from the wheel.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK" "$ROOT/build"' EXIT

echo "wheel check: building the wheel"
rm -rf "$ROOT/build"  # setuptools builds in-tree: a stale build/ would ship removed files
"$ROOT/.venv/bin/python" -m pip wheel --quiet --no-deps --no-build-isolation -w "$WORK/dist" "$ROOT"
WHEEL=$(ls "$WORK"/dist/privacy_assistant-*.whl)
echo "wheel check: $(basename "$WHEEL") ($(du -h "$WHEEL" | cut -f1))"
for needed in assistant/weights/retriever/model.safetensors assistant/weights/selection.json \
    assistant/corpora/archives/privacyqa.tar.xz assistant/models/questions/wordlists/vague.txt \
    assistant/evaluation/privacyqa.py assistant/understanding/lang/concepts.toml \
    assistant/understanding/lang/stem_frequencies.tsv; do
    "$ROOT/.venv/bin/python" -c "import sys, zipfile; sys.exit('$needed' not in zipfile.ZipFile('$WHEEL').namelist())" \
        || { echo "wheel check: $needed is missing from the wheel" >&2; exit 1; }
done

echo "wheel check: installing into a fresh virtual environment"
"$PYTHON" -m venv "$WORK/venv"
# The CPU build of torch first, as the Makefile does; then the wheel with the project's pins.
"$WORK/venv/bin/pip" install --quiet "torch==2.13.0"
"$WORK/venv/bin/pip" install --quiet -c "$ROOT/requirements/constraints.txt" "$WHEEL"

cd "$WORK"  # outside the checkout: nothing can come from it but the policy file
export ASSISTANT_HOME="$WORK/home" ASSISTANT_CACHE="$WORK/cache"
"$WORK/venv/bin/assistant" --help > /dev/null
"$WORK/venv/bin/assistant" ingest "$ROOT/examples/policies/amazon.com.html" --name amazon
"$WORK/venv/bin/assistant" ask "Does Amazon use cookies?" --policy amazon --json > answer.json
"$WORK/venv/bin/python" - <<'PY'
import json
answer = json.load(open("answer.json"))
assert answer["answerable"] and "cookie" in answer["answer"].lower(), answer
import assistant
assert "site-packages" in assistant.__file__, assistant.__file__
print("wheel check: ok:", answer["answer"][:80])
PY
