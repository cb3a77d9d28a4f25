"""One pass at ingest, measured and not shipped (docs/lab/notebook.md, "One pass at ingest").

    .venv/bin/python -m lab.one_pass.probe train                     # both task releases (CPU: about 35 min; resumable)
    .venv/bin/python -m lab.one_pass.probe measure [--fp32] [--test] [--words 40000]

`train` fine-tunes the practice tagger and PolicyIE on the retriever's encoder (`trunk`), re-training only their top
`TOP_LAYERS` layers, into .train/one_pass/ (the shipped recipes otherwise; the layers' rate doubled, since two layers
on a frozen trunk underfit at the all-layer rate). `measure` scores both as the one-pass graph reads them (int8
task branches; `--fp32`: all fp32) on the validation splits (`--test`: the test splits, for the report only), and
times one read of a real-text policy of `--words` words beside one plain MiniLM-L6 pass over its sentences.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from assistant.foundation.sentences import build_policy
from assistant.ingest.parsing import load_document
from assistant.models.policyie import train as policyie_train
from assistant.models.policyie.evaluate import evaluate as evaluate_policyie
from assistant.models.practices import train as practices_train
from assistant.models.practices.evaluate import evaluate as evaluate_practices
from assistant.models.retriever.model import Embedder
from lab.one_pass.graph import DIRECTORY, PARTS
from lab.one_pass.reader import OnePassReader

TOP_LAYERS = 2
RATE = 2e-4


def train() -> None:
    stages = [replace(practices_train.SEGMENT_STAGE, trainable_layers=TOP_LAYERS, trunk="retriever",
                      encoder_learning_rate=RATE),
              replace(practices_train.SENTENCE_STAGE, trainable_layers=TOP_LAYERS, trunk="retriever",
                      encoder_learning_rate=RATE / 2)]
    practices_train.train_release(stages, directory=DIRECTORY / PARTS["practices"],
                                  checkpoint_dir=DIRECTORY / "checkpoints" / "practices")
    policyie_train.train_release(
        policyie_train.TrainConfig(trainable_layers=TOP_LAYERS, trunk="retriever", encoder_learning_rate=RATE),
        directory=DIRECTORY / PARTS["policyie"], checkpoint_dir=DIRECTORY / "checkpoints" / "policyie")
    shutil.rmtree(DIRECTORY / "onnx", ignore_errors=True)  # exported from the releases just replaced


def measure(precision: str, test: bool, words: int) -> dict:
    reader = OnePassReader.load(precision=precision)
    result = {
        "precision": precision,
        "practices_segments": evaluate_practices("test" if test else "validation",
                                                 classifier=reader.practice_classifier()),
        "practices_sentences": evaluate_practices("test" if test else "validation", sentences=True,
                                                  classifier=reader.practice_classifier()),
        "policyie": evaluate_policyie("test" if test else "valid", tagger=reader.policyie_tagger()),
    }
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from long_policy import write_long_policy  # the benchmarks' real-text policy (scripts/)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "policy.md"
        write_long_policy(path, words)
        texts = [s.text for s in build_policy(load_document(path, 20 * 1024 * 1024)).sentences]
    yardstick = Embedder()
    reader.read(texts[:64]), yardstick.encode(texts[:64])  # warm-up
    started = time.perf_counter()
    reader.read(texts)
    one_pass = time.perf_counter() - started
    started = time.perf_counter()
    yardstick.encode(texts)
    plain = time.perf_counter() - started
    result["read"] = {"sentences": len(texts), "one_pass_s": round(one_pass, 2), "minilm_pass_s": round(plain, 2),
                      "ratio": round(one_pass / plain, 2)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=("train", "measure"))
    parser.add_argument("--fp32", action="store_true")
    parser.add_argument("--test", action="store_true")
    parser.add_argument("--words", type=int, default=40000)
    args = parser.parse_args()
    if args.command == "train":
        train()
    else:
        print(json.dumps(measure("fp32" if args.fp32 else "int8", args.test, args.words), indent=1))


if __name__ == "__main__":
    main()
