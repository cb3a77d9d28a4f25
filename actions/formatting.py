"""Turn the engine's answers into chat messages. Formatting only: no answering happens here.

Two styles, chosen per input channel:

- plain text for the terminal (`rasa shell`) and the REST channel: policy text as stored, with
  control characters removed so a policy cannot drive the terminal;
- Markdown for the web widget (socketio), which renders bot messages with react-markdown. There,
  every ASCII punctuation character of policy or user text is written as a numeric character
  reference (`<` as `&#60;`): the Markdown parser decodes references into literal text, so a policy
  sentence can never become HTML, a link, an image or emphasis — `<script>` shows as `<script>`. The one link
  construct is the actions' own citation link, `[TEXT](/policy?name=…&version=…#s-N)`: written only by
  `Style.cite`, with a URL built here from the policy's name, version and sentence (URL-encoded), so it opens the
  cited version at that sentence (web/chat.js draws it as a link only when its URL is such a `/policy?` URL). The
  terminal keeps the plain "(sentence N)".
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

from assistant.answering.changes import PLAIN_PRACTICES
from assistant.foundation.reasons import explain_reason
from assistant.foundation.types import Evidence

EXAMPLE_QUESTIONS = (
    "What information do they collect about me?",
    "Do they share my personal information with other companies?",
    "How long do they keep my data?",
    "Can I delete my account?",
)

MAX_TOPICS = 8

_MARKDOWN_SIGNIFICANT = frozenset(string.punctuation)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class Style:
    """Plain text or Markdown; `text()` is the only way policy or user text enters a message."""

    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown

    @classmethod
    def for_channel(cls, channel: str | None) -> Style:
        return cls(markdown=channel == "socketio")

    def text(self, value: Any) -> str:
        """Untrusted text (policy sentences, section names, user input) made safe to show."""
        value = " ".join(_CONTROL.sub(" ", str(value)).split())
        if not self.markdown:
            return value
        return "".join(f"&#{ord(c)};" if c in _MARKDOWN_SIGNIFICANT else c for c in value)

    def cite(self, safe: str, policy: str, version: Any, sentence: Any) -> str:
        """`safe` (text made here or by `text()`) as a link to `policy`'s version at `sentence` on the web; as it is
        in plain text, or when the version or sentence is unknown."""
        if not self.markdown or not version or not sentence:
            return safe
        return f"[{safe}]({policy_url(policy, version, sentence)})"

    def bold(self, safe: str) -> str:
        return f"**{safe}**" if self.markdown else safe

    def italic(self, safe: str) -> str:
        return f"*{safe}*" if self.markdown else safe

    def quote(self, lines: Sequence[str]) -> str:
        if self.markdown:
            return "\n>\n".join(f"> {line}" for line in lines)
        return "\n".join(f"  {line}" for line in lines)

    def bullets(self, items: Iterable[str]) -> str:
        return "\n".join(f"- {item}" if self.markdown else f"  • {item}" for item in items)

    def join(self, blocks: Iterable[str]) -> str:
        return ("\n\n" if self.markdown else "\n").join(block for block in blocks if block)


def policy_url(policy: str, version: Any, sentence: Any) -> str:
    """The chat page's policy page at a sentence: `/policy?name=NAME&version=N#s-ID`, every part URL-encoded
    (the name percent-encoded, the numbers as integers), so nothing but this URL can come out."""
    return "/policy?" + urlencode({"name": str(policy), "version": int(version)}) + f"#s-{int(sentence)}"


def _sentence(style: Style, policy: str, version: Any, sentence: Any, words: str = "sentence") -> str:
    """"sentence 12": a link to it on the web."""
    return style.cite(f"{words} {sentence}", policy, version, sentence)


def evidence_of(answer: dict) -> list[Evidence]:
    return [Evidence(**item) for item in answer.get("evidence") or []]


def _quoted(style: Style, answer: dict, evidence: Evidence, rank: int | None = None, span: dict | None = None) -> str:
    """A policy sentence in quotes with its citation (on the web a link to the answer's policy version at that
    sentence); numbered in the full evidence (in the answer's order: no model scores, which the person cannot use).
    With `span` (the short answer inside this sentence), the web shows those words in bold."""
    citation = style.cite(style.text(evidence.citation()), answer["policy"], answer.get("version"),
                          evidence.sentence_id)
    label = ""
    if rank is not None:
        label = style.text(f"{rank}.") + " "
    text = style.text(evidence.text)
    if span and style.markdown and span["sentence_id"] == evidence.sentence_id:
        before, inside, after = (evidence.text[: span["start"]], evidence.text[span["start"] : span["end"]],
                                 evidence.text[span["end"] :])
        text = (style.text(before) + (" " if before[-1:].isspace() else "") + style.bold(style.text(inside))
                + (" " if after[:1].isspace() else "") + style.text(after))
    return style.quote([f"{label}“{text}”", f"— {style.italic(citation)}"])


def format_answer(answer: dict, topics: Sequence[str], style: Style) -> str:
    """The short answer, then the best evidence quoted with its citation (or why there is no answer)."""
    policy = style.text(answer["policy"])
    evidence = evidence_of(answer)
    verdict = answer.get("verdict")
    if not answer["answerable"] and verdict != "not_stated":
        return format_unanswerable(answer, topics, style)
    first = evidence[0] if evidence else None
    span = answer.get("span")
    short = span["text"] if span else answer.get("answer") or ""
    if verdict == "not_stated":  # the engine's verdict: the policy does not address the question (not answerable)
        blocks = [f"I can't answer that from {policy}: it does not say."]
        if first is not None:
            blocks += ["The closest related passage (not an answer):", _quoted(style, answer, first)]
        return style.join(blocks)
    if verdict in ("yes", "no", "conditional") and answer.get("headline"):
        head = style.bold(style.text(answer["headline"]))
    elif first is not None and " ".join(short.split()) == " ".join(first.text.split()):
        head = style.bold(f"{policy} says:")
    else:
        head = f"{style.bold(f'Answer ({policy}):')} {style.text(short)}"
    blocks = [head]
    if first is not None:
        blocks.append(_quoted(style, answer, first, span=span))
    if len(evidence) > 1:
        blocks.append(f"Say “why?” to see all {len(evidence)} passages behind this answer.")
    return style.join(blocks)


def format_unanswerable(answer: dict, topics: Sequence[str], style: Style) -> str:
    """The reason in plain words (the engine's shared texts) and the topics the policy does cover."""
    policy = style.text(answer["policy"])
    blocks = [f"I can't answer that from {policy}. {explain_reason(answer.get('reason'))}"]
    if topics:
        shown = [style.text(topic) for topic in topics[:MAX_TOPICS]]
        more = len(topics) - len(shown)
        blocks.append(f"What {policy} does cover:")
        blocks.append(style.bullets(shown + ([f"… and {more} more"] if more > 0 else [])))
    if answer.get("evidence"):
        blocks.append("Say “why?” to see the closest passages anyway.")
    return style.join(blocks)


def format_evidence(answer: dict | None, style: Style) -> str:
    """The full evidence of the last answer (“why?”), each passage with its citation, in the answer's order: the
    first is the one the answer quotes."""
    if not answer:
        return "Ask me a question about a policy first; then “why?” shows the passages behind the answer."
    evidence = evidence_of(answer)
    question = style.text(answer["question"])
    policy = style.text(answer["policy"])
    if not evidence:
        return f"I found no passage of {policy} for “{question}”."
    if answer["answerable"]:
        head = (f"For “{question}”, {policy} says ({len(evidence)} passage{'s' if len(evidence) != 1 else ''}; "
                "the answer quotes the first):")
    else:
        head = f"None of these passages of {policy} clearly answers “{question}”; they are the closest:"
    blocks = [head]
    blocks.extend(_quoted(style, answer, item, rank) for rank, item in enumerate(evidence, start=1))
    return style.join(blocks)


def topics_from_sections(sections: Sequence[str]) -> list[str]:
    """Distinct section headings (the last part of each section path), in policy order."""
    seen: set[str] = set()
    topics = []
    for path in sections:
        heading = path.split(" > ")[-1].strip()
        key = re.sub(r"^\s*(\d+|[ivx]+|[a-z])[.)]\s*", "", heading.lower()).strip(" :?.")
        if heading and key and key not in seen:
            seen.add(key)
            topics.append(heading)
    return topics


def format_policy_list(policies: Sequence[dict], current: str | None, style: Style) -> str:
    if not policies:
        return no_policies_message(style)
    items = []
    for item in policies:
        line = f"{style.text(item['name'])} (version {item['version']}, {item['sentences']} sentences)"
        if current and item["name"].lower() == current.lower():
            line += " ← " + style.bold("current")
        items.append(line)
    blocks = [f"Loaded policies ({len(policies)}):", style.bullets(items)]
    blocks.append("Say a policy's name to choose it." if len(policies) > 1 else "Ask me anything about it.")
    return style.join(blocks)


def no_policies_message(style: Style) -> str:
    return style.join([
        "No policies are loaded yet.",
        ("Add one with “Add a policy” above the chat" if style.markdown else
         "Add one in a terminal with " + _code(style, "assistant ingest PATH")) + ", then ask me about it.",
    ])


def _code(style: Style, command: str) -> str:
    return f"`{command}`" if style.markdown else command


def policy_status(policies: Sequence[dict], current: str | None, style: Style) -> str:
    names = [style.text(p["name"]) for p in policies]
    if current:
        return f"We're looking at {style.bold(style.text(current))}."
    if len(names) == 1:
        return f"I have one policy loaded: {names[0]}."
    if names:
        return f"Loaded policies: {', '.join(names)}. Say a name to choose one."
    return no_policies_message(style)


def format_greeting(policies: Sequence[dict], current: str | None, style: Style) -> str:
    return style.join([
        "Hi! I answer questions about privacy policies, quoting the policy's own sentences and where they are.",
        policy_status(policies, current, style),
        "Ask me, for example, “Do they sell my data?” — or say “help”.",
    ])


def format_help(policies: Sequence[dict], current: str | None, style: Style) -> str:
    return style.join([
        (
            "I read privacy policies for you. Ask a question in your own words and I answer from the "
            "policy, quoting the sentences I used with their section. If the policy doesn't say, I tell you so."
        ),
        "Try:",
        style.bullets(style.text(q) for q in EXAMPLE_QUESTIONS),
        (
            "Follow-up questions stay on the same policy. Say “why?” to see all the evidence for the last "
            "answer, “list policies” to see what is loaded, or a policy's name to switch."
        ),
        policy_status(policies, current, style),
    ])


def format_chosen(policy: dict, style: Style) -> str:
    name = style.bold(style.text(policy["name"]))
    return (
        f"OK, now answering from {name} (version {policy['version']}, {policy['sentences']} sentences). "
        f"Ask me anything about it, for example “{style.text(EXAMPLE_QUESTIONS[0])}”"
    )


def format_unknown_policy(typed: str, policies: Sequence[dict], style: Style) -> str:
    if not policies:
        return no_policies_message(style)
    names = ", ".join(style.text(p["name"]) for p in policies)
    typed = style.text(typed[:80]) or "that"
    return f"I don't have a policy called “{typed}”. Loaded policies: {names}. Which one do you mean?"


def format_which_policy(policies: Sequence[dict], question: str | None, style: Style) -> str:
    names = ", ".join(style.text(p["name"]) for p in policies)
    text = f"Which policy should I look in? Loaded: {names}."
    if question:
        text += f" I'll answer “{style.text(question[:200])}” as soon as you choose."
    return text


MAX_LABEL_ITEMS = 5


_VERDICT_WORDS = {"yes": "Yes", "no": "No", "conditional": "Only under conditions",
                  "scoped": "Only for some people or products", "not_stated": "Not stated"}


def format_label(label: dict, style: Style) -> str:
    """The privacy label as a short message: per section, the items with one quoted example and
    the sentence numbers they come from (ask "show sentence N"-style questions for more)."""
    policy, version = label["policy"], label.get("version")
    lines = []
    for section in label["sections"]:
        rows = section["rows"][:MAX_LABEL_ITEMS]
        if not rows:
            lines.append(f"{style.bold(style.text(section['title']) + ':')} not stated")
            continue
        items = []
        for row in rows:
            item = style.text(row["item"])
            if row["examples"]:
                item += f" (“{style.text(row['examples'][0])}”)"
            if row["negated"]:
                denying = row.get("negated_sentences") or []
                only = bool(denying) and len(denying) == len(row["sentences"])
                item += " " + style.text("[stated as NOT done]" if only else "[also stated as not done]")
            sentences = ", ".join(style.cite(str(n), policy, version, n) for n in row["sentences"][:4])
            items.append(f"{item} — {style.text('sentence' + ('s' if len(row['sentences']) > 1 else ''))} "
                         f"{sentences}{' …' if len(row['sentences']) > 4 else ''}")
        more = len(section["rows"]) - len(rows)
        lines.append(f"{style.bold(style.text(section['title']) + ':')} " + "; ".join(items)
                     + (f"; and {more} more" if more > 0 else ""))
    glance = [f"{style.text(row['question'])} {style.bold(_VERDICT_WORDS.get(row['verdict'], row['verdict']))}"
              + (f" — {style.text(row['value'])}" if row.get("value") else "")  # what it states: a period, a link
              + (f" ({_sentence(style, policy, version, row['sentence_id'])})" if row.get("sentence_id") else "")
              for row in label.get("glance") or []]
    if glance:
        lines = [style.bold("At a glance:"), *glance, *lines]
    head = style.bold(f"Privacy label of {style.text(label['policy'])} (version {label['version']})")
    note = "Read from the policy's own sentences; ask me about any item to see them quoted."
    return style.join([head, style.bullets(lines), note])


# -- structured payloads for the web page (socketio) ----------------------------------------------
#
# The page (web/chat.js) draws an answer as one card from these fields and shows every string with
# `textContent`, so policy text goes in as plain text (control characters removed, nothing escaped);
# `text` is the same reply as Markdown for other socket.io clients.

_PLAIN = Style(markdown=False)


def _card_evidence(evidence: Evidence) -> dict:
    return {"sentence_id": evidence.sentence_id, "section": _PLAIN.text(evidence.section),
            "text": _PLAIN.text(evidence.text), "citation": _PLAIN.text(evidence.citation()),
            "page": evidence.page, "score": evidence.score}


def _card_headline(answer: dict, evidence: Sequence[Evidence]) -> str:
    """The card's first line: the engine's direct answer, else what the policy says or why it cannot answer."""
    policy = _PLAIN.text(answer["policy"])
    verdict = answer.get("verdict")
    if not answer["answerable"] and verdict != "not_stated":
        return f"I can't answer that from {policy}. {explain_reason(answer.get('reason'))}"
    if verdict == "not_stated":
        return f"I can't answer that from {policy}: it does not say."
    if verdict in ("yes", "no", "conditional") and answer.get("headline"):
        return _PLAIN.text(answer["headline"])
    span = answer.get("span")
    short = span["text"] if span else answer.get("answer") or ""
    if evidence and " ".join(short.split()) == " ".join(evidence[0].text.split()):
        return f"{policy} says:"
    return f"Answer ({policy}): {_PLAIN.text(short)}"


def answer_card(answer: dict, topics: Sequence[str], text: str, note: str = "") -> dict:
    """An answer as the web page's card: `headline`, the evidence with citations (the first is the
    quote; the others are "more evidence"), `related` when they are only the closest passages (no
    answer), the covered `topics` of an unanswerable question, `note` (plain text: a policy switch or
    how a follow-up was read) and `text` (the Markdown reply)."""
    evidence = evidence_of(answer)
    span = answer.get("span")
    return {
        "type": "answer",
        "question": _PLAIN.text(answer["question"]),
        "policy": answer["policy"],
        "version": answer["version"],
        "verdict": answer.get("verdict"),
        "headline": _card_headline(answer, evidence),
        "related": not answer["answerable"] or answer.get("verdict") == "not_stated",
        "span": ({"sentence_id": span["sentence_id"], "start": span["start"], "end": span["end"]}
                 if span and evidence and _PLAIN.text(evidence[0].text) == evidence[0].text else None),
        "evidence": [_card_evidence(item) for item in evidence],
        "topics": ([_PLAIN.text(topic) for topic in topics[:MAX_TOPICS]]
                   if not answer["answerable"] and answer.get("verdict") != "not_stated" else []),
        "note": note,
        "text": text,
    }


def chosen_card(policy: dict, text: str) -> dict:
    """The web page's notice that the conversation now answers from `policy` (it shows `text`, the
    Markdown reply, and marks the policy active)."""
    return {"type": "policy", "policy": policy["name"], "version": policy["version"],
            "sentences": policy["sentences"], "text": text}


# -- conversation notes (follow-ups, policy switches, messages the assistant cannot read) ------------

def format_followup(followup: Any, style: Style) -> str:
    """What a follow-up was taken to mean: "Taking “it” as your purchase history:"."""
    if followup.kind == "reference":
        return f"Taking “{style.text(followup.referent)}” as {style.text(_yours(followup.subject))}:"
    return f"Taking that as “{style.text(followup.question)}”:"


def _yours(words: str) -> str:
    """The user's words said back to them: "my purchase history" -> "your purchase history"."""
    return re.sub(r"\bmy\b", "your", re.sub(r"\bMy\b", "Your", words))


def format_switched(policy: str, style: Style) -> str:
    return f"Now answering from {style.bold(style.text(policy))}."


def conversation_note(policy: str, switched: bool, followup: Any, style: Style | None = None) -> str:
    """The line before an answer: a policy switch and how a follow-up was read ("" when neither);
    plain text unless a `style` is given."""
    style = style or _PLAIN
    notes = [format_switched(policy, style) if switched else "",
             format_followup(followup, style) if followup is not None and followup.carried else ""]
    return " ".join(note for note in notes if note)


def format_too_long(length: int, limit: int) -> str:
    return (f"Your message is {length:,} characters long; I can take questions of up to {limit:,} characters. "
            "Please ask one shorter question about the policy.")


def format_not_english(language: str, style: Style) -> str:
    said = f"This looks like {style.text(language)}. " if language != "another language" else ""
    return (f"I can only read English questions, sorry. {said}Please ask in English, for example "
            f"“{EXAMPLE_QUESTIONS[1]}”")


# -- several policies: compare, changes, one question across all ----------------------------------

MAX_COMPARED_FACETS = 6
MAX_DIFF_CHANGES = 5


def format_compare_which(policies: Sequence[dict], style: Style) -> str:
    if len(policies) < 2:
        return "I need at least two loaded policies to compare. " + policy_status(policies, None, style)
    names = [style.text(p["name"]) for p in policies]
    return (f"Which policies should I compare? Name two, for example “compare {names[0]} and {names[1]} on "
            f"sharing”. Loaded: {', '.join(names)}.")


def _verdict(cell: dict, style: Style) -> str:
    words = _VERDICT_WORDS.get(cell["verdict"], cell["verdict"])
    return style.bold(words) + (f" ({_sentence(style, cell['policy'], cell.get('version'), cell['sentence_id'])})"
                                if cell.get("sentence_id") else "")


def format_comparison(comparison: dict, one_facet: bool, style: Style) -> str:
    """Policies side by side: for one facet each policy's verdict with its quote; for all, the facets
    where they differ first, each policy's verdict with its sentence number."""
    names = " and ".join(style.text(p["name"]) for p in comparison["policies"])
    facets = comparison["facets"]
    if one_facet and facets:
        row = facets[0]
        blocks = [style.bold(f"{names}: {style.text(row['question'])}")]
        for cell in row["cells"]:
            blocks.append(f"{style.text(cell['policy'])}: {_verdict(cell, style)}")
            if cell.get("quote"):
                blocks.append(style.quote([f"“{style.text(cell['quote'])}”"]))
        return style.join(blocks)
    differing = [row for row in facets if row["differs"]]
    shown = (differing or facets)[:MAX_COMPARED_FACETS]
    head = (f"{names} differ on {len(differing)} of {len(facets)} questions" if differing
            else f"{names} answer all {len(facets)} questions the same way")
    blocks = [style.bold(head + (":" if shown else "."))]
    items = [f"{style.text(row['question'])} " + "; ".join(
        f"{style.text(cell['policy'])}: {_verdict(cell, style)}" for cell in row["cells"]) for row in shown]
    blocks.append(style.bullets(items))
    more = len(differing) - len(shown)
    if more > 0:
        blocks.append(f"… and {more} more differences.")
    blocks.append(f"Name a topic to see the quotes, for example “compare {names} on selling data”.")
    return style.join(blocks)


def format_no_diff(policy: str, reason: str, style: Style) -> str:
    return style.join([
        f"I can't show what changed in {style.text(policy)}: {style.text(reason)}",
        "When a newer version is added under the same name ("
        + ("“Add a policy” above the chat, named " + style.text(policy) if style.markdown else
           _code(style, f"assistant ingest FILE --name {policy}")) + "), ask me again.",
    ])


def format_diff(diff: dict, style: Style) -> str:
    """What changed from the previous version: the facets whose answer changed, then the material
    sentence changes, each quoted."""
    counts = diff["counts"]
    head = (f"{style.text(diff['policy'])}, version {diff['from_version']} → {diff['to_version']}: "
            f"{counts['added']} sentence{'' if counts['added'] == 1 else 's'} added, {counts['removed']} removed, "
            f"{counts['reworded']} reworded "
            f"({diff['unchanged']} unchanged).")
    blocks = [style.bold(head)]
    if diff["facet_changes"]:
        blocks.append("Answers that changed:")
        blocks.append(style.bullets(_facet_change(change, diff, style) for change in diff["facet_changes"]))
    changes = sorted((c for group in diff["issues"] for c in group["changes"]), key=lambda c: not c["material"])
    material = [c for c in changes if c["material"]]
    if not material and not diff["facet_changes"]:
        blocks.append("No material change: only editorial edits.")
    policy, before, after = diff["policy"], diff["from_version"], diff["to_version"]
    for change in (material or changes)[:MAX_DIFF_CHANGES]:
        label = f"{change['kind'].capitalize()} ({style.text(PLAIN_PRACTICES.get(change['issue'], change['issue']))})"
        if change["kind"] == "added":
            lines = [f"“{style.text(change['after'])}” — {_sentence(style, policy, after, change['after_id'])}"]
        elif change["kind"] == "removed":
            was = _sentence(style, policy, before, change["before_id"])
            lines = [f"“{style.text(change['before'])}” — was {was}"]
        else:
            now = f"now: “{style.text(change['after'])}” — {_sentence(style, policy, after, change['after_id'])}"
            lines = [f"before: “{style.text(change['before'])}”", now]
        blocks += [label + ":", style.quote(lines)]
    more = len(material or changes) - MAX_DIFF_CHANGES
    if more > 0:
        blocks.append(f"… and {more} more changes.")
    return style.join(blocks)


def _facet_change(change: dict, diff: dict, style: Style) -> str:
    """“Do they sell your data?” now No (sentence 12); before: not stated — the plain question, not the facet; each
    sentence in its own version (the web links it)."""
    def said(verdict: str, sentence: int | None, version: int) -> str:
        return _VERDICT_WORDS.get(verdict, verdict) + (
            f" ({_sentence(style, diff['policy'], version, sentence)})" if sentence else "")

    return (f"“{style.text(change['question'])}” now "
            f"{said(change['after'], change['after_sentence'], diff['to_version'])}; before: "
            f"{said(change['before'], change['before_sentence'], diff['from_version'])}")


def format_across(across: dict, style: Style) -> str:
    """One question across the policies: each policy's verdict or short answer, with its quote."""
    blocks = [style.bold(f"“{style.text(across['question'])}” across {len(across['answers'])} policies:")]
    for row in across["answers"]:
        if row["verdict"]:
            said = _verdict(row, style)
        elif row["answerable"]:
            said = style.bold("Answered") + (f" ({_sentence(style, row['policy'], row.get('version'), row['sentence_id'])})"
                                             if row.get("sentence_id") else "")
        else:
            said = style.bold("No answer") + f": {explain_reason(row.get('reason'))}"
        blocks.append(f"{style.text(row['policy'])}: {said}")
        if row.get("quote"):
            blocks.append(style.quote([f"“{style.text(row['quote'])}”"]))
    return style.join(blocks)


MAX_CORPUS_NAMES = 8  # services named per verdict across a corpus; the rest are counted


def format_corpus(result: dict, style: Style) -> str:
    """A question answered from a corpus: each named service's answer and quote; across many services, how many
    policies say each verdict (with its 95 % interval) and which; a question no profile answers, the closest
    passages."""
    question = style.text(result["question"])
    if result["passages"]:
        blocks = [(f"{style.bold(f'“{question}”')} is not one of the questions the corpus's profiles answer; its "
                  "closest passages:")]
        for passage in result["passages"]:
            blocks.append(style.quote([f"“{style.text(passage['text'])}”",
                                       (f"— {style.italic(style.text(_corpus_source(passage)))}, "
                                       f"sentence {int(passage['ordinal'])}")]))
        return style.join(blocks)
    answers = result["answers"]
    if not answers:
        return f"No policy of the corpus answers {style.bold(f'“{question}”')}."
    if len(answers) > 3 and result["facet"]:
        blocks = [f"{style.bold(f'“{question}”')} across the corpus's {len(answers)} policies"
                  + (f" (read as “{style.text(result['asked'])}”)" if result.get("asked") else "") + ":"]
        for row in result["summary"]:
            if not row["policies"]:
                continue
            names = sorted(a["service"] for a in answers if a["verdict"] == row["verdict"])
            shown = ", ".join(style.text(n) for n in names[:MAX_CORPUS_NAMES])
            more = f" and {len(names) - MAX_CORPUS_NAMES} more" if len(names) > MAX_CORPUS_NAMES else ""
            blocks.append(f"{style.bold(_VERDICT_WORDS[row['verdict']])}: {row['policies']} "
                          f"({row['share']:.0%}, 95 % interval {row['low']:.0%}–{row['high']:.0%}): {shown}{more}")
        return style.join(blocks)
    blocks = []
    for answer in answers:
        blocks.append(f"{style.bold(style.text(_corpus_source(answer)))}: {style.text(answer['headline'])}")
        quoted = [(answer["sentence_id"], answer["quote"])] if answer.get("quote") else []
        for number, text in quoted + [tuple(pair) for pair in answer.get("also") or []]:
            blocks.append(style.quote([f"“{style.text(text)}”", f"— {style.italic(f'sentence {int(number)}')}"]))
    return style.join(blocks)


def _corpus_source(row: dict) -> str:
    """"Steam's policy of 2026-05-01 (from the corpus)"."""
    dated = f" of {row['date']}" if row.get("date") else ""
    return f"{row['service']}'s policy{dated} (from the corpus)"


def format_corpus_services(services: Sequence[str], style: Style) -> str:
    """A name the corpus holds, typed alone: what can be asked of it."""
    names = " or ".join(style.text(s) for s in services)
    example = style.text(f"Does {services[0]} sell my data?")
    return f"{names}: in the corpus I answer from. Ask me a question about it, for example “{example}”."
