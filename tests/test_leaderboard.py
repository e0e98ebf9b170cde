"""Many models, one view: ``run --model A --model B`` writes a file per model (one response cache),
and ``leaderboard`` ranks them per suite with the paired test between neighbours."""

import json
from itertools import pairwise

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.suites import make_suite
from ladderbench.testing.fake_openai import FakeOpenAI

MODELS = ("oracle", "echo", "random")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Oracle, echo and random on the static ladder and on puzzle tiers 0-2, via multi-model run."""
    root = tmp_path_factory.mktemp("runs")
    env = {"LADDERBENCH_CACHE": str(root / "cache.sqlite")}
    models = [arg for m in MODELS for arg in ("--model", m)]
    static = ladderbench("run", *models, "--out", str(root / "static"), "-q", env=env)
    assert static.returncode == 0, static.stderr
    puzzles = ladderbench(
        "run",
        *models,
        *("--suite", "puzzles", "--tiers", "0-2", "--seeds", "1-4"),
        *("--out", str(root / "puzzles"), "-q"),
        env=env,
    )
    assert puzzles.returncode == 0, puzzles.stderr
    return root, static.stdout


def files(root, suite):
    return [root / suite / f"{m}.jsonl" for m in MODELS]


def test_multi_model_run_writes_one_file_per_model(runs):
    root, stdout = runs
    for model, path in zip(MODELS, files(root, "static")):
        rows, summary = read_jsonl(path)
        assert len(rows) == 150 and {r["adapter"] for r in rows} == {model}
        assert summary is not None and summary["adapter"] == model
        assert f"results: {path}" in stdout
    assert stdout.count("static suite · ") == 3  # one summary table per model
    side = next(line for line in stdout.splitlines() if line.startswith("side by side: "))
    assert side.startswith("side by side: oracle 100.0% (") and " | echo 0.0% (" in side
    assert "ladderbench leaderboard " in stdout


def test_leaderboard_ranks_and_tests_neighbours(runs):
    root, _ = runs
    paths = [*files(root, "static"), *files(root, "puzzles")]
    proc = ladderbench("leaderboard", "--json", *map(str, reversed(paths)))
    assert proc.returncode == 0, proc.stderr
    boards = {b["suite"]: b for b in json.loads(proc.stdout)}
    assert set(boards) == {"static", "puzzles"}
    static, puzzles = boards["static"], boards["puzzles"]
    assert static["columns"] == ["L1", "L2", "L3", "L4", "L5"]
    assert puzzles["columns"] == ["T0", "T1", "T2"]
    for board in (static, puzzles):
        order = [m["model"] for m in board["models"]]
        assert order[0] == "oracle:oracle"
        score = {m["model"]: m["overall"] for m in board["models"]}
        assert score["oracle:oracle"] > score["random:random"] >= score["echo:echo"]
        assert [m["rank"] for m in board["models"]] == [1, 2, 3]
        tests = board["neighbourTests"]
        assert [(t["a"], t["b"]) for t in tests] == list(pairwise(order))
        assert tests[0]["differ"] and tests[0]["method"] == "McNemar exact"
        items = sum(cell["n"] for cell in board["models"][0]["rungs"].values())
        assert all(t["shared"] == items for t in tests)  # every item, answered by both
    assert static["models"][1]["model"] == "random:random"  # 24% vs 0%: beyond noise
    assert static["neighbourTests"][1]["differ"]
    oracle = puzzles["models"][0]
    assert oracle["ladderLevel"] == 2 and oracle["ci95"][0] < 1.0 == oracle["overall"]
    assert puzzles["models"][2]["ladderLevel"] is None
    assert not puzzles["neighbourTests"][1]["differ"]  # echo and random: both 0, within noise


def test_leaderboard_tables_and_html_escape_a_hostile_model_name(runs, tmp_path):
    root, _ = runs
    hostile = '<script>alert("lb")</script>&'
    renamed = tmp_path / "hostile.jsonl"
    lines = []
    for line in files(root, "static")[0].read_text().splitlines():
        obj = json.loads(line)
        if "model" in obj:
            obj["model"] = hostile
        lines.append(json.dumps(obj))
    renamed.write_text("\n".join(lines) + "\n")
    html = tmp_path / "board.html"
    paths = [renamed, *files(root, "static")[1:], *files(root, "puzzles")]
    proc = ladderbench("leaderboard", *map(str, paths), "--html", str(html))
    assert proc.returncode == 0, proc.stderr
    assert (
        "leaderboard: static suite" in proc.stdout and "leaderboard: puzzles suite" in proc.stdout
    )
    assert "neighbours in the ranking" in proc.stdout and "differ beyond noise" in proc.stdout
    page = html.read_text(encoding="utf-8")
    assert "<script" not in page
    assert "oracle:&lt;script&gt;alert(&#34;lb&#34;)&lt;/script&gt;&amp;" in page
    assert page.count('class="board"') == 2 and 'class="chart heatmap"' in page
    assert "McNemar exact" in page and "ladder level" in page


def test_leaderboard_bad_input_is_one_line(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    for args, message in (
        ((str(tmp_path / "missing.jsonl"),), "missing.jsonl"),
        ((str(empty),), "empty.jsonl"),
    ):
        proc = ladderbench("leaderboard", *args)
        assert proc.returncode == 2, proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr


def test_multi_model_exit_code_is_the_worst_and_the_cache_is_shared(tmp_path):
    first = make_suite("static", levels=[1], limit=3).items()[0].prompt
    env = {"LADDERBENCH_CACHE": str(tmp_path / "cache.sqlite")}
    args = ("--levels", "1", "--limit", "3", "--retries", "0", "-q")
    with FakeOpenAI(fault=lambda prompt, n: "500" if first in prompt else None) as server:
        models = ("--model", "oracle", "--model", "openai:fake", "--base-url", server.base_url)
        proc = ladderbench("run", *models, *args, "--out", str(tmp_path / "a"), env=env)
        assert proc.returncode == 3, proc.stderr  # oracle scored all; openai:fake had an error
        assert "1 of 3 attempts ended in an error" in proc.stderr
        assert read_jsonl(tmp_path / "a" / "oracle.jsonl")[1]["errors"] == 0
        asked = len(server.requests)
        proc = ladderbench("run", *models, *args, "--out", str(tmp_path / "b"), env=env)
        assert proc.returncode == 3, proc.stderr
        assert len(server.requests) - asked == 1  # only the errored attempt is asked again
    rows, _ = read_jsonl(tmp_path / "b" / "openai_fake.jsonl")
    assert sorted(r["cached"] for r in rows) == [False, True, True]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--model", "oracle", "--model", "oracle"), "give each model once"),
        (("--model", "oracle", "--model", "echo", "--out", "FILE"), "names a folder"),
    ],
)
def test_multi_model_bad_input_is_one_line(tmp_path, args, message):
    existing = tmp_path / "f.jsonl"
    existing.write_text("")
    args = tuple(str(existing) if a == "FILE" else a for a in args)
    proc = ladderbench("run", *args, "--levels", "1", "--limit", "1", cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_leaderboard_shows_breaking_points_of_a_difficulty_grid(tmp_path):
    grid = ("--suite", "puzzles", "--suite-version", "2", "--difficulties", "0-3")
    args = (*grid, "--families", "sudoku,caesar", "--seeds", "1-2", "-q")
    proc = ladderbench("run", "--model", "oracle", "--model", "echo", *args, "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    paths = [str(tmp_path / "oracle.jsonl"), str(tmp_path / "echo.jsonl")]
    board = json.loads(ladderbench("leaderboard", "--json", *paths).stdout)[0]
    oracle, echo = board["models"]
    assert set(oracle["breakingPoints"]) == {"caesar", "sudoku"}
    for family in ("caesar", "sudoku"):
        assert oracle["breakingPoints"][family]["cleared"] == 3  # every difficulty asked
        assert echo["breakingPoints"][family]["cleared"] == -1
    text = ladderbench("leaderboard", *paths, env={"COLUMNS": "250"}).stdout
    assert "breaking points (puzzles)" in text
    assert "cleared d 3, 50% at" in text and "cleared none, 50% at" in text


def test_multi_model_json_is_one_list_of_summaries(tmp_path):
    args = ("--model", "oracle", "--model", "echo", "--levels", "1", "--limit", "2", "--json")
    proc = ladderbench("run", *args, "--out", str(tmp_path / "runs"))
    assert proc.returncode == 0, proc.stderr
    summaries = json.loads(proc.stdout)
    assert [s["adapter"] for s in summaries] == ["oracle", "echo"]
    assert [s["rate"] for s in summaries] == [1.0, 0.0]
