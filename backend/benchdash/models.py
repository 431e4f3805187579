"""Import every table so that `Base.metadata` is complete (used by Alembic and tests)."""

from benchdash.alerts.models import Alert
from benchdash.alerts.summary_model import AlertSummary
from benchdash.audit.models import AuditEvent
from benchdash.auth.models import ApiToken, User, UserSession
from benchdash.bisect.models import Bisection, BisectionStep
from benchdash.db import Base
from benchdash.notify.models import Delivery, Subscription
from benchdash.oidc.models import UserIdentity
from benchdash.profiles.models import Profile
from benchdash.results.models import Measurement, Series, SeriesRestart, Verdict
from benchdash.retention.models import RetentionRule
from benchdash.runs.models import Run, RunEvent
from benchdash.series.models import SeriesChart
from benchdash.systems.models import Benchmark, Branch, Metric, System, Testbed

__all__ = [
    "Alert",
    "AlertSummary",
    "ApiToken",
    "AuditEvent",
    "Base",
    "Benchmark",
    "Bisection",
    "BisectionStep",
    "Branch",
    "Delivery",
    "Measurement",
    "Metric",
    "Profile",
    "RetentionRule",
    "Run",
    "RunEvent",
    "Series",
    "SeriesChart",
    "SeriesRestart",
    "Subscription",
    "System",
    "Testbed",
    "User",
    "UserIdentity",
    "UserSession",
    "Verdict",
]
