"""Answering the question: its type and facet, the verdict, the headline, and the answers harness."""
from __future__ import annotations

import json

import pytest

from assistant.foundation.errors import AssistantError
from assistant.understanding.facets import BY_NAME, facet_of, question_type
from tests.conftest import EXAMPLES


@pytest.mark.parametrize(("question", "kind", "facet"), [
    ("Do they sell my data?", "yes_no", "sale"),
    ("Do they sell my data? yes or no", "yes_no", "sale"),
    ("Can I get them to delete my data?", "yes_no", "deletion"),
    ("How long do they keep my data?", "how_long", "retention"),
    ("Do they say how long they keep my data?", "yes_no", "retention"),
    ("Do they use my data to train AI?", "yes_no", "ai_training"),
    ("Can I contact a data protection officer?", "yes_no", "contact_dpo"),
    ("Do they protect my data with encryption?", "yes_no", "security"),
    ("Can I opt out of targeted ads?", "yes_no", "opt_out_ads"),
    ("Who do they share my data with?", "who", "sharing_third_parties"),
    ("How do I opt out of personalised ads?", "how_to", "opt_out_ads"),
    ("What is the weather like?", "what", None),
    # a condition put first: the question is its main clause
    ("If the government asks, will they turn over my data?", "yes_no", "law_enforcement"),
    ("If they change their privacy terms, will they let me know?", "yes_no", "policy_changes"),
    ("If I close my account, how long do they keep my data?", "how_long", "retention"),
    # access by others is sharing; your access is access
    ("Do outside companies get access to my personal data?", "yes_no", "sharing_third_parties"),
    ("Can I get access to my data?", "yes_no", "access_correction"),
    # advertisers as the subject (the seventh held-out set's wording)
    ("Are advertisers allowed to get data about me from this service?", "yes_no", "sharing_advertisers"),
])
def test_question_type_and_facet(question, kind, facet):
    assert question_type(question) == kind
    assert (facet_of(question).name if facet_of(question) else None) == facet


def test_a_merger_is_no_sale_of_your_data_and_opting_out_of_email_is_not_of_ads():
    sale, opt_out = BY_NAME["sale"], BY_NAME["opt_out_ads"]
    assert sale.addressed_by("We do not sell, rent or trade your personal information.")
    assert not sale.addressed_by("As we continue to develop our business, we might sell or buy stores, "
                                 "subsidiaries, or business units.")
    assert not sale.addressed_by("Valve collects the personally identifiable information they provide by creating "
                                 "a Steam account, by purchasing or selling subscriptions.")  # not data for sale
    assert not opt_out.addressed_by("You may opt out of receiving our newsletter at any time.")
    assert opt_out.addressed_by("You can opt out of interest-based advertising at the NAI's opt-out page.")


def test_the_bundled_example_answers_the_issues_questions(amazon):
    sale = amazon.ask("Do they sell my data?", policy="amazon")
    assert (sale.verdict, sale.facet, sale.question_type) == ("no", "sale", "yes_no")
    assert "not in the business of selling" in sale.evidence[0].text and sale.answer == sale.evidence[0].text
    assert sale.headline == f"No — amazon says it does not sell your personal information (sentence " \
                            f"{sale.evidence[0].sentence_id})."
    for question in ("Can I get them to delete my data?", "How long do they keep my data?"):
        silent = amazon.ask(question, policy="amazon")
        assert silent.verdict == "not_stated", question
        assert silent.headline.startswith("The amazon policy does not say."), silent.headline
    cookies = amazon.ask("Does Amazon use cookies?", policy="amazon")
    assert cookies.verdict == "yes" and "cookie" in cookies.evidence[0].text.lower()


def test_headlines_are_sentences_never_fragments(amazon):
    for question in ("Do they share my personal information with other companies?", "Who do they share my data with?",
                     "Do they collect my location?", "What is the weather like in Paris?", "Is it safe?"):
        headline = amazon.ask(question, policy="amazon").headline
        assert headline[:1].isupper() and headline.endswith("."), (question, headline)
        assert len(headline.split()) >= 5, (question, headline)


def test_answers_harness_scores_verdicts_on_real_policies(tmp_path, embedder, retriever, policyie, reader):
    from assistant.evaluation.answers import run_answers
    from assistant.foundation.sentences import build_policy
    from assistant.ingest.parsing import load_document

    sentences = [s.text for s in build_policy(load_document(EXAMPLES / "amazon.com.html", 10**7)).sentences]
    selling = next(s for s in sentences if "not in the business of selling" in s)
    cookies = next(s for s in sentences if s.startswith('For example, like many Web sites, we use "cookies,"'))
    data = tmp_path / "answers.jsonl"
    rows = [
        {"policy_file": "amazon.com.html", "question": "Do they sell my personal information?", "verdict": "no",
         "evidence": [40], "evidence_text": [selling]},
        {"policy_file": "amazon.com.html", "question": "Do they use my data to train AI or machine-learning models?",
         "verdict": "not_stated"},
        {"policy_file": "amazon.com.html", "question": "Do they use cookies or similar technologies to track me?",
         "verdict": "conditional", "evidence": [24], "evidence_text": [cookies]},
        {"policy_file": "amazon.com.html", "question": "Do they knowingly collect information from children?",
         "verdict": "no", "ambiguous": True},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = run_answers(data, EXAMPLES, embedder=embedder, retriever=retriever, policyie=policyie, reader=reader)
    out = report.to_json()
    assert out["items"] == 3 and out["skipped_ambiguous"] == 1
    assert {"accuracy", "items", "by_verdict", "baselines", "first_quote_supports", "not_stated"} <= set(out)
    assert out["accuracy"] == 100.0  # a gold "conditional" accepts "yes"
    assert out["first_quote_supports"] == 100.0
    assert out["baselines"]["always_yes"]["accuracy"] == pytest.approx(33.3)


def test_answers_file_errors_are_one_line(tmp_path):
    from assistant.evaluation.answers import load_items

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"policy_file": "a.html", "question": "q?", "verdict": "maybe"}\n')
    with pytest.raises(AssistantError, match=r"bad.jsonl:1: verdict 'maybe'"):
        load_items(bad)
    bad.write_text("not json\n")
    with pytest.raises(AssistantError, match=r"bad.jsonl:1: not an answers item"):
        load_items(bad)
    with pytest.raises(AssistantError, match="no such file"):
        load_items(tmp_path / "missing.jsonl")


def test_the_label_shows_each_facet_at_a_glance_with_its_sentence(amazon):
    from assistant.understanding.facets import GLANCE_QUESTIONS

    label = amazon.label("amazon")
    rows = {row.facet: row for row in label.glance}
    assert list(rows) == list(GLANCE_QUESTIONS)
    assert rows["sale"].verdict == "no" and "not in the business of selling" in rows["sale"].quote
    assert (rows["deletion"].verdict, rows["deletion"].sentence_id, rows["deletion"].quote) == ("not_stated", None, None)
    assert rows["cookies_tracking"].verdict == "yes"
    stored = {s.ordinal: s.text for s in amazon.store.sentences(amazon.version("amazon").id)}
    for row in label.glance:  # every quote is the stored sentence it cites
        assert row.quote is None or stored[row.sentence_id] == row.quote
    assert label.to_dict()["glance"][0]["facet"] == "sale"


def test_training_means_training_not_any_mention_of_ai():
    ai = BY_NAME["ai_training"]
    assert not ai.addressed_by("To provide AI chatbots")
    assert not ai.addressed_by("We train our employees to handle personal data with care.")
    assert ai.addressed_by("Your pages stay on your device and are not used for training purposes without your consent.")


def test_a_retention_limit_is_a_stated_period_and_a_deletion_right_beats_deletion_by_expiry(assistant, tmp_path):
    policy = tmp_path / "browser.md"
    policy.write_text(
        "# Browser privacy notice\n\n## How long we keep your data\n\n"
        "In general, we do not retain personal data for more than 25 months.\n\n"
        "Once the retention period expires we securely delete your data.\n\n"
        "## Your rights\n\nYou can request that we delete the personal data we hold about you.\n")
    assistant.ingest(policy, name="browser", force=True)  # a three-sentence fixture
    kept = assistant.ask("Do they say how long they keep my data?", policy="browser")
    assert kept.verdict == "yes" and "25 months" in kept.evidence[0].text, kept.headline
    deletion = assistant.ask("Can I delete my account or my personal data?", policy="browser")
    assert deletion.verdict == "yes" and deletion.evidence[0].text.startswith("You can request"), deletion.headline


def test_a_denial_until_you_consent_is_conditional_a_mixed_sentence_no_denial_and_our_marketing_no_advertiser(
        assistant, tmp_path):
    # Sentences in the likeness of the Firefox and Mozilla accounts notices' (docs/results.md, "Still wrong").
    policy = tmp_path / "browser.md"
    policy.write_text(
        "# Browser privacy notice\n\n## AI features\n\n"
        "Some features are powered by small language models downloaded to your device. These operate locally — "
        "pages, images and tab addresses stay on your device and are not sent to our servers or used for training "
        "purposes without your explicit consent.\n\n## Location\n\n"
        "If you choose to allow it, your precise location may also be processed for location-related functionality "
        "for map websites; this data is only accessed from your device by the websites you enable it for — it is "
        "not sent to our servers.\n\n## Accounts\n\n"
        "As part of understanding usage of accounts and measuring our marketing, we may create aggregated or "
        "anonymized data.\n")
    assistant.ingest(policy, name="browser", force=True)
    training = assistant.ask("Do they use my data to train AI?", policy="browser")
    assert training.verdict == "conditional" and "training purposes" in training.evidence[0].text, training.headline
    assert training.headline.startswith("Only with your consent — browser says it uses your data to train AI")
    location = assistant.ask("Do they collect my location?", policy="browser")
    assert location.verdict == "conditional" and "precise location" in location.evidence[0].text, location.headline
    advertisers = assistant.ask("Do they share my information with advertisers?", policy="browser")
    assert advertisers.verdict == "not_stated", advertisers.headline
    assert not BY_NAME["sharing_advertisers"].addressed_by("We measure our marketing and the reach of marketing our "
                                                           "services.")
    assert not BY_NAME["sharing_advertisers"].addressed_by("We may contact you to send you marketing-related "
                                                           "communications.")
    assert BY_NAME["sharing_advertisers"].addressed_by("We share your email address with marketing partners.")


def test_a_plain_denial_stays_no_and_a_denied_clause_beside_an_unrelated_one_too():
    from assistant.foundation.types import Sentence
    from assistant.understanding.statements import stance

    def said(text: str, facet: str) -> str:
        return stance(Sentence(1, text, 0, len(text), ""), BY_NAME[facet])

    assert said("We do not sell your personal information.", "sale") == "no"
    assert said("We do not collect your precise location; we may infer your country from your IP address.",
                "collection_location") == "no"
    assert said("We will not share your information with advertisers unless you opt in.",
                "sharing_advertisers") == "conditional"
    assert said("We share your data with advertisers.", "sharing_advertisers") == "yes"


def _decided(question: str, texts: list[str], relevance: list[float]):
    """The ranking and verdict stages on real sentences, with the retriever's relevance logits given."""
    import numpy as np

    from assistant.answering.ranking import rank_evidence
    from assistant.answering.selection import SelectionParameters, select
    from assistant.answering.verdict import decide
    from assistant.foundation.types import PolicyVersion, Sentence
    from assistant.understanding.question import UnderstoodQuestion

    sentences = [Sentence(i + 1, t, 0, len(t), "") for i, t in enumerate(texts)]
    version = PolicyVersion(1, "acme", 1, "acme.md", "", "", 1, len(sentences), "")
    understood = UnderstoodQuestion(question, None, 0.0, question_type="yes_no", facet=facet_of(question).name)
    parameters = SelectionParameters.load()
    ranking = rank_evidence(understood, version, sentences, np.array(relevance), parameters)
    selection = select([r.selection_logit for r in ranking.ranked], [r.relevance for r in ranking.ranked],
                       parameters, 3)
    return ranking, decide(ranking, selection)


def test_a_sentence_with_the_facets_words_is_a_candidate_beyond_the_retrievers_best():
    filler = [f"Feature {i} runs artificial intelligence models on your device." for i in range(60)]
    consent = "Your pages are not used for training purposes without your explicit consent."
    ranking, verdict = _decided("Do they use my data to train AI?", filler + [consent], [2.0] * 60 + [-3.0])
    assert len(ranking.ranked) == 51 and ranking.ranked[-1].sentence.text == consent  # after the retriever's 50
    assert verdict.verdict == "conditional" and ranking.ranked[verdict.support].sentence.text == consent


@pytest.mark.parametrize(("question", "aside", "statement"), [
    ("Do they use cookies?", 'A "cookie" is a small text file placed on your computer by a web site.',
     "We use cookies to remember your preferences and to understand how the site is used."),
    ("Do they share my data with other companies?",
     "If we are involved in a merger or acquisition, your information may be transferred to the successor.",
     "We share your information with service providers who help us run the site."),
    ("Do they transfer my data to other countries?", "TRANSFER OF YOUR INFORMATION TO OTHER COUNTRIES",
     "Your information may be transferred to and processed in the United States and other countries."),
    ("Can I contact them about privacy?", "Contact the webmaster of those external sites about their content.",
     "If you have questions about this privacy policy, please contact us at privacy@example.com."),
    # a court's jurisdiction is not where the data goes
    ("Can my information leave my country?",
     "If no resolution is reached, you agree to submit to the exclusive jurisdiction of the Courts of Singapore.",
     "It may be necessary for us to transfer your Personal Data out of Singapore."),
    # the company hands data over; a right to ask who got it is not that
    ("Do they share my personal information with other companies?",
     "If a business sells or shares your Personal Information, you have the right to ask which third parties got it.",
     "We may share your personal data with our service providers."),
    # protection the company takes, not a retention rule that mentions security
    ("Do they do anything to keep my information safe?",
     "Usage data is retained for a shorter period, except when it is used to strengthen the security of the Service.",
     "The Company will take all steps reasonably necessary to ensure that your data is treated securely."),
])
def test_the_first_quote_states_the_practice_not_a_definition_heading_or_aside(question, aside, statement):
    ranking, verdict = _decided(question, [aside, statement], [3.0, 2.0])
    assert ranking.ranked[0].sentence.text == aside  # the retriever prefers the aside
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline


@pytest.mark.parametrize(("question", "facet"), [
    ("Is my data kept secure?", "security"),  # read as retention before ("kept"), on the Firefox notice too
    ("Do they keep my data safe?", "security"),
    ("Is my data stored securely?", "security"),
    ("How long do they keep my data?", "retention"),
    ("Do they keep a copy of my messages?", "retention"),
    ("Where is my data stored?", "retention"),
])
def test_keeping_data_safe_is_security_and_keeping_it_is_retention(question, facet):
    assert facet_of(question).name == facet


@pytest.mark.parametrize(("question", "neighbour", "statement"), [
    # the law: handing data over, not processing it to comply with a law (GitHub's "Legal Obligation" basis)
    ("Will they hand my data to the police if asked?",
     "Legal Obligation: We process data when it is necessary to comply with applicable laws.",
     "We may disclose personal data to law enforcement or courts in response to lawful requests."),
    # advertisers: data given to them, not their presence on the site
    ("Do they share my information with advertisers?",
     "Third-party advertisers work with us and use cookies and web beacons on the site.",
     "We may share your email address with advertising partners to send you interest-based ads."),
    # sharing your personal information, not aggregated data (the question is about yours)
    ("Do they share my personal information with other companies?",
     "We may share aggregated, anonymous data about our users with sponsors and partners.",
     "We share your personal information with service providers who process payments for us."),
    # what the recipients may not do is not the company's sharing
    ("Do they share my personal information with other companies?",
     "These third-party vendors will have access to your information, but they may not use it for any other purpose.",
     "We use outside vendors, such as companies that process credit card transactions, to provide services."),
    # security: the measures, not a pointer to another page or a disclaimer
    ("Is my data kept secure?", "For more information about how we keep data secure, please review our security page.",
     "All data is encrypted via TLS when it is transmitted from our servers to your browser."),
    ("Do they protect my data with security measures?",
     "No transmission of data over the internet can be guaranteed to be 100% secure.",
     "We have implemented reasonable safeguards to prevent loss, misuse and unauthorised access."),
    # retention: the period, not the heading of a list of them
    ("Do they tell me how long my data is kept?", "We will retain your personal data as follows:",
     "Transaction information will be retained for a minimum period of 5 years."),
    # policy changes: "information" is not "inform"
    ("Will they tell me when the privacy policy changes?",
     "We revised the policy and clarified how we use the information we collect.",
     "If there are material changes to this policy, we will notify you by email."),
    # access: what you can do, not what the company reserves the right to do
    ("Can I access or correct my personal information?",
     "We reserve the right to access and use your information for purposes of public safety.",
     "You can update the information you provided to us in the Your Profile section."),
    # deletion: your right, not a "deletion request" as a noun
    ("Can I have my data erased?", "In such cases, a data deletion request may result in closing your account.",
     "This is your right to request that your personal information be erased from our possession."),
    # contact: questions about this policy, not about other sites' practices
    ("Can I contact them about privacy?",
     "Contact the webmaster of those external sites if you have concerns about the privacy practices of such sites.",
     "If you have any questions about our privacy statement, please email us."),
    # data coming in is not data going out (fifth held-out set, Replit and HER)
    ("Do they share my personal information with other companies?",
     ("If you choose to link our Services to a third-party account, we may receive information about you, including "
     "your profile information."),
     "We may share any information we receive with vendors retained in connection with the provision of our Services."),
    ("Do they share my personal information with other companies?",
     "If you sign up with a Social Account, the social platform will share your name, birthdate and email back with us.",
     "We may share your Personal Information with our third party service providers who provide website hosting."),
    # disclosure to protect rights or answer the law is the law-enforcement question (fal, HER)
    ("Do they share my personal information with other companies?",
     ("We may disclose personal information if we believe in good faith that such disclosure is necessary to protect "
     "our rights."),
     "We make personal information available to our vendors, service providers and consultants."),
    # "Non-Personal Data" is not yours (Speechify)
    ("Do they share my personal information with other companies?",
     "We may disclose Non-Personal Data publicly and to third parties, for example in public reports about word usage.",
     "We share your personal data with service providers who host our Services."),
    # the company contacting you, or a pointer to the contact section, is no contact detail (Scribe, HER)
    ("Do they list contact details for privacy questions?",
     "Contact you regarding our products, services, and other information that may be of interest to you;",
     "If you have any questions about this Privacy Policy, please contact us at privacy@example.com."),
    ("Do they list contact details for privacy questions?",
     ("We would welcome you directing an inquiry to us via the information in the “Contact Us” section of this Privacy "
     "Policy."),
     "If you have any questions about our Privacy Policy, please contact us at support@example.com."),
    # the name of a link is not a denial (HER: "Do Not Sell or Share my Personal Information.")
    ("Is any of my data sold for money?", "Do Not Sell or Share my Personal Information.",
     "We do not sell your Personal Data."),
])
def test_the_first_quote_is_the_one_that_answers_not_a_same_topic_neighbour(question, neighbour, statement):
    ranking, verdict = _decided(question, [neighbour, statement], [3.0, 2.0])
    assert ranking.ranked[0].sentence.text == neighbour  # the retriever prefers the neighbour
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline


def test_a_preferred_sentence_far_below_the_best_does_not_jump_ahead():
    best = "Advertising companies present ads that might be of interest to you based on your online activities."
    shared = "Where the law allows, we may provide lists of customers to marketing partners."
    ranking, verdict = _decided("Do they share my information with advertisers?", [best, shared], [4.0, -1.0])
    assert ranking.ranked[verdict.support].sentence.text == best, verdict.headline  # 5 below: too far down
    ranking, verdict = _decided("Do they share my information with advertisers?", [best, shared], [4.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == shared, verdict.headline  # within the margin


def test_a_sentence_ending_in_an_email_address_states_something_and_erased_asks_about_deletion():
    from assistant.understanding.statements import states_practice

    contact = BY_NAME["contact_dpo"]
    assert states_practice("Our data protection officer's contact details are: Jane Doe, dpo@example.com", contact)
    assert not states_practice("Contact details", contact)
    assert facet_of("Can I have my data erased?").name == "deletion"
    assert BY_NAME["deletion"].addressed_by("If you prefer, you can cancel your registration altogether.")
    assert BY_NAME["international_transfer"].addressed_by(
        "You consent to the transfer of your personal information to any country.")
    assert BY_NAME["children"].addressed_by("No one under age 13 is allowed to register for the Service.")
    assert BY_NAME["opt_out_ads"].addressed_by(
        "To know your choices about interest-based ads from participating companies, visit networkadvertising.org.")
    assert not BY_NAME["ai_training"].addressed_by("We provide employee training on handling personal data securely.")


def test_an_item_of_a_list_of_rights_is_the_answer_not_a_purpose_that_mentions_the_right():
    # in the likeness of the Firefox notice: "You have the right to: … Have personal data … deleted"
    right = "Have personal data we hold about you deleted (in certain circumstances)"
    expiry = "Once the retention period expires we securely delete your data, unless otherwise required by law."
    purpose = "Responding to requests to exercise privacy rights, such as your right to access or delete your personal data."
    ranking, verdict = _decided("Can I delete my data?", [right, expiry, purpose], [0.4, 0.1, -0.4])
    assert ranking.ranked[verdict.support].sentence.text == right and verdict.verdict == "yes", verdict.headline
    from assistant.understanding.statements import states_practice
    assert not states_practice("Your rights and choices", BY_NAME["deletion"])  # a heading stays a heading
    # a title with the facet's preferred words is still a title
    assert not states_practice("Information we share with advertisers (including Targeted Advertising)",
                               BY_NAME["sharing_advertisers"])
    assert states_practice("Where we believe it is required in order to respond to subpoenas, court orders, or other "
                           "legal process, or to establish or exercise our legal rights", BY_NAME["law_enforcement"])


@pytest.mark.parametrize(("question", "facet"), [
    # "stored … in other countries" asks where the data goes, not how long it is kept (read as retention before)
    ("Is my data stored or processed in other countries?", "international_transfer"),
    ("Is my data sent outside the EU?", "international_transfer"),
    ("Do they transfer my data to other countries?", "international_transfer"),
    # a transfer to other companies is sharing, not a transfer abroad
    ("Do they transfer my data to third parties?", "sharing_third_parties"),
    # advertisers by other names
    ("Is my data passed on to ad companies?", "sharing_advertisers"),
    ("Do they send my data to marketers?", "sharing_advertisers"),
    # access and correction in plain words
    ("Can I get a copy of my data and fix anything that is wrong?", "access_correction"),
])
def test_questions_in_other_words_find_their_facet(question, facet):
    assert facet_of(question).name == facet


def test_a_sentence_that_only_sells_childrens_data_does_not_answer_whether_they_collect_it():
    question = "Do they gather information about children?"
    sold = "We don't knowingly sell or share personal information of those under 16."
    ranking, verdict = _decided(question, [sold], [3.0])
    assert verdict.verdict == "not_stated", verdict.headline
    collected = "We do not knowingly collect personal data from children under 13."
    ranking, verdict = _decided(question, [sold, collected], [3.0, 2.0])
    assert verdict.verdict == "no" and ranking.ranked[verdict.support].sentence.text == collected, verdict.headline


def test_a_privacy_mailbox_far_down_the_policy_answers_the_contact_question():
    # the retriever ranks collecting e-mail addresses first (the fourth held-out set's wording of the question)
    collected = [f"Basic contact details, such as name, address, phone number, and email (item {i})." for i in range(55)]
    mailbox = "Should you have any questions about our privacy practices, please email us at privacy@example.com."
    ranking, verdict = _decided("Is there an email or person I can contact about my data?", collected + [mailbox],
                                [2.0] * 55 + [-3.0])
    assert ranking.ranked[verdict.support].sentence.text == mailbox, verdict.headline


def test_a_denial_limited_to_some_products_is_no_blanket_no():
    question = "Do they use my data to train AI models?"
    scoped = ("We do not use your Input and Output to train our models when you use Le Chat Team, Le Chat Enterprise "
              "or the paid version of our APIs.")
    used = "We use your Input and Output to train our artificial intelligence models, subject to your opt-out."
    ranking, verdict = _decided(question, [used, scoped], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == used, verdict.headline  # not preferred as a denial
    ranking, verdict = _decided(question, [scoped], [3.0])
    assert verdict.verdict == "conditional" and verdict.headline.startswith("Only in some cases"), verdict.headline
    plain = "We do not use your content to train our models."
    ranking, verdict = _decided(question, [plain, used], [3.0, 2.0])
    assert verdict.verdict == "no", verdict.headline  # a plain denial among the best still answers


@pytest.mark.parametrize("question", ["Are my chats or uploads fed into model training?",
                                      "Is my content used to train their models?"])
def test_model_training_in_other_words_is_the_ai_facet(question):
    assert facet_of(question).name == "ai_training"


def test_a_denial_with_exceptions_is_conditional_but_a_formula_is_not():
    question = "Do they use my data to train AI models?"
    excepted = ("We do not use Inputs or Suggestions to train our models unless: (1) they are flagged for security "
                "review, (2) you explicitly report them to us, or (3) you've explicitly agreed to it.")
    _, verdict = _decided(question, [excepted], [3.0])
    assert verdict.verdict == "conditional", verdict.headline
    formula = "We will not sell or rent the personally identifiable information you provide to us, except as stated herein."
    _, verdict = _decided("Do they sell my personal information?", [formula], [3.0])
    assert verdict.verdict == "no", verdict.headline


def test_a_mailbox_for_everyone_comes_before_the_same_mailbox_for_one_states_residents():
    scoped = "Colorado residents can submit access and deletion requests by emailing us at privacy@example.com."
    everyone = "If you have questions about your privacy or this privacy policy, please contact us at privacy@example.com."
    ranking, verdict = _decided("Do they list contact details for privacy questions?", [scoped, everyone], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == everyone, verdict.headline


def test_improving_our_ai_models_with_your_content_answers_the_training_question():
    improved = ("Purpose/Activity: To improve the accuracy and quality of our services (including our AI models) — "
                "Type of personal data: De-identified User Content.")
    _, verdict = _decided("Do they train machine-learning models on what I type or upload?", [improved], [3.0])
    assert verdict.verdict == "yes", verdict.headline


def test_questions_about_your_data_put_to_the_company_answer_the_contact_question_but_not_to_someone_else():
    question = "Do they list contact details for privacy questions?"
    products = "Contact you regarding our products, services, and other information that may be of interest to you;"
    gdpr = "Please contact [email protected] if you have any questions pertaining to GDPR and your rights thereunder."
    ranking, verdict = _decided(question, [products, gdpr], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == gdpr, verdict.headline
    elsewhere = ("If you are a customer’s end user and you have questions about how your information is processed, "
                 "please contact the organization who has provided your information to us.")
    mailbox = "Please get in touch by emailing us at privacy@example.com and we’ll be happy to answer them!"
    ranking, verdict = _decided(question, [elsewhere, mailbox], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == mailbox, verdict.headline


@pytest.mark.parametrize(("question", "aside", "statement"), [
    # a sale that may come one day is not a sale (sixth held-out set, Together AI)
    ("Does this company sell information about me?",
     "If in the future we do sell your personal information, we will notify you and you may have the right to opt-out.",
     "The Company does not sell Your Personal Information, as defined under CCPA."),
    # what a recipient promises is not the company's own denial (archives.gov)
    ("Do they sell my personal information?",
     ("To a company that is contracted to assist us, and which agrees not to sell or use personal information for other "
     "purposes;"),
     "We do not sell any personal information to third parties."),
    # a period written "ninety (90) days" is a period, before the general rule (Lovable)
    ("Does the policy mention how long they retain my personal data?",
     "We retain personal information to fulfill the purposes outlined in this Policy or as required by law.",
     "Customer data is retained for up to ninety (90) days, after which it is deleted or isolated."),
])
def test_the_first_quote_is_the_companys_own_statement_not_a_hypothesis_or_a_recipients_promise(
        question, aside, statement):
    ranking, verdict = _decided(question, [aside, statement], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline
    assert verdict.verdict == ("yes" if "retain" in question else "no"), verdict.headline


def test_a_condition_in_another_clause_does_not_make_a_denial_conditional():
    never = ("We’ll never sell your personal information to third parties, and we won’t use your name or company in "
             "marketing statements without your permission either.")
    _, verdict = _decided("Is my personal data sold to anyone?", [never], [3.0])
    assert verdict.verdict == "no", verdict.headline
    _, verdict = _decided("Is my personal data sold to anyone?",
                          ["We do not sell your personal information without your consent."], [3.0])
    assert verdict.verdict == "conditional", verdict.headline


def test_the_companys_own_campaigns_are_not_sharing_with_advertisers():
    # read on Together AI's policy: "Yes — … shares your information with advertisers" from its own marketing
    own = ("For other purposes: We may use Your information for other purposes, such as data analysis, determining "
           "the effectiveness of our promotional campaigns and to evaluate and improve our Service, products, "
           "services, marketing and your experience.")
    _, verdict = _decided("Do they share my data with advertisers?", [own], [3.0])
    assert verdict.verdict == "not_stated", verdict.headline
    shared = "We may share your device identifiers with advertising partners to show you relevant ads."
    _, verdict = _decided("Do they share my data with advertisers?", [own, shared], [3.0, 2.0])
    assert verdict.verdict == "yes", verdict.headline


def test_a_denial_of_precise_location_only_does_not_deny_collecting_location():
    # read on Lovable's policy: "No" from a denial of precise geolocation while it keeps a city-level location
    precise = ("Lovable does not intentionally collect special-category or sensitive personal data, such as biometric "
               "identifiers, health information, or precise geolocation.")
    city = "Identifiers such as name, business e-mail, user ID, and IP address (city-level location only)."
    ranking, verdict = _decided("Does the service track my location?", [precise, city], [2.0, 3.0])
    assert ranking.ranked[1].sentence.text == precise  # a denial among the best: preferred, were it not scoped
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == city, verdict.headline


def test_words_read_on_the_seventh_held_out_set():
    # Windsurf: "does not reveal your identity … but may include … country, location, … how and when you use our
    # Services" states location; the denial is of something else, and "when you use" describes usage data
    windsurf = ("This information does not reveal your specific identity (like your name or contact information) but may "
                "include device, hardware, and usage information, such as your IP address, browser and device "
                "characteristics, country, location, information about how and when you use our Services.")
    _, verdict = _decided("Does the app or website figure out where I am located?", [windsurf], [3.0])
    assert verdict.verdict == "yes", verdict.headline
    # Lex: "under the age of majority" is about children
    lex = "We do not knowingly collect personally identifiable information from anyone under the age of majority."
    _, verdict = _decided("Will they collect personal data from a child who uses the service?", [lex], [3.0])
    assert verdict.verdict == "no", verdict.headline
    # Match: "you can control this in your settings" is an ad opt-out
    match = "And yes, we process your data to show relevant ads – you can control this in your settings."
    _, verdict = _decided("Is it possible to stop them using my data for targeted ads?", [match], [3.0])
    assert verdict.verdict == "yes", verdict.headline
    # Fireworks AI: protecting "our rights and property" is a ground for disclosure, not a security measure
    rights = "To protect our rights and property and the rights and property of others, including to enforce our terms;"
    _, verdict = _decided("Do they have measures in place to keep my data from being stolen or leaked?", [rights], [3.0])
    assert verdict.verdict == "not_stated", verdict.headline
    # Murf: another site's own policies, and what you shared with us, are no sharing with advertisers
    for text in (("Your browsing on any third-party website that has a link or advertisement on our Site is subject to "
                  "that third party's own policies."),
                 ("When in line with the preferences you have shared with us, we also provide you with advertising "
                  "relating to our products and services.")):
        _, verdict = _decided("Are advertisers allowed to get data about me from this service?", [text], [3.0])
        assert verdict.verdict == "not_stated", (text, verdict.headline)
    # Murf: a regulator is not the company's privacy contact
    regulator = ("If you feel you haven’t received a timely or satisfactory response from us to your question or "
                 "complaint, you have the right to contact your local supervisory authority.")
    officer = ("Please don't hesitate to get in touch if you have any queries about the use of your private information, "
               "write to MURF Group's grievance officer Sneha Roy at legal@murf.ai.")
    ranking, verdict = _decided("Can I reach a privacy officer or privacy team with questions about my data?",
                                [regulator, officer], [3.0, 2.0])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == officer, verdict.headline


def test_words_read_on_the_eighth_held_out_set():
    # Tempo: five rows of a table of uses ("- Provide the services … - Comply with law") rank first, state no
    # practice and disclose nothing to the law; the disclosure "if required to do so by applicable law" is the answer
    row = ("Category of Personal Information: Contact Information — How We Use this Personal Information: - Provide the "
           "services and respond to your requests - Contact you with relevant information and offers - Comply with law "
           "or defend our legal rights - Security/fraud prevention")
    disclosure = ("By using the Site or Services, you acknowledge and agree that we may access, retain, and disclose the "
                  "information we collect and maintain about you if required to do so by applicable law or in a good "
                  "faith belief that such access, retention or disclosure is reasonably necessary to: (a) comply with "
                  "legal process (e.g., a subpoena or court order); (b) enforce any contracts with you.")
    ranking, verdict = _decided("Do they disclose personal data to the police or government bodies?",
                                [row] * 5 + [disclosure], [3.0] * 5 + [-2.0])
    assert ranking.ranked[verdict.support].sentence.text == disclosure, verdict.headline
    # Tempo: a defined term ("“Customer” means … to access our Services") and reading the policy itself are no right
    # of access
    right = ("Where local laws permit, we provide access to and a copy of certain information we hold about you and "
             "update information which is out of date or incorrect.")
    ranking, verdict = _decided("Can I see my personal data and correct mistakes?", [
        "“Customer” means an entity that has contracted with Tempo to access our Services.",
        "We will make the revised Policy accessible on the Services, so you should review the Policy periodically.",
        right], [3.0, 3.0, 1.0])
    assert ranking.ranked[verdict.support].sentence.text == right, verdict.headline
    # Christian Mingle: "answering questions" in a list of services is no contact; "privacy-related matters" is
    services = ("To provide the Company Services to you, including: (a) Maintaining a profile, answering questions, and "
                "providing information about yourself; (b) Analyzing your personal data to match you with other users.")
    contact = ("If you have any questions or requests in connection with this Cookie Notice or other privacy-related "
               "matters, please send an email to [email protected].")
    ranking, verdict = _decided("Is there someone I can contact about how my personal data is handled?",
                                [services, contact], [3.0, 1.0])
    assert ranking.ranked[verdict.support].sentence.text == contact, verdict.headline


def test_words_read_on_the_ninth_held_out_set():
    from assistant.understanding.statements import states_practice

    # Jasper: a two-part question (see and fix) is answered by the sentence with both parts, not by one half
    both = ("Where possible, you can access, update or request deletion of Your Personal Data directly within Your "
            "account settings section.")
    ranking, verdict = _decided("Can I see what personal data they have on me and have it fixed?", [
        "Request correction of the Personal Data that We hold about You.", "Request access to Your Personal Data.",
        "To protect your privacy, we will verify your identity before granting access or making corrections.", both],
        [0.2, -0.1, -0.3, -0.5])
    assert ranking.ranked[verdict.support].sentence.text == both, verdict.headline
    # a one-part question keeps the best-ranked right
    ranking, verdict = _decided("Can I correct my personal information?", [
        "Request correction of the Personal Data that We hold about You.", both], [0.2, -0.5])
    assert ranking.ranked[verdict.support].sentence.text.startswith("Request correction"), verdict.headline
    # Replicate: keeping data because the law requires it is no disclosure to the authorities
    disclosure = "We may disclose your personal information in order to comply with law or legal process."
    ranking, verdict = _decided("Can the police or government agencies obtain my information from this company?", [
        ("We may also retain personal information if required by law, or for our legitimate interests, such as abuse "
         "detection and prevention."), disclosure], [0.0, -0.3])
    assert ranking.ranked[verdict.support].sentence.text == disclosure, verdict.headline
    # Replicate: unsubscribing from the company's own e-mail marketing says nothing of advertisers
    assert not BY_NAME["sharing_advertisers"].addressed_by(
        "Email marketing: you may unsubscribe to our commercial email list by following the instructions provided.")
    # ROMEO: ads tailored only with your consent are a choice; Kraft's tailored website is not
    assert BY_NAME["opt_out_ads"].addressed_by(
        "When you visit the ROMEO app for the first time, ROMEO will ask for your explicit consent to tailor ads for you.")
    assert not BY_NAME["opt_out_ads"].addressed_by(
        "Linking it with your information helps us to best tailor our website by saving your preferences, and to help "
        "identify site features, recipes, advertisements, and offers that may be of particular interest to you.")
    # ROMEO: "stores your personal data until …" is retention
    assert BY_NAME["retention"].addressed_by("In general ROMEO stores your personal data until your account is deleted.")
    # Bolt.new: data received from third parties is data coming in, not shared
    assert not states_practice("StackBlitz may receive personally identifiable information about you from third "
                               "parties, including information about your transactions.", BY_NAME["sharing_third_parties"])


def test_a_limit_on_a_right_is_no_answer_when_a_way_to_ask_is_stated():
    # read as a user on Fireworks AI's policy: "Can I get a copy of my data and fix errors?" quoted the limit
    limit = "We may not be able to modify or delete your information in all circumstances."
    ask = ("If you have any questions about reviewing, modifying, or deleting your information, you can contact us "
           "directly using the information provided in the Contact Us section, below.")
    for question in ("Can I get a copy of my data and fix errors?", "Can I delete my data?"):
        ranking, verdict = _decided(question, [limit, ask], [3.0, 1.0])
        assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == ask, verdict.headline


def test_loose_words_on_silent_policies_are_not_an_answer():
    # read on held-out sets 1–9, where the policy is silent and a "yes" was given from words used in another sense
    not_addressed = {
        "ai_training": [("Delivering Professional Services: We use Personal Data to deliver training, consulting or "
                        "implementation."),
                        "This way ROMEO can support you and train the customer service of ROMEO;",
                        "We may inform your company regarding usage, support, or training needs."],
        "collection_location": [("At 37signals, we strive to apply the same data rights to all customers, regardless of "
                                "their location."),
                                ("Storage and Processing Location: Information collected through the Service will be "
                                "stored and processed in the United States.")],
        "international_transfer": [("Users who indicate that their location is in California are automatically "
                                   "opted-out of this type of sharing.")],
        "security": ["We may send you technical and security notices.",
                     "Without these cookies, services such as accessing secure areas can’t be provided."],
        "policy_changes": ["If you ever change your mind, you can always withdraw from marketing in the App settings.",
                           "Last updated: 02.01.2025"],
        "retention": [("As such, we do not retain any personally identifiable financial information in connection with "
                      "credit card payments, such as credit card numbers.")],
    }
    for facet, sentences in not_addressed.items():
        for sentence in sentences:
            assert not BY_NAME[facet].addressed_by(sentence), (facet, sentence)
    # … while the same facets' statements still are
    assert BY_NAME["international_transfer"].addressed_by("Your data may be transferred out of Europe.")
    assert BY_NAME["policy_changes"].addressed_by("We will notify you of any material changes by e-mail.")
    assert BY_NAME["ai_training"].addressed_by("We do not use your content for training our models.")
    assert BY_NAME["retention"].addressed_by("We retain your information for as long as your account is active.")


def test_a_denial_far_down_the_policy_answers_and_a_quoted_share_is_about_advertising():
    # OpenRouter: "We do not “sell” your personal data …" ranked below the retriever's fifty best
    filler = [f"We use cookies of kind {i} to make our Site function properly." for i in range(60)]
    denial = "We do not “sell” your personal data as that term is defined by applicable laws and regulations."
    ranking, verdict = _decided("Does this company sell information about me?", filler + [denial],
                                [2.0] * 60 + [-3.0])
    assert verdict.verdict == "no" and ranking.ranked[verdict.support].sentence.text == denial, verdict.headline
    # Replicate: to "share" in the US state laws' sense is to hand data over for behavioural advertising
    assert BY_NAME["sharing_advertisers"].addressed_by(
        "Replicate does not ‘sell’ or ‘share’ personal information, as defined by any U.S. state privacy law.")
    assert not BY_NAME["sharing_advertisers"].addressed_by(
        "Social Features allow you to access our pages on third-party platforms, and from there ‘like’ or ‘share’ content.")


def test_a_sentence_about_personal_and_non_personal_data_is_no_aside():
    # Bolt.new: it shares both kinds, so it shares personal data
    both = ("We provide personally identifiable information and non-personally-identifiable information to our "
            "subsidiaries, affiliated companies, or other businesses for the purpose of processing it on our behalf.")
    ranking, verdict = _decided("Do other companies receive my personal data from them?", [
        both, "We do share non-personally-identifiable information with interested third-parties.",
        ("However, we do not share your personally identifiable information with other, third-party companies for "
         "their commercial or marketing use without your consent.")], [2.8, 2.1, 1.9])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == both, verdict.headline


def test_a_denial_for_marketing_only_gives_way_to_a_blanket_one():
    # Brevo: "does not … rent … for marketing purposes without the express consent" is conditional, and the plain
    # "does not and will never sell" is the answer to selling
    scoped = ("Brevo does not transfer or rent personal data to third parties for marketing purposes without the express "
              "consent of the Users of Brevo.")
    blanket = "Brevo does not and will never sell your Personal Information to third parties."
    ranking, verdict = _decided("Do they make money by selling data about their users?", [scoped, blanket], [1.0, 0.5])
    assert verdict.verdict == "no" and ranking.ranked[verdict.support].sentence.text == blanket, verdict.headline
    ranking, verdict = _decided("Do they sell my data?", [scoped], [1.0])
    assert verdict.verdict == "conditional", verdict.headline


def test_a_parents_contact_is_not_the_privacy_contact():
    # SambaNova: the parent's e-mail comes first in the ranking; the mailbox for requests is the answer
    parent = ("If you are a parent and you think we have inadvertently collected Personal Information from your child, "
              "you may contact us by sending an email to privacy@sambanova.ai.")
    requests = "Such requests may be made by emailing us at privacy@sambanova.ai or calling us at 650-263-1153."
    ranking, verdict = _decided("Is there someone I can contact about how my personal data is handled?",
                                [parent, requests], [1.0, 0.2])
    assert ranking.ranked[verdict.support].sentence.text == requests, verdict.headline


def test_words_read_on_the_tenth_held_out_set():
    from assistant.understanding.statements import states_practice

    # ChatGPT business: "not used to train our models by default" holds until you opt in
    _, verdict = _decided("Do they use my information to train their AI models?", [
        "By default, we do not use your business data for training our models."], [1.0])
    assert verdict.verdict == "conditional", verdict.headline
    # Inshallah, Lorem Scriptum: "trade" as a noun is no sale
    for text in ('CAJIS FRANCE is registered in the Paris Trade and Companies Register under number 123.',
                 "Do not send us sensitive information (e.g., political opinions or trade union membership)."):
        assert not BY_NAME["sale"].addressed_by(text), text
    # Histori: the law of "certain jurisdictions" is not where the data goes
    assert not BY_NAME["international_transfer"].addressed_by(
        'Some of the information may be considered "sensitive" in certain jurisdictions.')
    assert BY_NAME["international_transfer"].addressed_by("Your data may be processed in other jurisdictions.")
    # ChatGPT business: deleted conversations are deletion
    assert BY_NAME["deletion"].addressed_by(
        "Any deleted conversations are removed from our systems within 30 days, unless we are legally required to "
        "retain them.")
    # Berget AI: a list of contact data is no contact; Zacks' "Contact Information: If you experience …" is
    contact = BY_NAME["contact_dpo"]
    assert not states_practice("Contact Data: Email address, phone number, mailing address.", contact)
    assert states_practice("Contact Information: If you experience any privacy related difficulties on Zacks.com, "
                           "please use the following contact information.", contact)
    # a GDPR mailbox is the privacy contact; a mailbox for data processing agreements is not
    assert contact.preferred.search("To exercise your rights, contact us at gdpr@berget.ai.")
    assert not contact.preferred.search("To enter into the DPA, please send an email to privacy-gdpr@desmos.com.")


def test_a_period_for_everyone_comes_before_a_period_for_one_case():
    # ROMEO: "How long do they keep my data?" quoted the six months for support contacts, not the general rule
    support = ("In case you have had contact with ROMEO’s customer support: this data will be stored up to 6 months "
               "after your last contact with ROMEO.")
    general = "In general ROMEO stores your personal data until your account is deleted."
    ranking, verdict = _decided("Does the policy say for how long my data is retained?", [support, general],
                                [1.0, 0.5])
    assert ranking.ranked[verdict.support].sentence.text == general, verdict.headline


def test_what_the_law_asks_of_sellers_is_no_sale():
    # Tempo, Speechify: "the CCPA sets forth certain obligations for businesses that “sell” …" was read as "Yes — it
    # sells your personal information", while the next sentence denies it
    law = ("Please note that the CCPA sets forth certain obligations for businesses that “sell” personal information "
           "to third parties.")
    assert not BY_NAME["sale"].addressed_by(law)
    _, verdict = _decided("Could my personal information end up being sold?", [law], [1.0])
    assert verdict.verdict == "not_stated", verdict.headline


def test_a_source_of_data_is_not_a_recipient():
    # Berget AI: "Do they share my data with advertisers?" quoted the list of sources data comes from
    advertisers = BY_NAME["sharing_advertisers"]
    assert not advertisers.addressed_by("Third-party sources: Payment processors, analytics providers, or advertising "
                                        "networks.")
    assert not advertisers.addressed_by("We may receive information about you from advertising networks.")
    assert advertisers.addressed_by("We share your device identifiers with advertising networks.")


def test_a_right_to_ask_who_got_your_data_is_no_sharing():
    # Brevo: the CCPA right to ask came first; the policy's own statement of who receives data is the answer
    right = ("If a business sells or shares your Personal Information, you also have the right to ask the company to "
             "disclose the categories of third parties to whom that Personal Information was sold or shared.")
    recipients = ("It may be transmitted to Brevo’s subsidiaries, or to third-party data processors which Brevo is "
                  "authorized to use within the context of the performance of its Services.")
    ranking, verdict = _decided("Are other companies given access to what they know about me?", [right, recipients],
                                [1.0, 0.5])
    assert ranking.ranked[verdict.support].sentence.text == recipients, verdict.headline


def test_words_read_on_the_eleventh_held_out_set():
    # Everest: a listed right about sales is no sale; "depending on your location" is not where you are
    assert not BY_NAME["sale"].addressed_by("Right to know whether personal information is sold or disclosed")
    assert not BY_NAME["sale"].addressed_by("Right to opt-out of the sale of personal information")
    assert not BY_NAME["collection_location"].addressed_by(
        "Depending on your location, you may have certain rights regarding your personal information:")
    # IgorBox: "whereabouts" asks about location
    assert facet_of("Are my whereabouts collected by this service?").name == "collection_location"
    # Thunderbird: "we don't want your personal information" under 13 speaks of collecting from children (the
    # engine reads it as a denial through PolicyIE's polarity slot)
    assert BY_NAME["children"].addressed_by(
        "If you are under 13, we don’t want your personal information, and you must not provide it to us.")
    # Thunderbird: a version number updated is no change to the policy; "contact lists" are no contact
    assert not BY_NAME["policy_changes"].addressed_by(
        "Your Thunderbird version and language are needed to apply and update the add-ons blocklist.")
    contact = BY_NAME["contact_dpo"]
    get_in_touch = ("If you want to make a correction to your information, or you have any questions about our privacy "
                    "policies, please get in touch with:")
    ranking, verdict = _decided("Do they give a contact, like a data protection officer, for privacy requests?", [
        ("Thunderbird does not share OAuth tokens, email contents, calendar events, contact lists, or account details "
        "with third parties."), get_in_touch], [1.0, 0.2])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == get_in_touch, verdict.headline
    assert contact.preferred.search(get_in_touch)


@pytest.mark.parametrize(("question", "facet"), [
    ("Can children use the site?", "children_use"),
    ("Can my 12 year old use this app?", "children_use"),
    ("Is there a minimum age to use it?", "children_use"),
    ("How old do I have to be to sign up?", "children_use"),
    # collecting from children stays the collection question, whatever else it says
    ("Will they collect personal data from a child who uses the service?", "children"),
    ("Is this service allowed to gather info on kids or teenagers?", "children"),
])
def test_whether_children_may_use_the_service_is_its_own_question(question, facet):
    assert facet_of(question).name == facet


@pytest.mark.parametrize(("sentence", "verdict"), [
    ("If you are under 18, you may use Amazon.com only with the involvement of a parent or guardian.", "conditional"),
    (("For all users that are under the age of 16, we require the consent of a parent or legal guardian before that "
     "user can use our services."), "conditional"),
    ("The Service and its content are not directed at children under the age of 13.", "no"),
    ("Our service is restricted to individuals who are 18 years of age or older.", "no"),
    ("By using Whereby, you affirm that you are over 16.", "no"),
    ("If you are under 18, please do not attempt to register for the Services.", "no"),
    ("Our Service does not address anyone under the age of 13.", "no"),
])
def test_a_minimum_age_answers_whether_children_may_use_the_service(sentence, verdict):
    # read on the bundled Amazon example ("Can children use the site?" was "not stated") and the held-out policies
    ranking, decided = _decided("Can children use the site?", [sentence], [1.0])
    assert decided.verdict == verdict, decided.headline
    assert ranking.ranked[decided.support].sentence.text == sentence
    if verdict == "conditional":
        assert decided.headline.startswith("Only with a parent or guardian — acme says it lets children use its service")


def test_what_only_mentions_children_does_not_answer_whether_they_may_use_it():
    use = BY_NAME["children_use"]
    assert not use.addressed_by("If you suspect that a member is under the age of 18, please use the reporting "
                                "mechanism available on the service.")
    assert not use.addressed_by("Brevo is not responsible for a Customer’s failure to comply with any law designed to "
                                "protect children or any other law governing the Customer’s use of our Services.")
    assert not use.addressed_by("We do not knowingly collect personal information from children under 13.")
    _ranking, decided = _decided("Can children use the site?", [
        "We do not knowingly collect personal information from children under 13."], [1.0])
    assert decided.verdict == "not_stated"


def test_how_old_is_answered_with_the_age(amazon):
    answer = amazon.ask("How old do I have to be to use it?", policy="amazon")
    assert answer.facet == "children_use" and answer.verdict is None
    assert answer.headline == f"The amazon policy says: “under 18” (sentence {answer.evidence[0].sentence_id})."
    children = amazon.ask("Can children use the site?", policy="amazon")
    assert children.verdict == "conditional" and "parent or guardian" in children.evidence[0].text


def test_words_read_on_the_bundled_amazon_label():
    # "Can I opt out of personalised or targeted ads?" said "not stated" beside an Advertising Preferences opt-out
    assert BY_NAME["opt_out_ads"].addressed_by(
        "If you do not want us to use personal information that we gather to allow third parties to personalize "
        "advertisements we display to you, please adjust your Advertising Preferences.")
    # "Do they share my information with advertisers?" quoted a list of data received, ads shown on the site, and a
    # pointer to another policy
    advertisers = BY_NAME["sharing_advertisers"]
    assert not advertisers.addressed_by(
        "Examples of information we receive from other sources include … page-view information from some merchants "
        "for which we provide technical, fulfillment, advertising, or other services.")
    for aside in ("Our site includes third-party advertising and links to other Web sites.",
                  ("For more information about third-party advertising at Amazon.com, including personalized or "
                  "interest-based ads, please read our Interest-Based Ads policy.")):
        assert advertisers.aside.search(aside), aside


def test_what_they_collect_is_answered_with_the_kinds_of_data_named_in_the_policy(amazon):
    import re

    answer = amazon.ask("What information do they collect about me?", policy="amazon")
    assert answer.verdict is None and answer.headline.startswith("The amazon policy says it collects ")
    listed = answer.headline.removeprefix("The amazon policy says it collects ").replace("”) and ", "”), ")
    named = dict(re.findall(r"(?:^|, )([a-z][a-z ]+?) \(“(.+?)”\)", listed))
    assert {"contact details", "location", "device data"} <= set(named), answer.headline
    texts = [s.text for s in amazon.answer_pipeline.search.sentences(amazon.version("amazon"))]
    assert all(any(example in text for text in texts) for example in named.values())  # verbatim
    cited = [int(n) for n in re.findall(r"\d+", answer.headline.rsplit("(sentence", 1)[1])]
    assert answer.evidence[0].sentence_id in cited


def test_a_sentence_that_denies_collecting_names_no_kind_of_data_collected():
    from assistant.answering.collected import data_collected
    from tests.test_facts import slot

    texts = ["We do not collect your precise location.", "We collect your email address."]
    ranking, _ = _decided("Do they collect my email address?", texts, [1.0, 0.5])
    from assistant.foundation.types import Facts

    facts = {texts[0]: Facts("data-collection-usage", (slot(texts[0], "data-collected.data-location", "precise location"),)),
             texts[1]: Facts("data-collection-usage", (slot(texts[1], "data-collected.data-contact", "email address"),))}
    for scored in ranking.ranked:
        object.__setattr__(scored.sentence, "facts", facts[scored.sentence.text])
    collected = data_collected(ranking)
    assert collected.kinds == [("contact details", "email address")]
    assert ranking.ranked[collected.support].sentence.text == texts[1]


@pytest.mark.parametrize("question", ["How do I delete my account?", "How do I close my account?"])
def test_how_to_delete_an_account_is_a_question_for_the_policy(amazon, question):
    # the question classifier reads account management as out of scope; the policy states your rights
    answer = amazon.ask(question, policy="amazon")
    assert answer.reason is None and answer.facet == "deletion", answer.headline


def test_where_data_is_stored_asks_a_place_not_a_period(amazon):
    answer = amazon.ask("Where is my data stored?", policy="amazon")
    assert answer.facet == "international_transfer" and answer.question_type == "where"


def test_access_to_the_product_or_by_others_is_no_right_to_see_your_data():
    access = BY_NAME["access_correction"]
    for aside in (("Log file information is automatically reported by your browser each time you make a request to "
                  "access (i.e., visit) a web page or app."),
                  ("Valve's collection of personally identifiable information may be a requirement for access to the "
                  "product or service."),
                  "Instagram will access your contacts list to determine whether or not someone is using Instagram.",
                  "We may also access, preserve and share information when we have a good faith belief it is necessary.",
                  ("If you are using a third-party website and you allow them to access your User Content you do so at "
                  "your own risk."),
                  "automatically update the Instagram application on your device."):
        assert access.aside.search(aside), aside
    assert not access.aside.search("You may access your personal information at any time.")
    # Steam: "wish to review, access, amend or correct it" is the right, asked for by writing to Valve
    assert access.preferred.search("If you are concerned about the accuracy of personally identifiable information "
                                   "maintained by Valve or wish to review, access, amend or correct it, please contact us.")


def test_staff_access_or_none_is_no_right_to_see_your_data():
    # read on the tenth set's current policies ("Can I see what data they have about me?"): Inshallah's lack of access
    # was read as "No — you cannot access …", OpenAI's staff access and a registration as rights
    access = BY_NAME["access_correction"]
    for aside in ("If Inshallah does not have access to this data, the Service will not function.",
                  ("Authorized OpenAI employees will only ever access your conversations for the purposes of resolving "
                  "incidents."),
                  "These data are mandatory to access and register for the Service."):
        assert access.aside.search(aside), aside
    assert not access.aside.search("The right of access allows the Member to access personal data concerning him/her.")
