"""Breaking-point search: which difficulties of each family to try next, given the answers so far.

Instead of a full grid (every family at every difficulty with every seed), each family is probed
in batches: first climbing ``d = 0, 1, 3, 7, 15, ...`` until a batch is mostly failed, then testing
the difficulty where the fitted pass rate is least certain, until the highest cleared difficulty
and the 50% crossing are pinned down (95% intervals at most ``CLEARED_WIDTH`` and ``D50_WIDTH``
wide) or the family's budget of calls is spent.

The search is a pure function of the answers of earlier rounds: a resumed run recomputes the
same rounds from its rows and carries on where it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ladderbench.analysis.breaking import Posterior, tier_estimate
from ladderbench.analysis.summary import CLEARED

Observations = Mapping[int, Sequence[bool]]  # difficulty -> passed, in seed order


@dataclass(frozen=True)
class SearchConfig:
    """How hard to look: the batch size, the budget per family, and when a search is done."""

    batch: int = 4
    budget: int = 48  # calls per family, errored ones included
    max_difficulty: int = 31  # the climb's last step (0, 1, 3, 7, 15, 31)
    cleared_width: int = 1  # stop when the 95% interval of the cleared difficulty spans <= this
    d50_width: float = 2.0  # ... and that of the 50% crossing spans <= this


def _scored(observations: Observations) -> dict[int, tuple[int, int]]:
    return {d: (len(v), sum(v)) for d, v in observations.items() if v}


def next_batch(
    observations: Observations, asked: Mapping[int, int], seeds: int, config: SearchConfig
) -> tuple[int, int] | None:
    """The next (difficulty, count) to ask for one family, or None when its search is done.

    ``asked`` counts the attempts made at each difficulty (errored ones too); ``seeds`` is how
    many instances exist per difficulty.
    """
    spent = sum(asked.values())
    room = min(config.batch, config.budget - spent)
    if room <= 0:
        return None
    counts = _scored(observations)
    if not asked:
        return (0, min(room, seeds))
    if not counts:
        return None  # every attempt errored: nothing to steer by
    top = max(asked)
    mostly_passed = all(2 * k >= n for n, k in counts.values())
    if mostly_passed and top < config.max_difficulty:
        return (min(2 * top + 1, config.max_difficulty), min(room, seeds))
    posterior = Posterior(counts)
    _, (c_lo, c_hi) = posterior.cleared()
    _, (m_lo, m_hi) = posterior.d50()
    if c_hi - c_lo <= config.cleared_width and m_hi - m_lo <= config.d50_width:
        return None
    candidates = [d for d in range(0, top + 1) if asked.get(d, 0) < seeds]
    if not candidates:
        return None
    best = max(candidates, key=lambda d: (posterior.pass_rate(d)[1], -d))
    return (best, min(room, seeds - asked.get(best, 0)))


Answer = tuple[str, int, int, bool | None]  # family, difficulty, seed index, passed (None: error)
Ask = tuple[str, int, int]  # family, difficulty, seed index
Anchors = Mapping[int, Sequence[tuple[str, int]]]  # tier -> its (family, difficulty) cells


def next_round(
    families: Sequence[str],
    answers: Sequence[Answer],
    seeds: int,
    config: SearchConfig,
    anchors: Anchors | None = None,
) -> list[Ask]:
    """The attempts of the next round; [] when the search is done.

    First each family's breaking point (a batch per family still searching), then, with
    ``anchors``, each tier whose clearing the fits leave in doubt: its cells' instances are asked
    until the tier's pass rate over all ``seeds`` instances per cell is settled either way.
    ``answers`` are those of all earlier rounds; the k-th attempt at a difficulty uses seed index
    k, so no instance is asked twice.
    """
    observations: dict[str, dict[int, list[bool]]] = {f: {} for f in families}
    asked: dict[str, dict[int, int]] = {f: {} for f in families}
    for family, d, index, passed in sorted(answers, key=lambda a: (a[0], a[1], a[2])):
        if family not in asked:
            continue
        asked[family][d] = max(asked[family].get(d, 0), index + 1)
        if passed is not None:
            observations[family].setdefault(d, []).append(passed)
    asks: list[Ask] = []
    for family in families:
        batch = next_batch(observations[family], asked[family], seeds, config)
        if batch:
            d, count = batch
            start = asked[family].get(d, 0)
            asks += [(family, d, index) for index in range(start, start + count)]
    if asks or not anchors:
        return asks
    posteriors = {
        f: Posterior(_scored(observations[f])) for f in families if _scored(observations[f])
    }
    for tier in sorted(anchors):
        cells = anchors[tier]
        if not all(f in posteriors for f, _ in cells):
            continue
        if _tier_in_doubt(cells, asked, observations, posteriors, seeds):
            for family, d in cells:
                start = asked[family].get(d, 0)
                asks += [(family, d, i) for i in range(start, min(seeds, start + config.batch))]
    return asks


def _tier_in_doubt(
    cells: Sequence[tuple[str, int]],
    asked: Mapping[str, Mapping[int, int]],
    observations: Mapping[str, Mapping[int, Sequence[bool]]],
    posteriors: Mapping[str, Posterior],
    seeds: int,
) -> bool:
    """Whether the tier's pass rate over all its instances is within two standard deviations of
    the clearing line while some of its instances are still unasked."""
    if all(asked[f].get(d, 0) >= seeds for f, d in cells):
        return False
    answers = {(f, d): observations[f].get(d, ()) for f, d in cells}
    mean, sd = tier_estimate(cells, answers, posteriors, seeds)
    return abs(mean - CLEARED) <= 2 * sd
