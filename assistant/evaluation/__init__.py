"""Benchmarks that measure the assistant on research data sets (`assistant eval ...`)."""
