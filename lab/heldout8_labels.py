"""The eighth held-out answers set's labels, as written while reading each policy (data/heldout8/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout8`), and the writer of `answers_heldout8.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout8_labels      # rewrites assistant/evaluation/data/answers_heldout8.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first seven held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout8" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout8.jsonl"

QUESTIONS = {
    "sale": "Could my personal information end up being sold?",
    "sharing_advertisers": "Does this company share my details with advertisers or ad networks?",
    "sharing_third_parties": "Do they pass my personal information on to third-party companies?",
    "law_enforcement": "Do they disclose personal data to the police or government bodies?",
    "collection_location": "Do they keep track of where I am when I use the service?",
    "cookies_tracking": "Does the service use cookies or tracking technologies to follow my activity?",
    "opt_out_ads": "Am I able to opt out of interest-based advertising?",
    "deletion": "Can I get them to erase my personal information?",
    "access_correction": "Can I look at the data they have on me and correct mistakes?",
    "retention": "Does the policy explain how long my personal information is kept?",
    "security": "Is my personal data protected by security safeguards?",
    "children": "Does the service collect personal data from children?",
    "international_transfer": "Could my personal information be transferred to another country?",
    "policy_changes": "Do they announce updates to their privacy policy to users?",
    "ai_training": "Do they use the content I share to train AI?",
    "contact_dpo": "Is there someone I can contact about how my personal data is handled?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "liquidai.md": {
        "sale": ("yes", [123, 128, 133], True,
                 ("They 'sell and/or share' personal data in the CCPA sense, through third-party advertising cookies "
                  "only (123, 124, 128), but deny selling as Nevada law defines it (181).")),
        "sharing_advertisers": ("yes", [92, 126, 127, 62], False,
                                ("Third-party ad networks serve ads based on your use of the services; their cookies "
                                 "receive your activity; advertising partners include ad networks.")),
        "sharing_third_parties": ("yes", [64, 130, 56, 62], False,
                                  "Service providers, parties you authorise, advertising partners."),
        "law_enforcement": ("conditional", [50, 64], True,
                            ("Police and authorities are never named: data may be disclosed 'in conjunction with' the "
                             "purposes (64), which include 'Meeting legal requirements' (50) and investigating "
                             "illegal activities (51); the section 64 refers to does not exist.")),
        "collection_location": ("yes", [12], False, "IP address-based location data is collected."),
        "cookies_tracking": ("yes", [68, 83, 95, 96], False,
                             "Cookies, pixel tags, web beacons; retargeting cookies; tracking across properties."),
        "opt_out_ads": ("yes", [144, 146, 147, 129], False,
                        ("Opt-out of the sale or sharing (advertising cookies) by email, cookie settings or Global "
                         "Privacy Control, depending on the state you live in.")),
        "deletion": ("yes", [106, 119, 226, 109], False, "By email to legal@liquid.ai; US and EU rights of deletion."),
        "access_correction": ("yes", [117, 120, 222, 224], False,
                              "Rights of access and correction; some data in the account."),
        "retention": ("yes", [102, 104, 103], True, "Only a general rule: as long as necessary; no period is given."),
        "security": ("yes", [100], True,
                     ("No measure is named: only 'we work to protect the security of your account and Personal Data' "
                      "beside a warning that nothing is completely secure (100) and password advice (101).")),
        "children": ("no", [108, 109, 110], False, "Not knowingly from anyone under 18; deleted if learned."),
        "international_transfer": ("yes", [236, 235, 237], False,
                                   "Hosted in the US; transferred to the US and possibly other countries; SCCs."),
        "policy_changes": ("conditional", [7, 6], False,
                           "Notice of material changes only; other changes are just posted (9)."),
        "ai_training": ("yes", [38], False, "Inputs and outputs you share train and fine-tune AI models."),
        "contact_dpo": ("yes", [238, 240, 116], False, "legal@liquid.ai; no DPO is named."),
    },
    "copyai.md": {
        "sale": ("no", [202], False,
                 ("No 'sale' or 'sharing' for cross-context behavioural advertising in the state-law sense (202), "
                  "though data goes to advertising partners (103).")),
        "sharing_advertisers": ("yes", [103, 105, 122, 104], False,
                                ("Shared with third-party advertising partners for interest-based advertising; usage "
                                 "shared with social media, advertising and analytics partners (202 denies 'sharing' "
                                 "in the state-law sense).")),
        "sharing_third_parties": ("yes", [88, 92, 101, 103], False,
                                  "Service providers, affiliates, advertising partners, other users at your direction."),
        "law_enforcement": ("conditional", [107, 108], False,
                            "In response to lawful requests by public authorities, including law enforcement."),
        "collection_location": ("yes", [57, 104], False, "Location information, including approximate location from IP."),
        "cookies_tracking": ("yes", [56, 119, 83, 104], False,
                             "Cookies and tracking technologies; retargeting across websites and apps."),
        "opt_out_ads": ("yes", [131, 125, 130, 196], False,
                        "Industry opt-outs (NAI, DAA), cookie consent withdrawal, mobile settings."),
        "deletion": ("yes", [179, 229, 199, 180], False,
                     ("Deletion of contact details on request to legal@copy.ai; GDPR erasure and state-law deletion "
                      "rights.")),
        "access_correction": ("yes", [175, 176, 194, 195], False, "Access and rectification, by request."),
        "retention": ("yes", [227, 230, 232], True,
                      ("Only a general rule: different periods depending on purposes, as long as reasonably necessary "
                       "or as long as you use the services; no period is given.")),
        "security": ("yes", [135, 136, 11], False, "Physical, technical and organisational controls."),
        "children": ("no", [224, 226], False, "Not directed to children under 13; not knowingly collected."),
        "international_transfer": ("yes", [140, 141, 144], False,
                                   "To the US, Brazil, Costa Rica, the Philippines, Canada; DPF and SCCs."),
        "policy_changes": ("yes", [234, 235, 236], False,
                           "Notice posted or emailed 7 days (minor) or 30 days (substantial) before changes apply."),
        "ai_training": ("not_stated", [], True,
                        ("Training is never mentioned, but Content (prompts, files, 30) is processed for 'developing, "
                         "improving, or promoting our Services' (169, 170) and for research and development (71).")),
        "contact_dpo": ("yes", [191, 174, 246], False, "Privacy team at legal@copy.ai; EU representative."),
    },
    "tempo.md": {
        "sale": ("no", [127, 126], False, "No 'sale' as defined in the CCPA."),
        "sharing_advertisers": ("yes", [61, 62], True,
                                ("Ad networks (Twitter Ads, Bing Ads) collect data through their cookies to serve ads "
                                 "across the web (61, 62), but personal information is not shared with third parties "
                                 "for their own direct marketing (141) and not sold (127).")),
        "sharing_third_parties": ("yes", [73, 76, 78, 86], False,
                                  "Service providers, affiliates, your company, others with your consent."),
        "law_enforcement": ("conditional", [80], False,
                            "If required by law or to comply with legal process (subpoena, court order)."),
        "collection_location": ("yes", [29, 28, 124], False,
                                "State or country of access; general location inferred from the IP address."),
        "cookies_tracking": ("yes", [30, 61, 56, 32], False, "Cookies; ad-tech partners' tracking; Google Analytics."),
        "opt_out_ads": ("yes", [63, 66], False, "NAI, DAA and Your Online Choices opt-outs."),
        "deletion": ("yes", [94, 91, 90, 132], False, "Deletion on request where local laws permit it (EEA, California)."),
        "access_correction": ("yes", [92, 93, 91, 131], False,
                              "Access, copy and update on request where local laws permit it."),
        "retention": ("yes", [87, 88], True, "Only a general rule: no longer than necessary; no period is given."),
        "security": ("yes", [112], False, "Technical and organisational measures; none named."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [108, 109, 110], False, "Canada, the United States and elsewhere."),
        "policy_changes": ("yes", [144, 143, 145], False,
                           "Revised policy posted with its 'Last updated' date; notice of material changes as required."),
        "ai_training": ("not_stated", [], False, "AI and training are not mentioned; only improving the services (42)."),
        "contact_dpo": ("yes", [148, 147], False, "support@tempolabs.ai; no DPO is named."),
    },
    "sambanova.md": {
        "sale": ("no", [81], False, "Not sold, now or in the past 12 months."),
        "sharing_advertisers": ("not_stated", [], False,
                                ("No advertiser is named: customised advertising is SambaNova's own (72), and the "
                                 "parties measuring its advertisements act as processors on its behalf (82 (iv), 86).")),
        "sharing_third_parties": ("yes", [82, 86], False,
                                  "Affiliates, service providers, competent authorities, measurement processors."),
        "law_enforcement": ("conditional", [82], False,
                            "To competent authorities as required by law, such as under a subpoena or court order."),
        "collection_location": ("conditional", [40], True,
                                ("Device location only 'if you use our location features' (40), which the website "
                                 "services do not describe; the country is asked in forms (17).")),
        "cookies_tracking": ("yes", [47, 50, 37], False, "Cookies and pixel tags; third-party technologies."),
        "opt_out_ads": ("not_stated", [], True,
                        ("'Customized advertising' rests on legitimate interests (72) with no ad opt-out: only "
                         "refusing cookies in the browser (53), withdrawing consent (79) and the EEA right to "
                         "object (135).")),
        "deletion": ("yes", [131, 138, 122, 97], False, "Erasure (EEA) and deletion (California) rights, by email."),
        "access_correction": ("yes", [130, 131, 138, 121], False, "Rights of access and rectification, by email."),
        "retention": ("yes", [110, 111, 109, 107], False,
                      "Contract period plus limitation period; marketing three years; job applicants two years."),
        "security": ("yes", [92, 93], False, "Reasonable security measures."),
        "children": ("no", [95, 97, 96], False,
                     "Not knowingly from under-16s; deleted if collected without a parent's consent."),
        "international_transfer": ("yes", [98, 100, 102], False,
                                   "To the United States; processors in the UK, EEA, Middle East, Asia Pacific; SCCs."),
        "policy_changes": ("yes", [8, 10, 7], True,
                           ("Outside the EEA, reasonable means to make users aware of any update and the date shown "
                            "(8, 10); for EEA users, notice only 'if necessary under applicable law' (12).")),
        "ai_training": ("not_stated", [], False, "The policy covers the website; AI and training are not mentioned."),
        "contact_dpo": ("yes", [147, 115, 94], False, "privacy@sambanova.ai; no DPO is named."),
    },
    "christianmingle.md": {
        "sale": ("no", [352, 353], True,
                 ("No 'sale' as the CCPA defines it (352, 353), but outside California limited data goes to marketing "
                  "partners for their own direct marketing (142, 144), and ad networks collecting data on the site "
                  "may sell it (356).")),
        "sharing_advertisers": ("yes", [147, 243, 233, 146], False,
                                ("Shared with advertising networks (Google, Facebook, Twitter) or collected by them; "
                                 "hashed identifiers to advertising partners.")),
        "sharing_third_parties": ("yes", [348, 145, 142, 140], False,
                                  "Service providers, marketing partners, ad networks, the Spark Networks group."),
        "law_enforcement": ("conditional", [155, 102, 118], False,
                            "To satisfy law, subpoenas, court orders, legal process or government requests."),
        "collection_location": ("yes", [64, 65, 66], False, "GPS, Wi-Fi and IP address."),
        "cookies_tracking": ("yes", [49, 46, 212, 241], False,
                             "Cookies, web beacons, scripts; third parties track across sites."),
        "opt_out_ads": ("yes", [296, 276, 167, 256], False,
                        "DAA and NAI opt-outs, Google ad settings, state-law opt-out, social-network preferences."),
        "deletion": ("yes", [129, 130, 184, 369], False, "Account deletion in the settings or by email, within 30 days."),
        "access_correction": ("yes", [177, 164, 163, 183], False,
                              "Access and correction for US state residents; access and a copy for EU residents."),
        "retention": ("yes", [130], True,
                      ("Only that data is removed within 30 days of a confirmed deletion request (130); no retention "
                       "period or rule is given otherwise.")),
        "security": ("not_stated", [], False,
                     "No security section or measure; only security as a purpose of processing (97, 114)."),
        "children": ("no", [12, 11, 13], False, "Adults only; not intentionally from children under 16."),
        "international_transfer": ("not_stated", [], False,
                                   "Transfers abroad are not mentioned; data is shared with a German parent company (140)."),
        "policy_changes": ("yes", [201, 200, 307], False,
                           "Updated policy posted with its 'Last Revision' date; material cookie-notice changes by email."),
        "ai_training": ("yes", [109, 30, 31, 98], False,
                        "Matchmaking feedback trains the Matchmaking AI model; data informs machine learning."),
        "contact_dpo": ("yes", [309, 198, 172], False, "By email (address masked in the archived text); no DPO is named."),
    },
    "hily.md": {
        "sale": ("no", [472, 473, 404], True,
                 ("'We do not sell your personal information' (472), but data shared for interest-based advertising "
                  "'might be deemed a \"sale\" or \"share\" under CPPA' (404), with an opt-out (411, 428).")),
        "sharing_advertisers": ("yes", [409, 405, 283], True,
                                ("Shared with ad and marketing partners and ad networks (409, 405, 283), but "
                                 "personalised ads rest on consent (244, 275) while US residents are offered an "
                                 "opt-out (411, 477): yes or conditional.")),
        "sharing_third_parties": ("yes", [467, 147, 150, 409], False,
                                  "Processors and SDK providers, service providers, ad partners, the App Store."),
        "law_enforcement": ("yes", [208, 195, 197, 206], False,
                            ("When required by law or a court order, but also on their own initiative when they detect "
                             "illegal activity or suicidal behaviour.")),
        "collection_location": ("yes", [49, 233, 282], False, "Location to compute distance from other users."),
        "cookies_tracking": ("yes", [345, 410, 274], False, "Cookies, SDKs and other tracking technologies."),
        "opt_out_ads": ("yes", [275, 477, 277, 411], False,
                        "Consent revoked by email; Privacy Preference Center; state-law opt-out."),
        "deletion": ("yes", [354, 322, 311, 457], False,
                     "Right to erasure; erasure request; data erased within 7 days of profile deletion."),
        "access_correction": ("yes", [350, 352, 353, 366], False,
                              "Rights of access and rectification; most data editable in the profile settings."),
        "retention": ("yes", [304, 311, 312, 300], False,
                      "Until account deletion or two years' inactivity; 7 days after deletion; some data 5 years."),
        "security": ("yes", [530, 543, 539, 568], False, "Encryption, MFA, access controls, audits."),
        "children": ("no", [212, 217, 214], False,
                     ("Not knowingly from anyone under 18; registrations terminated and data deleted (technical data "
                      "of banned minors is kept to keep them out, 332).")),
        "international_transfer": ("yes", [338, 340, 336], False,
                                   "Servers in the US and EU; transfers to the US and other countries; SCCs."),
        "policy_changes": ("yes", [60, 61], False,
                           "Substantial changes by email or in the app before they apply; others published on the page."),
        "ai_training": ("not_stated", [], False,
                        "AI is used only for moderation (503); training models on user data is not mentioned."),
        "contact_dpo": ("yes", [73, 74, 571, 71], False, "A DPO at gdpr@hily.com; support and legal addresses; EU representative."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
