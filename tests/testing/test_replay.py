"""Recorded replies served back: scored exactly like a live model's; a missing one never scored."""

from __future__ import annotations

import json

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.suites import make_suite
from ladderbench.testing.replay import ReplayServer, load_replies


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def write_jsonl(path, objects):
    path.write_text("".join(json.dumps(o) + "\n" for o in objects))
    return path


def test_exported_prompts_carry_no_answers(tmp_path):
    out = tmp_path / "prompts.jsonl"
    proc = ladderbench("export", "prompts", str(out), "--tiers", "0-2", "--seeds", "1-2")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    items = make_suite("puzzles", tiers=[0, 1, 2], seeds=[1, 2]).items()
    assert [(o["id"], o["prompt"]) for o in lines] == [(i.id, i.prompt) for i in items]
    assert all(set(o) == {"id", "prompt"} for o in lines)


def test_replayed_replies_are_scored_like_a_model_and_a_missing_one_is_an_error(tmp_path):
    items = make_suite("puzzles", tiers=[0, 1], seeds=[1, 2]).items()
    recorded = [  # right, wrong, right, ... and no reply at all for the last item
        {"id": item.id, "prompt": item.prompt, "reply": item.reference if i % 2 == 0 else "no idea"}
        for i, item in enumerate(items[:-1])
    ]
    replies = load_replies(write_jsonl(tmp_path / "replies.jsonl", recorded))
    out = tmp_path / "run.jsonl"
    with ReplayServer(replies) as server:
        proc = ladderbench(
            "run", "--model", "openai:recorded", "--base-url", server.base_url, "--suite",
            "puzzles", "--tiers", "0-1", "--seeds", "1-2", "--retries", "0", "--out", str(out),
            "--quiet",
        )  # fmt: skip
    assert proc.returncode == 3, proc.stderr  # the missing reply is an error, not a success
    rows, summary = read_jsonl(out)
    by_id = {row["id"]: row for row in rows}
    for i, item in enumerate(items[:-1]):
        assert by_id[item.id]["response"] == recorded[i]["reply"]
        assert by_id[item.id]["pass"] is (i % 2 == 0)
    missing = by_id[items[-1].id]
    assert missing["pass"] is None and "no recorded reply" in missing["error"]
    assert summary["errors"] == 1 and summary["passed"] == len(range(0, len(items) - 1, 2))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ('{"prompt": "p", "reply": "a"}\n{"prompt": "p", "reply": "b"}\n', ":2: this prompt"),
        ('{"prompt": "p"}\n', ":1: field 'reply': expected a string"),
        ('{"prompt": 3, "reply": "a"}\n', ":1: field 'prompt': expected a string"),
        ("not json\n", ":1: not valid JSON"),
        ("", "no recorded replies"),
    ],
)
def test_a_bad_replies_file_is_one_line(tmp_path, lines, message):
    path = tmp_path / "replies.jsonl"
    path.write_text(lines)
    with pytest.raises(UserError, match=message) as info:
        load_replies(path)
    assert "\n" not in str(info.value)
