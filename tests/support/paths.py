"""Where things are: the repository, the bundled example policies and the test fixtures."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "policies"
AMAZON = EXAMPLES / "amazon.com.html"
EXAMPLE_NAMES = ("amazon", "instagram", "steampowered")
FIXTURES = ROOT / "tests" / "fixtures"
VERSIONS = FIXTURES / "versions"  # two real versions of Mozilla's Firefox Privacy Notice (CC BY-SA 3.0)
FIREFOX_JUNE = VERSIONS / "firefox_privacy_2025-06.md"
FIREFOX_DECEMBER = VERSIONS / "firefox_privacy_2025-12.md"


def policy_files() -> list[Path]:
    """The bundled example policies plus all 115 OPP-115 sanitized policies (from the bundled corpus)."""
    from assistant.corpora import corpus_dir

    return sorted(EXAMPLES.glob("*.html")) + sorted((corpus_dir("opp115") / "sanitized_policies").glob("*.html"))
