"""Many policies at once: a batch pipeline on Ray Data that runs the same ingest as `assistant ingest` over a corpus
and writes Parquet tables (`pipeline`), a report of the whole corpus (`report`), and search and questions across it
(`catalogue`). Read the flow in this order: sources → tables → worker → pipeline → report, catalogue."""
