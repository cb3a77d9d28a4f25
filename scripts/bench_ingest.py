"""Ingest time per 1,000 sentences on the web-page corpus, stage by stage (prints numbers; not a test).

    python scripts/webpage_corpus.py --mirrors DIR      # first: the pages (data/webpages/pages/)
    python scripts/bench_ingest.py [--pages 12] [--seed 0] [--out bench.json]

Loads the models once (not timed), then ingests `--pages` corpus pages, drawn with `--seed`, into a
temporary store, timing each stage through the pipeline's own parts: parse (HTML → blocks), split
(blocks → sentences), embed / tag practices / read facts (`SentenceTagging.run`, timed by the progress
reports it gives between its stages, so any backend that reports them is measured the same way),
store (FAISS index + SQLite, the privacy profile computed and stored in the same transaction). Prints per stage the median and range over pages of seconds per 1,000
sentences. The yardstick, measured in the same run: the embedder alone on the same sentences.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webpage_corpus import CORPUS, read_index

from assistant.engine import Assistant
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import Settings
from assistant.ingest.parsing import parse_bytes
from assistant.store.index import SentenceIndex

STAGES = ("parse", "split", "embed", "practices", "facts", "store", "total")


class _StageClock:
    """Records when `SentenceTagging.run` reports each of its stages."""

    def __init__(self) -> None:
        self.marks: dict[str, float] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        self.marks.setdefault(stage, time.perf_counter())


def time_page(assistant: Assistant, page: Path, name: str) -> dict[str, float]:
    """Seconds of each stage for one page, and its sentence count."""
    from assistant.ingest.tagging import TAGGING_PIPELINE  # lazy, like the pipeline

    raw = page.read_bytes()
    t0 = time.perf_counter()
    document = parse_bytes(raw, "html", page)
    t1 = time.perf_counter()
    policy = build_policy(document)
    t2 = time.perf_counter()
    clock = _StageClock()
    tagged = assistant.ingest_pipeline.tagging().run(policy, clock)
    t3 = time.perf_counter()
    assistant.store.add_version_if_new(name, str(page), hashlib.sha256(raw).hexdigest(), tagged.policy,
                                       SentenceIndex.build(tagged.vectors), TAGGING_PIPELINE,
                                       profile=assistant._profile_maker)  # as ingest stores it
    t4 = time.perf_counter()
    practices = clock.marks.get("tagging practices", t3)
    facts = clock.marks.get("reading facts", t3)
    return {"sentences": len(policy.sentences), "parse": t1 - t0, "split": t2 - t1, "embed": practices - t2,
            "practices": facts - practices, "facts": t3 - facts, "store": t4 - t3, "total": t4 - t0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = read_index(args.corpus)
    missing = [row["file"] for row in rows if not (args.corpus / row["file"]).exists()]
    if missing:
        print(f"error: {len(missing)} corpus pages missing (first {missing[0]}): run scripts/webpage_corpus.py",
              file=sys.stderr)
        return 1
    chosen = random.Random(args.seed).sample(rows, min(args.pages, len(rows)))
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)))
        started = time.perf_counter()
        tagging = assistant.ingest_pipeline.tagging()
        tagging.run(build_policy(parse_bytes(b"<p>We collect your email address.</p>", "html", "warm-up")))
        _ = assistant._profile_maker  # loads the profile's question models, and its 16 questions embedded
        print(f"models loaded and warmed up in {time.perf_counter() - started:.1f} s (not counted)", file=sys.stderr)
        results = []
        for index, row in enumerate(chosen):
            timing = time_page(assistant, args.corpus / row["file"], f"page {index}")
            policy = build_policy(parse_bytes((args.corpus / row["file"]).read_bytes(), "html", row["file"]))
            t0 = time.perf_counter()
            assistant.retriever.encode([sentence.text for sentence in policy.sentences])
            timing["yardstick: embed alone"] = time.perf_counter() - t0
            results.append({"organisation": row["organisation"], **timing})
            print(f"{row['organisation']:22} {timing['sentences']:5} sentences  {timing['total']:6.1f} s", file=sys.stderr)
    print(f"\n{len(results)} pages, {sum(r['sentences'] for r in results)} sentences "
          f"(seconds per 1,000 sentences: median [min – max] over pages)")
    for stage in (*STAGES, "yardstick: embed alone"):
        per_k = [1000 * r[stage] / r["sentences"] for r in results if r["sentences"]]
        print(f"  {stage:24} {statistics.median(per_k):7.2f}  [{min(per_k):.2f} – {max(per_k):.2f}]")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
