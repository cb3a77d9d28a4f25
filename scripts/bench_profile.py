"""What the privacy profile costs at ingest, what the two taggers cost, and `label` before and after the
profile was stored (prints numbers; not a test).

    .venv/bin/python scripts/bench_profile.py [--repeat 3] [--words 5000]

The profile (`answering/profile.py`): for each of the 16 facets the verdict on its plain question, decided by
the answering stages, with the sentences that address the facet; computed at ingest inside the transaction
that stores the version, and stored. For each bundled example and a policy of real text of `--words` words
(`long_policy.py`, as `bench_ingest_speed.py` writes it; 0 leaves it out), after one warm-up, the script
runs whole `Assistant.ingest`s and times, inside each, the profile's computation and its rows' insert; and,
on the same sentences, the retriever's embeddings, the practice tagger and PolicyIE alone. It prints:

- profile: (compute + store the profile) / (the same ingest less them) — the issue's target reading (≤ 30 %);
- taggers: (practice tagger + PolicyIE) / (the whole ingest less them) — the reading of the previous rounds
  (the taggers tag every sentence as part of ingest itself; they predate the profile, which reads their tags);
- `label` before: the label with its 16 glance rows decided now by a pipeline that remembers no question (as
  `label` ran before the profile was stored); after: `Assistant.label`, its rows read from the store.

And, once per process, what a fresh `assistant ingest` now loads beside the ingest models: the question
models of the answering stages, and the 16 questions understood and embedded. Last, `assistant label --json`
in a fresh process (ASSISTANT_SERVER=off) on the stored Amazon example: with its stored profile, and with the
profile deleted first (it is then computed, as every `label` was before: the question models load). Medians
over `--repeat` runs.
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from long_policy import write_long_policy

from assistant.answering.label import build_label
from assistant.answering.pipeline import AnswerPipeline
from assistant.answering.profile import glance
from assistant.engine import Assistant
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES, Settings
from assistant.ingest.parsing import load_document
from assistant.retrieval.search import SentenceSearch
from assistant.store.database import Store
from assistant.understanding.question import QuestionUnderstanding
from assistant.understanding.span import SpanReading

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "policies"
KEYS = ("parse", "embed", "practices", "policyie", "ingest", "profile", "before", "after")


class ProfileClock:
    """Seconds spent computing and inserting profiles inside ingests (wraps the two calls; adds nothing)."""

    def __init__(self, assistant: Assistant) -> None:
        self.seconds = 0.0
        maker, insert = assistant._profile_maker, Store._insert_profile

        def timed_maker(version):
            started = time.perf_counter()
            try:
                return maker(version)
            finally:
                self.seconds += time.perf_counter() - started

        def timed_insert(db, version_id, profile):
            started = time.perf_counter()
            try:
                return insert(db, version_id, profile)
            finally:
                self.seconds += time.perf_counter() - started

        assistant.__dict__["_profile_maker"] = timed_maker
        Store._insert_profile = staticmethod(timed_insert)


def _timed(call, *args, **kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    result = call(*args, **kwargs)
    return time.perf_counter() - started, result


def _parse(path: Path):
    return build_policy(load_document(path, DEFAULT_MAX_BYTES))


def label_before(assistant: Assistant, pipeline: AnswerPipeline, name: str):
    """The label as it was built before the profile was stored: the 16 rows decided now."""
    version = assistant.version(name)
    label = build_label(version.name, version.version, assistant.store.sentences(version.id))
    label.glance = glance(pipeline, version, attributes=assistant.attribute_heads, piextract=assistant.piextract)
    return label


def cli_label(assistant: Assistant, repeat: int) -> None:
    """A fresh process's `assistant label --json`: the profile stored, then deleted before each run."""
    home = assistant.settings.home
    name = assistant.policy_names()[0]
    env = dict(os.environ, ASSISTANT_HOME=str(home), ASSISTANT_SERVER="off")
    command = [sys.executable, "-m", "assistant.frontends.cli", "label", "--policy", name, "--json"]
    seconds: dict[str, list[float]] = {"stored": [], "computed": []}
    for attempt in range(repeat + 1):  # the first is a warm-up
        for case, times in seconds.items():
            if case == "computed":
                with sqlite3.connect(home / "assistant.sqlite3") as db:
                    db.execute("PRAGMA foreign_keys=ON")
                    db.execute("DELETE FROM profiles")
            took, _ = _timed(subprocess.run, command, env=env, check=True, capture_output=True)
            if attempt:
                times.append(took)
    print(f"`assistant label --json` in a fresh process ({name}): profile stored "
          f"{statistics.median(seconds['stored']):.2f} s; profile computed "
          f"{statistics.median(seconds['computed']):.2f} s (medians)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--words", type=int, default=5000)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        assistant = Assistant(Settings(home=Path(folder) / "home"))
        ingest_models, tagging = _timed(lambda: assistant._tagging)
        profile_models, _ = _timed(lambda: assistant._profile_maker)
        print(f"once per process: ingest's models load in {ingest_models:.2f} s; the profile's question models "
              f"and its 16 questions {profile_models:.2f} s more")
        clock = ProfileClock(assistant)
        # As `label` ran before: the same models, no question remembered.
        understanding = QuestionUnderstanding(assistant.embedder, assistant.question_classifier, assistant.facet_classifier,
                                              assistant.parameters.category_confidence)
        forgetful = AnswerPipeline(understanding, SentenceSearch(assistant.store, assistant.retriever),
                                   SpanReading(lambda: assistant.reader), assistant.parameters)
        policies = sorted(EXAMPLES.glob("*.html"))
        if arguments.words:
            policies.append(Path(folder) / f"policy-{arguments.words}.md")
            write_long_policy(policies[-1], arguments.words)
        print(f"{'policy':<20}{'sentences':>10}{'parse':>7}{'embed':>7}{'practices':>10}{'PolicyIE':>9}"
              f"{'ingest':>8}{'profile':>9}{'profile share':>14}{'taggers share':>14}{'label before':>13}"
              f"{'after':>7}")
        for path in policies:
            runs: dict[str, list[float]] = {key: [] for key in KEYS}
            for attempt in range(arguments.repeat + 1):  # the first is a warm-up
                name = f"{path.stem}-{attempt}"
                parse, policy = _timed(_parse, path)
                texts = [s.text for s in policy.sentences]
                embed, _ = _timed(tagging.retriever.encode, texts)
                practices, _ = _timed(tagging.practices.probabilities, texts)
                policyie, _ = _timed(tagging.policyie.facts, texts)
                clock.seconds = 0.0
                ingest, _ = _timed(assistant.ingest, path, name=name, force=True)
                profile = clock.seconds
                before, old = _timed(label_before, assistant, forgetful, name)
                after, new = _timed(assistant.label, name)
                assert new == old, f"{name}: the stored profile's label differs from the one computed now"
                if attempt:
                    for key, value in zip(KEYS, (parse, embed, practices, policyie, ingest, profile, before, after),
                                          strict=True):
                        runs[key].append(value)
            m = {key: statistics.median(values) for key, values in runs.items()}
            profile_share = m["profile"] / (m["ingest"] - m["profile"])
            taggers = m["practices"] + m["policyie"]
            taggers_share = taggers / (m["ingest"] - taggers)
            print(f"{path.stem[:19]:<20}{len(texts):>10}{m['parse']:>7.2f}{m['embed']:>7.2f}{m['practices']:>10.2f}"
                  f"{m['policyie']:>9.2f}{m['ingest']:>8.2f}{m['profile']:>9.3f}{100 * profile_share:>13.1f}%"
                  f"{100 * taggers_share:>13.0f}%{m['before']:>13.3f}{m['after']:>7.3f}", flush=True)
        cli_label(assistant, arguments.repeat)
        assistant.store.close()
    print("seconds (medians). profile = computing + storing the profile inside the ingest; profile share = profile / "
          "(ingest - profile); taggers share = (practices + PolicyIE) / (ingest - them); label before = build the "
          "label and decide its 16 rows now (no question remembered); after = `Assistant.label` (rows stored)")


if __name__ == "__main__":
    main()
