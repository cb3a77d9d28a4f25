"""Search sentences across policies: the retriever's best matches for a text over the store's cross-policy
index (every sentence of every policy's latest version), or over one policy version's own index."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from assistant.foundation.types import PolicyVersion
from assistant.models.retriever.model import Embedder
from assistant.store.cross_index import CrossHit
from assistant.store.database import Store


@dataclass(frozen=True)
class SentenceMatch:
    """One sentence found: where it is stored, verbatim, and its cosine with the query."""

    policy: str
    version: int
    sentence_id: int  # 1-based position in the policy version
    section: str
    text: str
    score: float
    page: int | None = None


@dataclass(frozen=True)
class SearchResults:
    """The best sentences for `query`, best first; `index` says how they were found ("flat", "ivf…")."""

    query: str
    scope: str  # "all" or a policy name
    index: str
    searched: int  # sentences in the searched index
    matches: list[SentenceMatch]

    def to_dict(self) -> dict:
        return {"query": self.query, "scope": self.scope, "index": self.index, "searched": self.searched,
                "matches": [asdict(m) for m in self.matches]}


class CrossSearch:
    """Stage: text → its best sentences, across policies or in one version."""

    def __init__(self, store: Store, retriever: Embedder) -> None:
        self.store = store
        self.retriever = retriever

    def run(self, query: str, top: int, version: PolicyVersion | None = None) -> SearchResults:
        """The `top` best sentences of every latest version (`version` None) or of `version`."""
        vector = self.retriever.encode([query])[0]
        if version is None:
            index = self.store.cross_index()
            hits, kind, size, scope = index.search(vector, top), index.kind, index.size, "all"
        else:
            own = self.store.load_index(version)
            hits = [CrossHit(version, ordinal, score) for ordinal, score in own.search(vector, top)]
            kind, size, scope = "flat", own.size, version.name
        return SearchResults(query, scope, kind, size, [self._match(hit) for hit in hits])

    def _match(self, hit: CrossHit) -> SentenceMatch:
        sentence = self.store.sentence(hit.version.id, hit.ordinal)
        return SentenceMatch(hit.version.name, hit.version.version, hit.ordinal, sentence.section, sentence.text,
                             round(hit.score, 4), sentence.page)
