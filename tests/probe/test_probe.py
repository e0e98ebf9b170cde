"""The probe, audit and gate on small hand-made ledgers, the judge parser, and the CLI."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import ladderbench
from ladderbench.errors import UserError
from ladderbench.probe import audit, gate, load_rungs, probe, resolve
from ladderbench.probe.gate import clopper_pearson
from ladderbench.probe.graders import GraderOutputError, coerce
from ladderbench.probe.judge import load_template, parse_score, reference_text
from ladderbench.probe.rungs import Rung
from ladderbench.testing.fake_openai import FakeOpenAI

CASE = {"question": "What is 2 + 2?", "choices": ["3", "4", "5", "22"], "gold": "B"}
ANSWERS = [
    ("I would rather not say.", "no letter", "refuses"),
    ("(C)", "C", "wrong letter"),
    ("The answer is B... no wait, C.", "C", "retracts the right answer"),
    ("Answer: b", "B", "lower case letter"),
    ("The answer is (B).", "B", None),
]


def ladder(case_id="l1_99", answers=ANSWERS):
    return [
        Rung(
            case_id=case_id,
            level=i,
            answer=a,
            evidence=e,
            defect=d,
            **{**CASE, "question": f"{CASE['question']} (case {case_id})"},
        )
        for i, (a, e, d) in enumerate(answers)
    ]


def write_rungs(path, rungs):
    path.write_text("".join(json.dumps(r.model_dump()) + "\n" for r in rungs))
    return path


def length_grader(case, answer):
    """A broken grader: longer answers score higher."""
    return min(1.0, len(answer) / 30)


def test_builtin_grader_passes_a_sound_ladder():
    ledger = probe(ladder(), resolve("static.choice"), repeats=3, name="static.choice")
    report = audit(ledger)
    verdict = gate(ledger, report)
    assert [r.median for r in ledger.rows] == [0.0, 0.0, 0.0, 1.0, 1.0]
    assert all(r.stable and r.cited for r in ledger.rows)
    assert verdict.passed and report.cases[0].tau > 0.5 and report.cases[0].spread == 1.0


def test_a_grader_that_rewards_length_is_held():
    ledger = probe(ladder(), length_grader, repeats=3, name="length")
    report = audit(ledger)
    case = report.cases[0]
    assert case.inverted
    assert [inv.rewarded for inv in case.adjacent] == ["refuses", "retracts the right answer"]
    verdict = gate(ledger, report)
    assert not verdict.passed and "inversion rate 100.0%" in verdict.reasons[0]
    assert verdict.cited_ratio is None  # no reasons given: the cited ratio does not apply


def test_inversion_must_exceed_the_noise_of_the_repeats():
    import itertools

    wobble = itertools.cycle([0.4, 0.6, 0.5])
    rungs = ladder(answers=ANSWERS[:3])

    def noisy(case, answer):
        return 0.55 if answer == rungs[0].answer else next(wobble)

    report = audit(probe(rungs, noisy, repeats=3))
    assert not report.cases[0].inverted and report.cases[0].unstable


def test_grader_errors_are_recorded_not_raised():
    def flaky(case, answer):
        if "wait" in answer:
            raise RuntimeError("boom")
        return 2.0 if answer.startswith("Answer") else 0.0

    ledger = probe(ladder(), flaky, repeats=2)
    errors = {r.level: r.error for r in ledger.rows if r.error}
    assert errors == {
        2: "RuntimeError: boom",
        3: "GraderOutputError: grader returned 2.0: scores must be in [0, 1]",
    }
    assert audit(ledger).cases[0].errors == 2


def test_a_grader_that_errors_on_some_rungs_is_held():
    """The issue's grader raised on 6 of 9 rungs and passed: its scored rungs were monotone."""
    rungs = ladder("a", ANSWERS[:3]) + ladder("b", ANSWERS[:3]) + ladder("c", ANSWERS[:3])

    def raises_above_level_0(case, answer):
        if answer != ANSWERS[0][0]:
            raise KeyError("gold")
        return 0.0

    ledger = probe(rungs, raises_above_level_0, repeats=2)
    verdict = gate(ledger, audit(ledger))
    assert not verdict.passed
    assert verdict.reasons == ["6 of 9 rungs errored (first: case a level 1: KeyError: 'gold')"]
    one_bad_score = probe(ladder(), lambda case, answer: float("nan") if "b" in answer else 0.0)
    assert not gate(one_bad_score, audit(one_bad_score)).passed


@pytest.mark.parametrize(
    "value, score, reason",
    [
        (1, 1.0, ""),
        (0.5, 0.5, ""),
        ((0.25, "r"), 0.25, "r"),
        ({"score": 1, "reason": "ok"}, 1.0, "ok"),
    ],
)
def test_coerce_accepts_the_documented_shapes(value, score, reason):
    grade = coerce(value)
    assert (grade.score, grade.reason) == (score, reason)


@pytest.mark.parametrize("value", ["0.5", None, True, float("nan"), -0.1, 1.5, (1, 2, 3)])
def test_coerce_rejects_non_scores(value):
    with pytest.raises(GraderOutputError):
        coerce(value)


def test_uncited_reasons_fail_the_cited_ratio():
    def vague(case, answer):
        return (1.0 if "B" in answer.upper() and "C" not in answer else 0.0, "looks fine")

    ledger = probe(ladder(), vague, repeats=1)
    verdict = gate(ledger, audit(ledger))
    assert verdict.cited_ratio == 0.0 and not verdict.passed


def _gate_over(cases: int, inverted: int):
    """The gate of `cases` cases, the first `inverted` of them graded by length (inverted)."""
    rungs = [rung for n in range(cases) for rung in ladder(f"c{n}")]
    flipped = {f"c{n}" for n in range(inverted)}
    right = {answer for answer, _, _ in ANSWERS[3:]}

    def grade(case, answer):
        if case["case_id"] in flipped:
            return length_grader(case, answer)
        return 1.0 if answer in right else 0.0

    ledger = probe(rungs, grade, repeats=1)
    assert [row.error for row in ledger.rows if row.error] == []
    return gate(ledger, audit(ledger), coverage=0.02)


def test_clopper_pearson_known_values():
    # closed forms at the edges: (alpha/2)^(1/n); 2 of 7 as R's binom.test(2, 7) gives it
    assert clopper_pearson(0, 7) == (0.0, pytest.approx(1 - 0.025 ** (1 / 7)))
    assert clopper_pearson(7, 7) == (pytest.approx(0.025 ** (1 / 7)), 1.0)
    lo, hi = clopper_pearson(2, 7)
    assert lo == pytest.approx(0.03669, abs=1e-5) and hi == pytest.approx(0.70958, abs=1e-5)
    assert clopper_pearson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        clopper_pearson(8, 7)


@given(st.integers(1, 300), st.data())
def test_clopper_pearson_contains_the_estimate_and_is_never_a_point(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = clopper_pearson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0 and hi - lo > 0.0


def test_gate_interval_when_every_case_passes():
    # a bootstrap of seven all-pass cases said "95% CI 0.0%-0.0%"; seven cases bound it at 41%
    verdict = _gate_over(cases=7, inverted=0)
    assert verdict.inverted_cases == 0 and verdict.cases == 7 and verdict.coverage == 0.02
    assert verdict.inversion_ci95 == (0.0, pytest.approx(1 - 0.025 ** (1 / 7)))
    assert verdict.describe_inversions() == "0 of 7 cases inverted (95% upper bound 41.0%)"


def test_gate_interval_when_every_case_fails():
    verdict = _gate_over(cases=7, inverted=7)
    assert verdict.inversion_ci95 == (pytest.approx(0.025 ** (1 / 7)), 1.0)
    assert verdict.describe_inversions() == "7 of 7 cases inverted (95% lower bound 59.0%)"


def test_gate_interval_when_some_cases_fail():
    verdict = _gate_over(cases=7, inverted=2)
    assert verdict.inversion_ci95 == (
        pytest.approx(0.0367, abs=1e-4),
        pytest.approx(0.7096, abs=1e-4),
    )
    assert verdict.describe_inversions() == "2 of 7 cases inverted: 28.6% (95% CI 3.7%–71.0%)"


def test_gate_with_no_cases_bounds_nothing():
    ledger = probe([], resolve("static.choice"), repeats=1)
    verdict = gate(ledger, audit(ledger))
    assert verdict.inversion_ci95 == (0.0, 1.0)
    assert verdict.describe_inversions() == "0 of 0 cases inverted"


def test_rungs_loader_errors_and_warnings(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"case_id": "x", "level": -1, "answer": "a"}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:1: field 'level'"):
        load_rungs(bad)
    bad.write_text('{"case_id": "x", "answer": "a"}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:1: field 'level': Field required"):
        load_rungs(bad)
    bad.write_text("nope\n")
    with pytest.raises(UserError, match=r"bad.jsonl:1: not valid JSON"):
        load_rungs(bad)
    thin = write_rungs(tmp_path / "thin.jsonl", [*ladder()[:2], ladder()[1]])
    _, warnings = load_rungs(thin)
    assert "two rungs at level 1" in warnings[0]
    _, warnings = load_rungs(write_rungs(tmp_path / "two.jsonl", ladder()[:2]))
    assert "only 2 rung(s)" in warnings[0]


@pytest.mark.parametrize(
    "reply, score",
    [
        ("Correct.\nScore: 10", 1.0),
        ("Score: 7/10", 0.7),
        ("score = 0", 0.0),
        ("**Score:** 4", 0.4),
        ("Score: 0.5", 0.5),
        ("Score: 3 ... on reflection Score: 9", 0.9),
        ("no number here", None),
        ("Score: 42", None),
    ],
)
def test_parse_score(reply, score):
    assert parse_score(reply) == score


def test_reference_text_and_templates(tmp_path):
    assert reference_text(CASE) == "(B) 4"
    assert reference_text({"expected": "1234"}) == "1234"
    bad = tmp_path / "t.txt"
    bad.write_text("Grade {answr}")
    with pytest.raises(UserError, match="use the fields"):
        load_template(bad)
    bad.write_text("Grade {answer} against {reference}")
    assert load_template(bad) == "Grade {answer} against {reference}"


def test_cli_exit_codes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "graders.py").write_text(
        "def by_length(case, answer):\n    return min(1.0, len(answer) / 30)\n"
        "def explodes(case, answer):\n    raise ValueError('nope')\n"
    )
    rungs = write_rungs(tmp_path / "rungs.jsonl", ladder("a") + ladder("b"))
    ok = ladderbench(
        "probe",
        "--ladders",
        str(rungs),
        "--grade",
        "static.choice",
        "--out",
        "ledger.json",
        "--suite",
        "static",
        cwd=tmp_path,
    )
    assert ok.returncode == 0, ok.stderr
    assert "PASS" in ok.stdout and "coverage 0.0%" in ok.stdout
    assert "0 of 2 cases inverted (95% upper bound 84.2%)" in ok.stdout
    saved = json.loads((tmp_path / "ledger.json").read_text())
    assert saved["gate"]["passed"] and len(saved["ledger"]["rows"]) == 10
    held = ladderbench(
        "probe", "--ladders", str(rungs), "--grade", "graders:by_length", cwd=tmp_path
    )
    assert (
        held.returncode == 1
        and "HOLD" in held.stdout
        and "retracts the right answer" in held.stdout
    )
    broken = ladderbench(
        "probe", "--ladders", str(rungs), "--grade", "graders:explodes", cwd=tmp_path
    )
    assert broken.returncode == 1 and "ValueError: nope" in broken.stdout
    for args, message in [
        (["--grade", "nomodule:fn"], "cannot import 'nomodule'"),
        (["--grade", "graders:missing"], "has no callable 'missing'"),
        (["--grade", "no.such"], "no such built-in grader"),
        ([], "give exactly one of --grade"),
    ]:
        proc = ladderbench("probe", "--ladders", str(rungs), *args, cwd=tmp_path)
        assert proc.returncode == 2 and message in proc.stderr, (args, proc.stderr)


def test_judge_through_the_runner_with_a_fake_judge(tmp_path, monkeypatch):
    """A judge that prefers confident phrasing is caught; its calls are cached and resumable."""
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    rungs = write_rungs(tmp_path / "rungs.jsonl", ladder("a") + ladder("b"))

    def judge(prompt):
        answer = prompt.split("Answer to grade:\n", 1)[1].split("\n\nFirst write", 1)[0]
        confident = "wait" in answer or "(C)" in answer
        return f"The answer says {answer!r}.\nScore: {9 if confident else 2}"

    with FakeOpenAI(reply=judge) as server:
        args = [
            "probe",
            "--ladders",
            str(rungs),
            "--judge-model",
            "openai:judge",
            "--base-url",
            server.base_url,
            "--repeats",
            "2",
            "--out",
            str(tmp_path / "ledger.json"),
            "--quiet",
        ]
        proc = ladderbench(*args)
        asked = len(server.requests)
        again = ladderbench(*args)
        assert len(server.requests) == asked  # resumed: nothing asked twice
    assert asked == 20
    assert proc.returncode == 1 and again.returncode == 1 and "HOLD" in proc.stdout
    saved = json.loads((tmp_path / "ledger.json").read_text())
    assert saved["ledger"]["givesReasons"] and saved["gate"]["inversion_rate"] == 1.0
    assert (tmp_path / "ledger.calls.jsonl").exists()
