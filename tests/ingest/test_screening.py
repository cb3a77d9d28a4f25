"""Screening: the real language identifier and the shipped policy detector on texts a person would
ingest, and a tiny training run that writes a loadable release."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from assistant.ingest.parsing import load_document
from assistant.ingest.screening import KIND_REASONS, LANGUAGE_NAMES, MIN_WORDS, _identifier, screen, visible_text
from assistant.models.policy_detector.model import RELEASE_DIR, PolicyDetector
from assistant.models.policy_detector.train import load_manifest
from tests.support.documents import TERMS
from tests.support.paths import EXAMPLES, ROOT

WRITTEN = ROOT / "data" / "screening" / "written"

GERMAN = """Datenschutzerklärung

Wir freuen uns über Ihr Interesse an unserer App. Der Schutz Ihrer personenbezogenen Daten ist uns ein wichtiges
Anliegen. Nachfolgend informieren wir Sie darüber, welche Daten wir erheben, wie wir sie verwenden und welche
Rechte Sie haben.

Verantwortlicher im Sinne der Datenschutz-Grundverordnung (DSGVO) ist die Beispiel GmbH, Musterstraße 1,
10115 Berlin.

Welche Daten wir erheben: Wenn Sie ein Konto anlegen, speichern wir Ihren Namen, Ihre E-Mail-Adresse und Ihr
Passwort in verschlüsselter Form. Bei der Nutzung der App erfassen wir technische Daten wie die IP-Adresse,
den Gerätetyp und die Version des Betriebssystems.

Zwecke und Rechtsgrundlagen: Wir verarbeiten Ihre Daten, um den Dienst bereitzustellen (Art. 6 Abs. 1 lit. b
DSGVO), um die Sicherheit unserer Systeme zu gewährleisten (Art. 6 Abs. 1 lit. f DSGVO) und, soweit Sie
eingewilligt haben, um Ihnen Neuigkeiten zu senden (Art. 6 Abs. 1 lit. a DSGVO).

Weitergabe: Eine Weitergabe Ihrer Daten an Dritte erfolgt nur, wenn dies zur Vertragserfüllung erforderlich
ist oder Sie ausdrücklich eingewilligt haben. Wir verkaufen Ihre Daten nicht.

Speicherdauer: Wir löschen Ihre Daten, sobald sie für die genannten Zwecke nicht mehr erforderlich sind.

Ihre Rechte: Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung,
Datenübertragbarkeit und Widerspruch. Außerdem können Sie sich bei einer Datenschutzaufsichtsbehörde
beschweren.
"""

JAPANESE = """プライバシーポリシー

株式会社サンプル（以下「当社」といいます。）は、当社が提供するアプリケーション（以下「本サービス」といいます。）
における利用者の個人情報の取扱いについて、以下のとおりプライバシーポリシーを定めます。

第1条（収集する情報）
当社は、本サービスの提供にあたり、氏名、メールアドレス、端末情報、IPアドレス、利用履歴などの情報を取得します。

第2条（利用目的）
当社は、取得した個人情報を、本サービスの提供、本人確認、お問い合わせへの対応、サービスの改善および新機能の開発、
利用規約に違反する行為への対応のために利用します。

第3条（第三者提供）
当社は、法令に基づく場合を除き、あらかじめ本人の同意を得ることなく、第三者に個人情報を提供しません。

第4条（安全管理）
当社は、個人情報の漏えい、滅失またはき損の防止のため、必要かつ適切な安全管理措置を講じます。

第5条（開示・訂正・削除）
本人から個人情報の開示、訂正、利用停止または削除を求められたときは、法令に従い遅滞なく対応します。

第6条（お問い合わせ窓口）
本ポリシーに関するお問い合わせは、本サービス内のお問い合わせフォームよりご連絡ください。
"""


def _text(path: Path) -> str:
    return visible_text(load_document(path, 10_000_000))


def test_terms_of_service_are_refused_as_terms():
    result = screen(TERMS)
    assert result.language == "en" and result.words >= MIN_WORDS
    assert not result.accepted
    assert result.kind == "terms"
    assert result.reason == KIND_REASONS["terms"] == "this looks like terms of service, not a privacy policy"
    assert result.policy_probability < 0.5


def test_a_javascript_shell_is_refused_for_its_word_count():
    text = _text(WRITTEN / "js-shell-spa-loading.html")
    result = screen(text)
    assert not result.accepted
    assert result.words == 13 < MIN_WORDS  # the menu and footer are left out: what is left is "Loading…"
    assert result.reason == f"this page has only {result.words} words: it may need JavaScript to show the policy"


@pytest.mark.parametrize(("text", "code", "name"), [(GERMAN, "de", "German"), (JAPANESE, "ja", "Japanese")])
def test_policies_in_other_languages_are_refused_for_their_language(text, code, name):
    result = screen(text)
    assert (result.language, result.language_name) == (code, name)
    assert result.words >= MIN_WORDS  # each Japanese character counts as a word
    assert not result.accepted
    assert result.reason == f"this policy is in {name}; the assistant reads English only"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.html")), ids=lambda p: p.stem)
def test_the_example_policies_are_accepted(path):
    result = screen(_text(path))
    assert result.accepted, result
    assert result.reason is None
    assert (result.language, result.language_name, result.kind) == ("en", "English", "policy")
    assert result.policy_probability >= 0.5
    assert result.signals  # the words behind the verdict


def test_every_language_the_identifier_can_answer_has_a_name():
    assert set(_identifier().labels) <= set(LANGUAGE_NAMES) | {"ary", "arz", "uzs", "wuu", "yue", "gug"}
    assert screen("").language == "und" and not screen("").accepted


def test_the_release_loads_with_its_manifest():
    detector = PolicyDetector.load()
    assert detector.kinds == ["cookies", "other", "policy", "terms"]
    assert not list(RELEASE_DIR.glob("*.pkl")) and not list(RELEASE_DIR.glob("*.pickle"))
    manifest = load_manifest()
    assert manifest["command"] == "assistant train policy-detector"
    assert {"base", "data", "command", "metrics", "config"} <= set(manifest)
    current = manifest["metrics"]["policy_detection"]["current"]
    assert current["precision"] >= 95 and current["recall"] >= 95
    assert manifest["data"]["english_documents"] == sum(manifest["data"]["by_era_and_kind"].values())


def test_training_on_a_tiny_slice_writes_a_loadable_release(tmp_path):
    from assistant.evaluation.screening import train_release

    corpus = tmp_path / "corpus"
    (corpus / "written").mkdir(parents=True)
    rows = []
    for page in sorted(WRITTEN.glob("*.html")):
        shutil.copy(page, corpus / "written" / page.name)
        rows.append([f"written/{page.name}", "other", "en", "written", "current"])
    (corpus / "written" / "terms.txt").write_text(TERMS, encoding="utf-8")
    rows.append(["written/terms.txt", "terms", "en", "lumen", "current"])
    (corpus / "written" / "agb.txt").write_text(GERMAN, encoding="utf-8")
    rows.append(["written/agb.txt", "policy", "de", "beispiel", "current"])
    with (corpus / "documents.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t")
        writer.writerow(["file", "label", "language", "group", "era", "repository", "path", "commit", "licence"])
        writer.writerows(row + ["", "", "", "test"] for row in rows)
    release = tmp_path / "release"
    metrics = train_release(corpus, release, opp115_limit=4, command="test", log=lambda line: None)

    detector = PolicyDetector.load(release)
    manifest = json.loads((release / "manifest.json").read_text())
    assert manifest["metrics"] == metrics and manifest["command"] == "test"
    assert manifest["data"]["by_era_and_kind"] == {"2015/policy": 4, "current/other": 7, "current/terms": 1}
    assert set(detector.kinds) == {"other", "policy", "terms"}
    assert screen(_text(EXAMPLES / "amazon.com.html"), detector).accepted
    assert screen(TERMS, detector).kind == "terms"
    assert metrics["language"]["by_language"]["de"] == "1/1"


def test_ingest_refuses_what_screening_refuses_unless_forced(tmp_path):
    """As a user runs it: a terms page and a German policy are refused in one line with the reason, the store
    is unchanged, and --force stores the terms page anyway."""
    from tests.support.cli import run
    from tests.support.store import store_snapshot

    home = tmp_path / "home"
    terms, german = tmp_path / "terms.txt", tmp_path / "datenschutz.txt"
    terms.write_text(TERMS, encoding="utf-8")
    german.write_text(GERMAN, encoding="utf-8")
    assert run(home, "policies").returncode == 0
    before = store_snapshot(home)
    for path, reason in ((terms, "this looks like terms of service"), (german, "this policy is in German")):
        result = run(home, "ingest", str(path))
        assert result.returncode == 2, result.stdout
        message = result.stderr.strip()
        assert message.startswith("error: Not stored: ") and reason in message and "--force" in message
        assert "\n" not in message
    assert store_snapshot(home) == before
    forced = run(home, "ingest", str(terms), "--force")
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.startswith("Ingested terms version 1")
