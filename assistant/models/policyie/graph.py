"""The PolicyIE model's graph: intent scores and the two taggers' scores per word piece."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import TEXT, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "policyie"
POLICYIE = GraphSpec("policyie", TEXT, ("intent", "type_i", "type_ii"), release=RELEASE_DIR, precision="fp32",
                     builder="assistant.models.policyie.network:build")
