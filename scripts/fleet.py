"""The native stack's processes (scripts/up.py): the runner agents, each with a token of its own
and an environment without the API's secrets, supervised (a dead agent is restarted with
backoff); waiting for the API; stopping them all. Stdlib only.
"""

from __future__ import annotations

import re
import secrets
import signal
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# The API's secrets: no agent gets them (and the agent's children get none of its own).
API_SECRETS = (
    "BENCHDASH_ADMIN_PASSWORD",
    "BENCHDASH_SECRET_KEY",
    "BENCHDASH_AGENT_TOKENS",
    "DATABASE_URL",  # agents ask the API for work: they never reach the database
)
FIRST_BACKOFF_S, MAX_BACKOFF_S = 1.0, 30.0
STABLE_S = 60.0  # an agent that ran this long before dying is restarted after FIRST_BACKOFF_S


def token_variable(system: str) -> str:
    """The variable holding `system`'s agent token (Compose: BENCHDASH_AGENT_TOKEN_GALAY_SSL)."""
    return "BENCHDASH_AGENT_TOKEN_" + re.sub(r"[^A-Z0-9]", "_", system.upper())


def new_token() -> str:
    """A random token in the form the API accepts (bd_<12 hex>_<secret>)."""
    return f"bd_{secrets.token_hex(6)}_{secrets.token_urlsafe(32)}"


def tokens_spec(tokens: Mapping[str, str]) -> str:
    """BENCHDASH_AGENT_TOKENS for the API: `system=token` pairs."""
    return ",".join(f"{system}={token}" for system, token in sorted(tokens.items()))


# What an agent process may get from the launcher's environment: an allow-list, as the agent
# gives its benchmarks (runners/benchdash_runner/childenv.py), never "all but a few names".
AGENT_ALLOWED = frozenset(
    {
        *("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LANG", "LANGUAGE"),
        *("TMPDIR", "TEMP", "TMP", "PYTHONUNBUFFERED", "VIRTUAL_ENV"),
        *("SSL_CERT_FILE", "SSL_CERT_DIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"),
        *("http_proxy", "https_proxy", "no_proxy"),
        # checking refs out: git and ssh find their keys and config through these
        *("SSH_AUTH_SOCK", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS"),
        *("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME"),
        # the agent's own settings (its token is added by agent_env)
        *("BENCHDASH_URL", "BENCHDASH_HOST_ID", "BENCHDASH_REPO", "BENCHDASH_TESTBED"),
    }
)
AGENT_PREFIXES = ("LC_",)


def agent_env(env: Mapping[str, str], token: str, pass_env: Iterable[str] = ()) -> dict[str, str]:
    """An agent's variables: the allow-listed ones of the stack's (plus `pass_env`, what its
    manifest passes to its benchmarks), with its own token; no secret of the API's."""
    allowed = AGENT_ALLOWED | set(pass_env)
    out = {
        k: v
        for k, v in env.items()
        if (k in allowed or k.startswith(AGENT_PREFIXES))
        and k not in API_SECRETS
        and not k.startswith("BENCHDASH_AGENT_TOKEN")
    }
    out["BENCHDASH_TOKEN"] = token
    return out


@dataclass
class Agent:
    """One supervised agent process."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    due: float = 0.0  # when a dead agent is started again
    backoff: float = FIRST_BACKOFF_S
    restarts: int = 0


class Fleet:
    """Starts the agents and, called every half second or so, restarts the dead ones.

    An agent that dies is started again after a backoff of 1 s, doubling to 30 s while it keeps
    dying within a minute of its start (a crash loop does not spin), back to 1 s once it ran.
    """

    def __init__(
        self,
        agents: list[Agent],
        *,
        on_start: Callable[[int], None] = lambda pid: None,
        say: Callable[[str], None] = lambda line: print(line, flush=True),
        first_backoff_s: float = FIRST_BACKOFF_S,
        max_backoff_s: float = MAX_BACKOFF_S,
        stable_s: float = STABLE_S,
    ) -> None:
        self.agents = agents
        self._on_start, self._say = on_start, say
        self._first, self._max, self._stable = first_backoff_s, max_backoff_s, stable_s
        for agent in agents:
            agent.backoff = first_backoff_s

    def start(self) -> None:
        """Start every agent."""
        for agent in self.agents:
            self._start(agent)

    def _start(self, agent: Agent) -> None:
        with agent.log.open("ab") as log:
            agent.proc = subprocess.Popen(
                agent.command, env=agent.env, stdout=log, stderr=subprocess.STDOUT
            )
        agent.started = time.monotonic()
        self._on_start(agent.proc.pid)

    def tend(self) -> None:
        """Notice agents that died and start those whose backoff has passed."""
        now = time.monotonic()
        for agent in self.agents:
            if agent.proc is None:
                if now >= agent.due:
                    agent.restarts += 1
                    self._start(agent)
                    assert agent.proc is not None
                    self._say(f"agent {agent.name}: restarted (pid {agent.proc.pid})")
                continue
            code = agent.proc.poll()
            if code is None:
                continue
            ran = now - agent.started
            if ran >= self._stable:
                agent.backoff = self._first
            agent.due, agent.proc = now + agent.backoff, None
            self._say(
                f"agent {agent.name}: exited with {_describe(code)} after {ran:.0f} s; "
                f"restarting in {agent.backoff:g} s (log: {agent.log})"
            )
            agent.backoff = min(agent.backoff * 2, self._max)

    def stop(self) -> None:
        """SIGTERM every agent, then SIGKILL what still runs after 15 s."""
        stop([a.proc for a in self.agents if a.proc is not None])


def _describe(code: int) -> str:
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"code {code}"


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    """Poll /readyz until it answers 200."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the API exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"the API did not become ready within {timeout:.0f} s")


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM every child, then SIGKILL what is still running after 15 s."""
    for c in children:
        if c.poll() is None:
            c.send_signal(signal.SIGTERM)
    for c in children:
        try:
            c.wait(timeout=15)
        except subprocess.TimeoutExpired:
            c.kill()
