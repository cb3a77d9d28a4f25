"""The retriever package's torch modules, built for export and the torch backend (`assistant.models.retriever.graph`):
the embedders end in mean pooling and L2 normalisation (sentence-transformers' all-MiniLM-L6-v2 pipeline), and the
question graph gives the base embedder's and the retriever's vectors of one text in one pass."""
from __future__ import annotations

from pathlib import Path

import torch

from assistant.foundation.encoder import layer_inputs, load_base_encoder, mean_pool, run_layers
from assistant.foundation.releases import load_release


class EmbeddingGraph(torch.nn.Module):
    """BERT → mean pooling → L2 normalisation: a sentence embedding."""

    def __init__(self, bert) -> None:
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask):
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return torch.nn.functional.normalize(mean_pool(states, attention_mask), dim=-1)


class QuestionGraph(torch.nn.Module):
    """A question's two embeddings in one pass: the base model's (the question classifier reads it) and the
    retriever's, whose release re-trains only the top layers, so the layers below run once for both."""

    def __init__(self, base, retriever, shared_layers: int) -> None:
        super().__init__()
        self.base = base
        self.shared_layers = shared_layers
        self.retriever_top = retriever.encoder.layer[shared_layers:]

    def forward(self, input_ids, attention_mask):
        states, mask = layer_inputs(self.base, input_ids, attention_mask)
        retrieval = states = run_layers(self.base.encoder.layer[:self.shared_layers], states, mask)
        states = run_layers(self.base.encoder.layer[self.shared_layers:], states, mask)
        retrieval = run_layers(self.retriever_top, retrieval, mask)
        return (torch.nn.functional.normalize(mean_pool(states, attention_mask), dim=-1),
                torch.nn.functional.normalize(mean_pool(retrieval, attention_mask), dim=-1))


def shared_layers(state: dict[str, torch.Tensor], total: int) -> int:
    """How many of the base model's bottom layers a release leaves as they are (it holds only the layers it
    re-trained); an error if it changes anything outside the transformer layers."""
    changed = set()
    for key in state:
        if not key.startswith("encoder.layer."):
            raise ValueError(f"the release changes {key}: no layers are shared with the base model")
        changed.add(int(key.split(".")[2]))
    return min(changed, default=total)


def build_embedding(bert, directory: Path | None) -> EmbeddingGraph:
    """The embedder (`directory` None) or a retriever release's layers applied to the base encoder `bert`."""
    if directory is not None:
        state, _ = load_release(directory)
        unexpected = bert.load_state_dict(state, strict=False).unexpected_keys
        if unexpected:
            raise RuntimeError(f"{directory}: weights for unknown parameters {unexpected[:3]}")
    return EmbeddingGraph(bert)


def build_question(bert, directory: Path) -> QuestionGraph:
    """The question graph: the base encoder `bert`, with a copy of it that takes the retriever release's layers."""
    retriever, _ = load_base_encoder()
    state, _ = load_release(directory)
    retriever.load_state_dict(state, strict=False)
    return QuestionGraph(bert, retriever, shared_layers(state, bert.config.num_hidden_layers))
