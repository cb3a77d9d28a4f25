"""What the privacy profile costs: its share of ingest time, and the at-a-glance rows read from it
(prints numbers; not a test).

    .venv/bin/python scripts/bench_profile.py [--repeat 3]

The profile is what ingest computes for every sentence beyond the retriever's vector: the OPP-115
practice tagger's probabilities and PolicyIE's facts (with their negation and condition slots), which
the answer's verdict and the label read. For each bundled example, after one warm-up, the script times
the stages of ingest separately — parse and split, the retriever's embeddings, the practice tagger,
PolicyIE — and the whole `assistant ingest`; it prints what the profile adds to ingest without it
(its yardstick, measured in the same run: the whole ingest less the profile's two stages), then the time of the 16 at-a-glance rows
(`assistant label`) on the stored version. Medians over `--repeat` runs.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from assistant.answering.profile import glance
from assistant.engine import Assistant
from assistant.foundation.sentences import build_policy
from assistant.foundation.settings import DEFAULT_MAX_BYTES, Settings
from assistant.ingest.parsing import load_document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "policies"


def _timed(call, *args, **kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    result = call(*args, **kwargs)
    return time.perf_counter() - started, result


def _parse(path: Path):
    return build_policy(load_document(path, DEFAULT_MAX_BYTES))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as home:
        assistant = Assistant(Settings(home=Path(home)))
        tagging = assistant._tagging  # the ingest stage itself, to time its parts
        print(f"{'policy':<22}{'sentences':>10}{'parse':>8}{'embed':>8}{'practices':>10}{'PolicyIE':>9}{'ingest':>8}"
              f"{'profile share':>15}{'glance':>8}")
        for path in sorted(EXAMPLES.glob("*.html")):
            runs: dict[str, list[float]] = {k: [] for k in ("parse", "embed", "practices", "policyie", "ingest",
                                                            "glance")}
            for attempt in range(repeat + 1):  # the first is a warm-up
                parse, policy = _timed(_parse, path)
                texts = [s.text for s in policy.sentences]
                embed, _ = _timed(tagging.retriever.encode, texts)
                practices, _ = _timed(tagging.practices.probabilities, texts)
                policyie, _ = _timed(tagging.policyie.facts, texts)
                total, _ = _timed(assistant.ingest, path, name=f"{path.stem}-{attempt}", force=True)
                ingest = total  # the whole ingest, as `assistant ingest` runs it
                version = assistant.version(f"{path.stem}-{attempt}")
                rows, _ = _timed(glance, assistant.answer_pipeline, version)
                if attempt:
                    for key, value in zip(runs, (parse, embed, practices, policyie, ingest, rows), strict=True):
                        runs[key].append(value)
            median = {key: statistics.median(values) for key, values in runs.items()}
            profile = median["practices"] + median["policyie"]
            without = max(median["ingest"] - profile, 1e-9)
            print(f"{path.stem:<22}{len(texts):>10}" + "".join(
                f"{median[k]:>{w}.2f}" for k, w in (("parse", 8), ("embed", 8), ("practices", 10), ("policyie", 9),
                                                     ("ingest", 8)))
                  + f"{100 * profile / without:>14.0f}%{median['glance']:>8.2f}")
        assistant.store.close()
    print("seconds (medians); profile share = (practices + PolicyIE) / (ingest − them): what the profile "
          "adds to ingest without it; glance = the 16 at-a-glance rows of `assistant label`")


if __name__ == "__main__":
    main()
