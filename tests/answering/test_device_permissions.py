"""Data an app reaches only through a permission the person grants on the device (contacts, precise location,
camera, photo library): where the policy says it waits on that grant, the answer is "only
if", quoting that statement, even when a plain list item ("Contacts.") ranks first; where it says nothing of the
grant, the plain "yes" stands. On a small policy of our own (none from an answers set)."""
from __future__ import annotations

import csv

import pytest

from assistant.understanding.statements import on_permission
from tests.support.paths import ROOT
from tests.support.small_policies import ingested

POLICY = """# Pebble privacy notice

## Information we collect

We collect the following information about you:
Your name and e-mail address.
Your contacts and address book.
Your precise location.
Photos you take with your camera.

## How the app works

If you choose to sync your contacts, we upload the phone numbers in your address book to find your friends on Pebble.
With your permission, the app uses your camera to scan receipts.
We use your precise location to show stores near you.
"""


@pytest.fixture
def pebble(assistant, tmp_path):
    return ingested(assistant, tmp_path, "pebble", POLICY)


def test_device_data_said_to_wait_on_the_grant_is_only_if(pebble):
    contacts = pebble.ask("Does the app access my contacts?", policy="pebble")
    assert contacts.verdict == "conditional", contacts.headline
    assert contacts.answer.startswith("If you choose to sync your contacts")
    camera = pebble.ask("Can they use my phone's camera?", policy="pebble")
    assert camera.verdict == "conditional", camera.headline
    assert camera.answer.startswith("With your permission")


def test_device_data_stated_plainly_stays_yes(pebble):
    location = pebble.ask("Do you collect my precise location?", policy="pebble")
    assert location.verdict == "yes", location.headline


@pytest.mark.parametrize(("sentence", "expected"), [
    ("If you share your contacts, we will collect their phone numbers to help you message them.", True),
    ("When you connect your calendar, we read your events to suggest departure times.", True),
    ("In accordance with your device permissions, we may collect the precise location of your device.", True),
    ("We collect your precise location from your device's GPS.", False),
    ("We may access your contacts with your consent where required by law.", False),
])
def test_the_grant_is_read_in_a_statement(sentence: str, expected: bool) -> None:
    assert on_permission(sentence) is expected


# Real sentences (`tests/fixtures/permission_sentences.tsv`: 248 sentences naming contacts, precise location, camera,
# microphone, photos, calendar or Bluetooth, drawn from 62 current policies in no answers set, each labelled by a helper
# who had not seen the rules: the item, and yes / only_if / no / other). Phrases written on the development half did
# not carry to the validation half (7 of 14 only-if sentences read before and after) and were dropped; the reading is
# the stance's own conditions plus the person handing the data over. Floors: only-if sentences read as such at least,
# plain ones read as only-if at most.
PERMISSION_ROWS = list(csv.DictReader((ROOT / "tests/fixtures/permission_sentences.tsv").open(encoding="utf-8"),
                                      delimiter="\t"))
PERMISSION_FLOORS = {"development": (2, 0), "validation": (7, 0)}


@pytest.mark.parametrize("half", list(PERMISSION_FLOORS))
def test_the_grant_is_read_in_real_sentences_labelled_blind(half: str) -> None:
    rows = [row for row in PERMISSION_ROWS if row["half"] == half and row["label"] in ("yes", "only_if")
            and row["item"] not in ("none", "location", "bluetooth")]
    granted = [on_permission(row["sentence"]) for row in rows if row["label"] == "only_if"]
    plain = [on_permission(row["sentence"]) for row in rows if row["label"] == "yes"]
    least, most = PERMISSION_FLOORS[half]
    assert len(granted) >= 8 and len(plain) >= 5
    assert sum(granted) >= least and sum(plain) <= most, (granted, plain)
