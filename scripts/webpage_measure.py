"""Measure how much policy text an HTML extractor keeps and how much junk it adds, on the web-page corpus.

    python scripts/webpage_corpus.py --mirrors DIR              # first: the pages and reference texts
    python scripts/webpage_measure.py run --system assistant --out new.json
    python scripts/webpage_measure.py run --system trafilatura --out trafilatura.json   # needs trafilatura
    python scripts/webpage_measure.py report before.json new.json trafilatura.json
    python scripts/webpage_measure.py labels new.json     # the junk rule checked against hand labels

`assistant` measures whichever `assistant` package is on the path (run it with an older checkout first on
PYTHONPATH to measure that one). The rulers are this script's own, independent of the code measured:

- visible words: every text node outside script/style/template/head/noscript/iframe of the page as
  lexbor parses it (after noscript blocks are cut out, as a browser running scripts does);
- policy words: the reference text, Open Terms Archive's extraction of the same snapshot with hand-written
  selectors (Markdown rendered; tables of contents and word-for-word repeats of a paragraph left out);
  "policy kept" = the share of its word occurrences (multiset) found in the stored text;
- a junk sentence: a stored sentence without a letter (a bare footnote number), one of fewer than 3 words
  that the reference does not hold as a phrase, one of whose word pairs (bigrams) fewer than half occur in
  the reference (table rows are also read as "header cell header cell ..."), or a repeat of an earlier
  sentence beyond the number of times the reference holds it.

The junk rule is checked by hand: data/webpages/junk_labels.tsv labels seeded random samples of the sentences it
flags and passes, one drawn from main's extractor ("before") and one from this one ("after"), each sentence named
by page, SHA-1 and occurrence, not quoted. `labels RUN --sample S` prints the rule's precision and miss rate on
sample S's sentences that RUN still stores, the pages whose hand-labelled junk is over 1 %, and the junk share
they imply for RUN (flagged x precision + passed x miss rate). Sample "after-flagged" labels every sentence the
rule flags in this branch's run (its miss rate then comes from sample "after").
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from markdown_it import MarkdownIt
from selectolax.lexbor import LexborHTMLParser

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webpage_corpus import CORPUS, read_index

_WORD = re.compile(r"\w+")
_NOSCRIPT = re.compile(r"<noscript\b.*?</noscript\s*>", re.IGNORECASE | re.DOTALL)
_UNSEEN = {"script", "style", "template", "head", "noscript", "iframe", "title"}
MIN_WORDS = 3


def words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def visible_words(html: str) -> list[str]:
    """Every text node outside the elements a reader never sees as text."""
    root = LexborHTMLParser(_NOSCRIPT.sub(" ", html)).root
    found: list[str] = []
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        tag = node.tag or ""
        if tag == "-text":
            found.extend(words(node.text(deep=False)))
        elif tag not in _UNSEEN and not tag.startswith(("-", "#", "!")) or tag == "#document":
            stack.extend(reversed(list(node.iter(include_text=True))))
    return found


def reference(markdown: str) -> tuple[Counter, set[tuple[str, str]], str]:
    """The reference's word multiset, its bigrams (table rows also with their headers) and its words joined."""
    lines, seen = [], set()
    for line in markdown.splitlines():  # a paragraph repeated word for word adds no policy text
        key = " ".join(words(line))
        if len(key.split()) >= 6 and key in seen:
            continue
        seen.add(key)
        lines.append(line)
    html = MarkdownIt("commonmark").enable("table").render("\n".join(lines))
    tree = LexborHTMLParser(html)
    for item in tree.css("li"):  # a table of contents: list items that are only an in-page link
        links = item.css("a")
        if links and all((a.attributes.get("href") or "").startswith("#") for a in links) and \
                words(item.text()) == [w for a in links for w in words(a.text())]:
            item.decompose()
    text = tree.body.text(separator=" ") if tree.body else ""
    sequence = words(text)
    pairs = set(itertools.pairwise(sequence))
    for table in tree.css("table"):
        headers = [words(cell.text()) for cell in table.css("thead th")]
        for row in table.css("tbody tr"):
            row_words: list[str] = []
            for header, cell in zip(headers, row.css("td"), strict=False):
                row_words += header + words(cell.text())
            pairs |= set(itertools.pairwise(row_words))
    return Counter(sequence), pairs, " ".join(sequence)


def junk_flags(sentences: list[str], pairs: set[tuple[str, str]], joined: str) -> list[bool]:
    flags, seen = [], Counter()
    for sentence in sentences:
        tokens = words(sentence)
        key = " ".join(tokens)
        seen[key] += 1
        bigrams = list(itertools.pairwise(tokens))
        found = sum(pair in pairs for pair in bigrams)
        if not any(ch.isalpha() for ch in sentence):
            flags.append(True)  # a bare number or symbol
        elif len(tokens) < MIN_WORDS:
            flags.append(f" {key} " not in f" {joined} ")
        else:
            flags.append(found * 2 < len(bigrams) or (seen[key] > 1 and seen[key] > joined.count(key)))
    return flags


def extract_assistant(raw: bytes, path: Path) -> tuple[str, list[str], dict]:
    from assistant.foundation.errors import InputFileError
    from assistant.foundation.sentences import build_policy
    from assistant.ingest.parsing import parse_bytes

    try:
        document = parse_bytes(raw, "html", path)
    except InputFileError as exc:
        return "", [], {"error": str(exc)}
    policy = build_policy(document)
    extra = {}
    extraction = getattr(document, "extraction", None)
    if extraction is not None:
        from assistant.ingest.html_content import loss_warning

        extra = {"warning": loss_warning(extraction), "dropped": [b.text[:80] for b in extraction.dropped_blocks[:3]]}
    return policy.text, [s.text for s in policy.sentences], extra


def extract_trafilatura(raw: bytes, path: Path) -> tuple[str, list[str], dict]:
    import trafilatura

    from assistant.foundation.sentences import split_sentences

    text = trafilatura.extract(raw.decode("utf-8", "replace"), include_tables=True, include_comments=False,
                               favor_recall=True) or ""
    sentences = [line[start:end] for line in text.splitlines() for start, end in split_sentences(line)]
    return text, sentences, {}


SYSTEMS = {"assistant": extract_assistant, "trafilatura": extract_trafilatura}


def run(system: str, out: Path, corpus: Path) -> None:
    extract = SYSTEMS[system]
    results = []
    for row in read_index(corpus):
        page = corpus / row["file"]
        raw = page.read_bytes()
        counts, pairs, joined = reference((corpus / row["gold"]).read_text(encoding="utf-8"))
        started = time.perf_counter()
        text, sentences, extra = extract(raw, page)
        seconds = time.perf_counter() - started
        kept = Counter(words(text))
        flags = junk_flags(sentences, pairs, joined)
        results.append({
            "file": row["file"], "organisation": row["organisation"], "bytes": len(raw),
            "visible_words": len(visible_words(raw.decode("utf-8", "replace"))),
            "stored_words": sum(kept.values()), "policy_words": sum(counts.values()),
            "policy_kept": sum(min(n, kept[w]) for w, n in counts.items()),
            "sentences": len(sentences), "junk": sum(flags),
            "junk_examples": [s[:100] for s, bad in zip(sentences, flags, strict=True) if bad][:40],
            "stored": [[s, bad] for s, bad in zip(sentences, flags, strict=True)],
            "seconds": round(seconds, 3), **extra,
        })
        print(f"{row['organisation']:22} kept {results[-1]['policy_kept'] / max(results[-1]['policy_words'], 1):6.1%}"
              f" junk {results[-1]['junk']:4}/{len(sentences):4}", file=sys.stderr)
    out.write_text(json.dumps({"system": system, "documents": results}, indent=1), encoding="utf-8")


def report(paths: list[Path]) -> None:
    """A Markdown table: per document, each system's policy kept, stored/visible and junk sentences."""
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    names = [p.stem for p in paths]
    head = "| page | visible words | policy words | " + " | ".join(
        f"{n}: policy kept | {n}: stored / visible | {n}: junk sentences" for n in names) + " |"
    print(head)
    print("|" + "---|" * (3 + 3 * len(runs)))
    totals = [Counter() for _ in runs]
    for index, first in enumerate(runs[0]["documents"]):
        cells = [first["organisation"], str(first["visible_words"]), str(first["policy_words"])]
        for total, data in zip(totals, runs, strict=True):
            doc = data["documents"][index]
            total.update({k: doc[k] for k in ("policy_kept", "policy_words", "stored_words", "visible_words",
                                              "junk", "sentences")})
            total["under95"] += doc["policy_kept"] < 0.95 * doc["policy_words"]
            cells += [f"{doc['policy_kept'] / max(doc['policy_words'], 1):.1%}",
                      f"{doc['stored_words'] / max(doc['visible_words'], 1):.0%}", f"{doc['junk']} / {doc['sentences']}"]
        print("| " + " | ".join(cells) + " |")
    cells = ["**all**", str(totals[0]["visible_words"]), str(totals[0]["policy_words"])]
    for total in totals:
        cells += [f"**{total['policy_kept'] / total['policy_words']:.1%}**",
                  f"{total['stored_words'] / total['visible_words']:.0%}", f"**{total['junk']} / {total['sentences']}**"]
    print("| " + " | ".join(cells) + " |")
    for name, total in zip(names, totals, strict=True):
        print(f"\n{name}: {total['under95']} of {len(runs[0]['documents'])} pages keep under 95 % of the policy's words;"
              f" junk {total['junk'] / max(total['sentences'], 1):.1%} of sentences.")


LABELS = CORPUS / "junk_labels.tsv"
TWO_DOCUMENT_PAGES = frozenset({"Le Chat", "Mistral AI", "Buffer"})  # terms of service and policy on one page


def sentence_key(file: str, sentence: str, occurrence: int) -> tuple[str, str, int]:
    return file, hashlib.sha1(sentence.encode("utf-8")).hexdigest()[:16], occurrence


def labels(path: Path, sample: str, labels_path: Path = LABELS) -> None:
    """The junk rule checked on the hand labels of `sample` for the run at `path`: on the labelled sentences that
    run still stores (a uniform sample of its sentences, as long as the run keeps most of the sample's page text),
    its precision on those it flags and its miss rate on those it passes, and the junk share these imply."""
    with labels_path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t"))
    run = json.loads(path.read_text(encoding="utf-8"))
    calls: dict[tuple[str, str, int], bool] = {}
    for doc in run["documents"]:
        seen: Counter = Counter()
        for sentence, flagged in doc.get("stored", []):
            seen[sentence] += 1
            calls[sentence_key(doc["file"], sentence, seen[sentence])] = flagged
    chosen = [row for row in rows if row["sample"] == sample]
    present = [(calls[key], row["label"] == "junk") for row in chosen
               if (key := (row["file"], row["sha1"], int(row["occurrence"]))) in calls]
    flagged = [junk for call, junk in present if call]
    passed = [junk for call, junk in present if not call]
    if not passed and sample != "after":  # a sample of flagged sentences only: the miss rate of sample 'after'
        passed = [row["label"] == "junk" for row in rows if row["sample"] == "after" and row["rule"] == "policy"
                  and (row["file"], row["sha1"], int(row["occurrence"])) in calls]
    gone = sum(row["label"] == "junk" for row in chosen) - sum(junk for _, junk in present)
    precision = sum(flagged) / len(flagged) if flagged else 0.0
    miss = sum(passed) / len(passed) if passed else 0.0
    print(f"{path.name}: {len(present)} of the {len(chosen)} hand-labelled sentences of sample '{sample}' are stored "
          f"({gone} labelled junk no longer are); junk rule precision {precision:.0%} ({sum(flagged)} of "
          f"{len(flagged)} flagged are junk), miss rate {miss:.1%} ({sum(passed)} of {len(passed)} passed are junk)")
    by_page = Counter(row["file"] for row in chosen if row["label"] == "junk"
                      and (row["file"], row["sha1"], int(row["occurrence"])) in calls)
    over = [f"{doc['organisation']} {by_page[doc['file']]} / {doc['sentences']}" for doc in run["documents"]
            if by_page[doc["file"]] > 0.01 * doc["sentences"]]
    print(f"  pages whose hand-labelled junk is over 1 % of their sentences: {', '.join(over) or 'none'}")
    for scope, documents in (("all pages", run["documents"]), ("without the 3 two-document pages", [
            doc for doc in run["documents"] if doc["organisation"] not in TWO_DOCUMENT_PAGES])):
        n_flagged = sum(doc["junk"] for doc in documents)
        n_total = sum(doc["sentences"] for doc in documents)
        estimate = n_flagged * precision + (n_total - n_flagged) * miss
        over = sum(doc["junk"] * precision > 0.01 * doc["sentences"] for doc in documents)
        print(f"  {scope}: rule {n_flagged} / {n_total} ({n_flagged / max(n_total, 1):.1%}); estimated junk "
              f"{estimate:.0f} ({estimate / max(n_total, 1):.1%}); pages over 1 % (flagged x precision): "
              f"{over} of {len(documents)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run")
    run_parser.add_argument("--system", choices=sorted(SYSTEMS), default="assistant")
    run_parser.add_argument("--out", type=Path, required=True)
    run_parser.add_argument("--corpus", type=Path, default=CORPUS)
    report_parser = commands.add_parser("report")
    report_parser.add_argument("results", type=Path, nargs="+")
    labels_parser = commands.add_parser("labels")
    labels_parser.add_argument("result", type=Path)
    labels_parser.add_argument("--sample", default="after", help="before, after or after-flagged: whose hand "
                               "labels give the rule's precision and miss rate")
    args = parser.parse_args()
    if args.command == "run":
        run(args.system, args.out, args.corpus)
    elif args.command == "labels":
        labels(args.result, args.sample)
    else:
        report(args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
