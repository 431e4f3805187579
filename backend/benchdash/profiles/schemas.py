"""Wire types of profiles: the `profile` of a result entry (ingest) and the read models."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from benchdash.profiles import folded


class ProfileKind(StrEnum):
    """What a profile counts: instructions (Callgrind's Ir, exact) or CPU time (sampled)."""

    INSTRUCTIONS = "instructions"
    CPU = "cpu"


ProfileUnit = Literal["instructions", "nanoseconds", "samples"]


class ProfileIn(BaseModel):
    """A profile of one result entry: folded stacks and what their weights count."""

    model_config = ConfigDict(extra="forbid")

    kind: ProfileKind = Field(
        description="instructions: Callgrind's Ir (exact); cpu: a sampling profile (pprof, perf)."
    )
    unit: ProfileUnit = Field(description="What a weight counts.")
    metric: str | None = Field(
        None,
        min_length=1,
        max_length=120,
        pattern=r"^[A-Za-z0-9_.%/\-]+$",
        description="The metric of this entry that the profile explains (one of its metrics).",
    )
    format: Literal["folded"] = Field("folded", description="Only folded stacks for now.")
    stacks: str = Field(
        max_length=folded.MAX_BYTES,
        description="Folded stacks: one line per stack, frames root-first separated by ';', one "
        "space, a non-negative integer weight. At most 4 MiB, 50,000 lines, 256 frames per "
        "stack; frame names 1..1000 characters without ';', line breaks or NUL; weights "
        "0..2^63-1 (and so is their sum).",
    )
    _parsed: folded.Stacks = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _parse(self) -> ProfileIn:
        try:
            self._parsed = folded.parse(self.stacks)
        except folded.FoldedError as e:  # a ValueError: a 422 naming the line and the rule
            raise ValueError(f"stacks: {e}") from None
        return self

    @property
    def parsed(self) -> folded.Stacks:
        """The stacks, parsed and merged."""
        return self._parsed


class ProfileSummary(BaseModel):
    """A stored profile: which run and benchmark, what it counts, its total."""

    id: int
    run_id: int
    benchmark: str
    parameters: dict[str, Any]
    benchmark_id: int
    kind: ProfileKind
    unit: str
    metric: str | None = Field(description="The metric it explains, when the upload named one.")
    total: int = Field(description="The sum of all weights.")
    stacks_count: int = Field(description="How many distinct stacks it holds.")


class Node(BaseModel):
    """A call-tree node: its inclusive value, its self value, its callees."""

    name: str
    value: int
    self: int
    children: list[Node]


class Fn(BaseModel):
    """A function's self and inclusive cost."""

    name: str
    self: int
    inclusive: int


class ProfileDetail(ProfileSummary):
    """A profile with its call tree (root "all") and top 50 functions by self cost."""

    tree: Node
    functions: list[Fn]


class DiffNode(BaseModel):
    """A node of the differential tree: head's inclusive value, the change from base."""

    name: str
    value: int = Field(description="Inclusive in head (0: only in base).")
    delta: int = Field(description="Head minus base, inclusive.")
    base_value: int = Field(description="Inclusive in base (0: only in head).")
    children: list[DiffNode]


class DiffFn(BaseModel):
    """A function's self cost in both profiles and its change."""

    name: str
    self_base: int
    self_head: int
    delta_self: int
    pct_of_base_total: float = Field(description="100 · delta_self / base total (0 if that is 0).")


class ProfileDiff(BaseModel):
    """Two profiles of one kind compared: the differential tree and the functions that grew."""

    base: ProfileSummary
    head: ProfileSummary
    tree: DiffNode
    functions: list[DiffFn] = Field(description="Top 20 by delta_self, descending.")
    elsewhere_pct: float = Field(
        description="The total change (% of base total) the listed functions do not account for."
    )


class RootCause(BaseModel):
    """The differential profile of an alert's last good and first bad run."""

    kind: ProfileKind
    unit: str
    base_profile_id: int
    head_profile_id: int
    base_total: int
    head_total: int
    functions: list[DiffFn] = Field(description="At most 10 whose self cost grew, most first.")
    elsewhere_pct: float = Field(
        description="The total change (% of base total) beyond the functions the summary names."
    )
    summary: str = Field(
        description='e.g. "+9.8 % in relay::crypto::cbc_encrypt, +0.3 % elsewhere"'
    )
