"""The puzzle ladder as a suite: v1 cells, oracle/echo bounds, export/verify, secret seeds."""

import json

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.items import Item
from ladderbench.puzzles.export import manifest_for, render
from ladderbench.puzzles.registry import families
from ladderbench.puzzles.suite import V1_CELLS, PuzzleSuite, score_puzzle, secret_seed
from ladderbench.ranges import parse_ranges

GOLDEN = json.loads(
    (__import__("pathlib").Path(__file__).parent / "golden_v1_manifest.json").read_text()
)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def run_puzzles(model, *args, **kwargs):
    """``ladderbench run --suite puzzles --model MODEL ARGS...`` in a subprocess."""
    return ladderbench("run", "--suite", "puzzles", "--model", model, *args, **kwargs)


def test_v1_table_covers_fourteen_families_in_their_tiers():
    known = families()
    assert len(known) == 14
    cells = [(f, t) for t, members in V1_CELLS.items() for f in members]
    assert len(cells) == 24 and {f for f, _ in cells} == set(known)
    for family, tier in cells:
        assert tier in known[family].tiers, (family, tier)


def test_golden_manifest_pins_suite_v1():
    suite = PuzzleSuite(seeds=parse_ranges(GOLDEN["seeds"], "seeds"))
    manifest = manifest_for(suite, render(suite))
    changed = [n for n in GOLDEN["sha256"] if manifest["sha256"].get(n) != GOLDEN["sha256"][n]]
    assert not changed, (
        f"generators changed suite v1 instances in {changed}: bump SUITE_VERSION and re-pin "
        "tests/puzzles/golden_v1_manifest.json"
    )
    assert manifest == GOLDEN


def test_oracle_clears_every_tier_and_echo_none(tmp_path):
    out = tmp_path / "o.jsonl"
    proc = run_puzzles("oracle", "--seeds", "1-64", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 1536 and summary["passed"] == 1536
    assert all(t["cleared"] for t in summary["byTier"].values()) and summary["ladderLevel"] == 6
    assert "ladder level: tier 6" in proc.stdout
    row = rows[0]
    assert {"family", "tier", "seed", "prompt", "expected", "response", "pass", "latencyMs"} <= set(
        row
    )

    out = tmp_path / "e.jsonl"
    proc = run_puzzles("echo", "--seeds", "1-64", "--out", str(out), "--json")
    summary = json.loads(proc.stdout)
    assert summary["passed"] == 0 and summary["ladderLevel"] is None
    assert not any(t["cleared"] for t in summary["byTier"].values())


def test_selection_by_tier_family_and_seed(tmp_path):
    selection = ["--tiers", "0-3", "--seeds", "1-2", "--families", "sudoku,caesar"]
    proc = run_puzzles("oracle", *selection, "--out", str(tmp_path / "s.jsonl"), "--json")
    summary = json.loads(proc.stdout)
    assert summary["total"] == 4 and sorted(summary["byFamily"]) == ["caesar", "sudoku"]
    assert sorted(summary["byTier"]) == ["2", "3"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--families", "chess"], "--families: unknown family 'chess'"),
        (["--tiers", "9"], "--tiers: tier 9 is out of range 0-6"),
        (["--seeds", "5-1"], "--seeds '5-1': range 5-1 runs backwards"),
        (["--seeds", "one"], "--seeds 'one': expected numbers"),
        (["--families", "sudoku", "--tiers", "0"], "no v1 puzzle cells for families sudoku"),
    ],
)
def test_bad_selection_is_one_line_exit_2(args, message):
    proc = run_puzzles("oracle", *args)
    assert proc.returncode == 2 and message in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_export_then_verify_byte_for_byte(tmp_path):
    folder = tmp_path / "v1"
    proc = ladderbench("suite", "export", "--suite", "puzzles", "--seeds", "1-4", str(folder))
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["total"] == 96 and manifest["version"] == "1" and manifest["seeds"] == "1-4"
    proc = ladderbench("suite", "verify", str(folder))
    assert proc.returncode == 0 and "verified: 96 instances" in proc.stdout

    sudoku = folder / "sudoku.jsonl"
    sudoku.write_bytes(sudoku.read_bytes().replace(b"1", b"2", 1))
    proc = ladderbench("suite", "verify", str(folder))
    assert proc.returncode == 1 and "sudoku.jsonl: sha256 does not match" in proc.stderr

    (folder / "manifest.json").write_text("{not json")
    proc = ladderbench("suite", "verify", str(folder))
    assert proc.returncode == 2 and "manifest.json: not valid JSON" in proc.stderr


def test_secret_seeds_never_appear_in_output(tmp_path):
    key = "admission-key-4b7e"
    out = tmp_path / "k.jsonl"
    selection = ["--tiers", "3", "--seeds", "1-3"]
    proc = run_puzzles("oracle", *selection, "--secret-key", key, "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    rows, summary = read_jsonl(out)
    assert key not in text and key not in proc.stdout
    for row in rows:
        family, tier, index = row["family"], row["tier"], row["seed"]
        assert row["id"] == f"{family}/t{tier}/k{index}" and index in (1, 2, 3)
        assert str(secret_seed(key, "1", family, tier, index)) not in text
    assert summary["settings"]["seedSet"] == "secret"
    public = {r.prompt for r in PuzzleSuite(tiers=[3], seeds=[1, 2, 3]).items()}
    assert public.isdisjoint(r["prompt"] for r in rows)
    again = {r.prompt for r in PuzzleSuite(tiers=[3], seeds=[1, 2, 3], secret_key=key).items()}
    assert again == {r["prompt"] for r in rows}
    other = {r.prompt for r in PuzzleSuite(tiers=[3], seeds=[1, 2, 3], secret_key="x").items()}
    assert other.isdisjoint(again)
    env_out = tmp_path / "env.jsonl"
    env = run_puzzles(
        "oracle", *selection, "--out", str(env_out), "--quiet", env={"LADDERBENCH_SECRET": key}
    )
    assert env.returncode == 0 and {r["prompt"] for r in read_jsonl(env_out)[0]} == again


@pytest.mark.parametrize(
    "response, passed",
    [
        ("<answer>1234/3412/2143/4321</answer>", True),
        ("<think><answer>0000</answer></think>The grid:\n\\boxed{1234/3412/2143/4321}", True),
        ("Answer: 1234 3412 2143 4321", True),
        ("<answer>1234/3412/2143/4312</answer>", False),
        ("<think>unfinished", False),
        ("", False),
    ],
)
def test_grading_reuses_the_extraction_module(response, passed):
    item = Item(id="s", prompt="", expected="1234/3412/2143/4321", reference="", family="sudoku")
    assert score_puzzle(item, response).passed is passed


@pytest.mark.parametrize(
    "expected, response, passed",
    [
        ("wooden snow", "<answer>Wooden Snow</answer>", True),  # case does not matter here
        ("wooden snow", "<answer>wOODEN sNOW</answer>", True),
        ("wooden snow", "<answer>Wooden Show</answer>", False),
        ("Green Apple", "<answer>green apple</answer>", False),  # the case task: exact
        ("Green Apple", "<answer>Green Apple</answer>", True),
    ],
)
def test_the_suite_scores_with_the_familys_own_match(expected, response, passed):
    item = Item(id="t", prompt="", expected=expected, reference="", family="text")
    assert score_puzzle(item, response).passed is passed
