"""The eleventh held-out answers set's labels, as written while reading each policy (data/heldout11/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout11`), and the writer of `answers_heldout11.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout11_labels      # rewrites assistant/evaluation/data/answers_heldout11.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first ten held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout11" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout11.jsonl"

QUESTIONS = {
    "sale": "Could this company sell my personal info to someone?",
    "sharing_advertisers": "Could advertisers end up with my personal information through them?",
    "sharing_third_parties": "Will they let other companies see my personal information?",
    "law_enforcement": "Can authorities like the police make them disclose my data?",
    "collection_location": "Are my whereabouts collected by this service?",
    "cookies_tracking": "Are tracking cookies or similar tools used on me?",
    "opt_out_ads": "Is there a setting to stop ads being tailored to me?",
    "deletion": "If I want my information gone, will they delete it?",
    "access_correction": "Is there a way to review my personal information and fix what's wrong?",
    "retention": "Is there a stated period for how long they keep my information?",
    "security": "Do they protect my information against unauthorized access?",
    "children": "Are children's personal details collected through this service?",
    "international_transfer": "Can my personal data end up being processed abroad?",
    "policy_changes": "Will they give me notice when the privacy policy is revised?",
    "ai_training": "Are their AI models trained using my data or content?",
    "contact_dpo": "Do they give a contact, like a data protection officer, for privacy requests?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "igorbox.md": {
        "sale": ("no", [49, 36, 10, 12], False,
                 "'We do not sell your personal information'; the California notice says each category is not sold."),
        "sharing_advertisers": ("no", [9, 11, 36, 29], False,
                                ("Identifiers and network activity 'not sold/shared for cross-context behavioral "
                                 "advertising'; mobile information not shared for marketing; session recordings not "
                                 "used for advertising profiles. No advertiser is named.")),
        "sharing_third_parties": ("yes", [51, 50, 52, 28], False,
                                  "Service providers, legal process, protecting rights; observability providers."),
        "law_enforcement": ("conditional", [52], False, "'When required by law or legal process.'"),
        "collection_location": ("yes", [12], False, "'Geolocation (coarse, from IP)' collected for security and fraud prevention."),
        "cookies_tracking": ("yes", [22, 30, 6, 23], False,
                             "Session recording, logging and observability tools; certain cookies under the Cookie Policy."),
        "opt_out_ads": ("yes", [73], True,
                        ("GPC honoured as an opt-out of targeted advertising 'where applicable', but the policy says "
                         "its data is not shared for cross-context behavioural advertising (9, 11): an ad opt-out "
                         "beside no described targeted advertising.")),
        "deletion": ("yes", [64, 58, 67], False,
                     "Right to request deletion 'depending on your jurisdiction', exercised at help@igorbox.com; deletion within 30 days."),
        "access_correction": ("yes", [63, 64, 67], False, "Access, copy and correction, exercised at help@igorbox.com."),
        "retention": ("yes", [57, 56, 58], False,
                      "Account records while the account exists, transactions up to 7 years, logs and recordings up to 24 months."),
        "security": ("yes", [60], False, "Reasonable administrative, technical and physical safeguards."),
        "children": ("not_stated", [], False,
                     ("No section on children; only the CCPA line that under-16s' information is not sold or shared "
                      "(14), which says nothing of collecting it.")),
        "international_transfer": ("yes", [75, 76, 74], False,
                                   "Hosted in the US; users outside it have data transferred there; SCCs for EEA/UK."),
        "policy_changes": ("yes", [78, 77], False, "Changes posted here with the Effective Date updated."),
        "ai_training": ("conditional", [43, 41, 39], True,
                        ("Anonymised or aggregated usage data may train AI models (39, 41), but no personally "
                         "identifiable information without explicit consent (43): yes for de-identified data, "
                         "conditional for personal data.")),
        "contact_dpo": ("yes", [67, 80, 79], False, "No DPO; rights requests and questions to help@igorbox.com."),
    },
    "everest.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed; only the California right to opt out of a sale is listed (56)."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [45, 44], False,
                                  ("Third-party analytics tools collect information sent by your device; Apple Sign "
                                   "In and StoreKit (41). No disclosure section.")),
        "law_enforcement": ("not_stated", [], False, "No word on authorities or legal requests."),
        "collection_location": ("not_stated", [], False, "Device model, OS, identifiers and mobile network information only."),
        "cookies_tracking": ("yes", [44, 45], True,
                             ("No cookies named; third-party analytics tools measure traffic and usage trends in the app: "
                              "tracking by similar tools, or not the cookies asked about.")),
        "opt_out_ads": ("not_stated", [], False, "No advertising described; only non-essential communications can be opted out of (61)."),
        "deletion": ("yes", [60, 58, 49], False,
                     "For all users: update or delete account information in the app settings; erasure and deletion rights listed."),
        "access_correction": ("yes", [62, 60, 47, 48], False,
                              "For all users: request a copy of your data, update account information; access and rectification rights."),
        "retention": ("not_stated", [], False, "No retention period or rule; data is mainly stored on the device (38)."),
        "security": ("yes", [39, 40], False,
                     "Technical and organisational measures; industry-standard encryption for data sent to the servers."),
        "children": ("no", [63], False, "Not intended for under-13s; no knowing collection from them."),
        "international_transfer": ("not_stated", [], False, "Where servers are is not said."),
        "policy_changes": ("yes", [65, 64], False, "Notice by posting the new policy and updating the 'Last Updated' date."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [66, 67], False, "Questions about the policy to an email address; no DPO."),
    },
    "thunderbird.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed (the notice defers to the Mozilla Privacy Policy, 6, not part of this text)."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [81, 89, 87, 85], False,
                                  ("'Thunderbird May Disclose Information To': Mozilla Corporation and Foundation, "
                                   "AWS server logs, Gandi.net and Mailfence (legacy), network administrators.")),
        "law_enforcement": ("not_stated", [], False, "No word on authorities or legal requests."),
        "collection_location": ("yes", [90], True,
                                ("Only the legacy (before version 128) email-address feature shares 'your country "
                                 "location' with Gandi.net and Mailfence; otherwise only the IP address in server logs.")),
        "cookies_tracking": ("yes", [9, 11, 58], True,
                             ("No cookies named: telemetry of your interactions is sent to MZLA (opt-out documented, 15) "
                              "and aggregate website interaction data is received: tracking by similar means, or not.")),
        "opt_out_ads": ("not_stated", [], False, "No advertising described."),
        "deletion": ("not_stated", [], True,
                     ("No right to deletion is stated: removing an account deletes data from your own device (76), a "
                      "parent can have a child's information removed (96), and a link for Data Subject Access "
                      "Requests (94) names no right.")),
        "access_correction": ("yes", [92, 94], False,
                              "Get in touch to make a correction to your information; Data Subject Access Requests link."),
        "retention": ("yes", [75, 77, 79, 13], True,
                      ("Only for data on your device (OAuth tokens as long as necessary or until deleted, local data "
                       "until the account is removed) and the IP address 'temporarily' in server logs: no period.")),
        "security": ("yes", [69, 65, 70], False,
                     "Tokens and data secured in the app sandbox, secure key storage or profile; OAuth over an encrypted connection."),
        "children": ("no", [95, 96], False,
                     "Under-13s must not provide personal information; parents can have it removed."),
        "international_transfer": ("not_stated", [], False, "Where data is processed is not said."),
        "policy_changes": ("not_stated", [], False, "Only a 'Last updated' date (1); no word on telling users of changes."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [93, 92], False, "MZLA, Attn: Mozilla - Privacy, compliance@mozilla.com; no DPO named."),
    },
    "mozillasubscriptions.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed (the notice defers to the Mozilla Privacy Policy, 9, not part of this text)."),
        "sharing_advertisers": ("not_stated", [], True,
                                ("Campaign and referral data about ad campaigns you engaged with is shared with Adjust "
                                 "(23, 24), an attribution service measuring Mozilla's own marketing: no advertiser named.")),
        "sharing_third_parties": ("yes", [90, 98, 24, 30], False,
                                  "Relay shares information with AWS and Twilio; Adjust, Sentry.io, HaveIbeenpwned, Mullvad."),
        "law_enforcement": ("not_stated", [], False,
                            "No word on authorities; only that requests are honoured unless a legal requirement prevents it (105)."),
        "collection_location": ("yes", [33, 72], False, "The IP address is used to approximate your location (country)."),
        "cookies_tracking": ("yes", [42, 63, 61], False, "Cookies, clear GIFs, third-party services; Google Analytics places a cookie."),
        "opt_out_ads": ("not_stated", [], False,
                        "No targeted advertising described; the opt-outs are of Google Analytics (57, 65) and Relay interaction data (60)."),
        "deletion": ("yes", [102, 104, 49], True,
                     ("Requests about your personal data through the Data Subject Access Request Portal, honoured "
                      "wherever you live, and Monitor data deleted when you unsubscribe; deletion itself is never "
                      "named as a right.")),
        "access_correction": ("yes", [101, 102, 104], True,
                              ("Much account information is accessible by signing in, and data requests go through the "
                               "portal; correction is not named (only 'update your data sharing settings').")),
        "retention": ("yes", [27, 33, 77, 99], False,
                      "IP addresses in server logs for 90 days; undelivered emails at most three days; Twilio texts 7 days."),
        "security": ("yes", [3, 36, 45, 91], False,
                     "VPN traffic encrypted; a hashed email sent to HaveIbeenpwned; vendors contracted to protect information."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("not_stated", [], False, "Where data is processed or transferred is not said."),
        "policy_changes": ("not_stated", [], False, "Only an effective date (1); no word on telling users of changes."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [103, 102], False, "compliance@mozilla.com and the Data Subject Access Request Portal; no DPO named."),
    },
    "fairmint.md": {
        "sale": ("no", [41], False,
                 ("'We do not rent or sell your Personal Information in personally identifiable form to anyone'; "
                  "de-identified data goes to partners (44) and user information passes in a sale of assets (162).")),
        "sharing_advertisers": ("not_stated", [], True,
                                ("Advertising tailored to your interests on other sites (67) and third-party cookies "
                                 "(27, 29), and aggregate usage information to partners (45), but no advertiser is "
                                 "said to receive personal information: the ads named are Fairmint's own.")),
        "sharing_third_parties": ("yes", [147, 42, 50, 48], False,
                                  ("Vendors, service providers and agents (wallet providers, payment processors, "
                                   "analytics...), affiliated businesses, legal process, business transfers.")),
        "law_enforcement": ("conditional", [158, 62], False,
                            ("Shared when necessary to comply with law or respond to valid legal process, 'including "
                             "from law enforcement or other government agencies'.")),
        "collection_location": ("yes", [24, 103], False,
                                "Geolocation data in the server logs; location information (e.g. IP address)."),
        "cookies_tracking": ("yes", [25, 33, 24, 102], False,
                             "Cookies, including to collect online activity after you leave; web beacons, pixel tags, SDKs."),
        "opt_out_ads": ("not_stated", [], True,
                        ("Advertising tailored to your interests on the services and other sites (67), but no ad "
                         "opt-out: only browser cookie settings (26), a Google Analytics opt-out (61), Do Not Track "
                         "with no promise (35-37) and an EU right to object (189).")),
        "deletion": ("yes", [184, 177], True,
                     ("Right to erasure, but in the rights listed after 'EU Residents' (80: rights 'as outlined "
                      "below' for EU, UK and EEA residents) and to be sent to '[insert email]' (177); a testimonial "
                      "can be deleted on request (40).")),
        "access_correction": ("yes", [180, 182, 181, 183], False,
                              ("Request a copy and correction; some data can be seen and edited in the account "
                               "settings (181, 183), whoever you are.")),
        "retention": ("yes", [165, 166, 167], True,
                      "Only a general rule: as long as necessary to provide the Services, longer for legal duties; no period."),
        "security": ("yes", [168, 172, 171, 169], False,
                     "Technical and organisational measures, TLS/SSL in transit, regular audits, a controlled environment."),
        "children": ("no", [8, 10, 9], False,
                     "No knowing collection from anyone under 18; such data is deleted."),
        "international_transfer": ("yes", [194, 193, 192], False,
                                   "Hosted in the US; information transferred to and processed in the US and possibly other countries."),
        "policy_changes": ("yes", [13, 15, 12], False,
                           ("Changes effective on posting to the page, with the Last Updated date to check; no notice "
                            "beyond posting (14: review regularly).")),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [202, 203, 204, 196], False,
                        "A Data Protection Officer named (Thibauld Favre, thibauld@fairmint.co); contact@fairmint.co."),
    },
    "bytescale.md": {
        "sale": ("no", [102, 216], True,
                 ("Information not shared, sold, rented or traded with third parties 'for their promotional "
                  "purposes', 'unless described in this notice' (102); internal research is 'not considered "
                  "selling' (216); but targeting cookies share data (206-208), there is a CCPA right to opt out of "
                  "future selling (255), and no plain denial.")),
        "sharing_advertisers": ("yes", [82, 161, 208, 100], True,
                                ("Personalised advertising with third parties who do so (82), 'interest-based advertising "
                                 "by advertisers on our Website' (161), targeting cookies that share information (206, "
                                 "208); but no advertiser is named among the third parties listed (108-114), and "
                                 "sharing for third parties' promotional purposes is denied (102).")),
        "sharing_third_parties": ("yes", [98, 108, 113, 96], False,
                                  "Vendors and service providers (HelpScout, Paddle, Google Analytics, HubSpot, PostHog, Sentry); business transfers."),
        "law_enforcement": ("conditional", [92], False,
                            ("Disclosed 'where we are legally required to do so', including to public authorities for "
                             "law enforcement requirements.")),
        "collection_location": ("yes", [36, 38, 25, 194], False,
                                "Device location, precise or imprecise; geolocation from the IP address; country and location."),
        "cookies_tracking": ("yes", [116, 27, 207, 100], False,
                             "Cookies, web beacons and pixels; tracking and targeting cookies; third parties' tracking technology."),
        "opt_out_ads": ("yes", [161, 159], False,
                        "An opt-out of interest-based advertising at aboutads.info; browser cookie rejection."),
        "deletion": ("yes", [266, 156, 227, 143], False,
                     ("Right to request deletion by jurisdiction, by email; account and information deleted from active "
                      "databases on request to terminate; CCPA deletion right.")),
        "access_correction": ("yes", [141, 266, 154, 143], False,
                              "Review and change your account at any time; requests to review or update at privacy@bytescale.com."),
        "retention": ("yes", [128, 127], False,
                      "As long as necessary, and never more than 72 months past the account's termination."),
        "security": ("yes", [131, 130], False, "Appropriate technical and organisational security measures; none named."),
        "children": ("no", [136, 135, 138], True,
                     ("No knowing collection from under-18s and such data deleted (138), but a parent or guardian may "
                      "consent to a minor's use of the Website (137).")),
        "international_transfer": ("yes", [118, 120, 122], False,
                                   "Globally replicated datacenters; data processed in the US, UK, Ireland and other countries."),
        "policy_changes": ("yes", [261, 262, 260], False,
                           "An updated 'Revised' date; material changes may be notified by a notice or directly."),
        "ai_training": ("not_stated", [], False,
                        "No AI or model training mentioned (only 'internal research for technological development', 215)."),
        "contact_dpo": ("yes", [264, 152, 265], False, "privacy@bytescale.com and a London postal address; no DPO named."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
