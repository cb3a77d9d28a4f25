"""The ninth held-out answers set's labels, as written while reading each policy (data/heldout9/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout9`), and the writer of `answers_heldout9.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout9_labels      # rewrites assistant/evaluation/data/answers_heldout9.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first eight held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout9" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout9.jsonl"

QUESTIONS = {
    "sale": "Do they ever sell my personal data to someone else?",
    "sharing_advertisers": "Is information about me handed over to advertising companies?",
    "sharing_third_parties": "Do other companies receive my personal data from them?",
    "law_enforcement": "Can the police or government agencies obtain my information from this company?",
    "collection_location": "Does this service collect information about my location?",
    "cookies_tracking": "Do they track my browsing with cookies or similar tools?",
    "opt_out_ads": "Can I choose not to receive targeted advertising?",
    "deletion": "Can I have them delete the personal data they hold about me?",
    "access_correction": "Can I check what personal data they have on me and have it fixed?",
    "retention": "Does the policy say for how long my data is retained?",
    "security": "Do they take measures to keep my personal data secure?",
    "children": "Is personal data collected from children on this service?",
    "international_transfer": "Could my data be transferred out of my country?",
    "policy_changes": "Will they inform me when they change their privacy policy?",
    "ai_training": "Is what I upload or write used to train their AI models?",
    "contact_dpo": "Can I get in touch with someone about my privacy, such as a data protection officer?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "jasper.md": {
        "sale": ("yes", [331, 397, 328], True,
                 ("'We may sell and may have sold' identifiers, commercial and network-activity data in the last "
                  "twelve months (331), a 'sale' in the CCPA sense only: for value, 'not necessarily a monetary "
                  "benefit' (328), through analytics and advertising partners' technology (397).")),
        "sharing_advertisers": ("yes", [195, 108, 95, 165], False,
                                ("Hashed emails and online identifiers shared with remarketing vendors (Google Ads, "
                                 "Twitter, Facebook); third-party advertisers' cookies; Google's DoubleClick cookie.")),
        "sharing_third_parties": ("yes", [108, 110, 112, 332], False,
                                  "Service providers, affiliates, business partners, advertising vendors."),
        "law_enforcement": ("conditional", [129, 311, 131], False,
                            ("If required by law or in response to valid requests by public authorities (a court or a "
                             "government agency).")),
        "collection_location": ("no", [277, 276], True,
                                ("The California table says geolocation (approximate physical location) is not "
                                 "collected (277), but advertising may be tailored to 'Your interests and/or "
                                 "location' (104) and location collection from mobile devices can be stopped in "
                                 "device settings (409); the address and city asked (36) are contact details.")),
        "cookies_tracking": ("yes", [54, 93, 55, 184], False,
                             ("Cookies and tracking technologies; targeting cookies track browsing habits; activity on "
                              "other websites; remarketing vendors' cookies and non-cookie technologies.")),
        "opt_out_ads": ("yes", [190, 194, 166, 361], False,
                        ("NAI, EDAA and DAA opt-outs; mobile ad settings; Google Ads settings; the site's privacy "
                         "preferences banner (right to opt out of tracking for targeted advertising).")),
        "deletion": ("yes", [226, 228, 363, 238], False,
                     ("Right to delete under the policy and the GDPR, in the account settings or on request; CCPA "
                      "deletion right.")),
        "access_correction": ("yes", [226, 228, 232, 245], False,
                              "Access, update and correction in the account settings or by contacting them; a copy."),
        "retention": ("yes", [117, 118, 120], True,
                      ("Only a general rule: as long as necessary for the purposes, usage data 'generally' for a "
                       "shorter period; no period is given.")),
        "security": ("yes", [138], True,
                     ("No measure is named: they only 'strive to use commercially acceptable means' to protect data and "
                      "cannot guarantee its security (137, 138); transfers only with adequate controls (124).")),
        "children": ("not_stated", [], True,
                     ("There is no children's section: only California boilerplate on not selling data of under-16s "
                      "without opt-in (338), a request to report a child under 13 (or 16) so the data can be deleted "
                      "(340) and California minors' right to remove posted content (415).")),
        "international_transfer": ("yes", [122, 121, 124], False,
                                   "Data may be transferred to and kept on computers outside your state or country."),
        "policy_changes": ("yes", [421, 420], False,
                           "Email and/or a prominent notice before a change takes effect; new policy posted with its date."),
        "ai_training": ("not_stated", [], False,
                        "Training, models and users' content are not mentioned; data is used to provide and improve the Service (2)."),
        "contact_dpo": ("yes", [423, 382, 245], False, "privacy@jasper.ai; no DPO is named."),
    },
    "replicate.md": {
        "sale": ("no", [72], False, "No 'sale' or 'share' as defined by any U.S. state privacy law."),
        "sharing_advertisers": ("no", [72], False,
                                ("No 'sharing' (for cross-context behavioural advertising) as US state law defines it "
                                 "(72); no advertiser is named: pixels measure its own advertising (27, 67).")),
        "sharing_third_parties": ("yes", [44, 43, 48, 57], False,
                                  "Affiliates, vendors and service providers (payments, communications, analytics, GitHub)."),
        "law_enforcement": ("conditional", [54, 50], False, "To comply with law or legal process."),
        "collection_location": ("not_stated", [], False,
                                "Only the IP address (26) and a time zone given in support inquiries (18)."),
        "cookies_tracking": ("yes", [27, 67, 26], False,
                             "Cookies, beacons and pixel tags; analytics of clickstreams and visits."),
        "opt_out_ads": ("not_stated", [], False,
                        ("No targeted advertising is described; the only opt-out is from marketing emails (65), and "
                         "cookies can be rejected in the browser (68).")),
        "deletion": ("yes", [61, 66], False, "Deletion on request to privacy@replicate.com, unless legally required."),
        "access_correction": ("yes", [60, 62, 66, 89], False, "Access and correction on request."),
        "retention": ("yes", [77, 78, 79], True,
                      ("Only a general rule: 'generally' as long as necessary to provide the Services, backups 'for a "
                       "limited period'; no period is given.")),
        "security": ("yes", [74, 76], False, "Reasonable security measures against unauthorised access; none named."),
        "children": ("no", [81, 33, 34], False, "Not intentionally from children under 16; deleted if reported."),
        "international_transfer": ("not_stated", [], False, "Transfers abroad and storage locations are not mentioned."),
        "policy_changes": ("yes", [88, 86, 87], False,
                           "The effective date of the latest version is put at the top; users are asked to review it."),
        "ai_training": ("not_stated", [], True,
                        ("The Training Data you upload is used to train models for you (12, 20), but the policy never "
                         "says Replicate trains its own models on what users upload: uses are providing and improving "
                         "the Services (36, 38).")),
        "contact_dpo": ("yes", [5, 89, 93], False, "privacy@replicate.com and a postal address; no DPO is named."),
    },
    "boltnew.md": {
        "sale": ("not_stated", [], True,
                 ("Selling is never mentioned; personal information is not shared with third parties for their own "
                  "commercial or marketing use without consent or an opt-in/opt-out programme (43), and non-personal "
                  "usage data is shared with interested third parties (44).")),
        "sharing_advertisers": ("yes", [52, 54, 55, 56], True,
                                ("Third-party ad networks serving ads on the site receive your IP address and use "
                                 "information about your visits for interest-based ads (52-55), but no personally "
                                 "identifiable information is given to them without consent or an opt-in/opt-out "
                                 "programme (56): yes or conditional.")),
        "sharing_third_parties": ("yes", [41, 44, 43], False,
                                  ("Subsidiaries, affiliates and other businesses processing data on their behalf; "
                                   "non-personal usage data to interested third parties.")),
        "law_enforcement": ("yes", [46, 47], True,
                            ("If required by law or to respond to a court order, subpoena or search warrant (46), but "
                             "also whenever they believe in good faith it is appropriate 'to assist government "
                             "enforcement agencies' (47), not tied to a legal duty.")),
        "collection_location": ("not_stated", [], False, "Only the IP address in server logs (22)."),
        "cookies_tracking": ("yes", [12, 24, 39, 13], False, "Session and persistent cookies, clear gifs (web beacons)."),
        "opt_out_ads": ("not_stated", [], True,
                        ("Ad networks may serve interest-based ads (55), but no ad opt-out is offered: only refusing "
                         "cookies in the browser (18) and reading the ad networks' own policies (57).")),
        "deletion": ("not_stated", [], False, "Deleting data or an account is not mentioned."),
        "access_correction": ("yes", [60], False, "Profile information and email preferences can be updated or corrected."),
        "retention": ("not_stated", [], False, "How long data is kept is not mentioned."),
        "security": ("yes", [61, 63], False, "Commercially reasonable physical, managerial and technical safeguards."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [7, 6], False,
                                   "Hosted in the United States; users elsewhere transfer their data to the US."),
        "policy_changes": ("yes", [69, 73, 70], False,
                           ("Revisions reflected in the effective date; consent sought for materially less restrictive "
                            "revisions.")),
        "ai_training": ("not_stated", [], False,
                        "The text (StackBlitz, 2017) does not mention AI or training; only improving the site (38)."),
        "contact_dpo": ("yes", [74, 68], False, "hello@stackblitz.com and a postal address; no DPO is named."),
    },
    "rephrase.md": {
        "sale": ("no", [150, 60, 151], False, "'We do not sell your Personal Data.'"),
        "sharing_advertisers": ("no", [151, 152], True,
                                ("Not transferred to advertising platforms or anyone serving targeted ads (151, 152), "
                                 "but the service providers they 'may share your Information with' include "
                                 "'advertisers' (77, 78).")),
        "sharing_third_parties": ("yes", [63, 76, 78], False,
                                  "Third-party service providers and vendors, to provide the Services."),
        "law_enforcement": ("conditional", [67, 66, 49], False,
                            ("As necessary or appropriate to comply with legal process or respond to requests from "
                             "public and government authorities; to law enforcement as permitted by law.")),
        "collection_location": ("not_stated", [], False,
                                "Only the IP address (29) and a 'country of origin' among personal data (27)."),
        "cookies_tracking": ("yes", [124, 28, 30], False, "Cookies, pixel tags and other tracking technologies."),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising: they do not enable targeted or interest-based ads (152); nothing to opt out of."),
        "deletion": ("yes", [104, 101, 114], False,
                     "Delete certain information from the account; removal right, by email to help@rephrase.in."),
        "access_correction": ("yes", [102, 104, 105], False,
                              "Access and edit in the user profile or by email; whether data is held, on request."),
        "retention": ("yes", [132, 135, 133], True,
                      ("Only a general rule: while the account is active or as needed, and after deactivation 'for "
                       "the maximum period permitted under the law'; no period is given.")),
        "security": ("yes", [138, 139, 140], False,
                     "Physical, managerial, technical and operational safeguards; secure servers; access reviews."),
        "children": ("no", [98, 97], False, "Not meant for children; not knowingly collected; removed if reported."),
        "international_transfer": ("yes", [117, 116], False,
                                   "Stored primarily in India; third parties in or outside India store or process it."),
        "policy_changes": ("yes", [155, 43], False,
                           ("Updates are made available on the Platform (155); information is used to send users "
                            "changes in policies (43).")),
        "ai_training": ("not_stated", [], False,
                        ("AI and training are not mentioned; data is used for providing and improving features and for "
                         "business or research purposes (23, 54).")),
        "contact_dpo": ("yes", [167, 168, 114], False, "help@rephrase.in; a grievance officer under India's IT Act."),
    },
    "lovoo.md": {
        "sale": ("not_stated", [], False, "Selling data is not mentioned; only the sale of the business (257)."),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertiser is named, but advertising IDs are read from devices (170, 178), data "
                                 "may go to 'providers of market tracking technologies' (253), and details are left "
                                 "to a separate Cookie and Tracking Policy (393); direct marketing is only of its own "
                                 "products (218).")),
        "sharing_third_parties": ("yes", [251, 252, 253, 249], False,
                                  "Service providers, market tracking and analysis providers, payment providers."),
        "law_enforcement": ("yes", [256, 254, 192], True,
                            ("Where required by law or an enforceable official or court order (254), but also to "
                             "'the competent investigative authorities with regard to possible criminal acts' (256) "
                             "and reports of illegal content under the DSA (192), not tied to an order.")),
        "collection_location": ("yes", [97, 180, 140, 34], False,
                                ("GPS location with consent for Nearby and area search; country, state and city from "
                                 "the IP address.")),
        "cookies_tracking": ("yes", [152, 170, 393, 388], False,
                             "Cookies, advertising IDs and other tracking technologies (separate Cookie and Tracking Policy)."),
        "opt_out_ads": ("yes", [396, 399, 395, 369], True,
                        ("Personalised advertising is only implied by the advertising ID (170); the appendix lists the "
                         "devices' 'Disable Personalized Advertising' and 'No Ad Tracking' settings (396, 399), and the "
                         "objection to advertising (369) concerns its own direct marketing.")),
        "deletion": ("yes", [348, 349, 333, 311], False,
                     "Delete the account in the settings or ask Customer Care; right to erasure."),
        "access_correction": ("yes", [328, 330, 325, 329], False,
                              "Right to information and rectification; registration data editable in the profile."),
        "retention": ("yes", [309, 315, 307, 304], False,
                      "Erased after 24 months' inactivity (free users); log files up to 90 days; subscribers for the contract."),
        "security": ("yes", [279, 282, 283, 284], False,
                     "TLS, encryption of stored confidential data, firewalls, access monitoring."),
        "children": ("not_stated", [], False, "Children and a minimum age are not mentioned."),
        "international_transfer": ("yes", [273, 274, 121, 122], False,
                                   "Recipients outside the EU/EEA (The Meet Group in the USA); adequacy decisions or SCCs."),
        "policy_changes": ("not_stated", [], False,
                           "Changes to the policy are not mentioned; it only carries a 'Last updated' date (9)."),
        "ai_training": ("not_stated", [], False,
                        "AI and training are not mentioned; only automated misuse checks (198) and A/B tests (225)."),
        "contact_dpo": ("yes", [16, 17, 15], False, "A named data protection officer at datenschutz@lovoo.com."),
    },
    "romeo.md": {
        "sale": ("not_stated", [], False, "Selling data is not mentioned."),
        "sharing_advertisers": ("conditional", [85, 89, 79], True,
                                ("No advertiser is named: the app shows personalised ads through cookies, which third "
                                 "parties also use (79, 85), only with explicit consent (89); sharing with advertisers "
                                 "is implied, not stated.")),
        "sharing_third_parties": ("yes", [58, 59, 64, 65], False,
                                  "Processors (IT, cookie, payment and hosting providers) and the sister company HUNQZ."),
        "law_enforcement": ("conditional", [63, 40], False,
                            "When legally obliged, e.g. if the police demand it on suspicion of a crime."),
        "collection_location": ("yes", [22], False, "Location is part of the profile data processed."),
        "cookies_tracking": ("yes", [79, 84, 85, 87], False,
                             "Cookies and similar techniques on the website and app, by ROMEO and third parties."),
        "opt_out_ads": ("yes", [89, 110, 106], False,
                        "Tailored ads in the app only with explicit consent, which can be revoked; objection to direct marketing."),
        "deletion": ("yes", [107, 34, 111], False,
                     "Right to be forgotten by email to legal@planetromeo.com; delete the account yourself at any time."),
        "access_correction": ("yes", [104, 105, 111], False, "Rights of access and rectification, by email."),
        "retention": ("yes", [33, 35, 36, 40], False,
                      "Until account deletion (12 months' inactivity); backups 28 days; IP and email 6 more months."),
        "security": ("yes", [101, 8], False, "Appropriate technical and organisational security measures."),
        "children": ("not_stated", [], False, "Children and a minimum age are not mentioned."),
        "international_transfer": ("yes", [70], False, "Data may be provided to parties outside the EEA."),
        "policy_changes": ("yes", [118, 117, 119], False,
                           "Changes are published on the website; the statement is dated (1)."),
        "ai_training": ("not_stated", [], False,
                        "AI is not mentioned; support data is kept to 'train the customer service' (43), i.e. staff."),
        "contact_dpo": ("yes", [127, 111, 120], False, "A DPO at privacy@planetromeo.com; legal@planetromeo.com."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
