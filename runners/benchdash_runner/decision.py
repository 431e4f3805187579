"""One decision per upload: the CLI's exit code and the forge's check both come from `decide`.

Exit 2 ⇔ conclusion `failure` (GitHub check run `failure`, GitLab status `failed`), always.

- A run whose branch has a base (a pull or merge request) carries the server's `pr` verdict:
  each series decided on this run's samples against the base's recent runs. A series in it is
  judged by its outcome: `fail` (and `warn` under `--fail-on warn`) fails; `uncertain`, and a
  `warn` below `--fail-on`, is neutral with its reason in words; `ok` passes.
- Every other series (no pull request, or no base runs of it yet) is judged by its verdict's
  level, as before: a level at or above `--fail-on` fails (suspected or confirmed), a lower
  warn or any stage is neutral.
- `--fail-on never` never fails: what would is neutral.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchdash_runner import summary

FAILURE, NEUTRAL, SUCCESS = "failure", "neutral", "success"
PR_GATES = {"fail": {"fail"}, "warn": {"fail", "warn"}, "never": set()}
PR_NOTED = {"fail", "warn", "uncertain"}


@dataclass(frozen=True)
class Decision:
    """What the job's exit code and the check say, and why (one line a series)."""

    conclusion: str
    title: str
    failing: list[str] = field(default_factory=list)
    neutral: list[str] = field(default_factory=list)

    @property
    def fails(self) -> bool:
        """Exit 2 / check failure."""
        return self.conclusion == FAILURE


def _key(x: dict[str, Any]) -> tuple[Any, Any, Any]:
    return (x.get("benchmark"), x.get("params_key"), x.get("metric"))


def _label(s: dict[str, Any]) -> str:
    params = s.get("params_key")
    where = f"{s.get('benchmark', '?')}{'' if params in (None, '{}') else ' ' + str(params)}"
    return f"{where} {s.get('metric', '?')}: {s.get('reason', '')}"


def decide(response: dict[str, Any], fail_on: str) -> Decision:
    """The conclusion of this upload under `--fail-on` (fail | warn | never)."""
    pr = response.get("pr") or None
    verdicts = list(response.get("verdicts") or [])
    covered: set[tuple[Any, Any, Any]] = set()
    failing: list[str] = []
    neutral: list[str] = []
    if pr:
        for s in pr.get("series") or []:
            if s.get("outcome") == "no_base":
                continue
            covered.add(_key(s))
            if s.get("outcome") in PR_GATES[fail_on]:
                failing.append(_label(s))
            elif s.get("outcome") in PR_NOTED:
                neutral.append(_label(s))
    gated = summary.GATES[fail_on]
    for v in verdicts:
        if _key(v) in covered:
            continue
        level = v.get("level")
        stage = v.get("stage") or "judged"
        line = f"{summary.series_label(v)} {v.get('metric', '?')}: {level}, {stage}"
        if level in gated:
            failing.append(line)
        elif v.get("stage") or level in ("fail", "warn"):
            neutral.append(line)
    against = f" against {pr.get('base_branch')}" if pr and covered else ""
    if failing:
        title = f"{len(failing)} regression(s){against} at or above --fail-on {fail_on}"
        return Decision(FAILURE, title, failing, neutral)
    if neutral:
        return Decision(
            NEUTRAL, f"{len(neutral)} change(s) to look at{against}, not failing", [], neutral
        )
    return Decision(SUCCESS, f"no regression{against}")
