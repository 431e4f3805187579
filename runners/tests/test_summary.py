from rich.console import Console
from runner_fakes import verdict

from benchdash_runner import summary


def response(*verdicts: dict, created: bool = True) -> dict:
    run = {
        "id": 7,
        "system": "uvhttp",
        "external_id": "gh-1-1-uvhttp",
        "commit": "9f1c2e7d" * 5,
        "branch": "main",
        "testbed": "ci-linux-2c",
        "status": "completed",
        "url": "/runs/7",
    }
    return {"created": created, "run": run, "verdicts": list(verdicts)}


def test_gate_levels() -> None:
    vs = [verdict("ok"), verdict("warn"), verdict("fail"), verdict("noisy"), verdict("unstable")]
    assert [v["level"] for v in summary.gate(vs, "fail")] == ["fail"]
    assert [v["level"] for v in summary.gate(vs, "warn")] == ["warn", "fail"]
    assert summary.gate(vs, "never") == []


def test_markdown_lists_regressions_with_chart_links() -> None:
    text = summary.markdown(
        response=response(verdict("ok"), verdict("warn", benchmark="a|b c", change_pct=6.25)),
        base_url="https://bench.example/",
        fail_on="warn",
        system="uvhttp",
    )
    assert text.startswith("## benchdash: uvhttp — ❌ regression\n")
    assert "[run 7](https://bench.example/runs/7) on `main` at `9f1c2e7d9f1c`" in text
    assert "1 warn, 1 ok" in text
    regressions = text.split("### Regressions")[1].split("<details>")[0]
    assert (
        "[a\\|b c {threads=2}](https://bench.example/systems/uvhttp?benchmark=a%7Cb%20c&"
        in regressions
    )
    assert "-6.2 % · worse" in regressions or "-6.3 % · worse" in regressions  # req/s fell
    assert "All other verdicts (1)" in text


def test_markdown_without_regressions_and_repeat_upload() -> None:
    text = summary.markdown(
        response=response(verdict("improved"), created=False),
        base_url="http://x",
        fail_on="fail",
        system="uvhttp",
    )
    assert "✅ no regression" in text and "### Regressions" not in text
    assert "nothing new was stored" in text


def test_long_tables_hide_ok_rows() -> None:
    console = Console(width=200, record=True)
    vs = [verdict("ok", benchmark=f"b{i}") for i in range(60)] + [verdict("fail", benchmark="slow")]
    summary.print_table(console, vs)
    out = console.export_text()
    assert "slow" in out and "b1 " not in out
    assert "(60 ok / learning / no_baseline verdicts not shown)" in out


def test_formatting_helpers() -> None:
    assert summary.fmt_number(None) == "\u2013"
    assert summary.fmt_number(1234567.0) == "1.235e+06"
    assert summary.fmt_change(-3.14159) == "-3.1 % · better"
    assert summary.fmt_change(11.8, "higher_is_better") == "-11.8 % · worse"
    assert summary.fmt_change(11.8, "lower_is_better") == "+11.8 % · worse"
    assert summary.counts_line([]) == "no verdicts"


def test_zero_change_has_no_sign_and_ok_rows_no_icon() -> None:
    assert summary.fmt_change(-0.0001) == "0.0 %"
    text = summary.markdown(
        response=response(verdict("ok")), base_url="http://x", fail_on="fail", system="s"
    )
    assert "| ok | [rounds {threads=2}](http://x/systems/" in text
