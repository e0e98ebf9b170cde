"""web_of_lies: every answer is re-derived from the prompt text by enumerating truth assignments."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record

from ladderbench.live.base import Question
from ladderbench.live.tasks.web_of_lies import WebOfLies

TASK = WebOfLies()


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def derive(prompt: str) -> list[str]:
    """Parse the story, enumerate every truth assignment, answer the questions."""
    n = int(re.search(r"There are (\d+) people", prompt).group(1))
    story = prompt.split("\n\nQuestions:\n")[0].rsplit("\n\n", 1)[1]
    sentences = re.split(r"(?<=\.) ", story)
    place_of = {}
    for s in sentences:
        m = re.fullmatch(r"([A-Z][a-z]+) is at the ([a-z ]+)\.", s)
        if m:
            assert m.group(1) not in place_of and m.group(2) not in place_of.values()
            place_of[m.group(1)] = m.group(2)
    assert len(place_of) == n
    places = sorted(place_of.values())
    # A mention: a name, or "the person at the <place>" for a place that was introduced.
    ref_pattern = "(?:{}|[Tt]he person at the (?:{}))".format(
        "|".join(place_of), "|".join(re.escape(p) for p in places)
    )

    def who(ref: str) -> str:
        ref = ref[0].lower() + ref[1:] if ref.startswith("The person") else ref
        if ref.startswith("the person at the "):
            place = ref.removeprefix("the person at the ")
            assert place in places, ref
            return place
        return place_of[ref]

    R = ref_pattern
    claim_forms = [
        (rf"({R}) tells the truth", lambda t, x: t[x]),
        (rf"({R}) lies", lambda t, x: not t[x]),
        (rf"both ({R}) and ({R}) tell the truth", lambda t, x, y: t[x] and t[y]),
        (rf"at least one of ({R}) and ({R}) lies", lambda t, x, y: not (t[x] and t[y])),
        (rf"both ({R}) and ({R}) lie", lambda t, x, y: not t[x] and not t[y]),
        (rf"at least one of ({R}) and ({R}) tells the truth", lambda t, x, y: t[x] or t[y]),
        (
            rf"({R}) and ({R}) either both tell the truth or both lie",
            lambda t, x, y: t[x] == t[y],
        ),
        (rf"exactly one of ({R}) and ({R}) tells the truth", lambda t, x, y: t[x] != t[y]),
    ]
    constraints = []  # predicates over {place: tells the truth}
    herrings = 0
    for s in sentences:
        if re.fullmatch(r"([A-Z][a-z]+) is at the ([a-z ]+)\.", s):
            continue
        m = re.fullmatch(rf"({R}) (tells the truth|lies)\.", s)
        if m:
            p, value = who(m.group(1)), m.group(2) == "tells the truth"
            constraints.append(lambda t, p=p, v=value: t[p] == v)
            continue
        m = re.fullmatch(rf"({R}) says (.+)\.", s)
        if m:
            speaker = who(m.group(1))
            for pattern, pred in claim_forms:
                c = re.fullmatch(pattern, m.group(2))
                if c:
                    args = [who(a) for a in c.groups()]
                    assert speaker not in args and len(set(args)) == len(args), s
                    constraints.append(
                        lambda t, sp=speaker, f=pred, a=args: t[sp] == bool(f(t, *a))
                    )
                    break
            else:
                raise AssertionError(f"unparsed claim {s!r}")
            continue
        assert re.search(r"\b(thinks|heard|saw|wearing)\b", s), f"unexpected sentence {s!r}"
        assert " says " not in s
        herrings += 1
    models = []
    for values in itertools.product((True, False), repeat=n):
        t = dict(zip(places, values))
        if all(c(t) for c in constraints):
            models.append(t)
    assert models, "no consistent assignment"
    answers = []
    for place in re.findall(r"^\d+\. Does the person at the (.+) tell the truth\?$", prompt, re.M):
        seen = {m[place] for m in models}
        answers.append("unknown" if len(seen) == 2 else "yes" if True in seen else "no")
    return answers


def test_ground_truth_rederived_from_prompt() -> None:
    counts: Counter[str] = Counter()
    subtasks = Counter()
    for index in INDICES:
        q = make(index)
        derived = derive(q.prompt)
        assert derived == q.ground_truth.split(", "), index
        assert len(derived) == 3
        counts.update(derived)
        subtasks[q.subtask] += 1
        n = int(re.search(r"There are (\d+) people", q.prompt).group(1))
        assert 5 <= n <= 8 and q.fields["people"] == n
    assert min(counts.values()) >= 20, counts  # yes, no and unknown all occur often
    assert set(subtasks) == {"chain", "web", "tangle"}


def _variants(truth: list[str]) -> list[str]:
    spelled = {"yes": "Yes", "no": "No", "unknown": "Cannot be determined"}
    return [
        "Answer: " + ", ".join(truth),
        "<solution>" + " ".join(truth).upper() + "</solution>",
        "<solution>\n" + "\n".join(f"{i}. {v}" for i, v in enumerate(truth, 1)) + "\n</solution>",
        "<solution>" + ", ".join(f"**{v}**" for v in truth) + "</solution>",
        "<solution>" + "; ".join(spelled[v] for v in truth) + ".</solution>",
        "**" + ", ".join(truth) + "**",
        "\\boxed{" + ", ".join(truth) + "}",
        "<think>no idea yes</think>The answers are <solution>"
        + ", ".join(f"Q{i}: {v}" for i, v in enumerate(truth, 1))
        + "</solution>",
    ]


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        q = make(index)
        for variant in _variants(q.ground_truth.split(", ")):
            assert TASK.score(record(q), variant).score == 1.0, (index, variant)


def test_true_false_words_are_read_when_no_yes_no_is_given() -> None:
    rec = {"ground_truth": "yes, no, unknown", "subtask": "chain"}
    assert TASK.score(rec, "<solution>truthful, liar, unknown</solution>").score == 1.0
    assert TASK.score(rec, "<solution>true, false, undetermined</solution>").score == 1.0


def test_fraction_correct() -> None:
    flip = {"yes": "no", "no": "unknown", "unknown": "yes"}
    for index in INDICES:
        rec = record(make(index))
        truth = rec["ground_truth"].split(", ")
        for n_wrong in range(4):
            answer = truth[: 3 - n_wrong] + [flip[t] for t in truth[3 - n_wrong :]]
            got = TASK.score(rec, f"<solution>{', '.join(answer)}</solution>").score
            assert got == pytest.approx((3 - n_wrong) / 3), (index, answer)


def test_wrong_shapes_score_below_one() -> None:
    rec = {"ground_truth": "yes, no, unknown", "subtask": "chain"}
    assert TASK.score(rec, "").score == 0.0
    assert TASK.score(rec, "I can't help with that").score == pytest.approx(0.0)
    assert TASK.score(rec, "<solution>yes, no, unknown, yes</solution>").score == 0.0  # too many
    assert TASK.score(rec, "<solution>yes, no</solution>").score == pytest.approx(
        2 / 3
    )  # one missing
    assert TASK.score(rec, "<solution>yes, yes, yes</solution>").score == pytest.approx(1 / 3)
    assert TASK.score(rec, "<solution>yes, no, yes</solution>").score == pytest.approx(2 / 3)
    retracted = "<solution>yes, no, unknown</solution> Hmm, no: <solution>no, no, no</solution>"
    assert TASK.score(rec, retracted).score == pytest.approx(1 / 3)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["yes", "no", "unknown", "true", ",", " ", "\n", "<solution>"])))
def test_score_never_raises_on_answer_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], ["".join(parts)])


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>yes, no, yes</solution>").score == 0.0
    assert TASK.score({"ground_truth": None}, "<solution>yes</solution>").score == 0.0
