"""Typed array binds: no mix of Python types reaches psycopg, in any set-wise statement."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy import text
from sqlalchemy.orm import Session

from benchdash.kit.arrays import _CAST, typed_text

PACKAGE = Path(__file__).resolve().parents[2] / "benchdash"


def test_a_mixed_list_is_refused_by_a_plain_bind_and_coerced_by_a_typed_one(
    session: Session,
) -> None:
    sql = "SELECT sum(x) FROM unnest(CAST(:xs AS float8[])) AS x"
    with pytest.raises(sa_exc.DataError, match="mixed types"):
        session.execute(text(sql), {"xs": [5, 13.7]})  # the 500 of issue 22
    session.rollback()
    assert session.execute(typed_text(sql), {"xs": [5, 13.7, None]}).scalar() == 18.7


def test_elements_are_coerced_or_refused_by_their_declared_type(session: Session) -> None:
    sql = typed_text("SELECT CAST(:i AS int[]), CAST(:t AS text[]), CAST(:f AS float8[])")
    row = session.execute(sql, {"i": [1, 2.0, None], "t": ["a", None], "f": [0, 1.5]}).one()
    assert row == ([1, 2, None], ["a", None], [0.0, 1.5])
    for bad in ({"i": [1.5], "t": [], "f": []}, {"i": [], "t": [3], "f": []}):
        with pytest.raises(sa_exc.StatementError, match="TypeError"):
            session.execute(sql, bad)
        session.rollback()


def test_a_statement_casting_one_name_to_two_types_is_refused() -> None:
    with pytest.raises(ValueError, match="int\\[\\] and text\\[\\]"):
        typed_text("SELECT CAST(:x AS int[]), CAST(:x AS text[])")
    with pytest.raises(ValueError, match="no element type"):
        typed_text("SELECT CAST(:x AS jsonb[])")


def _plain_text_calls_with_array_casts(source: str) -> list[int]:
    """Lines of `text(...)` calls whose literal SQL binds an array (they must be typed_text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        literal = " ".join(
            n.value
            for n in ast.walk(node.args[0])
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        )
        if name == "text" and (_CAST.search(literal) or "ANY(:" in literal.replace(" ", "")):
            found.append(node.lineno)
    return found


def test_every_array_bind_in_the_package_is_typed() -> None:
    offenders = {
        str(p.relative_to(PACKAGE)): lines
        for p in sorted(PACKAGE.rglob("*.py"))
        if (lines := _plain_text_calls_with_array_casts(p.read_text()))
    }
    assert offenders == {}, "bind arrays with kit.arrays.typed_text"
    planted = (
        'q = 1\nx = sa.text(\n    "SELECT 1 FROM t"\n    " WHERE id = ANY(CAST(:ids AS int[]))")\n'
    )
    assert _plain_text_calls_with_array_casts(planted) == [2], "the scan finds a plain one"
    assert _plain_text_calls_with_array_casts(planted.replace("sa.text", "typed_text")) == []
