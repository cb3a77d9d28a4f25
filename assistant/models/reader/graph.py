"""The span reader's graph: start and end scores for every word piece of a question/context pair. It runs
in int8: PolicyQA's scores stay within 0.5 points of torch (docs/results.md, "ONNX Runtime")."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import PAIR, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "reader"
READER = GraphSpec("reader", PAIR, ("start", "end"), release=RELEASE_DIR, precision="int8",
                   builder="assistant.models.reader.network:build")
