"""Uploads: store a document (`results`), then act on its verdicts (`alerts`); the top layer."""
