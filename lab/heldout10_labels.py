"""The tenth held-out answers set's labels, as written while reading each policy (data/heldout10/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout10`), and the writer of `answers_heldout10.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout10_labels      # rewrites assistant/evaluation/data/answers_heldout10.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first nine held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout10" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout10.jsonl"

QUESTIONS = {
    "sale": "Would they ever sell my personal information?",
    "sharing_advertisers": "Does my personal data get shared with advertisers?",
    "sharing_third_parties": "Do they give my personal data to any third parties?",
    "law_enforcement": "Can law enforcement get hold of my personal data from them?",
    "collection_location": "Do they collect data on where I'm located?",
    "cookies_tracking": "Are cookies or other trackers used to monitor what I do?",
    "opt_out_ads": "Is there an option to turn off personalized ads?",
    "deletion": "Can I ask for my personal data to be deleted?",
    "access_correction": "Am I able to access my personal data and correct anything inaccurate?",
    "retention": "Does the policy tell me how long my data will be kept?",
    "security": "Do they keep my personal data safe with security measures?",
    "children": "Do they collect any personal information about children?",
    "international_transfer": "Is my data sent to other countries?",
    "policy_changes": "Will I be told if they update their privacy policy?",
    "ai_training": "Do they use my information to train their AI models?",
    "contact_dpo": "Is there a privacy contact or DPO I can email about my data?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "bergetai.md": {
        "sale": ("no", [25], False, "'We do not sell your data.'"),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertiser is named: service providers include 'marketing partners' (27) and "
                                 "'advertising networks' are a source of data (14), but sharing with advertisers is "
                                 "not stated.")),
        "sharing_third_parties": ("yes", [26, 27, 28, 29], False,
                                  "Service providers (hosting, analytics, marketing), legal authorities, business transfers."),
        "law_enforcement": ("conditional", [28], False, "Legal authorities 'if required by law or to protect our rights'."),
        "collection_location": ("not_stated", [], False,
                                "Only the IP address among technical data (8) and a mailing address as contact data (7)."),
        "cookies_tracking": ("yes", [23, 13], False, "Cookies and similar tracking technologies; analytics tracking."),
        "opt_out_ads": ("not_stated", [], False,
                        ("No targeted advertising is described; the opt-outs are of marketing emails (22) and of "
                         "cookies in the Cookie Settings page (24).")),
        "deletion": ("yes", [45, 50], True,
                     ("Right to erasure, exercised at gdpr@berget.ai, but the rights are listed 'As an EU resident' "
                      "(42): rights stated for one region.")),
        "access_correction": ("yes", [43, 44, 50], True,
                              ("Rights to access and rectification, exercised at gdpr@berget.ai, listed 'As an EU "
                               "resident' (42).")),
        "retention": ("yes", [33, 35, 31, 34], False,
                      "Periods by type: inquiries up to 1 year, analytics up to 26 months, marketing until consent withdrawn."),
        "security": ("yes", [37, 38, 39, 40], False,
                     "Encrypted storage, access controls and authentication, regular audits, HTTPS."),
        "children": ("not_stated", [], False, ""),
        "international_transfer": ("conditional", [52, 53], False,
                                   ("No reason to transfer outside the EEA; only if a customer orders it, under SCCs or "
                                    "adequacy decisions.")),
        "policy_changes": ("yes", [59, 58], False, "Changes posted on the page with an updated revision date."),
        "ai_training": ("not_stated", [], False, "A website policy; AI training is not mentioned."),
        "contact_dpo": ("yes", [4, 50, 55], False, "gdpr@berget.ai or dpo@berget.ai."),
    },
    "chatgptbusiness.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("not_stated", [], False, ""),
        "sharing_third_parties": ("yes", [56, 85, 64, 13], False,
                                  ("Specialised third-party contractors may access conversations and API data to review "
                                   "abuse; data in transit to service providers.")),
        "law_enforcement": ("not_stated", [], True,
                            ("No authority is named: employees access conversations 'where required by applicable law' "
                             "(46) or for 'legal compliance' (56), and data is kept when legally required (50).")),
        "collection_location": ("not_stated", [], False, ""),
        "cookies_tracking": ("not_stated", [], False, ""),
        "opt_out_ads": ("not_stated", [], False, ""),
        "deletion": ("yes", [60, 50, 69, 80], False,
                     ("Deleted conversations removed within 30 days unless legally required; fine-tuning files kept "
                      "until the customer deletes them.")),
        "access_correction": ("not_stated", [], False,
                              "Users can view their own conversations (44, 54); no right of access or correction."),
        "retention": ("yes", [50, 60, 81, 82], False,
                      ("Admins or users control retention; deleted conversations removed within 30 days; API inputs "
                       "and outputs kept up to 30 days.")),
        "security": ("yes", [31, 13, 32, 12], False,
                     "AES-256 at rest, TLS 1.2+ in transit, access controls, 24/7 security on call, SOC 2 audits."),
        "children": ("not_stated", [], True,
                     ("Children are not mentioned, but ChatGPT for Teachers is used by U.S. K-12 educators 'with "
                      "classroom materials and student data' (62), under a Student Data Privacy Agreement (37).")),
        "international_transfer": ("not_stated", [], False, ""),
        "policy_changes": ("not_stated", [], False, "No section on changes to the page."),
        "ai_training": ("conditional", [18, 19, 92, 3], False,
                        "Business data is not used for training by default, only if the customer explicitly opts in."),
        "contact_dpo": ("not_stated", [], False,
                        "No privacy contact; only 'reach out' for a BAA (77) and a DPA form (36)."),
    },
    "gemini.html": {
        "sale": ("no", [181], False, "'We do not sell your personal information to anyone.'"),
        "sharing_advertisers": ("not_stated", [], False,
                                ("Chats are not used to show ads (170); cart and payment data are used by Google for ads "
                                 "depending on settings (443, 448); sharing with advertisers is not mentioned.")),
        "sharing_third_parties": ("yes", [346, 398, 39, 182], False,
                                  ("Gemini shares necessary data with others on your behalf and with third parties to "
                                   "complete tasks; service providers' reviewers see chats disconnected from the account.")),
        "law_enforcement": ("conditional", [165], False,
                            ("Processed to meet any law, legal process or enforceable governmental request (a legal "
                             "request from a governmental authority).")),
        "collection_location": ("yes", [278, 25, 281, 282], False,
                                ("Location is always collected: general area from the device, IP or Home/Work "
                                 "addresses; precise location with permission.")),
        "cookies_tracking": ("not_stated", [], True,
                             ("Cookies appear only as remote-browser authentication data (21, 393); identifiers and "
                              "interaction logs are collected (18, 19); tracking by cookies is left to the Google "
                              "Privacy Policy.")),
        "opt_out_ads": ("not_stated", [], True,
                        ("Chats are not used for ads (170); cart and Google Pay data are used for personalisation and "
                         "ads 'depending on your settings' (443, 448), which implies but does not state an opt-out.")),
        "deletion": ("yes", [87, 68, 223, 96], False,
                     ("Chats can be deleted manually or auto-deleted; activity reviewed and deleted in Gemini Apps "
                      "Activity; content removal requests (reviewed chats kept up to three years).")),
        "access_correction": ("yes", [97, 135, 133, 68], False,
                              ("Export your information; review activity; a right under GDPR and other laws to have "
                               "inaccurate personal data in responses corrected, by a Help Center request.")),
        "retention": ("yes", [86, 89, 190, 221], False,
                      ("Auto-delete after 18 months by default (3, 36 months or indefinite); reviewed chats up to three "
                       "years; chats with Keep Activity off 72 hours.")),
        "security": ("yes", [172, 474, 182, 246], True,
                     ("No security measure is named: a link to the Privacy and Security Principles (172), avatar "
                      "recordings 'securely stored' (474), reviewed chats disconnected from the account (182, 246); "
                      "messages are not end-to-end encrypted (378).")),
        "children": ("not_stated", [], False,
                     "Children are not mentioned; only call history imported for users '18 or older' (45)."),
        "international_transfer": ("not_stated", [], False,
                                   "Transfers abroad are not mentioned; Google Ireland or Google LLC by region (4)."),
        "policy_changes": ("not_stated", [], False,
                           ("Changes to the notice are not mentioned; it carries 'Last updated' dates (1, 112); the "
                            "promise to communicate a change concerns using chats for ads (171).")),
        "ai_training": ("yes", [217, 229, 464, 415], False,
                        ("Activity, including chats and uploads, trains generative AI models while Keep Activity is on; "
                         "not when it is off unless feedback is sent.")),
        "contact_dpo": ("yes", [136, 137], True,
                        ("Only a request form in the Help Center or in the app to exercise privacy rights; no privacy "
                         "email, contact or DPO.")),
    },
    "inshallah.md": {
        "sale": ("not_stated", [], False, "Only a sale of the business or its assets (44, 45)."),
        "sharing_advertisers": ("yes", [34, 37, 44], False,
                                ("Data used for marketing and advertising operations on third-party sites such as social "
                                 "networks, a sharing the member can oppose; partner companies help with 'Advertising to "
                                 "Members and potential users'.")),
        "sharing_third_parties": ("yes", [42, 44, 43, 45], False,
                                  ("Third-party companies that help operate the service (hosting, support, fraud, "
                                   "advertising, statistics); a buyer of the business.")),
        "law_enforcement": ("conditional", [44, 25, 56, 66], False,
                            ("Shared when legally obligated to comply with legal requests; messages when a judicial "
                             "investigation requires it; data kept a year for judicial requisitions.")),
        "collection_location": ("no", [20, 21], True,
                                ("The device's position is never collected (20), but a declared position is used and "
                                 "shown to other members (21, 22) and a city is set in the search filters (26).")),
        "cookies_tracking": ("yes", [77], True,
                             ("Only a pointer to a separate Cookie Policy (77): the policy itself never says which "
                              "cookies or trackers it uses; connection logs are collected (28).")),
        "opt_out_ads": ("yes", [37, 60], True,
                        ("The member may oppose the sharing of data with third-party sites for Inshallah's own "
                         "advertising there (37) and object to processing for prospecting (60); no opt-out of "
                         "personalised ads as such.")),
        "deletion": ("yes", [53, 54, 62, 57], False,
                     "Right of deletion; the account can be deleted in the app; data kept a year, then deleted."),
        "access_correction": ("yes", [48, 50, 49, 52], False,
                              "Rights of access and rectification, in the account settings or through customer service."),
        "retention": ("yes", [63, 66, 56, 65], False,
                      "Kept while the account is used; deleted after 3 years of inactivity or a year after deletion."),
        "security": ("yes", [78, 80], False,
                     "All necessary measures against unauthorised access; systems monitored and updated."),
        "children": ("no", [68, 67], False, "Strictly for 18 and over; no information is collected from minors."),
        "international_transfer": ("yes", [72, 73, 71], False,
                                   "Mostly stored in the EU; some service providers outside it, under SCCs."),
        "policy_changes": ("conditional", [76, 75], False, "Notice only of significant changes."),
        "ai_training": ("not_stated", [], False,
                        "AI is not mentioned; only automated fraud analysis (39) and new functionalities (37)."),
        "contact_dpo": ("yes", [82, 62], False, "Data protection officer at dpo@inshallah.com and by post."),
    },
    "histori.md": {
        "sale": ("no", [174, 173], True,
                 ("Not sold or shared in the past 12 months and not in the future (173, 174), but tracking "
                  "technologies for ads may be 'deemed to be a \"sale\"/\"sharing\"' under US state laws (91).")),
        "sharing_advertisers": ("yes", [89, 90, 94], True,
                                ("Third parties use tracking technologies on the services to tailor advertisements, and "
                                 "Google Analytics advertising features (remarketing) are used, but no personal "
                                 "information is said to be disclosed, sold or shared to third parties (173, 174).")),
        "sharing_third_parties": ("yes", [169, 93, 85, 89], False,
                                  ("Service providers under contract, Google Analytics, business transfers, third "
                                   "parties' tracking (despite the denial of disclosure in 173).")),
        "law_enforcement": ("conditional", [72, 82], False,
                            ("For compliance with legal obligations, such as cooperating with a law enforcement body; "
                             "disclosure required by a subpoena, warrant or court order (Canadian section).")),
        "collection_location": ("yes", [51], True,
                                ("'Country, location' among automatically collected data (51), but the US table says "
                                 "device geolocation is not collected (160), as it says of identifiers (154).")),
        "cookies_tracking": ("yes", [87, 53, 89, 93], False,
                             "Cookies, web beacons and pixels; third parties' tracking for analytics and ads; Google Analytics."),
        "opt_out_ads": ("yes", [96, 97, 91, 184], False,
                        ("Google Ads Settings, the NAI opt-out pages, and a US state-law opt-out of tracking for "
                         "targeted advertising.")),
        "deletion": ("yes", [136, 123, 218, 181], False,
                     "Account and information deleted on request; rights to erasure by region."),
        "access_correction": ("yes", [215, 123, 135, 218], False,
                              "Access and correction by jurisdiction, through a data subject access request or by contact."),
        "retention": ("yes", [107, 108, 106], True,
                      ("Only a general rule: as long as necessary, no longer than the account exists; no period is "
                       "given.")),
        "security": ("yes", [111, 110], False, "Technical and organisational measures; none named."),
        "children": ("no", [116, 115, 118], True,
                     ("Data not knowingly collected from under-18s (116), but a parent or guardian may consent to a "
                      "minor's use of the services (117).")),
        "international_transfer": ("not_stated", [], False, ""),
        "policy_changes": ("yes", [203, 204, 202], False,
                           "An updated 'Revised' date; material changes may be notified by a notice or directly."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [206, 142, 214], False,
                        "sales@histori.xyz and a postal address; a representative in the EEA and Switzerland."),
    },
    "loremscriptum.md": {
        "sale": ("not_stated", [], False, ""),
        "sharing_advertisers": ("yes", [38, 39, 24], False,
                                "Website advertising partners collect and receive information for interest-based ads."),
        "sharing_third_parties": ("yes", [36, 38, 40, 41], False,
                                  "Service providers, advertising partners, business transfers, legal purposes."),
        "law_enforcement": ("conditional", [41, 29], True,
                            ("As they believe necessary or appropriate: to comply with subpoenas, warrants or legal "
                             "process, but also to respond to requests from public and government authorities, which "
                             "is not tied to a legal duty.")),
        "collection_location": ("yes", [73], False,
                                "Precise geolocation is used for specific websites, then aggregated for analytics."),
        "cookies_tracking": ("yes", [32, 17, 25, 16], False,
                             "Cookies and similar tracking technologies; partners' cookies, pixels and web beacons."),
        "opt_out_ads": ("not_stated", [], True,
                        ("Interest-based advertising across websites (24), but no ad opt-out: only a pointer to how "
                         "to control cookies in the Website Cookie Policy (33) and an EEA right to object (52).")),
        "deletion": ("yes", [47, 57, 53], False, "Right to request deletion at any time, by email."),
        "access_correction": ("yes", [47, 57], False, "Right to request access or changes and updates, by email."),
        "retention": ("yes", [72], True, "Only a general rule: the period necessary for the purposes; no period is given."),
        "security": ("yes", [68, 69], False,
                     "Reasonable organisational, technical, administrative and physical safeguards; none named."),
        "children": ("no", [34], True,
                     ("Not intended for or directed to children, who are asked not to provide information (34); "
                      "collection from them is not denied as such.")),
        "international_transfer": ("yes", [76, 75, 78, 80], False,
                                   "Hosted in Estonia or affiliates' countries; SCCs between group companies and providers."),
        "policy_changes": ("yes", [82, 83], False,
                           "Revision date at the top; material changes posted on the website."),
        "ai_training": ("not_stated", [], False, ""),
        "contact_dpo": ("yes", [88, 89, 85], False, "A DPO at mailbox@loremscriptum.com or by post."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
