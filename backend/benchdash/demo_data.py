"""The demo's systems, benchmarks and seed figures (from the seed reports, DESIGN.md table)."""

from __future__ import annotations

from typing import Any

H, L = "higher_is_better", "lower_is_better"

# slug → (name, language, description, headline (benchmark, metric), benchmarks). Metric names
# and units of the built systems (cachex, relay) are those of their runner manifests, so the
# demo and real runs share series definitions.
# benchmark: (name, parameters, [(metric, unit, direction, seed value)])
SYSTEMS: dict[str, dict[str, Any]] = {
    "uvhttp": {
        "name": "UVHTTP",
        "language": "C",
        "description": "HTTP/1.1 server library on libuv, measured with wrk",
        "headline": ("medium_concurrency", "requests_per_second"),
        "thresholds": {
            "latency_avg_ms": (10, 20),
            "latency_p99_ms": (10, 20),
            "cpu_percent": (10, 20),
        },
        "benchmarks": [
            (
                name,
                {"threads": t, "connections": c, "duration_s": 10},
                [
                    ("requests_per_second", "req/s", H, rps),
                    ("latency_avg_ms", "ms", L, avg),
                    ("latency_p99_ms", "ms", L, p99),
                    ("cpu_percent", "%", L, cpu),
                ],
            )
            for name, t, c, rps, avg, p99, cpu in (
                ("low_concurrency", 2, 10, 35864.0, 0.272, 1.3, 62.0),
                ("medium_concurrency", 4, 50, 16544.0, 2.94, 8.2, 85.5),
                ("high_concurrency", 8, 200, 14015.0, 36.63, 121.0, 97.0),
            )
        ],
    },
    "relay": {
        "name": "relay",
        "language": "Rust",
        "description": "Crypto and JSON/SSE core of an API relay (Criterion)",
        "headline": ("decryption_with_cache/first_decrypt_cache_miss", "time"),
        "benchmarks": [
            *[
                ("encryption", {"input": s}, [("time", "ns", L, v)])
                for s, v in ((10, 7500.0), (100, 8300.0), (1000, 11400.0), (10000, 20600.0))
            ],
            *[
                ("decryption_uncached", {"input": s}, [("time", "ns", L, v)])
                for s, v in ((10, 3100.0), (100, 3300.0), (1000, 4300.0), (10000, 13900.0))
            ],
            ("decryption_with_cache/first_decrypt_cache_miss", {}, [("time", "ns", L, 3690.0)]),
            ("decryption_with_cache/second_decrypt_cache_hit", {}, [("time", "ns", L, 959.0)]),
            ("simple_serialize", {}, [("time", "ns", L, 36.6)]),
            ("complex_deserialize", {}, [("time", "ns", L, 276.0)]),
            ("sse_parsing", {"input": "message_start"}, [("time", "ns", L, 454.0)]),
        ],
    },
    "galay-ssl": {
        "name": "galay-ssl",
        "language": "C++",
        "description": "TLS echo server and client on coroutines and OpenSSL",
        "headline": ("small_packet", "qps"),
        "thresholds": {
            "qps": (10, 20),
            "throughput": (10, 20),
            "duration_ms": (10, 20),
            "qps_ratio": (10, 20),
        },
        # The seed's 5-round means (Apple M4) and its historical OpenSSL + libevent figures;
        # qps_ratio is galay-ssl over that reference (0.91 small, 0.82 large).
        "benchmarks": [
            (
                "small_packet",
                {"payload": 47, "connections": 200, "requests": 500, "threads": 4},
                [
                    ("qps", "req/s", H, 162234.0),
                    ("throughput", "MiB/s", H, 14.54),
                    ("duration_ms", "ms", L, 616.4),
                    ("qps_ratio", "x", H, 0.907),
                ],
            ),
            (
                "large_packet",
                {"payload": 65536, "connections": 10, "requests": 200, "threads": 1},
                [
                    ("qps", "req/s", H, 15849.0),
                    ("throughput", "MiB/s", H, 1981.1),
                    ("duration_ms", "ms", L, 126.2),
                    ("qps_ratio", "x", H, 0.816),
                ],
            ),
            (
                "bulk_64k",
                {"payload": 65536, "connections": 50, "requests": 200, "threads": 1},
                [
                    ("qps", "req/s", H, 276.4),
                    ("throughput", "MiB/s", H, 34.56),
                    ("duration_ms", "ms", L, 36174.0),
                ],
            ),
            (
                "correctness_1mib",
                {"payload": 1048576, "connections": 1, "requests": 1, "threads": 1},
                [("duration_ms", "ms", L, 98.0)],
            ),
            *[
                (
                    "libevent_reference",
                    {
                        "scenario": scenario,
                        "payload": payload,
                        "connections": conns,
                        "requests": reqs,
                        "threads": threads,
                    },
                    [("qps", "req/s", H, qps), ("throughput", "MiB/s", H, mibs)],
                )
                for scenario, payload, conns, reqs, threads, qps, mibs in (
                    ("small_packet", 47, 200, 500, 4, 178891.0, 16.04),
                    ("large_packet", 65536, 10, 200, 1, 19417.0, 2427.18),
                )
            ],
        ],
    },
    "pointsub": {
        "name": "pointsub",
        "language": "Go",
        "description": "Message transport over go-libp2p streams",
        "headline": ("throughput/1kb", "throughput"),
        # The seed's figures come from its paced runs (full profile, mode "paced"); the
        # parameters are those the runner reports for them.
        "benchmarks": [
            (
                name,
                {
                    "message_bytes": size,
                    "connections": conns,
                    "buffer_bytes": buf,
                    "mode": "paced",
                    "duration_s": dur,
                    "window": 16,
                    "message_count": count,
                },
                [
                    ("throughput", "MiB/s", H, mbs),
                    ("latency_p99_us", "us", L, p99),
                    ("success_pct", "%", H, 100.0),
                    ("memory_mb", "MiB", L, mem),
                ],
            )
            for name, size, count, buf, conns, dur, mbs, p99, mem in (
                ("throughput/1kb", 1024, 10000, 65536, 1, 10.0, 0.96, 10.79, 19.59),
                ("throughput/100kb", 102400, 1000, 262144, 1, 10.0, 9.76, 1990.0, 123.04),
                ("throughput/1mb", 1048576, 100, 2097152, 1, 10.0, 9.90, 11010.0, 145.46),
                ("throughput/10mb", 10485760, 10, 2097152, 1, 20.0, 4.50, 76050.0, 131.86),
                ("concurrent/5", 102400, 1000, 262144, 5, 10.0, 9.67, 6120.0, 136.38),
                ("concurrent/20", 10240, 10000, 65536, 20, 10.0, 9.74, 3310.0, 110.26),
                ("concurrent/50", 1024, 50000, 32768, 50, 10.0, 4.84, 156.29, 81.81),
                ("buffer/4kb", 1048576, 10, 4096, 1, 10.0, 0.90, 11230.0, 15.95),
                ("buffer/64kb", 1048576, 10, 65536, 1, 10.0, 0.90, 10750.0, 15.94),
                ("buffer/1mb", 1048576, 10, 1048576, 1, 10.0, 0.90, 11080.0, 16.70),
            )
        ],
    },
    "cachex": {
        "name": "cachex",
        "language": "Go",
        "description": "Read-through cache with singleflight, stale serving and not-found caching",
        "headline": ("high-performance", "qps"),
        "benchmarks": [
            (
                name,
                {"pool": pool, "db_latency_ms": lat, "workers": w},
                [
                    ("qps", "req/s", H, qps),
                    ("hit_rate_pct", "%", H, hit),
                    ("db_queries", "queries", L, dbq),
                    ("latency_p99_us", "us", L, p99),
                ],
            )
            for name, pool, lat, w, qps, hit, dbq, p99 in (
                ("high-performance", 100, 90, 600, 504989.0, 99.81, 9826.0, 3.375),
                ("cloud", 20, 85, 100, 55222.0, 99.61, 2138.0, 12.0),
                ("shared", 13, 125, 100, 7306.0, 98.59, 1074.0, 831000.0),
                ("constrained", 8, 190, 100, 695.0, 94.01, 493.0, 2040000.0),
            )
        ],
    },
}

# Injected events: (system, benchmark, parameters, metric, run index, kind, size)
EVENTS = (
    (
        "uvhttp",
        "medium_concurrency",
        {"threads": 4, "connections": 50, "duration_s": 10},
        "requests_per_second",
        45,
        "fail",
        0.12,
    ),
    ("relay", "encryption", {"input": 1000}, "time", 30, "warn", 0.07),
    (
        "cachex",
        "cloud",
        {"pool": 20, "db_latency_ms": 85, "workers": 100},
        "latency_p99_us",
        50,
        "noisy",
        0.12,
    ),
)
FEATURE_BRANCH = ("uvhttp", "feature/keepalive", 40, 8)  # system, branch, forks at run, runs
