"""Hostile live stores: a corpus of damaged manifests and records (hashes recomputed, as by a
hand edit) through ``ladderbench run --suite live --live-dir`` and ``live refresh``. Each ends in
one line on stderr and exit 2 — never a traceback or a hang — and leaves the store as it was."""

import hashlib
import json
import shutil
import signal
import sys

import pytest

from ladderbench import cli
from ladderbench.live.base import Sources
from ladderbench.live.release import MANIFEST, build

TASKS = ["web_of_lies", "instruction_following"]  # quick to generate at difficulty 0
RELEASE = "2026-12-01"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    root = tmp_path_factory.mktemp("live") / "store"
    build(
        root, RELEASE, Sources.empty(), per_task=3, names=TASKS, difficulty=dict.fromkeys(TASKS, 0)
    )
    return root


def manifest_of(root):
    return json.loads((root / MANIFEST).read_text())


def set_manifest(root, manifest):
    (root / MANIFEST).write_text(json.dumps(manifest))


def edit_manifest(change):
    def apply(root):
        manifest = manifest_of(root)
        change(manifest)
        set_manifest(root, manifest)

    return apply


def raw_manifest(data):
    return lambda root: (root / MANIFEST).write_bytes(data)


def public_file(manifest, task):
    return next(n for n in manifest["sha256"] if f"/{task}." in n and not n.startswith("private/"))


def edit_file(task, change):
    """Rewrite ``task``'s public file through ``change`` (records -> bytes); the manifest's
    sha256 is recomputed, so only the content itself can give the edit away."""

    def apply(root):
        manifest = manifest_of(root)
        name = public_file(manifest, task)
        records = [json.loads(line) for line in (root / name).read_text().splitlines()]
        data = change(records)
        (root / name).write_bytes(data)
        manifest["sha256"][name] = hashlib.sha256(data).hexdigest()
        set_manifest(root, manifest)

    return apply


def lines(records):
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def first(field, value, task="web_of_lies"):
    def change(records):
        records[0][field] = value
        return lines(records)

    return edit_file(task, change)


def without(field, task="web_of_lies"):
    def change(records):
        del records[0][field]
        return lines(records)

    return edit_file(task, change)


def rename_file(edit):
    def change(manifest):
        name = public_file(manifest, "web_of_lies")
        manifest["sha256"][edit(name)] = manifest["sha256"].pop(name)

    return edit_manifest(change)


def ghost_task(root):
    """web_of_lies renamed to a task this ladderbench does not have (hashes kept right)."""
    manifest = manifest_of(root)
    old = public_file(manifest, "web_of_lies")
    new = old.replace("web_of_lies", "ghost")
    records = [json.loads(line) for line in (root / old).read_text().splitlines()]
    for record in records:
        record["task"] = "ghost"
    data = lines(records)
    (root / old).unlink()
    (root / new).write_bytes(data)
    del manifest["sha256"][old]
    manifest["sha256"][new] = hashlib.sha256(data).hexdigest()
    manifest["counts"]["ghost"] = manifest["counts"].pop("web_of_lies")
    for name in [n for n in manifest["sha256"] if "/web_of_lies." in n]:  # the hold-back too
        del manifest["sha256"][name]
    set_manifest(root, manifest)


def retext(old, new):
    def apply(root):
        text = (root / MANIFEST).read_text()
        assert old in text
        (root / MANIFEST).write_text(text.replace(old, new))

    return apply


def put(key, value):
    return edit_manifest(lambda m: m.__setitem__(key, value))


def drop(key):
    return edit_manifest(lambda m: m.pop(key))


DEEP = b"[" * 200_000 + b"]" * 200_000

CORPUS = {
    # the manifest
    "manifest not JSON": (raw_manifest(b"{"), "not valid JSON"),
    "manifest a list": (raw_manifest(b"[]"), "expected a JSON object"),
    "manifest nested deeply": (raw_manifest(DEEP), "nested too deeply"),
    "manifest not UTF-8": (raw_manifest(b'{"releases": "\xff\xfe"}'), "cannot read"),
    "releases missing": (drop("releases"), "field 'releases' missing"),
    "releases a string": (put("releases", RELEASE), "field 'releases': expected a list"),
    "releases empty": (put("releases", []), "no releases"),
    "release not a date": (put("releases", ["2026-13-45"]), "'2026-13-45': expected a date"),
    "release a number": (put("releases", [20261201]), "expected a date"),
    "releases twice": (put("releases", [RELEASE, RELEASE]), "a date twice"),
    "perTask a string": (put("perTask", "50"), "'perTask'"),
    "perTask huge": (put("perTask", 10**30), "'perTask'"),
    "perTask infinite": (retext('"perTask": 3', '"perTask": 1e400'), "'perTask'"),
    "perTask true": (put("perTask", True), "'perTask'"),
    "perTask zero": (put("perTask", 0), "'perTask'"),
    "fraction by zero": (put("privateFraction", "1/0"), "'privateFraction'"),
    "fraction a number": (put("privateFraction", 0.5), "'privateFraction'"),
    "fraction one": (put("privateFraction", "1"), "'privateFraction'"),
    "difficulty huge": (put("difficulty", {"web_of_lies": 10**12}), "'difficulty.web_of_lies'"),
    "difficulty a list": (put("difficulty", []), "'difficulty'"),
    "counts missing": (drop("counts"), "field 'counts' missing"),
    "counts entry a string": (
        edit_manifest(lambda m: m["counts"].__setitem__("web_of_lies", "reasoning")),
        "counts.web_of_lies.category",
    ),
    "unknown category": (
        edit_manifest(lambda m: m["counts"]["web_of_lies"].__setitem__("category", "poetry")),
        "counts.web_of_lies.category",
    ),
    "sha256 a list": (put("sha256", []), "field 'sha256': expected an object"),
    "sha256 not hex": (
        edit_manifest(lambda m: m["sha256"].__setitem__(public_file(m, "web_of_lies"), "abc")),
        "expected a sha256",
    ),
    "name climbs out": (rename_file(lambda n: "../../etc/hostname"), "outside the store"),
    "name absolute": (rename_file(lambda n: "/etc/hostname"), "outside the store"),
    "name climbs out midway": (
        rename_file(lambda n: "reasoning/../../x.jsonl"),
        "outside the store",
    ),
    "name of no task file": (
        rename_file(lambda n: n.replace(".jsonl", ".txt")),
        "expected CATEGORY",
    ),
    "file under another category": (
        rename_file(lambda n: n.replace("reasoning/", "math/")),
        "is not in 'counts' under 'math'",
    ),
    "two files for a task": (
        edit_manifest(
            lambda m: m["sha256"].__setitem__("reasoning/web_of_lies.2020-01-01.jsonl", "0" * 64)
        ),
        "two files for task",
    ),
    # the records, hashes recomputed
    "prompt a number": (first("prompt", 123), "field 'prompt': expected a string"),
    "ground truth null": (first("ground_truth", None), "field 'ground_truth'"),
    "prompt missing": (without("prompt"), "field 'prompt' missing"),
    "question id a list": (first("question_id", ["x"]), "field 'question_id'"),
    "task of another file": (first("task", "zebra"), "field 'task'"),
    "category mismatch": (first("category", "math"), "field 'category'"),
    "release date impossible": (first("release_date", "2026-13-45"), "field 'release_date'"),
    "removal date a number": (first("removal_date", 5), "field 'removal_date'"),
    "difficulty a string": (first("difficulty", "hard"), "field 'difficulty'"),
    "material of numbers": (first("material", [1, 2]), "field 'material'"),
    "question twice": (edit_file("web_of_lies", lambda rs: lines([rs[0], *rs])), "appears twice"),
    "line not JSON": (edit_file("web_of_lies", lambda rs: lines(rs) + b"{\n"), "not valid JSON"),
    "line a list": (
        edit_file("web_of_lies", lambda rs: lines(rs) + b"[1]\n"),
        "expected a JSON object",
    ),
    "line nested deeply": (
        edit_file("web_of_lies", lambda rs: lines(rs) + DEEP + b"\n"),
        "nested too deeply",
    ),
    "file not UTF-8": (edit_file("web_of_lies", lambda rs: lines(rs) + b"\xff\n"), "not UTF-8"),
}
# Refresh publishes a task this ladderbench lacks as it stands (a task retired from the
# package), and a task's own fields as they stand: only a run needs the task itself.
RUN_ONLY = {
    "task not installed": (ghost_task, "live task 'ghost' is not installed"),
    "task field malformed": (
        edit_file(
            "instruction_following",
            lambda rs: lines([{**rs[0], "instructions": 5, "ground_truth": "x"}, *rs[1:]]),
        ),
        "a field is malformed",
    ),
}


def snapshot(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def cli_run(args, monkeypatch, capsys):
    """The command line in this process, as ``main`` runs it: (exit code, stderr)."""

    def too_slow(*_):
        raise TimeoutError(f"ladderbench {' '.join(args)} hangs")

    monkeypatch.setattr(sys, "argv", ["ladderbench", *args])
    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(20)
    try:
        with pytest.raises(SystemExit) as exited:
            cli.main()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return exited.value.code, capsys.readouterr().err


def commands(root, out):
    run = [
        "run",
        "--suite",
        "live",
        "--live-dir",
        str(root),
        "--model",
        "oracle",
        "--out",
        str(out),
    ]
    return [run, ["live", "refresh", str(root), "--release", "2027-01-01"]]


@pytest.mark.parametrize("case", [*CORPUS, *RUN_ONLY], ids=[*CORPUS, *RUN_ONLY])
def test_a_damaged_store_is_one_line_and_left_alone(case, pristine, tmp_path, monkeypatch, capsys):
    root = tmp_path / "store"
    shutil.copytree(pristine, root)
    damage, message = {**CORPUS, **RUN_ONLY}[case]
    damage(root)
    before = snapshot(root)
    chosen = commands(root, tmp_path / "out.jsonl")[: 1 if case in RUN_ONLY else 2]
    for args in chosen:
        code, err = cli_run(args, monkeypatch, capsys)
        assert code == 2, (args[:2], err)
        assert err.count("\n") == 1 and err.startswith("error: "), err
        assert message in err, err
        assert snapshot(root) == before, f"{args[:2]} changed the store"
    assert not (tmp_path / "out.jsonl").exists()


def test_the_undamaged_store_runs_and_refreshes(pristine, tmp_path, monkeypatch, capsys):
    """The corpus's control: the same commands on the store as built succeed."""
    root = tmp_path / "store"
    shutil.copytree(pristine, root)
    for args in commands(root, tmp_path / "out.jsonl"):
        code, err = cli_run(args, monkeypatch, capsys)
        assert code == 0, err
