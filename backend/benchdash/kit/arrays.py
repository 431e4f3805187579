"""Typed array binds for set-wise SQL: `typed_text` reads every `CAST(:name AS type[])` of a
statement and binds `:name` with a type that coerces each element to that one SQL type.

psycopg dumps a Python list by the types of its elements, so a list mixing `int` and `float`
(a floor of `5` beside one of `13.7`) cannot be sent at all. Declaring the element type on the
bind makes such a list impossible to reach the driver, whichever code built it.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Float, Integer, Text, TypeDecorator, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.elements import TextClause
from sqlalchemy.types import TypeEngine

_CAST = re.compile(r"CAST\(\s*:(\w+)\s+AS\s+([a-z0-9_ ]+?)\s*\[\]\s*\)", re.IGNORECASE)


def _integer(x: Any) -> int:
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return operator.index(x)  # a bool, str or fractional float is a bug: TypeError


def _float(x: Any) -> float:
    if isinstance(x, str | bytes):
        raise TypeError(f"a float8[] element must be a number, not {x!r}")
    return float(x)


def _text(x: Any) -> str:
    if not isinstance(x, str):
        raise TypeError(f"a text[] element must be a str, not {type(x).__name__}")
    return x


_KINDS: dict[str, tuple[TypeEngine[Any], Callable[[Any], Any]]] = {
    "int": (Integer(), _integer),
    "int4": (Integer(), _integer),
    "integer": (Integer(), _integer),
    "bigint": (Integer(), _integer),
    "int8": (Integer(), _integer),
    "float8": (Float(), _float),
    "double precision": (Float(), _float),
    "text": (Text(), _text),
}


class TypedArray(TypeDecorator[list[Any]]):
    """An array bind whose elements are coerced to one type (None stays NULL)."""

    impl = ARRAY
    cache_ok = True

    def __init__(self, kind: str) -> None:
        item, self._coerce = _KINDS[kind]
        super().__init__(item)  # ARRAY(item)
        self.kind = kind

    def process_bind_param(self, value: Sequence[Any] | None, dialect: Dialect) -> list[Any] | None:
        """Each element as the declared type; a value that is not a sequence is refused."""
        if value is None:
            return None
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise TypeError(f"an array bind needs a list, not {type(value).__name__}")
        return [None if x is None else self._coerce(x) for x in value]


def typed_text(sql: str) -> TextClause:
    """`text(sql)` with every `CAST(:x AS t[])` bound as an array of t."""
    kinds: dict[str, str] = {}
    for name, kind in _CAST.findall(sql):
        kind = " ".join(kind.lower().split())
        if kind not in _KINDS:
            raise ValueError(f"typed_text: no element type for {kind}[] (:{name})")
        if kinds.setdefault(name, kind) != kind:
            raise ValueError(f"typed_text: :{name} is cast to {kinds[name]}[] and {kind}[]")
    binds = [bindparam(name, type_=TypedArray(kind)) for name, kind in kinds.items()]
    return text(sql).bindparams(*binds)
