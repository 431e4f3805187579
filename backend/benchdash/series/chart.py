"""Trend images of one series for READMEs, pull-request comments and chat: 640 × 240 px, SVG or
PNG, drawn with matplotlib from what `series.service.read_data` returns.

The image shows the points (warn and fail points coloured), the baseline each point was judged
against (dashed), a dotted line at each confirmed step (the alert's first bad run) and a grey one
at each accepted change. Text stays text in the SVG (`svg.fonttype: none`), so the title can be
read and searched; the SVG has no script (matplotlib writes none).

matplotlib's object API is used (no pyplot, so no global figure registry), but its rc settings
and font caches are process-wide and not documented as thread-safe, while endpoints run in a
thread pool: one lock serialises renders (about 30 ms each). matplotlib is imported on the
first render, so the API and its command line start without it.
"""

from __future__ import annotations

import io
import math
import threading
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from matplotlib.axes import Axes

ImageFormat = Literal["svg", "png"]
VERSION = 1  # part of the images' ETags: raise it when the drawing changes
MEDIA_TYPES: dict[str, str] = {"svg": "image/svg+xml", "png": "image/png"}
WIDTH_PX, HEIGHT_PX, DPI = 640, 240, 96  # 96 dpi: CSS pixels, so the SVG is 640 × 240 px too
TITLE_CHARS = 78  # what fits the width at the title's size
MIN_SPAN = timedelta(hours=1)  # a shorter x range (one point, a burst of runs) is widened

# The UI's colour tokens (frontend/src/app/tokens.css).
ACCENT, MUTED, GRID, TEXT = "#2563eb", "#687385", "#eef1f5", "#1c2430"
LEVEL_COLORS = {"warn": "#d97706", "fail": "#dc2626"}

_RC: dict[Any, Any] = {
    "text.parse_math": False,  # a "$" in a benchmark name is text, not TeX
    "svg.fonttype": "none",  # <text> elements, not glyph outlines
    "svg.hashsalt": "benchdash",  # stable element ids: the same data gives the same bytes
    "font.family": "DejaVu Sans",  # shipped inside matplotlib's wheel
    "font.size": 8,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": TEXT,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
}
_METADATA: dict[str, dict[str, Any]] = {"svg": {"Date": None}, "png": {}}
_LOCK = threading.Lock()


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def title(data: dict[str, Any]) -> str:
    """'uvhttp · medium_concurrency {"threads":4} · requests_per_second (req/s)'."""
    bench = data["benchmark"]
    if data.get("params_key") not in (None, "{}"):
        bench = f"{bench} {data['params_key']}"
    return _clip(f"{data['system']} · {bench} · {data['metric']} ({data['unit']})", TITLE_CHARS)


def subtitle(data: dict[str, Any]) -> str:
    """'branch main · testbed ci-1 · higher is better'."""
    parts = [f"branch {data['branch']}"]
    if data.get("testbed"):
        parts.append(f"testbed {data['testbed']}")
    parts.append(str(data["direction"]).replace("_", " "))
    return _clip(" · ".join(parts), 60)


def _draw(ax: Axes, data: dict[str, Any]) -> None:
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter

    points = data["points"]
    ax.set_title(subtitle(data), loc="left", fontsize=7, color=MUTED)
    if not points:
        ax.text(0.5, 0.5, "no data yet", transform=ax.transAxes, ha="center", color=MUTED)
        ax.set_xticks([])
        ax.set_yticks([])
        return
    at = {p["run_id"]: p["t"] for p in points}
    t = [p["t"] for p in points]
    ax.plot(
        t, [p["value"] for p in points], color=ACCENT, lw=1.2, marker="o", ms=2.5, label="value"
    )
    baseline = [math.nan if p["baseline"] is None else p["baseline"] for p in points]
    if not all(math.isnan(b) for b in baseline):
        ax.plot(t, baseline, color=MUTED, lw=1, ls="--", label="baseline")
    for level, color in LEVEL_COLORS.items():
        hits = [p for p in points if p["level"] == level]
        if hits:
            ax.scatter([p["t"] for p in hits], [p["value"] for p in hits], s=16, c=color, zorder=3)
    for step in data["steps"]:
        if step["run_id"] in at:
            color = LEVEL_COLORS.get(step["level"], MUTED)
            ax.axvline(
                at[step["run_id"]], color=color, ls=":", lw=1.3, label=f"{step['level']} step"
            )
    for change in data["changes"]:
        if change["run_id"] in at:
            ax.axvline(at[change["run_id"]], color=MUTED, ls="-.", lw=1, label="accepted change")
    if max(t) - min(t) < MIN_SPAN:  # the date locator finds no ticks in a zero-width range
        middle = min(t) + (max(t) - min(t)) / 2
        ax.set_xlim(middle - MIN_SPAN / 2, middle + MIN_SPAN / 2)
    ax.set_ylabel(data["unit"])
    ax.grid(True, color=GRID, lw=0.8)
    ax.set_axisbelow(True)
    locator = AutoDateLocator(maxticks=7)  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))  # one entry per kind of line
    ax.legend(unique.values(), unique.keys(), fontsize=7, loc="best", frameon=False, ncols=2)


def render(data: dict[str, Any], fmt: ImageFormat) -> bytes:
    """The series `data` (shaped like SeriesRead) drawn as a 640 × 240 SVG or PNG image."""
    # Imported on the first image, not with the app: matplotlib takes about 0.5 s to import.
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with _LOCK, rc_context(_RC):
        fig = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI, layout="constrained")
        fig.suptitle(title(data), x=0.01, ha="left", fontsize=9, fontweight="bold", color=TEXT)
        _draw(fig.add_subplot(), data)
        out = io.BytesIO()
        fig.savefig(out, format=fmt, metadata=_METADATA[fmt])
    return out.getvalue()
