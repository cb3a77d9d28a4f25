"""The practice tagger's graph: one logit per OPP-115 category."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import TEXT, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "practice_categories"
PRACTICES = GraphSpec("practices", TEXT, ("logits",), release=RELEASE_DIR, precision="fp32",
                      builder="assistant.models.practices.network:build")
