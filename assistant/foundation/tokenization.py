"""The base model's fast tokenizer (`tokenizers`, read from its tokenizer.json) and batches as numpy arrays.

The same word pieces as the transformers tokenizer the models were trained with, without importing
transformers: texts, pre-split words (PolicyIE) and question/context pairs (the span reader), padded to
the longest in the batch.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from tokenizers import Encoding, Tokenizer

from assistant.foundation.base_model import bundled_model_dir


@dataclass(frozen=True)
class TokenBatch:
    """Model inputs (int64, batch × tokens) and each row's encoding (word ids, offsets, sequence ids)."""

    input_ids: np.ndarray
    attention_mask: np.ndarray
    token_type_ids: np.ndarray
    encodings: list[Encoding]

    def feeds(self, names: Sequence[str]) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in names}


@cache
def _base_tokenizer() -> Tokenizer:
    """The base tokenizer, read once (~70 ms), padding to the longest row."""
    tok = Tokenizer.from_file(str(bundled_model_dir() / "tokenizer.json"))
    tok.enable_padding(pad_id=tok.token_to_id("[PAD]"), pad_token="[PAD]")
    return tok


_lock = threading.Lock()  # truncation is the shared tokenizer's state: set and used under one lock


def _encode(max_length: int, strategy: str, inputs: list, **options) -> list[Encoding]:
    tok = _base_tokenizer()
    with _lock:
        tok.enable_truncation(max_length, strategy=strategy)
        return tok.encode_batch(inputs, **options)


def _batch(encodings: list[Encoding]) -> TokenBatch:
    return TokenBatch(np.array([e.ids for e in encodings], dtype=np.int64),
                      np.array([e.attention_mask for e in encodings], dtype=np.int64),
                      np.array([e.type_ids for e in encodings], dtype=np.int64), encodings)


def encode_texts(texts: Sequence[str], max_length: int) -> TokenBatch:
    return _batch(_encode(max_length, "longest_first", list(texts)))


def encode_words(token_lists: Sequence[Sequence[str]], max_length: int) -> TokenBatch:
    """Pre-split words (each word's pieces keep its index in `Encoding.word_ids`)."""
    return _batch(_encode(max_length, "longest_first", [list(t) for t in token_lists], is_pretokenized=True))


def first_pieces(word_ids: list[int | None]) -> list[int]:
    """For `encode_words` rows (their `word_ids`): the index of each word's first word piece, in word order (words cut by truncation are absent)."""
    seen, firsts = set(), []
    for position, word in enumerate(word_ids):
        if word is not None and word not in seen:
            seen.add(word)
            firsts.append(position)
    return firsts


def encode_pairs(questions: Sequence[str], contexts: Sequence[str], max_length: int) -> TokenBatch:
    """`[CLS] question [SEP] context [SEP]`, truncating only the context; offsets are into each part."""
    return _batch(_encode(max_length, "only_second", list(zip(questions, contexts))))


def piece_offsets(text: str, max_length: int) -> list[tuple[int, int]]:
    """Character offsets of the word pieces of `text` (no special tokens)."""
    return _encode(max_length, "longest_first", [text], add_special_tokens=False)[0].offsets
