"""The scoring contract's pieces: the static scorer's verdict, verdict/wrong, and guarded."""

import pytest

from ladderbench.grading.choice import score_choice
from ladderbench.grading.scorer import GraderCrash, guarded, verdict, wrong
from ladderbench.items import Item, Verdict

QUESTION = Item(
    id="l1_01",
    prompt="2 + 2 = ?",
    expected="B",
    reference="B",
    choices=("3", "4", "5", "22"),
    level=1,
)


def test_the_gold_letter_scores_one_and_says_what_was_read():
    assert score_choice(QUESTION, "The answer is B.") == Verdict(
        extracted="B", score=1.0, passed=True, explanation="read B; gold B"
    )


def test_another_letter_scores_zero_with_the_letter_kept():
    assert score_choice(QUESTION, "Answer: C") == Verdict(
        extracted="C", score=0.0, passed=False, explanation="read C; gold B"
    )


def test_no_letter_is_a_wrong_answer_that_says_so():
    assert score_choice(QUESTION, "I cannot tell.") == Verdict(
        extracted=None, score=0.0, passed=False, explanation="read no letter; gold B"
    )


@pytest.mark.parametrize(("score", "passed"), [(1.0, True), (0.999, False), (0.0, False)])
def test_a_verdict_passes_only_on_a_full_score(score, passed):
    assert verdict("x", score, "why") == Verdict(
        extracted="x", score=score, passed=passed, explanation="why"
    )
    assert verdict(None, score).explanation == ""


def test_wrong_is_zero_with_its_reason_and_what_was_read():
    assert wrong("no answer found") == Verdict(
        extracted=None, score=0.0, passed=False, explanation="no answer found"
    )
    assert wrong("not a number", "abc") == Verdict(
        extracted="abc", score=0.0, passed=False, explanation="not a number"
    )


def test_a_scorer_that_raises_is_a_grader_crash_naming_the_exception():
    def broken(item: Item, response: str) -> Verdict:
        raise KeyError("answer")

    with pytest.raises(GraderCrash) as caught:
        guarded(broken, QUESTION, "B")
    assert str(caught.value) == "grader crashed: KeyError: 'answer'"
    assert isinstance(caught.value.__cause__, KeyError)


def test_a_crash_message_is_cut_to_300_characters():
    def verbose(item: Item, response: str) -> Verdict:
        raise ValueError("x" * 1000)

    with pytest.raises(GraderCrash) as caught:
        guarded(verbose, QUESTION, "B")
    assert str(caught.value) == ("grader crashed: ValueError: " + "x" * 1000)[:300]
    assert len(str(caught.value)) == 300


def test_guarded_returns_the_scorers_verdict_untouched():
    assert guarded(score_choice, QUESTION, "B") == score_choice(QUESTION, "B")
