"""The twelfth held-out answers set's labels, as written while reading each policy (data/heldout12/policies/,
rebuilt by `scripts/heldout_policies.py --set heldout12`), and the writer of `answers_heldout12.jsonl`: each
label's supporting sentence numbers are turned into their text as `lab.print_policy` numbers them.

    .venv/bin/python -m lab.heldout12_labels      # rewrites assistant/evaluation/data/answers_heldout12.jsonl

Labelled before the engine was run on any of these policies. The questions are worded differently from
the answers dev set's and the first eleven held-out sets', one per facet, the same for every policy.
"""
from __future__ import annotations

from pathlib import Path

from lab.labelled_sets import write_set

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "data" / "heldout12" / "policies"
OUTPUT = ROOT / "assistant" / "evaluation" / "data" / "answers_heldout12.jsonl"

QUESTIONS = {
    "sale": "Is my personal information ever sold by them?",
    "sharing_advertisers": "Do advertising companies receive my personal data from this service?",
    "sharing_third_parties": "Is my personal data shared with outside organisations?",
    "law_enforcement": "Would they give my information to the police or a court if required?",
    "collection_location": "Is information about my location gathered?",
    "cookies_tracking": "Do they use cookies or trackers when I visit?",
    "opt_out_ads": "Can I opt out of personalised advertising?",
    "deletion": "Can I ask them to erase the data they have on me?",
    "access_correction": "Can I see the personal data they keep and correct errors in it?",
    "retention": "Do they say how long they store my personal data before deleting it?",
    "security": "Do they use safeguards to protect my personal data?",
    "children": "Does this service gather personal information from kids?",
    "international_transfer": "Could my personal data be stored in another country?",
    "policy_changes": "Will they tell me if this privacy policy changes?",
    "ai_training": "Is my data used to develop or train AI models?",
    "contact_dpo": "Do they name a data protection officer or another contact for privacy questions?",
}

# policy file -> facet -> (verdict, supporting sentence numbers best first, ambiguous, note)
LABELS: dict[str, dict[str, tuple[str, list[int], bool, str]]] = {
    "psf.md": {
        "sale": ("not_stated", [], False,
                 "Selling is not addressed; only rights for citizens of some US states and the EU are listed (73-81)."),
        "sharing_advertisers": ("no", [24, 51], True,
                                ("Only 'statistical or aggregated non-personal information' is shared with advertisers "
                                 "(24); personal information goes to service providers barred from other uses (50, 51). "
                                 "No denial of giving advertisers personal data: no, or not stated.")),
        "sharing_third_parties": ("yes", [50, 52, 56, 55], False,
                                  "Service providers, contractors and sub-contractors; legal process; protecting rights."),
        "law_enforcement": ("conditional", [56], False,
                            "In response to a subpoena, warrant or court order, or when a law requires or authorises it."),
        "collection_location": ("not_stated", [], False,
                                "IP addresses and domain names only (22); no location named."),
        "cookies_tracking": ("yes", [27, 28, 22], False,
                             "Sites may place cookies, 'strictly functional cookies' with no marketing purpose; pages viewed collected."),
        "opt_out_ads": ("not_stated", [], False,
                        "Aggregated data customises 'advertising' (25), but no ad opt-out; only a general right to object (79)."),
        "deletion": ("yes", [71, 76, 82], False,
                     "They will endeavour to remove the data you give them; a right to erasure for some states and the EU."),
        "access_correction": ("yes", [71, 74, 75, 82], False,
                              "Access, correct or update personal information; rights of access and rectification."),
        "retention": ("yes", [83, 87, 88], True,
                      "Only a general rule: no longer than necessary for the purposes, then destroyed; no period."),
        "security": ("yes", [85, 70, 84], False,
                     "Physical, business and technical security measures; reasonable procedures against unauthorised access."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [59, 60, 65, 66], False,
                                   "Service providers in the US and other countries; transfers out of the EEA under SCCs."),
        "policy_changes": ("yes", [90, 91, 93], False,
                           "Updates posted online with an effective date; substantive ones announced on blog, forums or by email."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [94, 67], False, "legal@python.org for questions, concerns or complaints; no DPO named."),
    },
    "formulaic.md": {
        "sale": ("no", [95], False, "'We do not sell personal data.'"),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [70, 73, 79, 76], False,
                                  ("Third-Party Services (Google Cloud, Anyscale, OpenAI) receive what is needed to run "
                                   "queries through Third-Party Models.")),
        "law_enforcement": ("not_stated", [], False,
                            "No word on authorities; only retention 'as otherwise required by law' (31, 88)."),
        "collection_location": ("yes", [40, 39, 37], False,
                                "The IP address is used to approximate your location; device country received."),
        "cookies_tracking": ("yes", [47, 49, 51], False,
                             "Cookies, clear GIFs and third-party services; Sign in with Google's cookie; Google Analytics."),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising described; the only opt-out is Google Analytics' browser add-on (54)."),
        "deletion": ("yes", [87, 109, 24, 90], False,
                     "On request to terminate the account, account and information deleted from active databases; delete in settings."),
        "access_correction": ("yes", [84, 86, 109, 107], False,
                              "Review or change account information by email or in account settings; right of access."),
        "retention": ("yes", [39, 45, 22, 65], False,
                      "IP addresses and referral data deleted after 30 days; documents kept until you delete them."),
        "security": ("yes", [70, 61], True,
                     ("No measure of Mozilla's own is named: vendors are contracted to protect information (70) and "
                      "reCAPTCHA identifies fraudulent activity (61).")),
        "children": ("no", [81, 82], False,
                     "Not directed to under-18s; no knowing collection; such information deleted."),
        "international_transfer": ("not_stated", [], False,
                                   "Where data is processed is not said (only a DPO address in Brussels, 112-115)."),
        "policy_changes": ("not_stated", [], False, "Only a 'Last Updated' date (1); no word on telling users of changes."),
        "ai_training": ("not_stated", [], True,
                        ("Training is never mentioned: Mozilla operates no LLM (15) and caches model query data only to "
                         "answer (65), but inputs go to third-party models under their own terms (80).")),
        "contact_dpo": ("yes", [111, 91, 85], False,
                        "dpo@mozilla.com and a DPO (Bird & Bird DPO Services, Brussels); compliance@ and formulaic@mozilla.com."),
    },
    "lunia.md": {
        "sale": ("no", [60], True,
                 ("'We do not sell, rent, or trade your personal information to third parties for their marketing "
                  "purposes' (60): a denial for others' marketing only, beside a listed right to opt out of sale (83).")),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertising or advertisers mentioned; only the denial of selling or trading personal "
                                 "information 'for their marketing purposes' (60), which a reader may take as a no.")),
        "sharing_third_parties": ("yes", [55, 56, 58, 61], False,
                                  "Service providers (Google Firebase, Firebase Analytics, ipapi.co); legal disclosure."),
        "law_enforcement": ("conditional", [61, 62], False,
                            "If required by law, court order or government regulation, or to comply with legal processes."),
        "collection_location": ("yes", [16, 21, 17, 58], False,
                                "Approximate location (city, region, country, latitude and longitude) from the IP address."),
        "cookies_tracking": ("yes", [102, 104, 24], False,
                             "Cookies and similar tracking technologies, including Firebase Analytics cookies."),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising described; only marketing emails can be opted out of (72), and DNT is not honoured (75)."),
        "deletion": ("yes", [70, 71, 52], False,
                     "Right to request deletion at any time, by email with the subject 'Data Deletion Request'."),
        "access_correction": ("yes", [67, 68, 86], False, "Request access and correction of inaccurate information."),
        "retention": ("yes", [51, 52, 53, 54], False,
                      "Registration data kept until you ask for deletion, the platform launches, or it is abandoned."),
        "security": ("yes", [43, 49, 48, 44], False,
                     "Reasonable measures: input sanitisation, HTTPS encryption, restricted access, rate limiting."),
        "children": ("no", [99, 100, 101], True,
                     ("Not intended for under-13s and no knowing collection from them (99, 100), but under-18s may "
                      "provide information with a parent's or guardian's permission (101).")),
        "international_transfer": ("yes", [90, 91, 42, 88], False,
                                   "Processed mainly in the EU; transfers to Google in the US under SCCs; servers in various regions."),
        "policy_changes": ("yes", [110, 111, 112], False,
                           "The 'Last Updated' date changed and the policy posted; material changes emailed."),
        "ai_training": ("not_stated", [], False,
                        "No AI training mentioned (the future app's 'AI companion' is left to another policy, 120)."),
        "contact_dpo": ("yes", [114, 115, 98], False, "hello@lunia.health for questions and requests; no DPO named."),
    },
    "mycrypto.md": {
        "sale": ("no", [152, 13, 76], False,
                 "'MyCrypto never sells any of its collected information to third parties.'"),
        "sharing_advertisers": ("not_stated", [], True,
                                ("No advertising or advertisers mentioned; confidential vendor relationships never disclose "
                                 "personal information 'for marketing purposes' (189), and newsletter emails are not "
                                 "shared (76): a reader may take these as a no.")),
        "sharing_third_parties": ("yes", [153, 61, 163, 190], False,
                                  ("Third-party vendors; API providers (The Graph, CoinGecko) get the IP and Ethereum "
                                   "address; listed wallet and node services; law enforcement on a subpoena.")),
        "law_enforcement": ("yes", [192, 190, 193], True,
                            ("If required by a subpoena or court order (190), but also whenever they deem it necessary "
                             "to report harm, Terms of Service violations or illegal activities (192), not tied to an order.")),
        "collection_location": ("yes", [57, 44], True,
                                ("Only implied: geolocation is not collected 'with any specificity beyond the country and "
                                 "timezone' (57), and the local time zone is recorded (44).")),
        "cookies_tracking": ("yes", [157, 29, 34, 162], True,
                             ("'Cookies' kept in localStorage (157, 160) and anonymised analytics (Segment with a random "
                              "ID, self-hosted Matomo), but 'we do not utilize tracking cookies' (58, 162).")),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising described; only the analytics ID can be disabled (31) and the newsletter left (77)."),
        "deletion": ("yes", [136, 137], True,
                     ("Only reports to CryptoScamDB can be destroyed on request (136, 137); there are no accounts and "
                      "no general right to deletion.")),
        "access_correction": ("not_stated", [], False, "No way to see or correct your data is described."),
        "retention": ("yes", [59, 69, 143], False,
                      "Matomo records purged after one year; support emails deleted at least annually."),
        "security": ("yes", [141, 140, 138], False,
                     "Firewalls, breach recognition and notification procedures, encryption, controlled access."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("not_stated", [], False, "Where data is stored or processed is not said."),
        "policy_changes": ("yes", [195, 196], True,
                           ("Changes carry an updated 'Last updated' date and take effect at once (195); notice on the "
                            "site or social media 'is not guaranteed' and users should check (196).")),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [199], False, "support@mycrypto.com for questions about the policy; no DPO."),
    },
    "datenanfragen.md": {
        "sale": ("not_stated", [], False, "Selling is not addressed."),
        "sharing_advertisers": ("not_stated", [], False, "No advertising or advertisers mentioned."),
        "sharing_third_parties": ("yes", [51, 148, 163, 125], False,
                                  ("Server operators (Hetzner, Uberspace, BunnyWay), Mailjet for the newsletter, PayPal for "
                                   "payments, the tax office; error reports public on GitHub (100).")),
        "law_enforcement": ("conditional", [125, 115], True,
                            ("No police or court named: members' payment data may have to go to the tax office as part "
                             "of tax statements (125), and contact data to other members when legally obliged (115).")),
        "collection_location": ("not_stated", [], True,
                                ("Only the IP address, processed briefly in memory (47, 48); PayPal receives 'location "
                                 "details' in its own payment process (163), and misconduct reports note where a violation "
                                 "took place (70).")),
        "cookies_tracking": ("yes", [41, 42, 34], False,
                             ("A cookie stores each privacy-controls choice, with no personal data; no telemetry now "
                              "(34), no server logs (47).")),
        "opt_out_ads": ("not_stated", [], False,
                        "No advertising described; only an objection to direct marketing (189) and DNT respected (33)."),
        "deletion": ("yes", [182, 167, 112], False,
                     "Right to erasure under Art. 17 GDPR, exercised informally; members' data deleted within 30 days of leaving."),
        "access_correction": ("yes", [169, 170, 180, 167], False,
                              "Right of access and a copy (Art. 15), rectification (Art. 16), exercised at any time."),
        "retention": ("yes", [73, 112, 145, 155], False,
                      ("Per processing: reports up to three years, members' data 30 days after leaving, newsletter until "
                       "unsubscribing, video data deleted after the conference; web requests not stored (50).")),
        "security": ("yes", [8, 47, 52], False,
                     "TLS-encrypted connections only; no server log files; carefully selected EU hosting companies."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [55, 101, 52], True,
                                   ("Transfers are never discussed: servers are run by EU companies in Germany and Slovenia "
                                    "(52-55), and error reports may be public on the tracker of GitHub, Inc., USA (100, 101).")),
        "policy_changes": ("not_stated", [], False, "Only a 'last changed' date (2); no word on telling users of changes."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [30, 32, 167], False,
                        "privacy@datenanfragen.de, postal address, phone and fax of the association; no DPO named."),
    },
    "travisci.md": {
        "sale": ("not_stated", [], False, "Selling is not addressed."),
        "sharing_advertisers": ("not_stated", [], False,
                                "No advertising or advertisers mentioned (only ad-choice pages to manage cookies, 136)."),
        "sharing_third_parties": ("yes", [42, 44, 242, 192], False,
                                  ("Customers and external service partners; cloud services (AWS, Google Cloud, Heroku), "
                                   "Stripe, Zendesk, Mailchimp; transfers on a government or court order.")),
        "law_enforcement": ("conditional", [192, 89], True,
                            ("Only if obliged by a government or court order or authorised by law (192), but access data "
                             "also go to third parties when the transfer 'serves criminal prosecution purposes' (89), "
                             "not tied to a legal duty.")),
        "collection_location": ("yes", [84, 82], True,
                                "Only a country code in access data from mobile devices (84), beside the IP address (82)."),
        "cookies_tracking": ("yes", [132, 139, 110, 138], False,
                             "Cookies identifying returning visitors; Google Analytics cookies; Mailchimp web beacons."),
        "opt_out_ads": ("yes", [136, 134], True,
                        ("Cookies can be managed through the aboutads.info and youronlinechoices ad-choice pages (136), "
                         "but no targeted advertising is described.")),
        "deletion": ("yes", [200, 202, 52], False, "Right to request erasure, by email to data@travis-ci.com."),
        "access_correction": ("yes", [199, 202, 201], False,
                              "Right to access stored data and to amend or rectify it, by email to data@travis-ci.com."),
        "retention": ("yes", [208, 209, 119, 210], True,
                      ("Only rules: as long as necessary, generally the contract's duration or the legal retention "
                       "periods of the HGB and AO; newsletter data until unsubscribing; no period.")),
        "security": ("yes", [211, 213, 218, 219], False,
                     "Technical and organisational measures; SSL/TLS; isolated build environments disposed of after each run."),
        "children": ("not_stated", [], False, "Children are not mentioned."),
        "international_transfer": ("yes", [43, 216, 105, 193], False,
                                   "Data transferred outside the EU; code run on servers in the USA; Mailchimp servers in the USA."),
        "policy_changes": ("not_stated", [], False,
                           "Only 'We are entitled to amend this privacy policy' (225); no word on telling users."),
        "ai_training": ("not_stated", [], False, "No AI or model training mentioned."),
        "contact_dpo": ("yes", [226, 202, 9], False, "A data protection officer reachable at data@travis-ci.com."),
    },
}


def main() -> None:
    write_set(LABELS, QUESTIONS, POLICIES, OUTPUT)


if __name__ == "__main__":
    main()
