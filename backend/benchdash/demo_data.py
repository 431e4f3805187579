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
        "benchmarks": [
            (
                "small_packet",
                {"payload": 47, "connections": 200, "requests": 500, "threads": 4},
                [
                    ("qps", "req/s", H, 162234.0),
                    ("throughput", "MiB/s", H, 14.54),
                    ("duration_ms", "ms", L, 616.4),
                ],
            ),
            (
                "large_packet",
                {"payload": 65536, "connections": 10, "requests": 200, "threads": 1},
                [
                    ("qps", "req/s", H, 15849.0),
                    ("throughput", "MiB/s", H, 1981.1),
                    ("duration_ms", "ms", L, 126.2),
                ],
            ),
        ],
    },
    "pointsub": {
        "name": "pointsub",
        "language": "Go",
        "description": "Message transport over go-libp2p streams",
        "headline": ("throughput_1mb", "throughput"),
        "benchmarks": [
            (
                name,
                {"message_bytes": size, "connections": conns},
                [
                    ("throughput", "MiB/s", H, mbs),
                    ("latency_p99_us", "us", L, p99),
                    ("memory_mb", "MiB", L, mem),
                ],
            )
            for name, size, conns, mbs, p99, mem in (
                ("throughput_1kb", 1024, 1, 0.96, 10.79, 19.59),
                ("throughput_100kb", 102400, 1, 9.76, 1990.0, 123.04),
                ("throughput_1mb", 1048576, 1, 9.90, 11010.0, 145.46),
                ("concurrent_20", 10240, 20, 9.74, 3310.0, 110.26),
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
