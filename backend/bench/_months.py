"""Monthly partitions for a bench's time range, made by the app's own maintenance code."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from benchdash.results import partitions


def ensure_months(url: str, first: datetime, last: datetime) -> list[str]:
    """Create `measurement`'s partitions from `first`'s month to `last`'s (plus the months
    ahead the app keeps), before rows are loaded; returns the names created."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with Session(engine) as session, session.begin():
            return partitions.ensure(session=session, now=last, first=first)
    finally:
        engine.dispose()
