"""Small SQL helpers that know no domain."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


def sql_in(enum: Iterable[StrEnum]) -> str:
    """`'a','b',…`: the values of an enum (or of some of its members) as SQL literals, for a
    CHECK constraint or an `IN (…)`, so SQL never repeats an enum's spelling."""
    return ",".join(f"'{member.value}'" for member in enum)
