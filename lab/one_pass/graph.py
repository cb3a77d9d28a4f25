"""The one-pass ingest graph (`network.py`): every sentence read once by the retriever's lower layers, with the
retriever, the practice tagger and PolicyIE as branches of their own top layers and heads above them.

Measured, not shipped (docs/lab/notebook.md, "One pass at ingest"). Its task releases are trained by
`python -m lab.one_pass.probe train` into a folder of their own (`PARTS`), never into weights/.
"""
from __future__ import annotations

from pathlib import Path

from assistant.foundation.resources import checkpoint_dir
from assistant.models.graph_spec import TEXT, GraphSpec

DIRECTORY = checkpoint_dir("one_pass")  # .train/one_pass: the two task releases and the exported graphs
PARTS = {"practices": "practice_categories", "policyie": "policyie"}  # folders under DIRECTORY


def one_pass_spec(directory: Path = DIRECTORY) -> GraphSpec:
    """The graph of the releases under `directory`. Quantized, only the task branches are int8: the trunk (the
    shared layers and the retriever's own) stays fp32, so its vectors are the retriever's."""
    return GraphSpec("one_pass", TEXT, ("embedding", "practices", "intent", "type_i", "type_ii"), release=directory,
                     precision="int8", builder="lab.one_pass.network:build", fp32_scopes=("trunk", "retriever"))
