from pathlib import Path

import pytest

from benchdash_runner.adapters import AdapterError, wrk


def one(m: dict) -> float:
    """The single sample of a one-run file (wrk leaves the value to the server)."""
    assert "value" not in m
    (sample,) = m["samples"]
    return float(sample)


def metrics(result: dict) -> dict[str, dict]:
    return {m["name"]: m for m in result["metrics"]}


def test_plain_output(testdata: Path) -> None:
    (result,) = wrk.parse([testdata / "wrk/plain.txt"])
    assert result["benchmark"] == "plain"
    assert result["parameters"] == {"threads": 2, "connections": 10, "duration_s": 2}
    m = metrics(result)
    assert one(m["requests_per_second"]) == 1066.88
    assert (m["requests_per_second"]["unit"], m["requests_per_second"]["direction"]) == (
        "req/s",
        "higher_is_better",
    )
    assert one(m["transfer_bytes_per_second"]) == pytest.approx(3.01 * 1024 * 1024)
    assert one(m["latency_avg_ms"]) == 6.86
    assert one(m["latency_stdev_ms"]) == 12.77
    assert one(m["latency_max_ms"]) == 213.75
    assert m["latency_max_ms"]["unit"] == "ms"
    assert not any(name.startswith("latency_p") for name in m)
    assert one(m["non_2xx_responses"]) == 0


def test_latency_distribution(testdata: Path) -> None:
    (result,) = wrk.parse([testdata / "wrk/latency.txt"])
    m = metrics(result)
    assert [one(m[f"latency_p{p}_ms"]) for p in (50, 75, 90, 99)] == [5.52, 6.39, 7.35, 16.14]
    assert m["latency_p99_ms"]["direction"] == "lower_is_better"


def test_microseconds_and_kilobytes_are_converted(testdata: Path) -> None:
    (result,) = wrk.parse([testdata / "wrk/non2xx.txt"])
    m = metrics(result)
    assert one(m["latency_stdev_ms"]) == pytest.approx(0.8478)  # 847.80us
    assert one(m["transfer_bytes_per_second"]) == pytest.approx(639.73 * 1024)
    assert one(m["non_2xx_responses"]) == 2520


def test_socket_errors(testdata: Path) -> None:
    (result,) = wrk.parse([testdata / "wrk/socket_errors.txt"])
    m = metrics(result)
    assert one(m["socket_errors_read"]) == 6
    assert one(m["socket_errors_timeout"]) == 4
    assert one(m["socket_errors_connect"]) == 0
    assert m["socket_errors_timeout"]["unit"] == "count"


def test_repeated_runs_in_one_file_become_samples(testdata: Path) -> None:
    (result,) = wrk.parse([testdata / "wrk/rounds.txt"])
    rps = metrics(result)["requests_per_second"]
    assert len(rps["samples"]) == 3
    assert rps["samples"][0] == 989.89


def test_truncated_output_names_the_run(testdata: Path, tmp_path: Path) -> None:
    lines = (testdata / "wrk/latency.txt").read_text().splitlines()
    bad = tmp_path / "cut.txt"
    bad.write_text("\n".join(lines[:-2]) + "\n")
    with pytest.raises(AdapterError, match=r"cut.txt:1: run has no Requests/sec line"):
        wrk.parse([bad])


def test_garbled_value_names_line(testdata: Path, tmp_path: Path) -> None:
    text = (testdata / "wrk/latency.txt").read_text().replace("16.14ms", "16.14parsecs")
    bad = tmp_path / "g.txt"
    bad.write_text(text)
    with pytest.raises(AdapterError) as err:
        wrk.parse([bad])
    assert err.value.line == 10
    assert "16.14parsecs" in str(err.value)


def test_not_wrk(testdata: Path) -> None:
    with pytest.raises(AdapterError, match="not wrk output"):
        wrk.parse([testdata / "gobench/bench.txt"])
