"""The one-pass ingest graph: every sentence read once by the shared lower layers, with the retriever, the
practice tagger and PolicyIE as branches of their own top layer and heads above them (`network.py`).

Its release (weights/one_pass/) has no weights of its own: its config names the releases it joins (`parts`),
and their files are what its cached graph is made from."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import TEXT, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "one_pass"
# int8 for the practice tagger's and PolicyIE's top layers and heads (their numbers moved by at most 0.3 points:
# docs/results.md); the trunk (the shared layers and the retriever's own) stays fp32 at any precision: its vectors
# are those older stores hold and the question's retriever vector is compared with.
ONE_PASS = GraphSpec("one_pass", TEXT, ("embedding", "practices", "intent", "type_i", "type_ii"),
                     release=RELEASE_DIR, precision="int8", builder="assistant.models.one_pass.network:build",
                     fp32_scopes=("trunk", "retriever"))
