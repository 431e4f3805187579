"""Shields-style status badges ("perf | 2 regressions") as SVG, drawn by pybadges.

pybadges measures the text with the widths of DejaVu Sans it ships, sizes both halves to fit,
and escapes the text (Jinja2 autoescape), so a badge holds no markup from its words and no
script. The colours are the ones shields.io uses for its states.
"""

from __future__ import annotations

from enum import StrEnum

import pybadges


class BadgeColor(StrEnum):
    """A badge's right half: the state at a glance."""

    RED = "#e05d44"
    AMBER = "#dfb317"
    GREEN = "#44cc11"
    GREY = "#9f9f9f"


def badge_svg(label: str, message: str, color: BadgeColor, *, title: str | None = None) -> str:
    """An SVG badge `label | message`, the message on `color`; `title` is its tooltip."""
    svg: str = pybadges.badge(
        left_text=label, right_text=message, right_color=color.value, whole_title=title
    )
    return svg
