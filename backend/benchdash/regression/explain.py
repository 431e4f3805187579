"""One-sentence explanations of verdicts, for the UI, the CLI summary and alerts."""

from __future__ import annotations

from collections.abc import Sequence

from benchdash.regression.engine import ALPHA, UNSTABLE_CV, Z_REQUIRED, Level

TIME_UNITS = {"ns", "us", "µs", "ms", "s", "ns/op", "ns/iter"}


def _words(unit: str, direction: str) -> tuple[str, str]:
    timelike = unit in TIME_UNITS or (direction == "higher_is_better" and unit.endswith("/s"))
    return ("slower", "faster") if timelike else ("worse", "better")


def describe_runs(run_ids: Sequence[int], source: str | None) -> str:
    """'the median of runs #41–#45', 'run #7' or 'the pinned baseline run #3'."""
    ids = sorted(run_ids)
    if source == "pinned" and ids:
        return f"the pinned baseline run #{ids[0]}"
    if not ids:
        return "the baseline"
    if len(ids) == 1:
        return f"run #{ids[0]}"
    if ids == list(range(ids[0], ids[-1] + 1)):
        return f"the median of runs #{ids[0]}–#{ids[-1]}"
    return "the median of runs " + ", ".join(f"#{i}" for i in ids)


def _fmt(x: float) -> str:
    return f"{x:.3g}" if x >= 0.001 else f"{x:.1e}"


def explain(
    *,
    level: str,
    change_pct: float | None,
    p_value: float | None,
    z_score: float | None,
    gate: str | None,
    warn: float,
    fail: float,
    baseline_run_ids: Sequence[int],
    baseline_source: str | None,
    unit: str,
    direction: str,
    cv: float | None = None,
) -> str:
    """Say in one sentence why a measurement got its verdict."""
    if level == Level.NO_BASELINE:
        return "No earlier run on this branch and testbed to compare with."
    worse, better = _words(unit, direction)
    base = describe_runs(baseline_run_ids, baseline_source)
    if change_pct is None:
        size = f"{worse} than {base} (which was 0)"
    elif change_pct >= 0:
        size = f"{abs(change_pct):.1f} % {worse} than {base}"
    else:
        size = f"{abs(change_pct):.1f} % {better} than {base}"
    if gate == "welch" and p_value is not None:
        evidence = f"p = {_fmt(p_value)}"
    elif gate == "mad":
        z = "∞" if z_score is None else f"{z_score:.1f}"
        evidence = f"robust z = {z} against the series' recent history"
    elif gate == "history-too-short":
        evidence = "too little history for a noise test"
    else:
        evidence = ""
    if level == Level.FAIL:
        return f"{size} ({evidence}); fail threshold {fail:g} %."
    if level == Level.WARN:
        return f"{size} ({evidence}); warn threshold {warn:g} %, fail threshold {fail:g} %."
    if level == Level.IMPROVED:
        return f"{size} ({evidence}); improvement threshold {warn:g} %."
    if level == Level.NOISY:
        need = f"p < {ALPHA:g}" if gate == "welch" else f"z ≥ {Z_REQUIRED:g}"
        return f"{size}, but not significant ({evidence}; needs {need}): treated as noise."
    if level == Level.UNSTABLE:
        spread = f"cv {cv * 100:.1f} %" if cv is not None else "high spread"
        return f"Samples vary too much to judge ({spread} > {UNSTABLE_CV * 100:g} %); {size}."
    return f"Within {warn:g} % of {base} ({size})."
