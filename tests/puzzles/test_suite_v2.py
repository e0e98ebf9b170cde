"""Puzzle suite v2 through the CLI: tier anchors, difficulty grids, the adaptive search, export."""

import json

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.puzzles.registry import families
from ladderbench.puzzles.suite import V2_CELLS, PuzzleSuite, anchor_tiers

V2 = ["--suite", "puzzles", "--suite-version", "2"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def run(model, *args):
    return ladderbench("run", *V2, "--model", model, *args)


def test_every_tier_has_anchors_of_known_families_each_cell_on_one_tier():
    known = families()
    cells = [cell for anchors in V2_CELLS.values() for cell in anchors]
    assert sorted(V2_CELLS) == list(range(7)) and all(V2_CELLS.values())
    assert len(cells) == len(set(cells)) == len(anchor_tiers())
    assert all(family in known and d >= 0 for family, d in cells)


def test_oracle_clears_every_v2_tier_and_echo_none(tmp_path):
    out = tmp_path / "o.jsonl"
    proc = run("oracle", "--seeds", "1-2", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["ladderLevel"] == 6 and summary["settings"]["suiteVersion"] == "2"
    rows, _ = read_jsonl(out)
    assert all(r["id"] == f"{r['family']}/d{r['difficulty']}/s{r['seed']}" for r in rows)
    assert {(r["family"], r["difficulty"]): r["tier"] for r in rows} == anchor_tiers()
    assert set(summary["breakingPoints"]) == {f for cells in V2_CELLS.values() for f, _ in cells}
    proc = run("echo", "--seeds", "1-2", "--out", str(tmp_path / "e.jsonl"), "--json")
    assert json.loads(proc.stdout)["ladderLevel"] is None


def test_a_difficulty_grid_gives_pass_rates_per_difficulty_and_breaking_points(tmp_path):
    out = tmp_path / "g.jsonl"
    args = ["--difficulties", "0-2", "--families", "text,caesar", "--seeds", "1-3"]
    proc = run("oracle", *args, "--out", str(out), "--json")
    summary = json.loads(proc.stdout)
    assert summary["total"] == 18
    assert set(summary["byDifficulty"]) == {"text", "caesar"}
    assert summary["byDifficulty"]["text"]["2"]["passed"] == 3
    assert summary["breakingPoints"]["caesar"]["cleared"] >= 2


def test_adaptive_oracle_climbs_to_the_top_and_echo_stops_at_once(tmp_path):
    out = tmp_path / "a.jsonl"
    proc = run("oracle", "--adaptive", "--families", "text,sudoku", "--seeds", "1-6",
               "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(out)
    assert {r["difficulty"] for r in rows} >= {0, 1, 3, 7, 15, 31}
    assert all(r["tier"] is None for r in rows)
    for family in ("text", "sudoku"):
        assert summary["breakingPoints"][family]["cleared"] >= 31
    assert "breaking points" in proc.stdout and "highest d cleared" in proc.stdout
    keys = [(r["id"], r["sample"]) for r in rows]
    assert len(keys) == len(set(keys)) <= 2 * 48

    echo = tmp_path / "e.jsonl"
    proc = run("echo", "--adaptive", "--families", "text", "--out", str(echo), "--json")
    summary = json.loads(proc.stdout)
    assert summary["breakingPoints"]["text"]["cleared"] == -1
    assert {r["difficulty"] for r in read_jsonl(echo)[0]} == {0}


def test_compare_ranks_two_adaptive_runs_by_breaking_points(tmp_path):
    paths = []
    for model in ("oracle", "echo"):
        paths.append(tmp_path / f"{model}.jsonl")
        run(model, "--adaptive", "--families", "text,caesar", "--seeds", "1-8",
            "--out", str(paths[-1]), "--quiet")  # fmt: skip
    proc = ladderbench("compare", *map(str, paths), "--json")
    assert proc.returncode == 0, proc.stderr
    (ranking,) = json.loads(proc.stdout)["breakingPoints"]
    assert ranking["ahead"] == [["caesar", "text"], []]
    assert ranking["verdict"].startswith("oracle:oracle ranks above echo:echo")
    proc = ladderbench("compare", *map(str, paths))
    assert "breaking points: oracle:oracle (A) vs echo:echo (B)" in proc.stdout


def test_report_shows_breaking_points_and_curves(tmp_path):
    out = tmp_path / "a.jsonl"
    run("oracle", "--adaptive", "--families", "caesar", "--seeds", "1-4", "--out", str(out),
        "--quiet")  # fmt: skip
    page = tmp_path / "r.html"
    proc = ladderbench("report", str(out), "--html", str(page))
    assert proc.returncode == 0, proc.stderr
    html = page.read_text()
    assert 'id="breaking-points"' in html and 'class="chart difficulty"' in html
    assert "<td>caesar</td>" in html and "Pass rate against difficulty" in html


@pytest.mark.parametrize(
    "args, message",
    [
        (["--adaptive", "--suite-version", "1"], "--adaptive needs --suite-version 2"),
        (["--suite-version", "2", "--adaptive", "--tiers", "0-2"], "--adaptive chooses"),
        (["--suite-version", "2", "--tiers", "0", "--difficulties", "0-3"], "two selections"),
        (["--difficulties", "0-3"], "--difficulties needs --suite-version 2"),
        (["--difficulties", "3-1"], "--difficulties '3-1': range 3-1 runs backwards"),
        (["--suite-version", "7"], "--suite-version 7: not known; versions: 1, 2"),
        (["--suite-version", "2", "--adaptive", "--samples", "2"], "--samples 2: an adaptive"),
    ],
)
def test_bad_v2_options_are_one_line_exit_2(args, message):
    proc = ladderbench("run", "--suite", "puzzles", "--model", "oracle", *args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1


def test_v2_prompts_export_and_grid_export_verify(tmp_path):
    prompts = tmp_path / "p.jsonl"
    proc = ladderbench("export", "prompts", str(prompts), "--suite-version", "2",
                       "--difficulties", "4", "--families", "sudoku", "--seeds", "1-2")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in prompts.read_text().splitlines()]
    assert [x["id"] for x in lines] == ["sudoku/d4/s1", "sudoku/d4/s2"]
    assert all(set(x) == {"id", "prompt"} for x in lines)

    folder = tmp_path / "grid"
    proc = ladderbench("suite", "export", "--suite-version", "2", "--difficulties", "0-3",
                       "--families", "text,register_vm", "--seeds", "1-2", str(folder))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["difficulties"] == "0-3" and manifest["total"] == 16
    record = json.loads((folder / "text.jsonl").read_text().splitlines()[0])
    assert record["difficulty"] == 0 and record["id"] == "text/d0/s1"
    proc = ladderbench("suite", "verify", str(folder))
    assert proc.returncode == 0 and "verified: 16 instances" in proc.stdout


def test_v2_instances_are_not_v1s():
    v1 = {item.prompt for item in PuzzleSuite(seeds=[1]).items()}
    v2 = {item.prompt for item in PuzzleSuite(seeds=[1], version="2").items()}
    assert v1.isdisjoint(v2)


def test_golden_manifest_pins_suite_v2():
    from pathlib import Path

    from ladderbench.puzzles.export import manifest_for, render
    from ladderbench.ranges import parse_ranges

    golden = json.loads((Path(__file__).parent / "golden_v2_manifest.json").read_text())
    suite = PuzzleSuite(seeds=parse_ranges(golden["seeds"], "seeds"), version="2")
    manifest = manifest_for(suite, render(suite))
    changed = [n for n in golden["sha256"] if manifest["sha256"].get(n) != golden["sha256"][n]]
    assert not changed, (
        f"generators or anchors changed suite v2 instances in {changed}: a released suite is "
        "frozen; bump the suite version and pin a new manifest"
    )
    assert manifest == golden
