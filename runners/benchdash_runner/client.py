"""POST a result document to the benchdash API, retrying what is safe to retry.

Retrying is safe because the server answers a repeated `run.external_id` with the run it
already stored. Connection errors, timeouts, 429 and 5xx are retried with exponential
backoff (honouring a numeric Retry-After); any other 4xx is final. Bodies of GZIP_MIN_BYTES
or more are sent gzip-compressed (`Content-Encoding: gzip`); the server's size limit applies
to the decompressed document. A server that answers 415 to that gets the plain body once.
"""

from __future__ import annotations

import gzip
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TransferSpeedColumn

RESULTS_PATH = "/api/v1/results"
PROGRESS_MIN_BYTES = 1 << 20
GZIP_MIN_BYTES = 64 << 10
_CHUNK = 64 << 10
_MAX_DELAY_S = 60.0


class UploadError(Exception):
    """The upload failed for good; the message is what the user should read."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def post_document(
    *,
    base_url: str,
    token: str,
    body: bytes,
    retries: int = 5,
    retry_delay: float = 1.0,
    timeout: float = 60.0,
    sleep: Callable[[float], None] = time.sleep,
    log: Callable[[str], None] | None = None,
) -> tuple[dict[str, Any], int]:
    """Send `body` (a serialised document); return the decoded 200/201 body and the attempts."""
    say = log or (lambda msg: print(msg, file=sys.stderr))
    url = base_url.rstrip("/") + RESULTS_PATH
    payload, headers = _encode(body, token, compress=len(body) >= GZIP_MIN_BYTES)
    attempt = 0
    with httpx.Client(timeout=timeout) as http:
        while True:
            try:
                response = http.post(url, content=_stream(payload), headers=headers)
            except httpx.TransportError as e:
                reason = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
                retry_after = None
            else:
                if response.status_code in (200, 201):
                    return _json_body(response), attempt + 1
                if response.status_code == 415 and "Content-Encoding" in headers:
                    say("the server does not take gzip bodies: sending the document plain")
                    payload, headers = _encode(body, token, compress=False)
                    continue
                if response.status_code != 429 and response.status_code < 500:
                    raise UploadError(describe_problem(response), response.status_code)
                # 5xx or 429: a gateway or a busy server; the upload may be retried.
                reason = f"HTTP {response.status_code}"
                retry_after = _retry_after(response)
            if attempt >= retries:
                raise UploadError(f"giving up after {attempt + 1} attempts: {reason} from {url}")
            delay = retry_after if retry_after is not None else retry_delay * 2**attempt
            delay = min(delay, _MAX_DELAY_S)
            attempt += 1
            say(f"upload attempt {attempt} failed ({reason}); retrying in {delay:.1f} s")
            sleep(delay)


def _encode(body: bytes, token: str, *, compress: bool) -> tuple[bytes, dict[str, str]]:
    """The bytes to send and their headers; gzip with a fixed mtime, so retries send the same."""
    payload = gzip.compress(body, compresslevel=6, mtime=0) if compress else body
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Content-Length": str(len(payload)),
        "Accept": "application/json",
    }
    if compress:
        headers["Content-Encoding"] = "gzip"
    return payload, headers


def describe_problem(response: httpx.Response) -> str:
    """Render an RFC 7807 problem body (title, detail, field errors) as readable lines."""
    head = f"server said {response.status_code}"
    try:
        problem = response.json()
    except ValueError:
        text = response.text.strip()[:500]
        return f"{head}: {text}" if text else head
    if not isinstance(problem, dict):
        return f"{head}: {problem!r}"[:600]
    lines = [f"{head} {problem.get('title') or ''}".rstrip()]
    if problem.get("detail"):
        lines[0] += f": {problem['detail']}"
    for err in problem.get("errors") or []:
        if isinstance(err, dict):
            loc = ".".join(str(p) for p in err.get("loc") or [])
            lines.append(f"  {loc or '?'}: {err.get('msg', '')}")
    if response.status_code in (401, 403):
        lines.append("  (check BENCHDASH_TOKEN: an upload token scoped to this system)")
    elif response.status_code == 413:
        lines.append("  (the document is over the server's size limit: upload in parts)")
    return "\n".join(lines)


def _stream(body: bytes) -> Iterator[bytes]:
    """Yield the body in chunks, with a progress bar on stderr when it is large."""
    if len(body) < PROGRESS_MIN_BYTES:
        yield body
        return
    columns = (BarColumn(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("upload", total=len(body))
        for start in range(0, len(body), _CHUNK):
            chunk = body[start : start + _CHUNK]
            yield chunk
            bar.advance(task, len(chunk))


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _json_body(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        raise UploadError(f"server answered {response.status_code} but not with JSON") from None
    if not isinstance(data, dict):
        raise UploadError(f"server answered {response.status_code} with unexpected JSON")
    return data
