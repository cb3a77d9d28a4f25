"""Plain-words explanations of why an answer is missing, shared by every front end."""
from __future__ import annotations

POLICY_SILENT = "policy_silent"  # the policy does not address the question

REASON_TEXT = {
    POLICY_SILENT: "This policy does not seem to address that question.",
    "out_of_scope": "That is not a privacy question, so a privacy policy cannot answer it.",
    "beyond_policy": "That is about privacy, but it is not something privacy policies state "
                     "(for example past breaches, trustworthiness or legal advice).",
    "vague": "That question is too vague to answer from the policy: say which data or practice you mean.",
    "incomprehensible": "I could not make sense of that question: could you rephrase it?",
}


def explain_reason(reason: str | None) -> str:
    """One sentence, in plain words, for an Answer's `reason`."""
    return REASON_TEXT.get(reason or "", "The policy cannot answer this question.")
