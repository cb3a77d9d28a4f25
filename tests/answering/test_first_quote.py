"""Which sentence is quoted first: the ranking and verdict stages on real sentences with given relevance logits (and
answer-sentence scores), the statement that answers before a same-topic neighbour, aside or heading."""
from __future__ import annotations

import pytest

from assistant.understanding.facets import BY_NAME
from tests.support.answers import rank_and_decide


def test_the_first_quote_is_the_facets_sentence_with_the_best_selection_logit_plus_answer_score():
    general = "We share information with service providers as necessary to run our business."
    statement = "We share your personal data with our service providers, affiliates and advertising partners."
    question = "Do they share my personal information with other companies?"
    ranking, verdict = rank_and_decide(question, [general, statement], [3.0, 2.5], [0.0, 1.0])
    assert ranking.ranked[0].sentence.text == general  # the ranking itself is the retriever's
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline
    ranking, verdict = rank_and_decide(question, [general, statement], [3.0, 2.5], [0.0, 0.2])
    assert ranking.ranked[verdict.support].sentence.text == general  # too small a score to move it


def test_a_sentence_with_the_facets_words_is_a_candidate_beyond_the_retrievers_best():
    filler = [f"Feature {i} runs artificial intelligence models on your device." for i in range(60)]
    consent = "Your pages are not used for training purposes without your explicit consent."
    ranking, verdict = rank_and_decide("Do they use my data to train AI?", filler + [consent], [2.0] * 60 + [-3.0])
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
    ranking, verdict = rank_and_decide(question, [aside, statement], [3.0, 2.0])
    assert ranking.ranked[0].sentence.text == aside  # the retriever prefers the aside
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline


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
    ranking, verdict = rank_and_decide(question, [neighbour, statement], [3.0, 2.0])
    assert ranking.ranked[0].sentence.text == neighbour  # the retriever prefers the neighbour
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline


def test_a_preferred_sentence_far_below_the_best_does_not_jump_ahead():
    best = "Advertising companies present ads that might be of interest to you based on your online activities."
    shared = "Where the law allows, we may provide lists of customers to marketing partners."
    ranking, verdict = rank_and_decide("Do they share my information with advertisers?", [best, shared], [4.0, -1.0])
    assert ranking.ranked[verdict.support].sentence.text == best, verdict.headline  # 5 below: too far down
    ranking, verdict = rank_and_decide("Do they share my information with advertisers?", [best, shared], [4.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == shared, verdict.headline  # within the margin


def test_an_item_of_a_list_of_rights_is_the_answer_not_a_purpose_that_mentions_the_right():
    # in the likeness of the Firefox notice: "You have the right to: … Have personal data … deleted"
    right = "Have personal data we hold about you deleted (in certain circumstances)"
    expiry = "Once the retention period expires we securely delete your data, unless otherwise required by law."
    purpose = "Responding to requests to exercise privacy rights, such as your right to access or delete your personal data."
    ranking, verdict = rank_and_decide("Can I delete my data?", [right, expiry, purpose], [0.4, 0.1, -0.4])
    assert ranking.ranked[verdict.support].sentence.text == right and verdict.verdict == "yes", verdict.headline
    from assistant.understanding.statements import states_practice
    assert not states_practice("Your rights and choices", BY_NAME["deletion"])  # a heading stays a heading
    # a title with the facet's preferred words is still a title
    assert not states_practice("Information we share with advertisers (including Targeted Advertising)",
                               BY_NAME["sharing_advertisers"])
    assert states_practice("Where we believe it is required in order to respond to subpoenas, court orders, or other "
                           "legal process, or to establish or exercise our legal rights", BY_NAME["law_enforcement"])


def test_a_privacy_mailbox_far_down_the_policy_answers_the_contact_question():
    # the retriever ranks collecting e-mail addresses first (the fourth held-out set's wording of the question)
    collected = [f"Basic contact details, such as name, address, phone number, and email (item {i})." for i in range(55)]
    mailbox = "Should you have any questions about our privacy practices, please email us at privacy@example.com."
    ranking, verdict = rank_and_decide("Is there an email or person I can contact about my data?",
                                       collected + [mailbox], [2.0] * 55 + [-3.0])
    assert ranking.ranked[verdict.support].sentence.text == mailbox, verdict.headline


def test_a_mailbox_for_everyone_comes_before_the_same_mailbox_for_one_states_residents():
    scoped = "Colorado residents can submit access and deletion requests by emailing us at privacy@example.com."
    everyone = "If you have questions about your privacy or this privacy policy, please contact us at privacy@example.com."
    ranking, verdict = rank_and_decide("Do they list contact details for privacy questions?", [scoped, everyone],
                                       [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == everyone, verdict.headline


def test_questions_about_your_data_put_to_the_company_answer_the_contact_question_but_not_to_someone_else():
    question = "Do they list contact details for privacy questions?"
    products = "Contact you regarding our products, services, and other information that may be of interest to you;"
    gdpr = "Please contact [email protected] if you have any questions pertaining to GDPR and your rights thereunder."
    ranking, verdict = rank_and_decide(question, [products, gdpr], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == gdpr, verdict.headline
    elsewhere = ("If you are a customer’s end user and you have questions about how your information is processed, "
                 "please contact the organization who has provided your information to us.")
    mailbox = "Please get in touch by emailing us at privacy@example.com and we’ll be happy to answer them!"
    ranking, verdict = rank_and_decide(question, [elsewhere, mailbox], [3.0, 2.0])
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
    ranking, verdict = rank_and_decide(question, [aside, statement], [3.0, 2.0])
    assert ranking.ranked[verdict.support].sentence.text == statement, verdict.headline
    assert verdict.verdict == ("yes" if "retain" in question else "no"), verdict.headline


def test_a_supervisory_authority_is_not_the_companys_privacy_contact():
    # Murf (seventh held-out set): a regulator is not the company's privacy contact
    regulator = ("If you feel you haven’t received a timely or satisfactory response from us to your question or "
                 "complaint, you have the right to contact your local supervisory authority.")
    officer = ("Please don't hesitate to get in touch if you have any queries about the use of your private information, "
               "write to MURF Group's grievance officer Sneha Roy at legal@murf.ai.")
    ranking, verdict = rank_and_decide("Can I reach a privacy officer or privacy team with questions about my data?",
                                       [regulator, officer], [3.0, 2.0])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == officer, verdict.headline


def test_rows_of_a_table_of_uses_give_way_to_a_disclosure_required_by_law():
    # Tempo (eighth held-out set): five rows of a table of uses ("- Provide the services … - Comply with law") rank
    # first, state no practice and disclose nothing to the law; the disclosure "if required to do so by applicable law"
    # is the answer
    row = ("Category of Personal Information: Contact Information — How We Use this Personal Information: - Provide the "
           "services and respond to your requests - Contact you with relevant information and offers - Comply with law "
           "or defend our legal rights - Security/fraud prevention")
    disclosure = ("By using the Site or Services, you acknowledge and agree that we may access, retain, and disclose the "
                  "information we collect and maintain about you if required to do so by applicable law or in a good "
                  "faith belief that such access, retention or disclosure is reasonably necessary to: (a) comply with "
                  "legal process (e.g., a subpoena or court order); (b) enforce any contracts with you.")
    ranking, verdict = rank_and_decide("Do they disclose personal data to the police or government bodies?",
                                       [row] * 5 + [disclosure], [3.0] * 5 + [-2.0])
    assert ranking.ranked[verdict.support].sentence.text == disclosure, verdict.headline


def test_a_defined_term_or_reading_the_policy_is_no_right_of_access():
    # Tempo (eighth held-out set): a defined term ("“Customer” means … to access our Services") and reading the policy
    # itself are no right of access
    right = ("Where local laws permit, we provide access to and a copy of certain information we hold about you and "
             "update information which is out of date or incorrect.")
    ranking, verdict = rank_and_decide("Can I see my personal data and correct mistakes?", [
        "“Customer” means an entity that has contracted with Tempo to access our Services.",
        "We will make the revised Policy accessible on the Services, so you should review the Policy periodically.",
        right], [3.0, 3.0, 1.0])
    assert ranking.ranked[verdict.support].sentence.text == right, verdict.headline


def test_answering_questions_in_a_list_of_services_is_no_contact_but_privacy_related_matters_are():
    # Christian Mingle (eighth held-out set)
    services = ("To provide the Company Services to you, including: (a) Maintaining a profile, answering questions, and "
                "providing information about yourself; (b) Analyzing your personal data to match you with other users.")
    contact = ("If you have any questions or requests in connection with this Cookie Notice or other privacy-related "
               "matters, please send an email to [email protected].")
    ranking, verdict = rank_and_decide("Is there someone I can contact about how my personal data is handled?",
                                       [services, contact], [3.0, 1.0])
    assert ranking.ranked[verdict.support].sentence.text == contact, verdict.headline


def test_a_two_part_question_is_answered_by_the_sentence_with_both_parts():
    # Jasper (ninth held-out set): a two-part question (see and fix) is answered by the sentence with both parts, not by
    # one half
    both = ("Where possible, you can access, update or request deletion of Your Personal Data directly within Your "
            "account settings section.")
    ranking, verdict = rank_and_decide("Can I see what personal data they have on me and have it fixed?", [
        "Request correction of the Personal Data that We hold about You.", "Request access to Your Personal Data.",
        "To protect your privacy, we will verify your identity before granting access or making corrections.", both],
        [0.2, -0.1, -0.3, -0.5])
    assert ranking.ranked[verdict.support].sentence.text == both, verdict.headline
    # a one-part question keeps the best-ranked right
    ranking, verdict = rank_and_decide("Can I correct my personal information?", [
        "Request correction of the Personal Data that We hold about You.", both], [0.2, -0.5])
    assert ranking.ranked[verdict.support].sentence.text.startswith("Request correction"), verdict.headline


def test_keeping_data_because_the_law_requires_it_is_no_disclosure_to_the_authorities():
    # Replicate (ninth held-out set)
    disclosure = "We may disclose your personal information in order to comply with law or legal process."
    ranking, verdict = rank_and_decide(
        "Can the police or government agencies obtain my information from this company?", [
        ("We may also retain personal information if required by law, or for our legitimate interests, such as abuse "
         "detection and prevention."), disclosure], [0.0, -0.3])
    assert ranking.ranked[verdict.support].sentence.text == disclosure, verdict.headline


def test_a_limit_on_a_right_is_no_answer_when_a_way_to_ask_is_stated():
    # read as a user on Fireworks AI's policy: "Can I get a copy of my data and fix errors?" quoted the limit
    limit = "We may not be able to modify or delete your information in all circumstances."
    ask = ("If you have any questions about reviewing, modifying, or deleting your information, you can contact us "
           "directly using the information provided in the Contact Us section, below.")
    for question in ("Can I get a copy of my data and fix errors?", "Can I delete my data?"):
        ranking, verdict = rank_and_decide(question, [limit, ask], [3.0, 1.0])
        assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == ask, verdict.headline


def test_a_denial_far_down_the_policy_answers_and_a_quoted_share_is_about_advertising():
    # OpenRouter: "We do not “sell” your personal data …" ranked below the retriever's fifty best
    filler = [f"We use cookies of kind {i} to make our Site function properly." for i in range(60)]
    denial = "We do not “sell” your personal data as that term is defined by applicable laws and regulations."
    ranking, verdict = rank_and_decide("Does this company sell information about me?", filler + [denial],
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
    ranking, verdict = rank_and_decide("Do other companies receive my personal data from them?", [
        both, "We do share non-personally-identifiable information with interested third-parties.",
        ("However, we do not share your personally identifiable information with other, third-party companies for "
         "their commercial or marketing use without your consent.")], [2.8, 2.1, 1.9])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == both, verdict.headline


def test_a_parents_contact_is_not_the_privacy_contact():
    # SambaNova: the parent's e-mail comes first in the ranking; the mailbox for requests is the answer
    parent = ("If you are a parent and you think we have inadvertently collected Personal Information from your child, "
              "you may contact us by sending an email to privacy@sambanova.ai.")
    requests = "Such requests may be made by emailing us at privacy@sambanova.ai or calling us at 650-263-1153."
    ranking, verdict = rank_and_decide("Is there someone I can contact about how my personal data is handled?",
                                       [parent, requests], [1.0, 0.2])
    assert ranking.ranked[verdict.support].sentence.text == requests, verdict.headline


def test_a_period_for_everyone_comes_before_a_period_for_one_case():
    # ROMEO: "How long do they keep my data?" quoted the six months for support contacts, not the general rule
    support = ("In case you have had contact with ROMEO’s customer support: this data will be stored up to 6 months "
               "after your last contact with ROMEO.")
    general = "In general ROMEO stores your personal data until your account is deleted."
    ranking, verdict = rank_and_decide("Does the policy say for how long my data is retained?", [support, general],
                                       [1.0, 0.5])
    assert ranking.ranked[verdict.support].sentence.text == general, verdict.headline


def test_a_right_to_ask_who_got_your_data_is_no_sharing():
    # Brevo: the CCPA right to ask came first; the policy's own statement of who receives data is the answer
    right = ("If a business sells or shares your Personal Information, you also have the right to ask the company to "
             "disclose the categories of third parties to whom that Personal Information was sold or shared.")
    recipients = ("It may be transmitted to Brevo’s subsidiaries, or to third-party data processors which Brevo is "
                  "authorized to use within the context of the performance of its Services.")
    ranking, verdict = rank_and_decide("Are other companies given access to what they know about me?",
                                       [right, recipients], [1.0, 0.5])
    assert ranking.ranked[verdict.support].sentence.text == recipients, verdict.headline


def test_contact_lists_are_no_contact_and_get_in_touch_with_is():
    # Thunderbird (eleventh held-out set): "contact lists" are no contact
    contact = BY_NAME["contact_dpo"]
    get_in_touch = ("If you want to make a correction to your information, or you have any questions about our privacy "
                    "policies, please get in touch with:")
    ranking, verdict = rank_and_decide(
        "Do they give a contact, like a data protection officer, for privacy requests?", [
        ("Thunderbird does not share OAuth tokens, email contents, calendar events, contact lists, or account details "
        "with third parties."), get_in_touch], [1.0, 0.2])
    assert verdict.verdict == "yes" and ranking.ranked[verdict.support].sentence.text == get_in_touch, verdict.headline
    assert contact.preferred.search(get_in_touch)
