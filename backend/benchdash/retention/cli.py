"""`benchdash-server retention [--dry-run]`: the rules applied now (or only reported), with a
progress percentage per batch."""

from __future__ import annotations

from benchdash.db import transaction, utcnow
from benchdash.retention import job, plan


def report(work: plan.Plan) -> list[str]:
    """The dry run as lines: one per branch some rule reaches, then the totals."""
    lines = []
    for b in work.branches:
        if b.rule is None or not (b.delete or b.summarise or b.kept):
            continue
        lines.append(
            f"{b.system}/{b.branch} (rule {b.rule}): {len(b.delete)} of {b.runs} runs deleted "
            f"({b.delete_measurements} measurements), {len(b.summarise)} summarised "
            f"({b.summarise_measurements} measurements), {len(b.kept)} kept as referenced"
        )
    kept = sum(len(b.kept) for b in work.branches)
    lines.append(
        f"in all: {len(work.delete)} runs deleted, {len(work.summarise)} summarised, "
        f"{kept} kept as referenced"
    )
    return lines


def run(*, dry_run: bool) -> int:
    """Print the dry run; unless `dry_run`, then apply it batch by batch."""
    with transaction() as session:
        for line in report(plan.make(session=session, now=utcnow())):
            print(line, flush=True)
    if dry_run:
        return 0

    def shown(i: int, n: int, out: job.Outcome) -> None:
        print(
            f"[{100 * i // n:3d}%] batch {i}/{n}: {out.deleted_runs} runs deleted, "
            f"{out.summarised_runs} summarised",
            flush=True,
        )

    with job.only_one() as mine:
        if not mine:
            print("another process is applying the retention rules now: try again later")
            return 1
        with transaction() as session:
            out = job.apply(session=session, now=utcnow(), by="cli", progress=shown)
    print(
        f"deleted {out.deleted_runs} runs ({out.deleted_measurements} measurements), summarised "
        f"{out.summarised_measurements} measurements of {out.summarised_runs} runs; "
        f"{out.kept_runs} kept as referenced; {out.batches} batches, longest "
        f"{out.longest_s * 1000:.1f} ms, {out.skipped_batches} skipped"
    )
    return 0 if out.skipped_batches == 0 else 1
