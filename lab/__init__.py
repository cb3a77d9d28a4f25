"""Experiments and tuning, apart from the product: `python -m lab.NAME`. Results go to docs/lab/notebook.md."""
