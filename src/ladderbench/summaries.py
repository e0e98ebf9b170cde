"""The summary row, typed: one model per shape, each knowing its rung and its groups.

The JSON written to results files keeps its keys (``byLevel``, ``byTier``, ``byTask``...); only the
in-memory form is typed. ``to_json_dict`` gives back exactly the keys a summary was made with.
Which model a summary dict is read into is decided by its suite (``suites.parse_summary``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

Rung = Literal["level", "tier"]  # what a ladder's rungs are numbered by
Group = Literal["category", "family", "task"]  # what its results are also broken down by


class Bucket(BaseModel):
    """One rung's or group's pass statistics (``pass@k`` rides along as an extra key)."""

    model_config = ConfigDict(extra="allow")

    n: int
    passed: int | float
    rate: float | None  # None when nothing was scored: never a percentage over nothing
    ci95: list[float]
    errors: int
    unparsed: int
    cleared: bool | None = None


class Usage(BaseModel):
    """Tokens a run's answers took, and what they cost where the user gave prices.

    The cost counts the answers the model produced for this file, not those served from the
    response cache (``cachedAnswers``), which cost nothing this time.
    """

    model_config = ConfigDict(populate_by_name=True)

    prompt_tokens: int = Field(default=0, alias="promptTokens")
    completion_tokens: int = Field(default=0, alias="completionTokens")
    cached_answers: int = Field(default=0, alias="cachedAnswers")
    price_in: float | None = Field(default=None, alias="pricePerMillionIn")
    price_out: float | None = Field(default=None, alias="pricePerMillionOut")
    cost_usd: float | None = Field(default=None, alias="costUsd")


class Summary(BaseModel):
    """What every summary has; a suite's own summary type adds its breakdowns."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    type: Literal["summary"] = "summary"
    run: str | None = None
    suite: str | None = None
    adapter: str | None = None
    model: str | None = None
    total: int = 0
    errors: int = 0  # attempts that ended in an error: never scored, and the run exits 3
    settings: dict[str, Any] | None = None
    elapsed_s: float | None = Field(default=None, alias="elapsedS")
    usage: Usage | None = None
    provenance: dict[str, Any] | None = None  # the run header's: versions, revision, command

    def to_json_dict(self) -> dict[str, Any]:
        """The summary as written to results files (only the keys it was made with)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class LadderSummary(Summary):
    """Pass rates per rung and per group, with Wilson intervals, flags and notes."""

    rung: ClassVar[Rung]
    group: ClassVar[Group]

    n: int = 0
    passed: int | float = 0
    rate: float | None = 0.0
    ci95: list[float] = Field(default_factory=lambda: [0.0, 0.0])
    errors: int = 0
    unparsed: int = 0
    samples: int = 1
    baseline: float | None = None
    flags: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    rule: str = ""

    @property
    def rungs(self) -> dict[str, Bucket]:
        raise NotImplementedError

    @property
    def groups(self) -> dict[str, Bucket]:
        raise NotImplementedError


class LevelSummary(LadderSummary):
    """The static ladder (and the judge probe's calls): per level and per category."""

    rung = "level"
    group = "category"
    by_level: dict[str, Bucket] = Field(default_factory=dict, alias="byLevel")
    by_category: dict[str, Bucket] = Field(default_factory=dict, alias="byCategory")

    @property
    def rungs(self) -> dict[str, Bucket]:
        return self.by_level

    @property
    def groups(self) -> dict[str, Bucket]:
        return self.by_category


class BreakingPoint(BaseModel):
    """Where a model's pass rate on one family falls (``analysis/breaking.py``): the highest
    difficulty it clears (-1: none) and where it crosses 50%, with 95% credible intervals."""

    model_config = ConfigDict(populate_by_name=True)

    cleared: int
    cleared_ci95: list[int] = Field(alias="clearedCi95")
    d50: float
    d50_ci95: list[float] = Field(alias="d50Ci95")
    tested: list[int]
    calls: int


class TierEstimate(BaseModel):
    """A tier's pass rate over all its instances: answers seen plus the fits for the rest."""

    rate: float
    sd: float
    seen: int
    of: int
    cleared: bool


class TierSummary(LadderSummary):
    """The puzzle ladder: per tier (with ``cleared``) and per family, and the ladder level."""

    rung = "tier"
    group = "family"
    ladder_level: int | None = Field(default=None, alias="ladderLevel")
    by_tier: dict[str, Bucket] = Field(default_factory=dict, alias="byTier")
    by_family: dict[str, Bucket] = Field(default_factory=dict, alias="byFamily")
    # from v2 on: per family, pass rates per difficulty and the fitted breaking point
    by_difficulty: dict[str, dict[str, Bucket]] | None = Field(default=None, alias="byDifficulty")
    breaking_points: dict[str, BreakingPoint] | None = Field(default=None, alias="breakingPoints")
    # an adaptive run: each tier's pass rate estimated from the fits (its ladder level's basis)
    tier_estimates: dict[str, TierEstimate] | None = Field(default=None, alias="tierEstimates")

    @property
    def rungs(self) -> dict[str, Bucket]:
        return self.by_tier

    @property
    def groups(self) -> dict[str, Bucket]:
        return self.by_family


class JudgeStudySummary(LadderSummary):
    """A judge asked about scored live answers: per task, and where it disagrees with the truth."""

    rung = "level"
    group = "task"
    by_level: dict[str, Bucket] = Field(default_factory=dict, alias="byLevel")
    by_task: dict[str, Bucket] = Field(default_factory=dict, alias="byTask")
    study: dict[str, dict[str, int]] = Field(default_factory=dict)

    @property
    def rungs(self) -> dict[str, Bucket]:
        return self.by_level

    @property
    def groups(self) -> dict[str, Bucket]:
        return self.by_task


class Score(BaseModel):
    """A mean score in [0, 1] and its 95% interval (both None when nothing was scored)."""

    score: float | None
    ci95: list[float] | None


class LiveTaskScore(BaseModel):
    category: str
    n: int
    errors: int
    score: float | None
    ci95: list[float] | None
    perfect: int
    difficulties: list[int] = Field(default_factory=list)  # of its questions (v1 stores: none)


class LiveCategoryScore(Score):
    tasks: int


class LiveOverall(Score):
    categories: int


class LiveSummary(Summary):
    """The live suite: mean scores per task, per category (mean of its tasks) and overall."""

    n: int = 0
    errors: int = 0
    passed: int = 0
    rate: float | None = None
    samples: int = 1
    overall: LiveOverall = Field(
        default_factory=lambda: LiveOverall(categories=0, score=None, ci95=None)
    )
    by_category: dict[str, LiveCategoryScore] = Field(default_factory=dict, alias="byCategory")
    by_task: dict[str, LiveTaskScore] = Field(default_factory=dict, alias="byTask")
