"""The retriever package's graphs: the base embedder, the retriever (its release's top layers on the base
model), and a question's two embeddings in one pass. The embedders stay fp32 so that their vectors match
the ones stored by earlier versions."""
from __future__ import annotations

from assistant.foundation.releases import WEIGHTS_DIR
from assistant.models.graph_spec import TEXT, GraphSpec

RELEASE_DIR = WEIGHTS_DIR / "retriever"  # the fine-tuned top layers and the calibration
_NETWORK = "assistant.models.retriever.network"

EMBEDDER = GraphSpec("embedder", TEXT, ("embedding",), release=None, precision="fp32",
                     builder=f"{_NETWORK}:build_embedding")
RETRIEVER = GraphSpec("retriever", TEXT, ("embedding",), release=RELEASE_DIR, precision="fp32",
                      builder=f"{_NETWORK}:build_embedding")
# the base model's embedding (the question classifier reads it) and the retriever's, which re-trains only the
# top layers: the layers below run once for both
QUESTION = GraphSpec("question", TEXT, ("embedding", "retrieval"), release=RELEASE_DIR, precision="fp32",
                     builder=f"{_NETWORK}:build_question", serves=(EMBEDDER.name, RETRIEVER.name))
