import math

import pytest

from benchdash_runner import document
from benchdash_runner.document import DocumentError, metric


def result(**metric_fields: object) -> dict:
    m = {"name": "rps", "unit": "req/s", "direction": "higher_is_better", "value": 1.0}
    m.update(metric_fields)
    return {"benchmark": "b", "parameters": {"threads": 2}, "metrics": [m]}


def test_build_drops_unset_fields_and_validates() -> None:
    doc = document.build(
        system="uvhttp",
        results=[
            {
                "benchmark": "b",
                "parameters": {},
                "metrics": [metric("t", "ns", "lower_is_better", samples=[1.0, 2.0])],
            }
        ],
        run={"branch": "main", "commit": None},
        environment={"os": "Linux", "compiler": None},
    )
    assert doc["schema"] == "benchdash/v1"
    assert doc["run"] == {"branch": "main"}
    assert doc["environment"] == {"os": "Linux"}
    assert "configuration" not in doc


@pytest.mark.parametrize(
    ("results", "field"),
    [
        ([], "results"),
        ([result(direction="sideways")], "results[0].metrics[0].direction"),
        ([result(value=math.nan)], "results[0].metrics[0].value"),
        ([result(value=math.inf)], "results[0].metrics[0].value"),
        ([result(value=None, samples=[1.0, -math.inf])], "results[0].metrics[0].samples[1]"),
        ([result(value=None)], "results[0].metrics[0]"),
        ([result(samples=[])], "results[0].metrics[0].samples"),
        ([result(value="7")], "results[0].metrics[0].value"),
        ([{"benchmark": "", "metrics": []}], "results[0].benchmark"),
        ([{"benchmark": "b", "metrics": []}], "results[0].metrics"),
        ([{"benchmark": "b", "parameters": {"x": [1]}, "metrics": []}], "results[0].parameters.x"),
        ([result(), result()], "results[1].metrics[0]"),
    ],
)
def test_rejections_name_the_field(results: list, field: str) -> None:
    with pytest.raises(DocumentError) as err:
        document.build(system="uvhttp", results=results)
    assert err.value.field == field
    assert str(err.value).startswith(field + ":")


def test_system_and_schema_checked() -> None:
    with pytest.raises(DocumentError, match=r"^system:"):
        document.build(system="Not A Slug", results=[result()])
    doc = document.build(system="uvhttp", results=[result()])
    doc["schema"] = "benchdash/v2"
    with pytest.raises(DocumentError, match=r"^schema:"):
        document.validate(doc)


def test_unknown_fields_are_named() -> None:
    bad = result()
    bad["metrics"][0]["stddev"] = 1.0
    with pytest.raises(DocumentError, match=r"^results\[0\]\.metrics\[0\]\.stddev: unknown field"):
        document.build(system="s", results=[bad])
    with pytest.raises(DocumentError, match=r"^run\.sha: unknown field"):
        document.build(system="s", results=[result()], run={"sha": "abc"})
    with pytest.raises(DocumentError, match=r"^run\.trigger: 'cron': use one of ci, manual"):
        document.build(system="s", results=[result()], run={"trigger": "cron"})
    with pytest.raises(DocumentError, match=r"^run\.id:"):
        document.build(system="s", results=[result()], run={"id": "7"})


def test_run_fields_must_be_strings() -> None:
    with pytest.raises(DocumentError, match=r"^run\.commit:"):
        document.build(system="s", results=[result()], run={"commit": 123})


def test_dumps_refuses_nan_and_counts() -> None:
    doc = document.build(system="s", results=[result(), {**result(), "benchmark": "c"}])
    assert document.count_measurements(doc) == 2
    assert document.dumps(doc).startswith(b'{"schema":"benchdash/v1"')
    doc["results"][0]["metrics"][0]["value"] = math.nan
    with pytest.raises(ValueError):
        document.dumps(doc)


def test_the_triggers_are_the_servers() -> None:
    """A run a push webhook queued is uploaded with trigger `push`: the client knows every
    trigger the server's schema does (a client refusing one failed every push run)."""
    import json
    from pathlib import Path

    schema = Path(__file__).resolve().parents[1] / "schema" / "result.schema.json"
    enum = json.loads(schema.read_text())["$defs"]["RunTrigger"]["enum"]
    assert sorted(document.TRIGGERS) == sorted(enum)
    document.build(system="s", results=[result()], run={"trigger": "push"})
