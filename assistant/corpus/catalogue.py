"""Search and questions across a corpus (`assistant corpus search`, `assistant corpus ask`).

Search: the retriever's vector of the text against every sentence of the corpus, in one FAISS index built on first
use and kept beside the tables (DIR/index/, keyed by the committed parts: a new run's parts make a new one). Exact
while the corpus has at most `EXACT_LIMIT` sentences, else an inverted file with product-quantised vectors (IVF-PQ:
96 bytes a sentence instead of 1,536). The index is sharded
(`SHARD_ROWS` sentences a shard, built one after another from the parts): memory to build it stays bounded however
large the corpus, and the shards are searched together.

Ask: a question that names one of the profile's facets is answered for every service from its stored profile
(verdict, headline, quote: what `assistant ask` says of that facet's plain question); any other question gets each
policy's closest sentence, quoted, with no verdict."""
from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from pathlib import Path

import faiss
import numpy as np
import pandas as pd

from assistant.corpus.report import VERDICTS, latest_versions, load_policies, wilson
from assistant.corpus.tables import committed_parts, iter_parts, read_table
from assistant.foundation.errors import InputFileError
from assistant.store.cross_index import TRAIN_PER_LIST, build_faiss_index
from assistant.store.index import one_thread
from assistant.understanding.facets import BY_NAME, GLANCE_QUESTIONS, facet_of

# Measured on the longitudinal corpus (93,834 sentences; scripts/bench_corpus_index.py, docs/benchmarks.md): exact
# search took 8 ms a query, so 2,000,000 sentences take about 170 ms, and 3 GiB; IVF-PQ's recall@10 against exact was
# 0.73 with 48-byte codes and 0.84 with 96, at nprobe 32 (searching 128 lists did not raise it: the codes limit it).
PQ_BYTES = 96  # sub-quantisers of 8 bits: 4 of the 384 dimensions each
EXACT_LIMIT = 2_000_000  # sentences (about 10,000 policies): exact search up to here, IVF-PQ beyond
MIN_QUANTISED = 256  # rows to train IVF-PQ's 256 codes a sub-quantiser on (a smaller last shard stays exact)
SHARD_ROWS = 2_000_000  # sentences a shard (about 4,000 policies): 2.9 GiB of vectors at most in memory to build one
MAX_TRAIN = 65_536
Encode = Callable[[str], np.ndarray]  # the retriever's L2-normalised vector of a text


@dataclass(frozen=True)
class CorpusMatch:
    service: str
    date: str | None
    doc_id: str
    sentence_id: int
    section: str
    text: str
    score: float


@dataclass(frozen=True)
class CorpusIndex:
    """The corpus's sentences in shards of at most `SHARD_ROWS`, searched together."""

    shards: list[faiss.Index]
    rows: pd.DataFrame  # doc_id, ordinal: row i across the shards in order
    kind: str  # "flat" or "ivfpq<nlist>,nprobe=<n>", and the number of shards

    @property
    def size(self) -> int:
        return sum(int(shard.ntotal) for shard in self.shards)

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The k best (row, cosine) pairs over every shard, best first."""
        hits = []
        offset = 0
        with one_thread():
            for shard in self.shards:
                scores, rows = shard.search(query.reshape(1, -1).astype(np.float32), min(k, int(shard.ntotal)))
                hits += [(int(r) + offset, float(s)) for r, s in zip(rows[0], scores[0], strict=True) if r >= 0]
                offset += int(shard.ntotal)
        return sorted(hits, key=lambda hit: -hit[1])[:k]


def build_index(vectors: np.ndarray, exact_limit: int = EXACT_LIMIT, seed: int = 0) -> faiss.Index:
    """Flat inner product up to `exact_limit` rows, else IVF-PQ trained on a seeded sample."""
    return build_faiss_index(vectors, exact_limit, seed, _ivf_pq, min_train=256 * TRAIN_PER_LIST, max_train=MAX_TRAIN)


def _ivf_pq(dimension: int, nlist: int) -> faiss.Index:
    return faiss.IndexIVFPQ(faiss.IndexFlatIP(dimension), dimension, nlist, PQ_BYTES, 8, faiss.METRIC_INNER_PRODUCT)


def index_kind(index: faiss.Index) -> str:
    if isinstance(index, faiss.IndexFlat):
        return "flat"
    ivf = faiss.extract_index_ivf(index)
    return f"ivfpq{ivf.nlist},nprobe={ivf.nprobe}"


def corpus_index(corpus: Path, exact_limit: int = EXACT_LIMIT, shard_rows: int = SHARD_ROWS) -> CorpusIndex:
    """The corpus's sentence index, built on first use from the sentences' parts, one part at a time (at most a shard
    of vectors in memory), and saved under DIR/index/ for the parts it covers. Exact when the corpus has at most
    `exact_limit` sentences, else IVF-PQ in every shard."""
    parts = sorted(committed_parts(corpus))
    key = hashlib.sha256(("\n".join(parts) + f"\n{exact_limit} {shard_rows}").encode()).hexdigest()[:16]
    loaded = _LOADED.get((corpus.resolve(), key))
    if loaded is None:
        loaded = _LOADED[(corpus.resolve(), key)] = _load_or_build(corpus, key, exact_limit, shard_rows)
    return loaded


# Indexes this process has loaded, by corpus and key: a server answers every request from memory, not from disk.
_LOADED: dict[tuple[Path, str], CorpusIndex] = {}


def _load_or_build(corpus: Path, key: str, exact_limit: int, shard_rows: int) -> CorpusIndex:
    folder = corpus / "index"
    rows_path = folder / f"{key}.rows.parquet"
    if rows_path.is_file():
        shards = [faiss.read_index(str(path)) for path in sorted(folder.glob(f"{key}.*.faiss"))]
        return CorpusIndex(shards, pd.read_parquet(rows_path), _kind(shards))
    rows = read_table(corpus, "sentences", columns=["doc_id", "ordinal"])
    if rows is None:
        raise InputFileError(f"{corpus}: the corpus has no stored sentences to search.")
    limit = rows.num_rows if rows.num_rows <= exact_limit else 0  # every shard exact, or every shard IVF-PQ
    shards, pending = [], np.empty((0, 0), dtype=np.float32)
    for part in iter_parts(corpus, "sentences", columns=["vector"]):
        vectors = np.asarray(part.column("vector").combine_chunks().flatten()).reshape(part.num_rows, -1)
        pending = np.concatenate([pending, vectors]) if len(pending) else vectors
        while len(pending) >= shard_rows:
            shards.append(build_index(pending[:shard_rows], limit))
            pending = pending[shard_rows:]
    if len(pending):  # the last shard: exact when too small to train a quantiser on
        shards.append(build_index(pending, limit if len(pending) >= MIN_QUANTISED else len(pending)))
    folder.mkdir(exist_ok=True)
    for stale in folder.iterdir():
        stale.unlink()
    for number, shard in enumerate(shards):
        faiss.write_index(shard, str(folder / f"{key}.{number:04d}.faiss"))
    frame = rows.to_pandas()
    frame.to_parquet(rows_path, index=False)
    return CorpusIndex(shards, frame, _kind(shards))


def _kind(shards: list[faiss.Index]) -> str:
    return f"{index_kind(shards[0])} × {len(shards)} shard{'s' * (len(shards) > 1)}"


def search(corpus: Path, encode: Encode, text: str, top: int = 10, facet: str | None = None) -> list[CorpusMatch]:
    """The `top` sentences closest to `text` (only those that address `facet`, when given), best first."""
    if facet is not None and facet not in BY_NAME:
        raise InputFileError(f"Unknown facet {facet!r}; choose one of: {', '.join(GLANCE_QUESTIONS)}.")
    found = corpus_index(corpus)
    hits = found.search(encode(text), top if facet is None else top * 20)
    keys = found.rows.iloc[[r for r, _ in hits]]
    texts = _sentences(corpus, set(keys["doc_id"]))
    documents = read_table(corpus, "documents", columns=["doc_id", "service", "date"]).to_pandas().set_index("doc_id")
    matches = []
    for (_, score), key in zip(hits, keys.itertuples(), strict=True):
        sentence = texts[(key.doc_id, key.ordinal)]
        if facet is not None and not BY_NAME[facet].addressed_by(sentence["text"]):
            continue
        document = documents.loc[key.doc_id]
        matches.append(CorpusMatch(document.service, document.date, key.doc_id, int(key.ordinal),
                                   sentence["section"], sentence["text"], round(score, 4)))
    return matches[:top]


def _sentences(corpus: Path, doc_ids: set[str]) -> dict[tuple[str, int], dict]:
    frame = _sentence_texts(corpus.resolve(), tuple(sorted(committed_parts(corpus))))
    frame = frame[frame["doc_id"].isin(doc_ids)]
    return {(row.doc_id, int(row.ordinal)): {"text": row.text, "section": row.section} for row in frame.itertuples()}


@lru_cache(maxsize=2)
def _sentence_texts(corpus: Path, parts: tuple[str, ...]) -> pd.DataFrame:
    """The corpus's sentences without their vectors, read once per set of committed parts (a server's requests)."""
    del parts  # the cache key: a run that adds parts is read again
    return read_table(corpus, "sentences", columns=["doc_id", "ordinal", "text", "section"]).to_pandas()


@dataclass(frozen=True)
class CorpusAnswer:
    service: str
    date: str | None
    verdict: str | None  # yes | conditional | scoped | no | not_stated; None: not a profile question (closest sentence)
    headline: str
    quote: str | None
    sentence_id: int | None
    # the other sentences the headline cites ("It also says the opposite in sentence 35"), verbatim: (number, text)
    also: tuple[tuple[int, str], ...] = ()

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class CorpusAnswers:
    question: str
    facet: str | None  # the profile's facet the question asks, or None
    answers: list[CorpusAnswer]

    def summary(self) -> list[dict]:
        """Policies per verdict with the share and its 95 % interval (profile questions only)."""
        if self.facet is None:
            return []
        n = len(self.answers)
        rows = []
        for verdict in VERDICTS:
            k = sum(a.verdict == verdict for a in self.answers)
            share, low, high = wilson(k, n)
            rows.append({"verdict": verdict, "policies": k, "share": share, "low": low, "high": high})
        return rows


# A service whose name the corpus's own policies write in lower case, as an ordinary word, in at least this share of
# them ("match", "signal", "line", "visible") is named by a question only when written with a capital ("Signal").
ORDINARY_SHARE = 0.02
_LOWER_WORD = re.compile(r"(?<![\w.])[a-z][\w.+'-]*[\w+]")


def named_services(question: str, services: list[str], ordinary: frozenset[str] = frozenset()) -> list[str]:
    """The corpus's services the question names ("does duolingo sell…" names "Duolingo", "duolingo.com" and
    "Duolingo: Language Lessons"): one of a service's `_name_forms`, as whole words regardless of case (an `ordinary` name, in
    lower case, only when not written all in lower case); the longest names found, so "Amazon Advertising" is not
    also "Amazon"."""
    text = question.lower()
    found = {}
    for service in services:
        for form in _name_forms(service):
            match = re.search(rf"(?<![\w.]){re.escape(form)}(?![\w])", text) if len(form) >= 3 else None
            if match and form in ordinary and question[match.start():match.end()].islower():
                continue
            if match:
                found[service] = max(found.get(service, 0), len(form))
    if not found:
        return []
    longest = max(found.values())
    return sorted(s for s, length in found.items() if length == longest)


# An app store's title: the name, then a subtitle ("Duolingo: Language Lessons", "Lotsa Slots - Casino Games").
_SUBTITLE = re.compile(r"\s*(?::|\s[-–—|]\s).*$")


def _name_forms(service: str) -> set[str]:
    """How a question may name a service: its name, without a domain ending ("duolingo.com"), without an app store
    subtitle."""
    name = service.lower()
    return {name, re.sub(r"\.(com|net|org|io|co|ai|app|tv|fm)$", "", name), _SUBTITLE.sub("", name)}


def ordinary_names(corpus: Path, names: list[str]) -> frozenset[str]:
    """The forms of `names` (lower case) that at least `ORDINARY_SHARE` of the corpus's policies use as ordinary
    words."""
    return _ordinary_words(corpus.resolve(), tuple(sorted(committed_parts(corpus))), tuple(sorted(
        {form for name in names for form in _name_forms(name)})))


@lru_cache(maxsize=2)
def _ordinary_words(corpus: Path, parts: tuple[str, ...], names: tuple[str, ...]) -> frozenset[str]:
    frame = _sentence_texts(corpus, parts)
    wanted = set(names)
    policies: dict[str, set[str]] = {}
    for doc_id, text in zip(frame["doc_id"], frame["text"], strict=True):
        for word in wanted.intersection(_LOWER_WORD.findall(text)):
            policies.setdefault(word, set()).add(doc_id)
    total = max(1, frame["doc_id"].nunique())
    return frozenset(word for word, docs in policies.items() if len(docs) >= ORDINARY_SHARE * total)


def services(corpus: Path) -> list[str]:
    """The services the corpus answers for: those whose latest version was stored. Read once per set of committed
    parts (the chat asks it on every turn)."""
    return list(_services(corpus.resolve(), tuple(sorted(committed_parts(corpus)))))


@lru_cache(maxsize=2)
def _services(corpus: Path, parts: tuple[str, ...]) -> tuple[str, ...]:
    del parts  # the cache key: a run that adds parts is read again
    policies, _ = load_policies(corpus)
    return tuple(sorted(latest_versions(policies)["service"].tolist()))


def named_in(corpus: Path, question: str) -> list[str]:
    """The corpus's services the question names (see `named_services`)."""
    names = services(corpus)
    return named_services(question, names, ordinary_names(corpus, names))


def ask(corpus: Path, question: str, encode: Encode) -> CorpusAnswers:
    """The question for the services it names, else for every service (each by its latest version): from the
    profile when it asks a facet, else each policy's closest sentence."""
    policies, _ = load_policies(corpus)
    latest = latest_versions(policies).sort_values("service")
    names = latest["service"].tolist()
    named = named_services(question, names, ordinary_names(corpus, names))
    if named:
        latest = latest[latest["service"].isin(named)]
    facet = facet_of(question)
    if facet is not None and facet.name in GLANCE_QUESTIONS:
        name = facet.name
        answers = [CorpusAnswer(row["service"], _text(row["date"]), row[f"{name}.verdict"], row[f"{name}.headline"],
                                _text(row[f"{name}.quote"]), _int(row[f"{name}.sentence"]))
                   for _, row in latest.iterrows()]
        return CorpusAnswers(question, name, _with_cited(corpus, answers, latest))
    return CorpusAnswers(question, None, _closest(corpus, latest, encode(question)))


_CITED = re.compile(r"\bsentences? (\d+)")


def _with_cited(corpus: Path, answers: list[CorpusAnswer], latest: pd.DataFrame) -> list[CorpusAnswer]:
    """Each answer with the other sentences its headline cites, so that every sentence it names is shown."""
    doc_ids = dict(zip(latest["service"], latest["doc_id"], strict=True))
    wanted = {a.service: [int(n) for n in _CITED.findall(a.headline) if int(n) != a.sentence_id] for a in answers}
    if not any(wanted.values()):
        return answers
    texts = _sentences(corpus, {doc_ids[service] for service, numbers in wanted.items() if numbers})
    return [replace(a, also=tuple((n, texts[(doc_ids[a.service], n)]["text"]) for n in dict.fromkeys(wanted[a.service])
                                  if (doc_ids[a.service], n) in texts)) for a in answers]


def _closest(corpus: Path, latest: pd.DataFrame, query: np.ndarray) -> list[CorpusAnswer]:
    """Each policy's sentence closest to the query: one product over the corpus's vectors, the best per policy."""
    frame = read_table(corpus, "sentences", columns=["doc_id", "ordinal", "text", "vector"]).to_pandas()
    frame = frame[frame["doc_id"].isin(set(latest["doc_id"]))]
    if frame.empty:
        return []
    frame = frame.assign(score=np.stack(frame["vector"].to_numpy()) @ query)
    best = frame.loc[frame.groupby("doc_id")["score"].idxmax()].set_index("doc_id")
    return [CorpusAnswer(policy["service"], _text(policy["date"]), None, "its closest sentence",
                         best.loc[policy["doc_id"], "text"], int(best.loc[policy["doc_id"], "ordinal"]))
            for _, policy in latest.iterrows() if policy["doc_id"] in best.index]


def _text(value: object) -> str | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else str(value)


def _int(value: object) -> int | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else int(value)
