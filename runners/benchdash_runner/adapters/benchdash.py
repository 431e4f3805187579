"""`benchdash`: a `benchdash/v1` document as is (what the runner drivers write)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchdash_runner import document
from benchdash_runner.adapters._base import AdapterError, Result, load_json


def load_document(path: Path) -> dict[str, Any]:
    """Read and validate one document; a bad field is reported with the file name."""
    doc = load_json(path)
    try:
        return document.validate(doc)
    except document.DocumentError as e:
        raise AdapterError(path, f"not a valid benchdash/v1 document: {e}") from None


def parse(paths: list[Path]) -> list[Result]:
    """Return the results of every document, in order."""
    results: list[Result] = []
    for path in paths:
        results.extend(load_document(path)["results"])
    return results
