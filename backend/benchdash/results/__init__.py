"""Results: ingest of benchdash/v1 documents, measurements and their verdicts."""
