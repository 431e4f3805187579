"""`benchdash export`: GET /api/v1/export streamed into a file, with a progress line.

The file is written beside its destination and moved there only when the server's `end` line
arrived, so a cut connection never leaves a file that looks whole.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from benchdash_runner import client

EXPORT_PATH = "/api/v1/export"


class ExportError(Exception):
    """The export failed; the message is what the user should read."""


def run(
    *, base_url: str, token: str, system: str | None, out: Path, timeout: float
) -> dict[str, Any]:
    """Write the export of `system` (None: every system) to `out`; return its end line."""
    url = base_url.rstrip("/") + EXPORT_PATH
    headers = {"Accept": "application/x-ndjson"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    partial = out.with_name(out.name + ".partial")
    end: dict[str, Any] | None = None
    try:
        with httpx.stream(
            "GET", url, params={"system": system} if system else None, headers=headers,
            timeout=timeout,
        ) as response, partial.open("w", encoding="utf-8") as f:  # fmt: skip
            if response.status_code != 200:
                response.read()
                raise ExportError(client.describe_problem(response))
            total, done, step = 0, 0, 1
            for line in response.iter_lines():
                if not line:
                    continue
                f.write(line + "\n")
                kind = line[8:20]  # {"kind":"run" ...: cheap, the server writes kind first
                if kind.startswith('"export"'):
                    total = int(json.loads(line).get("runs") or 0)
                    step = max(1, total // 10)
                    print(f"exporting {system or 'every system'}: {total} runs", file=sys.stderr)
                elif kind.startswith('"run"'):
                    done += 1
                    if done % step == 0:
                        pct = 100 * done // max(total, 1)
                        print(f"exporting: {pct} % ({done} of {total} runs)", file=sys.stderr)
                elif kind.startswith('"end"'):
                    end = json.loads(line)
    except httpx.HTTPError as e:
        partial.unlink(missing_ok=True)
        raise ExportError(f"{type(e).__name__}: {e} ({url})") from None
    except ExportError:
        partial.unlink(missing_ok=True)
        raise
    if end is None:
        partial.unlink(missing_ok=True)
        raise ExportError("the export was cut short (no end line): nothing written; try again")
    os.replace(partial, out)
    return end
