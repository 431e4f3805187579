"""Import every table so that `Base.metadata` is complete (used by Alembic and tests)."""

from benchdash.alerts.models import Alert
from benchdash.auth.models import ApiToken, User
from benchdash.db import Base
from benchdash.results.models import Measurement, Verdict
from benchdash.runs.models import Run, RunEvent
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed

__all__ = [
    "Alert",
    "ApiToken",
    "Base",
    "Benchmark",
    "Branch",
    "Measurement",
    "Metric",
    "Run",
    "RunEvent",
    "System",
    "Testbed",
    "User",
    "Verdict",
]
