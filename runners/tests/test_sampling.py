"""Sample lists of any length within the server's limits: `spread` and `fit`."""

from __future__ import annotations

import logging
import random
import statistics

import pytest

from benchdash_runner import document
from benchdash_runner.sampling import FEWEST_KEPT, KEPT_SAMPLES, TooLarge, fit, size, spread


def test_short_lists_are_kept_whole_and_in_order() -> None:
    values = [3.0, 1.0, 2.0]
    assert spread(values) == values
    assert spread(values, limit=3) == values


def test_spread_keeps_extremes_and_quantiles() -> None:
    rng = random.Random(7)
    values = [rng.lognormvariate(0, 0.5) for _ in range(123_457)]
    kept = spread(values, 1001)
    assert len(kept) == 1001 and kept == sorted(kept)
    assert (kept[0], kept[-1]) == (min(values), max(values))
    assert statistics.median(kept) == statistics.median(values)  # odd counts: the middle rank
    whole = statistics.quantiles(values, n=20)
    part = statistics.quantiles(kept, n=20)
    for w, p in zip(whole, part, strict=True):
        assert p == pytest.approx(w, rel=0.01)


def test_metric_bounds_samples() -> None:
    m = document.metric("time", "ns", "lower_is_better", samples=range(KEPT_SAMPLES * 3))
    assert len(m["samples"]) == KEPT_SAMPLES
    assert (m["samples"][0], m["samples"][-1]) == (0, KEPT_SAMPLES * 3 - 1)


def _doc(benchmarks: int, samples: int) -> dict[str, object]:
    rng = random.Random(1)
    return {
        "schema": "benchdash/v1",
        "system": "demo",
        "results": [
            {
                "benchmark": f"b{i}",
                "parameters": {},
                "metrics": [
                    {
                        "name": "time",
                        "unit": "ns",
                        "direction": "lower_is_better",
                        "samples": [rng.random() * 1e6 for _ in range(samples)],
                    }
                ],
            }
            for i in range(benchmarks)
        ],
    }


def test_fit_leaves_a_small_document_alone() -> None:
    doc = _doc(3, 100)
    before = size(doc)
    assert fit(doc, 1 << 20) == [] and size(doc) == before


def test_fit_halves_samples_until_the_document_fits() -> None:
    doc = _doc(8, 4000)
    limit = size(doc) // 3
    (note,) = fit(doc, limit)
    assert size(doc) <= limit
    kept = {len(r["metrics"][0]["samples"]) for r in doc["results"]}  # type: ignore[index]
    assert kept == {1000} and "at most 1000 samples" in note


def test_fit_refuses_what_cannot_fit() -> None:
    doc = _doc(40, 50)
    with pytest.raises(TooLarge, match=f"even with {FEWEST_KEPT} samples per metric"):
        fit(doc, 2_000)


def test_build_fits_and_says_so(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(document, "MAX_BODY_BYTES", 200_000)
    with caplog.at_level(logging.WARNING, logger="benchdash_runner"):
        doc = document.build(system="demo", results=_doc(8, 4000)["results"])  # type: ignore[arg-type]
    assert len(document.dumps(doc)) <= 200_000
    assert "each metric keeps at most 1000 samples" in caplog.text
    # What samples cannot explain (here parameters) is refused before anything is sent.
    wordy = _doc(2, 10)["results"]
    for result in wordy:  # type: ignore[union-attr]
        result["parameters"] = {"note": "x" * 150_000}
    with pytest.raises(document.DocumentError, match="upload the benchmarks in several parts"):
        document.build(system="demo", results=wordy)  # type: ignore[arg-type]
