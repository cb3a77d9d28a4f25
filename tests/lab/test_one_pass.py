"""The one-pass study (lab/one_pass): a task release must sit on the retriever's layers to share them."""
from __future__ import annotations

import json

import pytest


def test_a_task_release_not_trained_on_the_retrievers_layers_is_refused(tmp_path):
    from lab.one_pass.network import first_trained_layer

    (tmp_path / "config.json").write_text(json.dumps({"trainable": ["encoder.layer.5."]}))
    with pytest.raises(ValueError, match="not trained on the retriever's layers"):
        first_trained_layer(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"trunk": "retriever",
                                                      "trainable": ["encoder.layer.4.", "encoder.layer.5."]}))
    assert first_trained_layer(tmp_path) == 4
