"""The privacy assistant: ingest a privacy policy and answer questions about it with citations."""
