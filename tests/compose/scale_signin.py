"""`make test-compose`, scale profile: sign-in throttling behind the real nginx keys on each
client's own address (the replicas trust the Compose networks' proxy, issue 39).

The two agent containers are the two clients: each has its own address on the Compose network
and reaches the API only through nginx. One guesses at `admin` until it must wait; the real
password from the other then signs in at once, and the replicas' logs name both containers'
addresses, never nginx's.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.compose.engine import Compose

ATTACKER, ADMIN = "agent-cachex-1", "agent-cachex-2"

# Runs inside an agent container (its Python, standard library only): sign-in attempts to the
# API through nginx ($BENCHDASH_URL), printed as one JSON object on the last line.
CLIENT = r"""
import json, os, sys, time, urllib.error, urllib.request
url = os.environ["BENCHDASH_URL"].rstrip("/") + "/api/v1/auth/login"
def login(password):
    body = json.dumps({"username": "admin", "password": password}).encode()
    req = urllib.request.Request(url, data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, 0
    except urllib.error.HTTPError as e:
        return e.code, int(e.headers.get("Retry-After") or 0)
mode, password = sys.argv[1], sys.argv[2]
out = {}
if mode == "guess":
    out["first"] = [login(f"guess-{i}")[0] for i in range(25)]
    deadline = time.time() + 90
    while True:  # guess on, each admitted guess doubling the wait, until it is 8 s or more
        code, retry = login("guess")
        if code == 429 and retry >= 8:
            break
        if time.time() > deadline:
            out["error"] = "the wait never grew"
            break
        time.sleep(0.5)
    out["throttled_until"] = time.time() + retry
    out["right_password"] = login(password)[0]
else:
    t0 = time.time()
    out["code"] = login(password)[0]
    out["at"], out["took"] = t0, time.time() - t0
print(json.dumps(out))
"""


def _client(compose: Compose, service: str, mode: str, password: str) -> dict[str, object]:
    text = compose.out("exec", "-T", service, "python3", "-c", CLIENT, mode, password)
    result: dict[str, object] = json.loads(text.strip().splitlines()[-1])
    return result


def guesses_from_one_client_leave_the_admin_in(
    compose: Compose, password: str, address: Callable[[Compose, str], str]
) -> None:
    """25 wrong passwords for admin from one container, the right one from the other."""
    attacker, admin = address(compose, ATTACKER), address(compose, ADMIN)
    assert attacker != admin, f"the two clients share an address: {attacker}"
    guessed = _client(compose, ATTACKER, "guess", password)
    assert "error" not in guessed, guessed
    first = guessed["first"]
    assert isinstance(first, list) and first[:5] == [401] * 5 and first[-1] == 429, first
    assert guessed["right_password"] == 429, "the guessing address must wait, right or wrong"
    signed = _client(compose, ADMIN, "sign-in", password)
    assert signed["code"] == 200, f"the admin from another address was refused: {signed}"
    until = float(guessed["throttled_until"])  # type: ignore[arg-type]
    at, took = float(signed["at"]), float(signed["took"])  # type: ignore[arg-type]
    assert at < until, "the admin signed in after the guessing address's wait was over"
    assert took < 5, f"the admin's sign-in took {took:.1f} s"
    logs = compose.out("logs", "--no-color", "api-1", "api-2")  # v1 has no --since
    lines = [line for line in logs.splitlines() if "/api/v1/auth/login" in line]
    assert any(f"{attacker}:" in line and " 429" in line for line in lines), logs[-2000:]
    assert any(f"{admin}:" in line and " 200" in line for line in lines), logs[-2000:]
    nginx = address(compose, "nginx")
    assert not any(f"{nginx}:" in line for line in lines), f"nginx's {nginx} in the log"
    print(
        f"   {len(first)} wrong passwords from {attacker} ({first.count(429)} refused with 429, "
        f"then waited until Retry-After ≥ 8 s); the admin from {admin} signed in in "
        f"{took * 1000:.0f} ms, {until - at:.1f} s before {attacker} may try again; "
        f"{len(lines)} sign-in lines in the replicas' logs, none from nginx ({nginx})",
        flush=True,
    )
