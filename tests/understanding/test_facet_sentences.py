"""Which policy sentences speak of a facet (`Facet.addressed_by`), which are its asides and which its preferred
statements: words read in the sense the question means, not in another."""
from __future__ import annotations

import csv

import pytest

from assistant.understanding.facets import BY_NAME, facet_of
from tests.support.paths import ROOT

AI_TRAINING_SENTENCES = ROOT / "tests" / "fixtures" / "ai_training_sentences.tsv"


def test_a_merger_is_no_sale_of_your_data_and_opting_out_of_email_is_not_of_ads():
    sale, opt_out = BY_NAME["sale"], BY_NAME["opt_out_ads"]
    assert sale.addressed_by("We do not sell, rent or trade your personal information.")
    assert not sale.addressed_by("As we continue to develop our business, we might sell or buy stores, "
                                 "subsidiaries, or business units.")
    assert not sale.addressed_by("Valve collects the personally identifiable information they provide by creating "
                                 "a Steam account, by purchasing or selling subscriptions.")  # not data for sale
    assert not opt_out.addressed_by("You may opt out of receiving our newsletter at any time.")
    assert opt_out.addressed_by("You can opt out of interest-based advertising at the NAI's opt-out page.")


def test_training_means_training_not_any_mention_of_ai():
    ai = BY_NAME["ai_training"]
    assert not ai.addressed_by("To provide AI chatbots")
    assert not ai.addressed_by("We train our employees to handle personal data with care.")
    assert ai.addressed_by("Your pages stay on your device and are not used for training purposes without your consent.")


# Sentences of current policies (none of an answers set's) that use "train", "machine learning" or "AI", labelled by
# readers who had not seen the rules: does the sentence state that people's data trains AI models (yes, only if, no),
# or not (other)? The rules were written on the development sample and scored on the validation sample (precision /
# recall 1.00 / 0.58 against 0.54 / 0.79 before); "improves … through machine learning" was then added after reading
# its misses, so both samples are now in-sample. Floors at the measured values: (precision, recall) of `addressed_by`
# against "states it".
AI_TRAINING_FLOORS = {"development": (0.94, 0.92), "validation": (0.93, 0.78)}


@pytest.mark.parametrize("sample", AI_TRAINING_FLOORS)
def test_ai_training_is_read_where_data_trains_a_model_not_where_people_train_or_ai_is_only_used(sample):
    with AI_TRAINING_SENTENCES.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if row["sample"] == sample]
    facet = BY_NAME["ai_training"]
    said = [row["label"] != "other" for row in rows]
    read = [facet.addressed_by(row["sentence"]) for row in rows]
    hits = sum(s and r for s, r in zip(said, read, strict=True))
    precision, recall = hits / sum(read), hits / sum(said)
    assert precision >= AI_TRAINING_FLOORS[sample][0] and recall >= AI_TRAINING_FLOORS[sample][1], (precision, recall)


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


def test_a_source_of_data_is_not_a_recipient():
    # Berget AI: "Do they share my data with advertisers?" quoted the list of sources data comes from
    advertisers = BY_NAME["sharing_advertisers"]
    assert not advertisers.addressed_by("Third-party sources: Payment processors, analytics providers, or advertising "
                                        "networks.")
    assert not advertisers.addressed_by("We may receive information about you from advertising networks.")
    assert advertisers.addressed_by("We share your device identifiers with advertising networks.")


def test_unsubscribing_from_the_companys_own_email_marketing_says_nothing_of_advertisers():
    # Replicate (ninth held-out set)
    assert not BY_NAME["sharing_advertisers"].addressed_by(
        "Email marketing: you may unsubscribe to our commercial email list by following the instructions provided.")


def test_ads_tailored_only_with_your_consent_are_a_choice_but_a_tailored_website_is_not():
    # ROMEO (ninth held-out set); Kraft's tailored website
    assert BY_NAME["opt_out_ads"].addressed_by(
        "When you visit the ROMEO app for the first time, ROMEO will ask for your explicit consent to tailor ads for you.")
    assert not BY_NAME["opt_out_ads"].addressed_by(
        "Linking it with your information helps us to best tailor our website by saving your preferences, and to help "
        "identify site features, recipes, advertisements, and offers that may be of particular interest to you.")


def test_storing_data_until_an_event_is_retention():
    # ROMEO (ninth held-out set): "stores your personal data until …"
    assert BY_NAME["retention"].addressed_by("In general ROMEO stores your personal data until your account is deleted.")


def test_trade_as_a_noun_is_no_sale():
    # Inshallah, Lorem Scriptum (tenth held-out set)
    for text in ('CAJIS FRANCE is registered in the Paris Trade and Companies Register under number 123.',
                 "Do not send us sensitive information (e.g., political opinions or trade union membership)."):
        assert not BY_NAME["sale"].addressed_by(text), text


def test_the_law_of_certain_jurisdictions_is_not_where_the_data_goes():
    # Histori (tenth held-out set)
    assert not BY_NAME["international_transfer"].addressed_by(
        'Some of the information may be considered "sensitive" in certain jurisdictions.')
    assert BY_NAME["international_transfer"].addressed_by("Your data may be processed in other jurisdictions.")


def test_deleted_conversations_are_deletion():
    # ChatGPT business (tenth held-out set)
    assert BY_NAME["deletion"].addressed_by(
        "Any deleted conversations are removed from our systems within 30 days, unless we are legally required to "
        "retain them.")


def test_a_gdpr_mailbox_is_the_privacy_contact_and_a_mailbox_for_data_processing_agreements_is_not():
    # Berget AI, Desmos (tenth held-out set)
    contact = BY_NAME["contact_dpo"]
    assert contact.preferred.search("To exercise your rights, contact us at gdpr@berget.ai.")
    assert not contact.preferred.search("To enter into the DPA, please send an email to privacy-gdpr@desmos.com.")


def test_a_listed_right_about_sales_is_no_sale():
    # Everest (eleventh held-out set)
    assert not BY_NAME["sale"].addressed_by("Right to know whether personal information is sold or disclosed")
    assert not BY_NAME["sale"].addressed_by("Right to opt-out of the sale of personal information")


def test_depending_on_your_location_is_not_where_you_are():
    # Everest (eleventh held-out set)
    assert not BY_NAME["collection_location"].addressed_by(
        "Depending on your location, you may have certain rights regarding your personal information:")


def test_not_wanting_the_personal_information_of_under_13s_speaks_of_collecting_from_children():
    # Thunderbird (eleventh held-out set): "we don't want your personal information" under 13 (the engine reads it as
    # a denial through PolicyIE's polarity slot)
    assert BY_NAME["children"].addressed_by(
        "If you are under 13, we don’t want your personal information, and you must not provide it to us.")


def test_an_updated_version_number_is_no_change_to_the_policy():
    # Thunderbird (eleventh held-out set)
    assert not BY_NAME["policy_changes"].addressed_by(
        "Your Thunderbird version and language are needed to apply and update the add-ons blocklist.")


def test_adjusting_advertising_preferences_is_an_ad_opt_out():
    # the bundled Amazon example's label: "Can I opt out of personalised or targeted ads?" said "not stated" beside an
    # Advertising Preferences opt-out
    assert BY_NAME["opt_out_ads"].addressed_by(
        "If you do not want us to use personal information that we gather to allow third parties to personalize "
        "advertisements we display to you, please adjust your Advertising Preferences.")


def test_data_received_ads_on_the_site_and_a_pointer_to_another_policy_are_no_sharing_with_advertisers():
    # the bundled Amazon example's label: "Do they share my information with advertisers?" quoted a list of data
    # received, ads shown on the site, and a pointer to another policy
    advertisers = BY_NAME["sharing_advertisers"]
    assert not advertisers.addressed_by(
        "Examples of information we receive from other sources include … page-view information from some merchants "
        "for which we provide technical, fulfillment, advertising, or other services.")
    for aside in ("Our site includes third-party advertising and links to other Web sites.",
                  ("For more information about third-party advertising at Amazon.com, including personalized or "
                  "interest-based ads, please read our Interest-Based Ads policy.")):
        assert advertisers.aside.search(aside), aside


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
