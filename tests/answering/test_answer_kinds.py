"""Answers that do the asker's job, on small policies of our own (none from an answers set): a question naming a
kind of data is answered only by a statement naming it; how-to and contact answers give the ways; how-long gives
the general rule first; where names the places and safeguards; a statement for some only is said as scoped; a
policy that says both yes and no shows both. Every headline answers in words, and `answerable` agrees with the
verdict."""
from __future__ import annotations

import pytest

from tests.support.small_policies import ingested

POLICY = """# Acme privacy notice

## Information we collect

We collect your name, e-mail address and payment card details when you create an account.
We infer your general location from your IP address.
When you enable Face Unlock, we store a scan of your face geometry on your device only.

## How we share information

We do not sell your personal information.
We share purchase history with our delivery partners to fulfil orders.
We share your data with service providers that host our servers.

## Your choices

You can delete your account at any time. To delete your account, go to Settings > Account > Delete account, or e-mail privacy@acme.example.
You may unsubscribe from marketing e-mails by clicking the unsubscribe link in any message.

## How long we keep data

We keep your personal data for as long as your account is open and as necessary to provide the services.
Support chat transcripts are deleted after 90 days.

## International transfers

Your data may be processed in the United States and Ireland.
We rely on Standard Contractual Clauses approved by the European Commission for these transfers.

## Students

We do not share student personal data with advertisers.

## Contact

Acme Widgets Ltd. is the controller of your personal data.
Our Data Protection Officer can be reached at dpo@acme.example.
"""


@pytest.fixture
def acme(assistant, tmp_path):
    return ingested(assistant, tmp_path, "acme", POLICY)


def ask(acme, question: str):
    answer = acme.ask(question, policy="acme")
    assert answer.answerable == (answer.verdict != "not_stated"), (question, answer.headline)
    assert "addresses this in sentence" not in answer.headline
    assert answer.headline[:1].isupper() and answer.headline.endswith("."), answer.headline
    return answer


def test_a_question_naming_a_kind_of_data_is_answered_only_by_a_statement_naming_it(acme):
    face = ask(acme, "Do you collect biometric data?")
    # stored only when you enable Face Unlock: "only if" (the sets' labelling rule: a feature you turn on)
    assert face.verdict == "conditional" and "face geometry" in face.evidence[0].text, face.headline
    assert "biometric data" in face.headline
    precise = ask(acme, "Do you collect my precise GPS location?")
    assert precise.verdict == "not_stated", precise.headline  # only the approximate location is stated
    assert "whether it collects your precise location" in precise.headline
    contacts = ask(acme, "Do you upload my contacts?")
    assert contacts.verdict == "not_stated", contacts.headline
    insurers = ask(acme, "Do you share my purchase history with insurers?")
    assert insurers.verdict == "not_stated", insurers.headline


def test_how_to_answers_give_the_ways_before_the_right(acme):
    delete = ask(acme, "How can I delete my account?")
    assert "Settings > Account > Delete account" in delete.headline and "privacy@acme.example" in delete.headline
    assert delete.evidence[0].text.startswith("To delete your account"), delete.headline
    contact = ask(acme, "How do I contact your data protection officer?")
    assert "dpo@acme.example" in contact.headline and "data protection officer" in contact.headline


def test_how_long_gives_the_general_rule_first_then_the_periods(acme):
    kept = ask(acme, "How long do you keep my data?")
    assert "as long as your account is open" in kept.headline, kept.headline
    assert kept.headline.index("as long as") < kept.headline.index("90 days"), kept.headline


def test_who_runs_it_is_the_sentence_naming_the_controller_not_a_list(acme):
    who = ask(acme, "Who is responsible for my data?")
    assert "Acme Widgets Ltd. is the controller" in who.headline, who.headline
    shared = ask(acme, "Who do you share my data with?")
    assert shared.headline.startswith("The acme policy names these recipients: service providers"), shared.headline


def test_where_names_the_places_and_the_safeguards(acme):
    where = ask(acme, "Where is my data stored?")
    for name in ("United States", "Ireland", "Standard Contractual Clauses"):
        assert name in where.headline, where.headline


def test_a_statement_for_some_only_is_said_as_scoped(acme):
    students = ask(acme, "Do you share student data with advertisers?")
    assert students.verdict == "scoped", students.headline
    assert students.headline.startswith("Only for some (student personal data) — acme says it does not share")


def test_ways_of_another_right_nearby_are_not_offered(acme):
    unsubscribe = ask(acme, "How do I unsubscribe from marketing emails?")
    assert "unsubscribe link" in unsubscribe.headline and "privacy@acme.example" not in unsubscribe.headline


def test_the_policy_graph_reads_the_stored_sentences(acme):
    graph = {s.sentence_id: s for s in acme.graph("acme")}
    face = next(s for s in graph.values() if "face geometry" in s.text)
    assert face.data == ("face_biometric",) and "collect" in face.actions
    sale = next(s for s in graph.values() if "do not sell" in s.text)
    assert sale.polarity == "does not" and "sell" in sale.actions
    students = next(s for s in graph.values() if "student" in s.text)
    assert students.scope == "student personal data" and students.recipients == ("advertisers",)


def test_how_long_a_named_kind_of_data_is_kept_never_quotes_the_period_of_other_data(assistant, tmp_path):
    # The class: a retention period stated for one kind of data (public posts, backups, payment records) is no answer
    # to how long another named kind is kept; the general rule, when stated, is (it applies to every kind).
    policy = tmp_path / "portal.md"
    policy.write_text(
        "# Portal privacy policy\n\n## Retention\n\n"
        "Content you post publicly may remain indefinitely in the publicly accessible area of the services.\n\n"
        "We keep payment records for seven years to meet our tax obligations.\n\n"
        "## Your account\n\nYou can close your account at any time from the settings page.\n")
    assistant.ingest(policy, name="portal", force=True)
    searches = assistant.ask("How long do they keep my search history?", policy="portal")
    assert searches.verdict == "not_stated", searches.headline
    assert "indefinitely" not in searches.headline and "seven years" not in searches.headline
    payments = assistant.ask("How long do they keep my payment records?", policy="portal")
    assert "seven years" in payments.headline, payments.headline
    policy.write_text(policy.read_text().replace(
        "## Your account", "We retain other personal information for as long as your account is active.\n\n"
                           "## Your account"))
    assistant.ingest(policy, name="portal", force=True)
    general = assistant.ask("How long do they keep my search history?", policy="portal")
    assert "as long as your account is active" in general.headline and "indefinitely" not in general.headline, \
        general.headline

