"""``suite export --format hf``: each export loads with ``datasets.load_dataset(DIR)`` offline and
its rows are the suite's items; a live export holds the published questions only."""

import hashlib
import json

import pytest

from cli_helpers import ladderbench
from ladderbench.hub import DATA_FILE, FEATURES, rung_of
from ladderbench.live.base import Sources
from ladderbench.live.release import Store, build
from ladderbench.suites import make_suite

datasets = pytest.importorskip("datasets")


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True, raising=False)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True, raising=False)


def load(directory, tmp_path):
    return datasets.load_dataset(str(directory), cache_dir=str(tmp_path / "hf-cache"))


def expected_rows(items):
    return [
        {
            "id": i.id,
            "rung": rung_of(i),
            "prompt": i.prompt,
            "expected": i.expected,
            "reference": i.reference,
            "choices": list(i.choices),
            "level": i.level,
            "tier": i.tier,
            "difficulty": i.difficulty,
            "family": i.family,
            "category": i.category,
            "task": i.task,
            "seed": i.seed,
        }
        for i in items
    ]


def front_matter(directory):
    text = (directory / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return text.split("---\n")[1], text


def check_card(directory, rows):
    matter, text = front_matter(directory)
    assert 'license: "cc-by-4.0"' in matter
    assert "configs:" in matter and 'path: "data/test.jsonl"' in matter
    assert f"num_examples: {rows}" in matter
    data_sha = hashlib.sha256((directory / DATA_FILE).read_bytes()).hexdigest()
    manifest_sha = hashlib.sha256((directory / "manifest.json").read_bytes()).hexdigest()
    assert data_sha in text and manifest_sha in text
    assert "CC-BY-4.0" in text and "ladderbench run --suite" in text
    manifest = json.loads((directory / "manifest.json").read_text())
    assert manifest["sha256"][DATA_FILE] == data_sha and manifest["rows"] == rows


def test_static_export_loads_as_the_suite_items(tmp_path):
    out = tmp_path / "static-hf"
    proc = ladderbench("suite", "export", "--format", "hf", "--suite", "static", str(out))
    assert proc.returncode == 0, proc.stderr
    loaded = load(out, tmp_path)
    assert list(loaded) == ["test"]
    split = loaded["test"]
    assert split.column_names == [name for name, _ in FEATURES]
    assert str(split.features["level"].dtype) == "int64"
    assert split.to_list() == expected_rows(make_suite("static").items())
    assert {row["rung"] for row in split} == {"L1", "L2", "L3", "L4", "L5"}
    check_card(out, 150)
    assert "Reply with the letter of the correct option only" in (out / "README.md").read_text()


def test_puzzle_export_selection_and_version(tmp_path):
    out = tmp_path / "puzzles-hf"
    args = ("--suite", "puzzles", "--suite-version", "2", "--tiers", "0-1", "--seeds", "3-4")
    proc = ladderbench("suite", "export", "--format", "hf", *args, str(out))
    assert proc.returncode == 0, proc.stderr
    split = load(out, tmp_path)["test"]
    suite = make_suite("puzzles", suite_version="2", tiers=[0, 1], seeds=[3, 4])
    assert split.to_list() == expected_rows(suite.items())
    assert {row["rung"] for row in split} == {"T0", "T1"}
    assert {row["seed"] for row in split} == {3, 4}
    check_card(out, len(suite.items()))
    card = (out / "README.md").read_text()
    assert "version 2" in card
    assert "ladderbench run --suite puzzles --suite-version 2 --seeds 3-4 --tiers 0-1 " in card


def test_live_export_is_the_published_part_only(tmp_path):
    store = tmp_path / "store"
    build(store, "2026-12-01", Sources.empty(), per_task=6, names=["navigation", "web_of_lies"])
    held = {r["question_id"]: r for recs in Store.load(store).private.values() for r in recs}
    assert held, "the store holds a private hold-back"
    out = tmp_path / "live-hf"
    proc = ladderbench(
        "suite", "export", "--format", "hf", "--suite", "live", "--live-dir", str(store), str(out)
    )
    assert proc.returncode == 0, proc.stderr
    split = load(out, tmp_path)["test"]
    published = [i for i in make_suite("live", live_dir=store).items() if i.id not in held]
    assert split.to_list() == expected_rows(published)
    assert {row["rung"] for row in split} == {"navigation", "web_of_lies"}
    exported = (out / DATA_FILE).read_text() + (out / "README.md").read_text()
    for record in held.values():
        assert record["question_id"] not in exported
        assert record["prompt"] not in exported
    assert not (out / "private").exists()
    store_sha = hashlib.sha256((store / "manifest.json").read_bytes()).hexdigest()
    assert json.loads((out / "manifest.json").read_text())["storeManifestSha256"] == store_sha
    assert store_sha in (out / "README.md").read_text()
    assert "--suite live --live-dir STORE --release 2026-12-01 " in (out / "README.md").read_text()
    check_card(out, len(published))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--format", "csv"), "--format csv: expected files or hf"),
        (("--suite", "static"), "only the puzzles suite is exported from seeds"),
        (("--levels", "1"), "go with --format hf"),
        (("--format", "hf", "--suite", "static", "--tiers", "1"), "--tiers does not apply"),
        (("--format", "hf", "--suite", "puzzles", "--secret-key", "k"), "No such option"),
        (("--format", "hf", "--suite", "live"), "--suite live needs --live-dir"),
    ],
)
def test_bad_export_input_is_one_line(tmp_path, args, message):
    proc = ladderbench("suite", "export", *args, str(tmp_path / "out"))
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_secret_seed_set_is_never_exported(tmp_path):
    out = tmp_path / "out"
    args = ("suite", "export", "--format", "hf", "--suite", "puzzles", "--tiers", "0", str(out))
    proc = ladderbench(*args, env={"LADDERBENCH_SECRET": "maintainer-only"})
    assert proc.returncode == 2 and "secret seed sets are never exported" in proc.stderr
    assert not out.exists()
