"""POST /api/v1/backtest: replay stored series under other thresholds (read only)."""

from __future__ import annotations

from fastapi import APIRouter

from benchdash.backtest import queries
from benchdash.backtest.schemas import BacktestRead, BacktestRequest
from benchdash.deps import ReadAccess, ReadSessionDep
from benchdash.kit.responses import ERRORS

router = APIRouter(prefix="/api/v1", tags=["backtest"], responses=ERRORS)


# A plain `def`: FastAPI runs it in its worker-thread pool, so the reads and the detector's
# replay (CPU, seconds for a whole system) never block the event loop.
@router.post("/backtest", response_model=BacktestRead, dependencies=[ReadAccess])
def backtest(body: BacktestRequest, session: ReadSessionDep) -> BacktestRead:
    """Replay a system's stored series (every series of a branch, one testbed's, or one
    series) through the detector under other thresholds, uploaded run by run as CI would:
    the alerts that would have opened (step or drift, first bad run, size, level) beside those
    that did open among the same runs, and totals (events per 100 runs, per level).

    Read only: nothing is written (the reads run in a READ ONLY savepoint). Each series
    replays its newest `max_runs` accepted runs; the points replayed, summed over the series,
    may not exceed 50,000 (`limit` in the answer; 422 past it, naming the count).
    """
    return queries.backtest(session=session, request=body)
