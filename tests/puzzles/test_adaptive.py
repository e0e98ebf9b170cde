"""The breaking-point search: which difficulties it asks, and that it finds the fall."""

import hashlib
import math

from ladderbench.analysis.breaking import Posterior
from ladderbench.puzzles.adaptive import SearchConfig, next_batch, next_round

CONFIG = SearchConfig()


def simulated(family: str, d: int, index: int, d50: float, slope: float = 2.0) -> bool:
    """A model whose pass rate falls logistically; each instance's answer fixed by a hash."""
    p = 1 / (1 + math.exp(-slope * (d50 - d)))
    draw = int.from_bytes(hashlib.sha256(f"{family}|{d}|{index}".encode()).digest()[:8], "big")
    return draw / 2**64 < p


def search(truth: dict[str, float], anchors=None, seeds: int = 16):
    answers = []
    rounds = 0
    while asks := next_round(sorted(truth), answers, seeds, CONFIG, anchors):
        rounds += 1
        assert len(set(asks)) == len(asks)
        assert not {a[:3] for a in answers} & set(asks), "an instance asked twice"
        answers += [(f, d, i, simulated(f, d, i, truth[f])) for f, d, i in asks]
    return answers, rounds


def test_the_search_climbs_then_settles_near_the_true_fall_within_budget():
    truth = {"easy": 1.5, "mid": 6.5, "hard": 17.0}
    answers, rounds = search(truth)
    for family, d50 in truth.items():
        mine = [(d, p) for f, d, _, p in answers if f == family]
        assert len(mine) <= CONFIG.budget
        counts = {}
        for d, p in mine:
            n, k = counts.get(d, (0, 0))
            counts[d] = (n + 1, k + p)
        curve = Posterior(counts).curve()
        assert curve.d50_ci[0] - 1 <= d50 <= curve.d50_ci[1] + 1, (family, curve)
        assert {0, 1, 3} <= set(counts)  # the climb
    assert rounds < 20


def test_the_first_round_asks_every_family_at_difficulty_zero():
    asks = next_round(["a", "b"], [], 16, CONFIG)
    assert asks == [("a", 0, i) for i in range(4)] + [("b", 0, i) for i in range(4)]


def test_the_same_answers_give_the_same_round_in_any_order():
    answers, _ = search({"a": 4.0})
    assert next_round(["a"], answers[:10], 16, CONFIG) == next_round(
        ["a"], list(reversed(answers[:10])), 16, CONFIG
    )


def test_errors_use_up_instances_but_do_not_count_as_answers():
    answers = [("a", 0, i, None) for i in range(4)]
    assert next_batch({}, {0: 4}, 16, CONFIG) is None  # nothing scored: nothing to steer by
    asks = next_round(["a"], answers, 16, CONFIG)
    assert asks == []


def test_a_spent_budget_or_pool_stops_the_family():
    assert next_batch({0: [True] * 4}, {0: 48}, 16, CONFIG) is None
    small = SearchConfig(budget=4)
    assert next_batch({0: [True] * 4}, {0: 4}, 16, small) is None


def test_a_tier_left_in_doubt_by_the_fits_has_its_instances_asked():
    truth = {"a": 5.0, "b": 5.0}
    anchors = {0: [("a", 0), ("b", 0)], 1: [("a", 4), ("b", 4)], 2: [("a", 20), ("b", 20)]}
    answers, _ = search(truth, anchors)
    asked_at_4 = {(f, i) for f, d, i, _ in answers if d == 4}
    # p(4) = 0.88 for slope 2: the tier sits on the clearing line, so all 16 seeds are asked
    assert asked_at_4 == {(f, i) for f in "ab" for i in range(16)}
    assert not [a for a in answers if a[1] == 20]  # far above the fall: the fits settle it


def test_a_pool_smaller_than_a_batch_is_never_asked_past_its_last_seed():
    """``--adaptive --seeds 1-3`` asked seed indices 3 and up (an IndexError in the suite)."""
    assert next_round(["a"], [], 3, CONFIG) == [("a", 0, i) for i in range(3)]
    passed = [("a", 0, i, True) for i in range(3)]
    assert next_round(["a"], passed, 3, CONFIG) == [("a", 1, i) for i in range(3)]
    answers, _ = search({"a": 4.0, "b": 9.0}, seeds=2)
    assert max(i for _, _, i, _ in answers) == 1
