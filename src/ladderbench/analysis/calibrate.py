"""Tier calibration: do the tier labels hold, given models of claimed class?

A tier reads as a model class (tier 1 tiny ... tier 5 frontier). It is **verified** when models of
that class clear it and models of the class below fail it, **contradicted** when the evidence says
otherwise, and **unverified** when the runs needed are missing. Static levels are well calibrated
when every model's accuracy falls (within noise) from one level to the next; item difficulty across
models flags items that sit on the wrong level.
"""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from ladderbench.analysis.summary import NOISE_POINTS
from ladderbench.errors import UserError
from ladderbench.summaries import LevelSummary, Summary, TierSummary

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CLASSES = ("baseline", "tiny", "small", "mid", "strong", "frontier")
# Per puzzle suite version, the class each tier is meant for (None: beyond today's models).
# v2 reads tier 0 as the small class's floor: the embedded 135M model, the tiny class here,
# clears no cell of any family at 90% (calibration/v2/README.md).
TIER_CLASSES: dict[str, dict[int, str | None]] = {
    "1": {0: "tiny", 1: "tiny", 2: "small", 3: "mid", 4: "strong", 5: "frontier", 6: None},
    "2": {0: "small", 1: "small", 2: "mid", 3: "mid", 4: "strong", 5: "frontier", 6: None},
}


def load_classes(path: Path) -> dict[str, str]:
    """``classes.toml``: model name (or adapter:model) -> claimed class."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"--classes {path}: cannot read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"--classes {path}: not valid TOML ({exc})") from None
    table = data.get("models", data)
    classes: dict[str, str] = {}
    for model, claimed in table.items():
        if claimed not in CLASSES:
            raise UserError(
                f"--classes {path}: {model} = {claimed!r}; classes are {', '.join(CLASSES)}"
            )
        classes[str(model)] = claimed
    return classes


def class_of(summary: Summary, classes: dict[str, str]) -> str | None:
    label = f"{summary.adapter}:{summary.model}"
    return classes.get(label) or classes.get(str(summary.model))


@dataclass
class TierVerdict:
    tier: int
    claimed: str | None
    verdict: Literal["verified", "contradicted", "unverified"]
    why: str


def _clears(summaries: list[TierSummary], tier: int) -> list[bool]:
    return [bool(s.by_tier[str(tier)].cleared) for s in summaries if str(tier) in s.by_tier]


def suite_version(summary: TierSummary) -> str:
    """The puzzle suite version a run used (runs from before v2 recorded none: v1)."""
    return str((summary.settings or {}).get("suiteVersion", "1"))


def calibrate_tiers(
    by_class: dict[str, list[TierSummary]], version: str = "1"
) -> list[TierVerdict]:
    """Each tier's verdict given the runs of each class, under ``version``'s tier readings."""
    if version not in TIER_CLASSES:
        raise UserError(f"puzzle suite v{version} has no tier readings to calibrate against")
    verdicts = []
    for tier, claimed in TIER_CLASSES[version].items():
        below = CLASSES[CLASSES.index(claimed) - 1] if claimed else "frontier"
        top = _clears(by_class.get(claimed, []), tier) if claimed else []
        low = _clears(by_class.get(below, []), tier)
        if (claimed and not top) or not low:
            missing = [c for c, runs in ((claimed, top), (below, low)) if c and not runs]
            verdicts.append(
                TierVerdict(tier, claimed, "unverified", f"no runs of {', '.join(missing)}")
            )
        elif claimed and not all(top):
            verdicts.append(
                TierVerdict(tier, claimed, "contradicted", f"a {claimed} model fails it")
            )
        elif any(low):
            verdicts.append(
                TierVerdict(tier, claimed, "contradicted", f"a {below} model clears it")
            )
        else:
            who = f"{claimed} clears it, " if claimed else ""
            verdicts.append(TierVerdict(tier, claimed, "verified", f"{who}{below} fails it"))
    return verdicts


@dataclass
class LevelCheck:
    level: int
    calibrated: bool
    rises: list[str] = field(default_factory=list)


def calibrate_levels(summaries: list[LevelSummary]) -> list[LevelCheck]:
    """A level is calibrated when no model scores it clearly above the level below."""
    levels = sorted({int(k) for s in summaries for k in s.by_level})
    checks = []
    for lower, upper in pairwise(levels):
        rises = []
        for s in summaries:
            a, b = s.by_level.get(str(lower)), s.by_level.get(str(upper))
            below, above = a.rate if a else None, b.rate if b else None
            gap = 100 * (above - below) if below is not None and above is not None else 0.0
            if gap > NOISE_POINTS:
                rises.append(f"{s.adapter}:{s.model} +{gap:.0f} points")
        checks.append(LevelCheck(upper, not rises, rises))
    return checks


def misplaced_items(
    outcomes: list[dict[str, float]], level_of: dict[str, int], min_models: int = 3
) -> list[dict[str, Any]]:
    """Items whose share of models answering sits beyond the neighbouring level's average."""
    if len(outcomes) < min_models:
        return []
    share = {
        item: statistics.fmean(o[item] >= 0.5 for o in outcomes if item in o)
        for item in level_of
        if sum(item in o for o in outcomes) >= min_models
    }
    by_level: dict[int, list[float]] = {}
    for item, value in share.items():
        by_level.setdefault(level_of[item], []).append(value)
    mean = {level: statistics.fmean(v) for level, v in by_level.items()}
    flagged = []
    for item, value in sorted(share.items()):
        level = level_of[item]
        if level - 1 in mean and value > mean[level - 1]:
            flagged.append({"id": item, "level": level, "share": value, "reads_as": "easier"})
        elif level + 1 in mean and value < mean[level + 1]:
            flagged.append({"id": item, "level": level, "share": value, "reads_as": "harder"})
    return flagged
