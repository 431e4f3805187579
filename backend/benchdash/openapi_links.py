"""OpenAPI links: which answer feeds which next request (create a run, then read it).

Links tell a client, and schemathesis' stateful phase (`make test-fuzz`), how operations chain:
the id a `POST` returns is the path parameter of the reads, cancels and reports after it. They
are declared here in one table, by operation id, rather than in each router, and added to the
generated document by `BenchdashAPI.openapi`. A run's event stream is left out on purpose: it
stays open while the run is queued, so a client following the link would wait for its timeout.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

RUN = "$response.body#/run/id"
# (source operation, its status codes, link name, target operation, parameters)
LINKS: list[tuple[str, tuple[str, ...], str, str, dict[str, str]]] = [
    ("runs-create_run", ("201",), "ReadRun", "runs-read_run", {"run_id": "$response.body#/id"}),
    ("runs-create_run", ("201",), "CancelRun", "runs-cancel_run", {"run_id": "$response.body#/id"}),
    ("runs-create_run", ("201",), "ReportRun", "runs-report_run", {"run_id": "$response.body#/id"}),
    ("results-create_result", ("200", "201"), "ReadRun", "runs-read_run", {"run_id": RUN}),
    (
        "results-create_result",
        ("200", "201"),
        "ReadSystem",
        "systems-read_system",
        {"slug": "$response.body#/run/system"},
    ),
    (
        "results-create_result",
        ("200", "201"),
        "ReadRunsOfSystem",
        "runs-read_runs",
        {"system": "$response.body#/run/system", "branch": "$response.body#/run/branch"},
    ),
    (
        "runs-read_runs",
        ("200",),
        "ReadFirstRun",
        "runs-read_run",
        {"run_id": "$response.body#/items/0/id"},
    ),
    (
        "systems-register_manifest",
        ("200",),
        "ReadSystem",
        "systems-read_system",
        {"slug": "$response.body#/slug"},
    ),
    (
        "systems-register_manifest",
        ("200",),
        "UpdateFirstMetric",
        "systems-update_metric",
        {"slug": "$response.body#/slug", "metric": "$response.body#/metrics/0/name"},
    ),
    (
        "series-accept_change",
        ("201",),
        "WithdrawChange",
        "series-withdraw_change",
        {"change_id": "$response.body#/id"},
    ),
    (
        "alerts-read_alerts",
        ("200",),
        "AcknowledgeFirstAlert",
        "alerts-acknowledge_alert",
        {"alert_id": "$response.body#/0/id"},
    ),
    (
        "alerts-read_alerts",
        ("200",),
        "ReadFirstAlertBisections",
        "bisections-read_alert_bisections",
        {"alert_id": "$response.body#/0/id"},
    ),
    (
        "results-create_result",
        ("200", "201"),
        "ReadProfiles",
        "profiles-read_run_profiles",
        {"run_id": RUN},
    ),
    (
        "profiles-read_run_profiles",
        ("200",),
        "ReadFirstProfile",
        "profiles-read_profile",
        {"profile_id": "$response.body#/0/id"},
    ),
    *(
        (source, ("201",), name, target, {"bisection_id": "$response.body#/id"})
        for source in ("bisections-bisect_runs", "bisections-bisect_alert")
        for name, target in (
            ("ReadBisection", "bisections-read_bisection"),
            ("CancelBisection", "bisections-cancel_bisection"),
        )
    ),
    *(
        (source, ("201",), name, target, {"subscription_id": "$response.body#/id"})
        for source in ("notifications-create_subscription", "notifications-create_my_subscription")
        for name, target in (
            ("ReadDeliveries", "notifications-read_deliveries"),
            ("SendTest", "notifications-send_test"),
            ("DeleteSubscription", "notifications-delete_subscription"),
        )
    ),
]


def add_links(schema: dict[str, Any]) -> dict[str, Any]:
    """Write LINKS into the responses of `schema` (in place); an unknown operation id raises."""
    operations = {
        op["operationId"]: op
        for methods in schema.get("paths", {}).values()
        for op in methods.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for source, statuses, name, target, parameters in LINKS:
        if source not in operations or target not in operations:
            raise KeyError(f"OpenAPI link {source} -> {target}: no such operation")
        for status in statuses:
            response = operations[source]["responses"][status]
            response.setdefault("links", {})[name] = {
                "operationId": target,
                "parameters": dict(parameters),
            }
    return schema


class BenchdashAPI(FastAPI):
    """FastAPI whose OpenAPI document carries the links above."""

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI document, generated once, with its links."""
        if self.openapi_schema is None:
            self.openapi_schema = add_links(super().openapi())
        return self.openapi_schema
