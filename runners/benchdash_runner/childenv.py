"""The environment of every process the agent starts: an allow-list, never a secret.

The agent holds credentials (its API token, the queue's database URL) and may run on a host
whose environment holds more (an admin password, cloud keys). Benchmark code, which can be any
ref a signed-in user triggers, gets only what a driver needs to build and measure: the names
below, variables starting with a prefix below, the ones its manifest names under
`[driver] pass_env`, and the run's own `BENCHDASH_*` variables. A name or value that looks like
a credential is dropped even when it is allowed (runners/CONTRACT.md, "Driver environment").
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping

# What a driver and its toolchains need; nothing here may carry a credential.
ALLOWED = frozenset(
    {
        # the process basics
        *("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "LANG", "LANGUAGE"),
        *("TMPDIR", "TEMP", "TMP", "PWD", "SOURCE_DATE_EPOCH", "PYTHONUNBUFFERED"),
        # fetching dependencies (a proxy URL with a password in it is dropped, see below)
        *("SSL_CERT_FILE", "SSL_CERT_DIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"),
        *("http_proxy", "https_proxy", "no_proxy"),
        # Rust
        *("CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "CARGO_TARGET_DIR", "RUSTFLAGS"),
        *("CARGO_BUILD_JOBS", "CARGO_NET_OFFLINE", "CARGO_INCREMENTAL", "CRITERION_HOME"),
        # Go
        *("GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOROOT", "GOPROXY", "GOTOOLCHAIN"),
        *("GOMAXPROCS", "GONOSUMDB", "GOSUMDB", "GOPRIVATE", "GONOPROXY", "CGO_ENABLED"),
        # C and C++
        *("CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "AR", "LD", "MAKEFLAGS"),
        *("PKG_CONFIG_PATH", "CMAKE_GENERATOR", "CMAKE_BUILD_PARALLEL_LEVEL", "CCACHE_DIR"),
        *("LIBRARY_PATH", "LD_LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"),
        # Python (drivers are Python; a venv's interpreter is first on PATH)
        *("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHASHSEED"),
        # the run, as the agent sets it for the driver (driving.py reads them)
        *("BENCHDASH_RUN_ID", "BENCHDASH_TRIGGER", "BENCHDASH_COMMIT", "BENCHDASH_BRANCH"),
        *("BENCHDASH_TESTBED", "BENCHDASH_EXTERNAL_ID", "BENCHDASH_OUT"),
    }
)
ALLOWED_PREFIXES = ("LC_",)

# Denied even when allowed: whatever is named like a credential or a database address.
DENIED_NAME = re.compile(
    r"TOKEN|PASSW|SECRET|KEY|CREDENTIAL|AUTH|COOKIE|SESSION|DATABASE|DSN|CONNINFO"
    r"|^PG|^BENCHDASH_URL$|^AWS_|^AZURE_|^GOOGLE_|^GCP_|^GH_|^GITHUB_",
    re.IGNORECASE,
)
# ... and values that are one: a benchdash token, a URL with a password or a database URL.
DENIED_VALUE = re.compile(
    r"bd_[0-9a-f]{12}_|\b(?:postgres(?:ql)?(?:\+\w+)?|mysql|redis|mongodb)://|://[^/\s:@]+:[^/\s@]+@",
    re.IGNORECASE,
)


def allowed(name: str, value: str, extra: Iterable[str] = ()) -> bool:
    """Whether `name=value` may pass to a child: allow-listed and not credential-like."""
    listed = name in ALLOWED or name in extra or name.startswith(ALLOWED_PREFIXES)
    return listed and not DENIED_NAME.search(name) and not DENIED_VALUE.search(value)


def child_env(
    source: Mapping[str, str] | None = None,
    *,
    pass_env: Iterable[str] = (),
    overrides: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The allow-listed part of `source` (default: this process's environment), with
    `overrides` applied; `pass_env` names further variables to keep (a manifest's)."""
    source = os.environ if source is None else source
    extra = frozenset(pass_env)
    env = {k: v for k, v in source.items() if allowed(k, v, extra)}
    for name, value in (overrides or {}).items():
        if allowed(name, value, extra | {name}):
            env[name] = value
    return env


def hide_own_environment() -> None:
    """Make this process's /proc/<pid>/environ (and memory) unreadable to its children.

    A benchmark runs as the agent's user; without this it could read the agent's credentials
    from /proc/<agent>/environ. A process that is not "dumpable" (prctl PR_SET_DUMPABLE 0) can
    be read only with CAP_SYS_PTRACE, which neither an ordinary user nor a default container
    has. Children get the usual dumpable state back when they exec.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_dumpable = 4
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_dumpable, 0, 0, 0, 0)
