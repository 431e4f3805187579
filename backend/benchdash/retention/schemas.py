"""Wire types of retention: the rules and the dry-run report."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field, field_validator, model_validator

MAX_DAYS = 36_500  # a hundred years: anything longer is "forever" (null)
MAX_RULES = 100
_GLOB_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+@*?[]!")


def glob_problem(pattern: str) -> str | None:
    """Why `pattern` is not a branch glob we accept, or None when it is one."""
    if not pattern:
        return "the branch pattern is empty: use * for every branch"
    odd = sorted({c for c in pattern if c not in _GLOB_CHARS})
    if odd:
        shown = ", ".join(repr(c) for c in odd)
        return f"the branch pattern {pattern!r} holds {shown}: a git branch name never does"
    depth = 0
    for c in pattern:
        if c == "[":
            if depth:
                return f"the branch pattern {pattern!r} opens a [ set inside another"
            depth = 1
        elif c == "]" and depth:
            depth = 0
    if depth:
        return f"the branch pattern {pattern!r} opens a [ set it never closes with ]"
    return None


class RuleIn(BaseModel):
    """One rule: which runs (system, branch glob) and how long they and their samples stay."""

    system: str | None = Field(
        default=None, max_length=64, description="A system's slug; null: every system."
    )
    branch: str = Field(
        max_length=200,
        description="A glob on the branch name (`*` any characters, `/` too; `?` one; `[ab]`).",
    )
    delete_after_days: int | None = Field(
        default=None,
        ge=1,
        le=MAX_DAYS,
        description="Runs older than this are deleted; null: never.",
    )
    summarise_after_days: int | None = Field(
        default=None,
        ge=1,
        le=MAX_DAYS,
        description="Runs older than this lose their raw samples (the summary statistics stay); "
        "null: never.",
    )

    @field_validator("branch")
    @classmethod
    def _glob(cls, value: str) -> str:
        problem = glob_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _ordered(self) -> RuleIn:
        keep, drop = self.summarise_after_days, self.delete_after_days
        if keep is not None and drop is not None and keep >= drop:
            raise ValueError(
                f"summarise_after_days ({keep}) must be less than delete_after_days ({drop}): "
                "a run is deleted before its samples would be summarised"
            )
        return self


class RulesIn(BaseModel):
    """Every rule, in the order they are tried: the first that matches a run decides it."""

    rules: list[RuleIn] = Field(max_length=MAX_RULES)

    @model_validator(mode="after")
    def _unique(self) -> RulesIn:
        seen: set[tuple[str | None, str]] = set()
        for i, rule in enumerate(self.rules):
            key = (rule.system, rule.branch)
            if key in seen:
                where = rule.system or "every system"
                raise ValueError(
                    f"rule {i + 1} repeats branch {rule.branch!r} of {where}: "
                    "only the first such rule would ever match"
                )
            seen.add(key)
        return self


class RuleRead(RuleIn):
    """A stored rule."""

    position: int


class RulesRead(BaseModel):
    """The stored rules, in order, and who set them last, when (null: never set)."""

    rules: list[RuleRead]
    updated_by: str | None
    updated_at: datetime | None


class BranchPlan(BaseModel):
    """What the rules do to one system's branch now."""

    system: str
    branch: str
    rule: int | None = Field(description="The position of the rule that decides it; null: none.")
    runs: int = Field(description="Its runs.")
    delete_runs: int
    delete_measurements: int
    summarise_runs: int
    summarise_measurements: int = Field(description="Measurements whose raw samples would go.")
    kept_runs: list[int] = Field(
        description="Runs the rules would remove but that stay: named by an open alert (its first "
        "bad, last good or baseline runs), a bisection, a pinned baseline or an accepted change."
    )


class Preview(BaseModel):
    """The dry run: per system and branch what would go, and totals."""

    at: datetime
    branches: list[BranchPlan]
    delete_runs: int
    delete_measurements: int
    summarise_runs: int
    summarise_measurements: int
    kept_runs: int
