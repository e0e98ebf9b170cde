"""The audit's numbers on hand-made ledger rows, counted by hand: inversions, tau, spread, flags."""

import json

import pytest

from ladderbench.probe import Ledger, LedgerRow, audit
from ladderbench.probe.audit import Inversion, audit_case


def row(level, *scores, case="a", defect=None, evidence=None, reasons=(), error=None):
    return LedgerRow(
        case, level, f"answer {level}", defect, evidence, list(scores), list(reasons), error
    )


# Stable rungs 0.25, 0.75, 0.5, 0.625: level 1 beats levels 2 (adjacent) and 3 (not adjacent).
INVERTED = [
    row(0, 0.25, defect="refuses"),
    row(1, 0.75, defect="wrong letter"),
    row(2, 0.5, defect="lower case"),
    row(3, 0.625),
]
# Level 1's repeats disagree (0.25, 0.75); level 2 errored; levels 1 and 3 give reasons that miss
# their evidence; level 4's only reason is blank. Spread 0.75 - 0.5 = 0.25: flat at 0.3.
MESSY = [
    row(0, 0.5, 0.5, case="b", evidence="no letter", reasons=["has no letter", "No letter"]),
    row(1, 0.25, 0.75, case="b", evidence="C", reasons=["wrong", "wrong"]),
    row(2, 1.0, case="b", evidence="C", reasons=["fine"], error="RuntimeError: boom"),
    row(3, 0.75, 0.75, case="b", evidence="B", reasons=["right", "right"]),
    row(4, 0.75, case="b", evidence="B", reasons=[" "]),
]


def test_inversions_name_both_rungs_and_their_medians_and_adjacent_ones_the_rewarded_defect():
    case = audit_case("a", INVERTED, min_spread=0.3)
    assert case.inversions == [Inversion(1, 2, 0.75, 0.5, None), Inversion(1, 3, 0.75, 0.625, None)]
    assert case.adjacent == [Inversion(1, 2, 0.75, 0.5, "wrong letter")]
    assert case.inverted


@pytest.mark.parametrize(
    "worse, better, inverted",
    [
        ([0.5], [0.25, 0.25, 0.5], False),  # drop 0.25, the better rung's noise 0.25
        ([0.5, 1.0], [0.25], False),  # drop 0.5, the worse rung's noise 0.5
        ([0.5, 0.75], [0.25], True),  # drop 0.375 over noise 0.25
        ([0.4], [0.1, 0.3], False),  # drop 0.2 = noise 0.3 - 0.1, which rounds below 0.2
        ([0.5], [0.5], False),
    ],
)
def test_an_inversion_is_a_drop_larger_than_the_noise_of_either_rung(worse, better, inverted):
    case = audit_case("a", [row(0, *worse), row(1, *better)], min_spread=0.3)
    assert case.inverted is inverted
    assert len(case.adjacent) == int(inverted)


def test_rungs_at_the_same_level_are_not_compared():
    case = audit_case("a", [row(0, 0.0), row(1, 1.0), row(1, 0.5)], min_spread=0.3)
    assert case.inversions == [] and case.adjacent == [] and case.rungs == 3


@pytest.mark.parametrize(
    "rows, tau",
    [
        ([row(0, 0.0), row(1, 1.0)], 1.0),
        ([row(0, 1.0), row(1, 0.0)], -1.0),
        ([row(0, 0.5), row(1, 0.5), row(2, 0.5)], None),  # one score: tau-b undefined
        ([row(1, 0.0), row(1, 1.0)], None),  # one level
        ([row(0, 0.0), row(1, error="KeyError: 'gold'")], None),  # one graded rung
        (INVERTED, (4 - 2) / 6),  # 4 concordant, 2 discordant pairs of 6
    ],
)
def test_tau_needs_two_levels_and_two_scores(rows, tau):
    assert audit_case("a", rows, min_spread=0.3).tau == pytest.approx(tau)


@pytest.mark.parametrize(
    "rows, spread, flat",
    [
        ([row(0, 0.25), row(1, 0.75)], 0.5, False),
        ([row(0, 0.25), row(1, 0.5)], 0.25, True),
        ([row(0, 0.0), row(1, 0.3)], 0.3, False),  # equal to min_spread: not below it
        ([row(0, 1.0), row(1, 0.0)], -1.0, True),  # top below bottom
        ([row(0, 0.75), row(1, 1.0, error="boom")], 0.0, True),  # one graded rung: no spread
        ([], 0.0, True),
    ],
)
def test_spread_is_top_minus_bottom_and_flat_is_below_min_spread(rows, spread, flat):
    case = audit_case("a", rows, min_spread=0.3)
    assert case.spread == spread and case.flat is flat


def test_a_case_counts_its_rungs_errors_unstable_and_uncited_rungs():
    case = audit_case("b", MESSY, min_spread=0.3)
    assert (case.case_id, case.rungs, case.errors) == ("b", 5, 1)
    assert case.unstable is True and case.uncited == 2
    assert case.spread == 0.25 and case.flat is True and not case.inverted
    steady = audit_case("a", INVERTED, min_spread=0.3)
    assert steady.unstable is False and steady.uncited == 0 and steady.errors == 0


def test_audit_keeps_cases_in_first_seen_order_and_reports_its_min_spread():
    report = audit(Ledger("g", 1, [*MESSY[:2], *INVERTED, *MESSY[2:]]), min_spread=0.5)
    assert [c.case_id for c in report.cases] == ["b", "a"]
    assert [c.rungs for c in report.cases] == [5, 4]
    assert report.min_spread == 0.5 and report.cases[1].flat is True  # spread 0.375 < 0.5


def test_report_to_dict_is_the_json_a_user_reads():
    report = audit(Ledger("g", 2, [*INVERTED, *MESSY]))
    inversion = {"worse_level": 1, "better_level": 2, "worse_score": 0.75, "better_score": 0.5}
    expected = {
        "minSpread": 0.3,
        "cases": 2,
        "invertedCases": 1,
        "inversionRate": 0.5,
        "flatCases": 1,
        "unstableCases": 1,
        "uncitedRungs": 2,
        "erroredRungs": 1,
        "byCase": [
            {
                "case_id": "a",
                "rungs": 4,
                "inversions": [
                    {**inversion, "rewarded": None},
                    {**inversion, "better_level": 3, "better_score": 0.625, "rewarded": None},
                ],
                "adjacent": [{**inversion, "rewarded": "wrong letter"}],
                "tau": pytest.approx(1 / 3),
                "spread": 0.375,
                "flat": False,
                "unstable": False,
                "uncited": 0,
                "errors": 0,
            },
            {
                "case_id": "b",
                "rungs": 5,
                "inversions": [],
                "adjacent": [],
                # pairs of levels 0, 1, 3, 4: 4 concordant, 2 tied in score, none tied in level
                "tau": pytest.approx(4 / (6 * 4) ** 0.5),
                "spread": 0.25,
                "flat": True,
                "unstable": True,
                "uncited": 2,
                "errors": 1,
            },
        ],
    }
    assert json.loads(json.dumps(report.to_dict())) == expected


def test_an_empty_report_has_no_inversion_rate():
    assert audit(Ledger("g", 1, [])).to_dict() == {
        "minSpread": 0.3,
        "cases": 0,
        "invertedCases": 0,
        "inversionRate": 0.0,
        "flatCases": 0,
        "unstableCases": 0,
        "uncitedRungs": 0,
        "erroredRungs": 0,
        "byCase": [],
    }
