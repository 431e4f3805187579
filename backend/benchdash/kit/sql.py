"""Small SQL helpers that know no domain."""

from __future__ import annotations

from enum import StrEnum


def sql_in(enum: type[StrEnum]) -> str:
    """`'a','b',…`: an enum's values for a CHECK constraint."""
    return ",".join(f"'{member.value}'" for member in enum)
