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
            constraints.append(((p,), lambda t, p=p, v=value: t[p] == v))
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
                        (
                            (speaker, *args),
                            lambda t, sp=speaker, f=pred, a=args: t[sp] == bool(f(t, *a)),
                        )
                    )
                    break
            else:
                raise AssertionError(f"unparsed claim {s!r}")
            continue
        assert re.search(r"\b(thinks|heard|saw|wearing)\b", s), f"unexpected sentence {s!r}"
        assert " says " not in s
        herrings += 1
    asked = re.findall(r"^\d+\. Does the person at the (.+) tell the truth\?$", prompt, re.M)
    if n > 10:
        return [answer_by_search(places, constraints, place) for place in asked]
    models = []
    for values in itertools.product((True, False), repeat=n):
        t = dict(zip(places, values))
        if all(c(t) for _, c in constraints):
            models.append(t)
    assert models, "no consistent assignment"
    answers = []
    for place in asked:
        seen = {m[place] for m in models}
        answers.append("unknown" if len(seen) == 2 else "yes" if True in seen else "no")
    return answers


def answer_by_search(places: list[str], constraints: list, place: str) -> str:
    """yes / no / unknown for one person, by asking a backtracking search for a consistent
    assignment with that person honest, then with them lying (too many people to enumerate)."""
    # Order: people of the facts first, then always the one most tied to those already ordered.
    order: list[str] = []
    while len(order) < len(places):
        done = set(order)

        def ties(p: str, done: set[str] = done) -> tuple[int, str]:
            return (-sum(p in vs and set(vs) - {p} <= done for vs, _ in constraints), p)

        order.append(min((p for p in places if p not in done), key=ties))
    rank = {p: i for i, p in enumerate(order)}
    checks_at: dict[str, list] = {p: [] for p in places}
    for vs, pred in constraints:
        checks_at[max(vs, key=rank.__getitem__)].append(pred)

    def model_exists(fixed: str, value: bool) -> bool:
        t: dict[str, bool] = {}

        def go(i: int) -> bool:
            if i == len(order):
                return True
            p = order[i]
            for v in (value,) if p == fixed else (True, False):
                t[p] = v
                if all(c(t) for c in checks_at[p]) and go(i + 1):
                    return True
            del t[p]
            return False

        return go(0)

    can = [model_exists(place, True), model_exists(place, False)]
    assert any(can), "no consistent assignment"
    return "unknown" if all(can) else "yes" if can[0] else "no"


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


def test_all_or_nothing() -> None:
    flip = {"yes": "no", "no": "unknown", "unknown": "yes"}
    for index in INDICES:
        rec = record(make(index))
        truth = rec["ground_truth"].split(", ")
        for n_wrong in range(4):
            answer = truth[: 3 - n_wrong] + [flip[t] for t in truth[3 - n_wrong :]]
            got = TASK.score(rec, f"<solution>{', '.join(answer)}</solution>").score
            assert got == float(n_wrong == 0), (index, answer)


def test_blanket_guesses_score_about_the_chance_of_a_full_guess() -> None:
    """Answering the same word everywhere scores only where every answer happens to be it
    (the partial-credit scorer gave "yes" everywhere about 0.4)."""
    for guess in ("yes", "no", "unknown"):
        scores = []
        for index in INDICES:
            rec = record(make(index))
            scores.append(TASK.score(rec, f"<solution>{guess}, {guess}, {guess}</solution>").score)
        assert sum(scores) / len(scores) < 0.1, (guess, sum(scores))


def test_wrong_shapes_score_zero() -> None:
    rec = {"ground_truth": "yes, no, unknown", "subtask": "chain"}
    assert TASK.score(rec, "").score == 0.0
    assert TASK.score(rec, "I can't help with that").score == 0.0
    assert TASK.score(rec, "<solution>yes, no, unknown, yes</solution>").score == 0.0  # too many
    assert TASK.score(rec, "<solution>yes, no</solution>").score == 0.0  # one missing
    assert TASK.score(rec, "<solution>yes, yes, yes</solution>").score == 0.0
    assert TASK.score(rec, "<solution>yes, no, yes</solution>").score == 0.0
    retracted = "<solution>yes, no, unknown</solution> Hmm, no: <solution>no, no, no</solution>"
    assert TASK.score(rec, retracted).score == 0.0
    assert TASK.score(rec, "<solution>Yes, No, Unknown</solution>").score == 1.0


# ---------------------------------------------------------------- difficulty

SEEDS = range(6)
LEVELS = checks.HARDER_LEVELS


@cache
def make_at(difficulty: int, index: int) -> Question:
    return make_question(TASK, index, difficulty=difficulty)


@pytest.mark.parametrize("difficulty", LEVELS)
def test_harder_questions_rederived_from_prompt(difficulty: int) -> None:
    for index in SEEDS:
        q = make_at(difficulty, index)
        derived = derive(q.prompt)
        assert derived == q.ground_truth.split(", "), (difficulty, index)
        assert "unknown" in derived and len(derived) == 3 + difficulty // 2
        n = int(re.search(r"There are (\d+) people", q.prompt).group(1))
        assert q.fields["people"] == n >= 10 + 2 * difficulty
        rec = record(q)
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0


def test_search_grows_with_difficulty() -> None:
    """People (so the 2^n assignments), the chain from the fact, the solver's nodes and the
    number of questions all grow with d."""

    def mean(d: int, key: str) -> float:
        return sum(make_at(d, i).fields[key] for i in SEEDS) / len(SEEDS)

    for key in ("people", "search_space_log10", "search_nodes", "chain_depth", "knots"):
        means = [mean(d, key) for d in (1, 4, 8, 12, 20)]
        assert means == sorted(means) and means[0] < means[-1], (key, means)
    assert mean(8, "search_space_log10") > 7  # past ZebraLogic's ~10^7 collapse point
    assert mean(2, "knots") == 0 < mean(4, "knots")


def test_difficulty_zero_is_v1() -> None:
    """d = 0 is the v1 generator: no difficulty fields, 5-8 people, three questions."""
    for index in range(8):
        q = make(index)
        assert q == make_question(TASK, index, difficulty=0)
        assert set(q.fields) == {"people", "asked"}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["yes", "no", "unknown", "true", ",", " ", "\n", "<solution>"])))
def test_score_never_raises_on_answer_like_text(parts: list[str]) -> None:
    checks.assert_scores_in_range(TASK, [record(make(1))], ["".join(parts)])


def test_malformed_record_scores_zero() -> None:
    assert TASK.score({}, "<solution>yes, no, yes</solution>").score == 0.0
    assert TASK.score({"ground_truth": None}, "<solution>yes</solution>").score == 0.0
