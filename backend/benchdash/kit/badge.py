"""Shields-style status badges ("perf | 2 regressions") as SVG, drawn by pybadges.

pybadges measures the text with the widths of DejaVu Sans it ships, sizes both halves to fit,
and escapes the text (Jinja2 autoescape), so a badge holds no markup from its words and no
script. The colours are the ones shields.io uses for its states.
"""

from __future__ import annotations

import re
from enum import StrEnum

import pybadges

# XML 1.0 has no place for C0 control characters (but tab, newline, return) nor DEL's
# neighbours: a name holding one would make the SVG unparsable, and pybadges refuses it.
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class BadgeColor(StrEnum):
    """A badge's right half: the state at a glance."""

    RED = "#e05d44"
    AMBER = "#dfb317"
    GREEN = "#44cc11"
    GREY = "#9f9f9f"


def badge_svg(label: str, message: str, color: BadgeColor, *, title: str | None = None) -> str:
    """An SVG badge `label | message`, the message on `color`; `title` is its tooltip
    (characters XML cannot hold are dropped from every text)."""
    svg: str = pybadges.badge(
        left_text=_NOT_XML.sub("", label),
        right_text=_NOT_XML.sub("", message),
        right_color=color.value,
        whole_title=None if title is None else _NOT_XML.sub("", title),
    )
    return svg
