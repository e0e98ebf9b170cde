"""The judge-versus-ground-truth study: counts of false accepts and false rejects per task."""

import json

import pytest

from cli_helpers import ladderbench
from helpers import make_row
from ladderbench.live.judge_study import parse_verdict
from ladderbench.testing.fake_openai import FakeOpenAI


def live_rows():
    rows = []
    for i in range(6):
        right = i % 2 == 0
        rows.append(
            make_row(
                f"z{i}",
                suite="live",
                level=None,
                category="reasoning",
                task="zebra",
                prompt=f"Who owns the fish? ({i})",
                expected="Alice",
                response="Alice" if right else "Bob",
                score=1.0 if right else 0.0,
                passed=right,
            )
        )
    rows.append(
        make_row(
            "m0",
            suite="live",
            level=None,
            category="math",
            task="amps_hard",
            prompt="d/dx x^2",
            expected="2*x",
            response="2x",
            score=1.0,
        )
    )
    return rows


@pytest.mark.parametrize(
    "reply, verdict",
    [
        ("Looks right.\nVerdict: 1", 1),
        ("verdict=0", 0),
        ("**Verdict:** 1", 1),
        ("Verdict: 1 ... no. Verdict: 0", 0),
        ("I think it is fine", None),
        ("Verdict: 7", None),
    ],
)
def test_parse_verdict(reply, verdict):
    assert parse_verdict(reply) == verdict


def test_a_judge_that_accepts_everything_shows_its_false_accepts(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    results = tmp_path / "live.jsonl"
    results.write_text("".join(json.dumps(r.to_json_dict()) + "\n" for r in live_rows()))
    with FakeOpenAI(reply=lambda prompt: "The answer matches.\nVerdict: 1") as server:
        proc = ladderbench(
            "live",
            "judge-study",
            str(results),
            "--judge-model",
            "openai:judge",
            "--base-url",
            server.base_url,
            "--out",
            str(tmp_path / "calls.jsonl"),
            "--json",
        )
    assert proc.returncode == 0, proc.stderr
    study = json.loads(proc.stdout)
    assert study["zebra"] == {
        "n": 6,
        "agree": 3,
        "falseAccept": 3,
        "falseReject": 0,
        "noVerdict": 0,
    }
    assert study["amps_hard"]["agree"] == 1


def test_results_without_live_answers_are_refused(tmp_path):
    results = tmp_path / "static.jsonl"
    results.write_text(json.dumps(make_row("q").to_json_dict()) + "\n")
    proc = ladderbench("live", "judge-study", str(results), "--judge-model", "oracle")
    assert proc.returncode == 2 and "no scored live-suite answers" in proc.stderr
