"""Send a history's runs one by one through POST /api/v1/results, with a progress bar.

Each run carries a stable external id, so a second import of the same file (after an
interruption, or on purpose) stores nothing twice: the server answers a known id with the run
it has (200) and the import goes on; the summary counts new and already stored runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn

from benchdash_runner import client, document
from benchdash_runner.history.entries import Entry


@dataclass
class Outcome:
    """What an import did: runs stored now, runs found stored, and verdict levels seen."""

    created: int = 0
    existing: int = 0
    alerts_levels: int = 0  # verdicts at warn or fail among the new runs


class Refused(Exception):
    """The server refused a run (the message says which and why); runs before it are stored."""


def send(
    *, base_url: str, token: str, entries: Sequence[Entry], retries: int, timeout: float
) -> Outcome:
    """POST every entry in order; Refused names the first the server would not store."""
    outcome = Outcome()
    console = Console(stderr=True)
    columns = (
        TextColumn("importing"),
        BarColumn(),
        TaskProgressColumn(),
        MofNCompleteColumn(),
        TextColumn("runs"),
    )
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task("import", total=len(entries))
        for i, entry in enumerate(entries):
            try:
                answer, _ = client.post_document(
                    base_url=base_url,
                    token=token,
                    body=document.dumps(entry.document),
                    retries=retries,
                    timeout=timeout,
                    log=lambda msg: console.print(msg, highlight=False),
                )
            except client.UploadError as e:
                raise Refused(
                    f"{entry.where} (run {i + 1} of {len(entries)}, external id "
                    f"{entry.document['run'].get('external_id')!r}) was refused: {e}\n"
                    f"the {i} runs before it are stored; fix it and run the same command again "
                    "(stored runs are recognised by their external ids and skipped)"
                ) from None
            if answer.get("created"):
                outcome.created += 1
                levels = [v.get("level") for v in answer.get("verdicts") or []]
                outcome.alerts_levels += sum(lv in ("warn", "fail") for lv in levels)
            else:
                outcome.existing += 1
            bar.advance(task)
            if not console.is_terminal and (i + 1) % max(1, len(entries) // 10) == 0:
                pct = 100 * (i + 1) // len(entries)
                print(f"importing: {pct} % ({i + 1} of {len(entries)} runs)", file=sys.stderr)
    return outcome
