"""Fuzzing ingest with mutated copies of the bundled example policies (seeded, bounded, < 60 s).

Every mutated file goes through load_document + build_policy: it is either refused with an
AssistantError (one line) or stored text holds no control character and every sentence is
text[start:end]. A few also go through the full ingest and `ask` with the real models: every quote
in the answer is verbatim in the stored policy text.
"""
from __future__ import annotations

import random
from pathlib import Path

from assistant.foundation.errors import AssistantError
from assistant.foundation.sentences import build_policy
from assistant.foundation.text import has_controls
from assistant.ingest.parsing import load_document
from tests.support.paths import EXAMPLES

SEED = 20261124
N_PARSED = 150
N_ASKED = 3
MAX_BYTES = 10 * 1024 * 1024
SOURCES = sorted(EXAMPLES.glob("*.html"))
CONTROLS = [bytes([code]) for code in [*range(0x20), 0x7F] if code not in (0x09, 0x0A, 0x0D)] + [
    "\u0085".encode(), "\u009b".encode(), b"\x1b[2J", b"\x1b]0;owned\x07"]
ENTITIES = [b"&#27;[2J", b"&#x1b;", b"&#7;", b"&#0;", b"&#155;", b"&#x9b;", b"&#127;", b"&#xD800;", b"&#1114112;",
            b"&bogus;", b"&amp", b"&#", b"&#x;"]
TAGS = [b"<div>", b"<b>", b"<p>", b"<li>", b"<table><tr><td>", b"<span>", b"<svg>", b"<script>", b"<!--", b"<a href=x>",
        b"<h2>", b"</div>", b"</p>", b"<font id=1>"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random mutations of a policy file's bytes."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data) + 1)
        kind = rng.choice(["flip", "truncate", "control", "entity", "unclosed", "nest", "invalid", "line", "splice"])
        if kind == "flip":
            for _ in range(rng.randint(1, 20)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
        elif kind == "truncate":
            del data[at:]
        elif kind == "control":
            data[at:at] = b"".join(rng.choice(CONTROLS) for _ in range(rng.randint(1, 5)))
        elif kind == "entity":
            data[at:at] = b" ".join(rng.choice(ENTITIES) for _ in range(rng.randint(1, 5)))
        elif kind == "unclosed":
            data[at:at] = b"".join(rng.choice(TAGS) + b"text " for _ in range(rng.randint(1, 300)))
        elif kind == "nest":
            data[at:at] = rng.choice([b"<div>", b"<ul><li>", b"<b><i>", b"<blockquote>"]) * rng.randint(100, 700)
        elif kind == "invalid":
            data[at:at] = bytes(rng.choice([0x80, 0x81, 0x9D, 0xC3, 0xE2, 0xF0, 0xFF]) for _ in range(rng.randint(1, 4)))
        elif kind == "line":
            words = [b"we", b"collect", b"your", b"data", b"and", b"share", b"it", b"with", b"partners"]
            data[at:at] = b" ".join(rng.choice(words) for _ in range(rng.randint(2_000, 8_000)))
        else:
            start = rng.randrange(len(data) + 1)
            data[at:at] = data[start:start + rng.randint(1, 3_000)]
    return bytes(data)


def assert_clean(policy) -> None:
    for text in [policy.title or "", policy.text, *policy.sections]:
        assert not has_controls(text.replace("\n", " ")), repr(text[:200])
    for sentence in policy.sentences:
        assert policy.text[sentence.start:sentence.end] == sentence.text
        assert not has_controls(sentence.text)


def mutated_files(directory: Path, count: int, seed: int) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for index in range(count):
        source = rng.choice(SOURCES)
        path = directory / f"mutant{index}{rng.choice(['.html', '.htm', '.md', '.txt', ''])}"
        path.write_bytes(mutate(source.read_bytes(), rng))
        paths.append(path)
    return paths


def test_mutated_policies_parse_cleanly_or_are_refused(tmp_path):
    outcomes = {"stored": 0, "refused": 0}
    for path in mutated_files(tmp_path, N_PARSED, SEED):
        try:
            policy = build_policy(load_document(path, MAX_BYTES))
        except AssistantError as error:
            assert "\n" not in str(error)
            outcomes["refused"] += 1
            continue
        assert_clean(policy)
        outcomes["stored"] += 1
    assert outcomes["stored"] > N_PARSED // 2 and outcomes["refused"] > 0, outcomes


def test_mutated_policies_answer_with_verbatim_quotes(tmp_path, assistant):
    rng = random.Random(SEED + 1)
    asked = 0
    for index in range(20):
        source = rng.choice(SOURCES).read_bytes()[:6_000]  # small: the models tag every sentence
        path = tmp_path / f"asked{index}.html"
        path.write_bytes(mutate(source, rng))
        try:
            version = assistant.ingest(path, name=f"fuzz{index}").version
        except AssistantError:
            continue
        text = assistant.store.policy_text(version.id)
        assert not has_controls(text.replace("\n", " "))
        answer = assistant.ask("Do they share my personal information with advertisers?", policy=f"fuzz{index}")
        quotes = [e.text for e in answer.evidence] + [answer.answer or ""] + [answer.span.text if answer.span else ""]
        assert all(quote in text for quote in quotes), quotes
        asked += 1
        if asked == N_ASKED:
            break
    assert asked == N_ASKED
