"""The PI-Extract tagger's graph: O/B/I scores of its four tag layers for every word piece."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import TEXT, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "piextract"
PIEXTRACT = GraphSpec("piextract", TEXT, ("tags",), release=RELEASE_DIR, precision="fp32",
                      builder="assistant.models.piextract.network:build")
