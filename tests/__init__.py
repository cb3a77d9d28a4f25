"""The test suite, laid out like the package it tests (docs/engine.md, "The house"); tests/support/ holds the
helpers that are not tests, conftest.py the fixtures."""
