"""PolicyIE facts made by hand, and the sentences the statement and label tests share."""
from __future__ import annotations

from assistant.foundation.types import Facts, Slot


def slot(sentence: str, label: str, text: str) -> Slot:
    start = sentence.index(text)
    return Slot(label, text, start, start + len(text))


SHARE = "We do not share your email address with advertisers for marketing unless you opt in."
KEEP = "We keep your order history for five years."
OTHER = "Welcome to our site."


def facts_of(text: str) -> Facts:
    if text == SHARE:
        return Facts("data-sharing-disclosure", (
            slot(text, "data-sharer.first-party-entity", "We"),
            slot(text, "polarity.negation", "not"),
            slot(text, "data-shared.data-contact", "email address"),
            slot(text, "data-receiver.third-party-entity", "advertisers"),
            slot(text, "purpose-argument.advertising-marketing", "marketing"),
            slot(text, "condition-argument.condition", "unless you opt in"),
        ))
    if text == KEEP:
        return Facts("data-storage-retention-deletion", (
            slot(text, "data-holder.first-party-entity", "We"),
            slot(text, "data-retained.data-user-online-activities-profiles", "order history"),
            slot(text, "retention-period.retention-period", "five years"),
            slot(text, "data-retained.data-general", "your"),  # uninformative: never shown
        ))
    return Facts("Other")


# The sentences: the statement and the label must keep the negation.
TRACK = "We don't track your precise location."
SELL = "We do not sell your personal information to data brokers."
