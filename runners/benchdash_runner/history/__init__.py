"""History in and out: `benchdash import` (github-action-benchmark, asv, Bencher, benchdash's
own export) and `benchdash export`, over the same HTTP API every other client uses."""
