"""Helpers shared by the tests, imported as `from tests.support.X import …`; nothing here is collected."""
