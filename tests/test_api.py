"""The Python API: results as typed DataFrames, and ``evaluate`` giving what ``ladderbench run``
gives, from plain code and from inside a running event loop."""

import asyncio
import json
import threading
import typing
from pathlib import Path

import pandas as pd
import pytest

import ladderbench
from cli_helpers import ladderbench as cli
from cli_helpers import python_output
from helpers import make_row
from ladderbench.api import SuiteName
from ladderbench.errors import UserError
from ladderbench.items import RunHeader
from ladderbench.runner.results import ResultWriter, summarise_run
from ladderbench.static.suite import StaticSuite
from ladderbench.suites import suite_names
from ladderbench.testing.fake_openai import FakeOpenAI

EXPECTED_DTYPES = {
    "run": "string",
    "id": "string",
    "category": "string",
    "response": "string",
    "error": "string",
    "level": "Int64",
    "tier": "Int64",
    "difficulty": "Int64",
    "seed": "Int64",
    "sample": "Int64",
    "score": "Float64",
    "latencyMs": "Float64",
    "pass": "boolean",
    "usage.prompt_tokens": "Int64",
    "usage.completion_tokens": "Int64",
    "usage.total_tokens": "Int64",
}
USAGE = {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))


def write(path: Path, rows, summary: bool = True) -> None:
    writer = ResultWriter(path)
    header = RunHeader(run="r1", suite="static", adapter="oracle", model="oracle", settings={})
    writer.start(header, writer.read())
    for row in rows:
        writer.append(row)
    if summary:
        writer.write_summary(summarise_run(path, rows))
    writer.close()


def three_rows():
    """Right, wrong, and an attempt that ended in an error (never scored)."""
    return [
        make_row("q1", usage={**USAGE, "cached_tokens": 4}),
        make_row("q2", level=2, extracted="B", response="B", score=0.0, passed=False, usage=USAGE),
        make_row(
            "q3", level=3, response=None, extracted=None, score=None, passed=None, error="HTTP 500"
        ),
    ]


def test_importing_the_package_stays_light(tmp_path):
    loaded = python_output(
        "import sys, ladderbench; "
        "print(sorted(m for m in ('pandas', 'pydantic', 'aiohttp', 'rich') if m in sys.modules))",
        hash_seed="0",
        path=[],
    )
    assert loaded == "[]"


def test_rows_load_with_nullable_dtypes_and_errors_are_na(tmp_path):
    out = tmp_path / "r.jsonl"
    write(out, three_rows())
    df = ladderbench.load_results(out)
    assert len(df) == 3
    assert {c: str(df[c].dtype) for c in EXPECTED_DTYPES} == EXPECTED_DTYPES
    assert "usage" not in df.columns
    assert df["pass"].iloc[:2].tolist() == [True, False]
    assert df["pass"].isna().tolist() == [False, False, True]  # the error is NA, not False
    assert df["score"].isna().tolist() == [False, False, True]
    assert df["pass"].sum() == 1 and df["pass"].count() == 2  # over the scored attempts only
    assert df["level"].tolist() == [1, 2, 3]
    tokens = df["usage.total_tokens"]
    assert tokens.iloc[:2].tolist() == [12, 12] and pd.isna(tokens.iloc[2])
    assert str(df["usage.cached_tokens"].dtype) == "Int64" and df["usage.cached_tokens"][0] == 4
    assert df["tier"].isna().all() and df.loc[2, "error"] == "HTTP 500"


def test_a_run_cut_short_loads_its_rows_and_summary(tmp_path):
    out = tmp_path / "cut.jsonl"
    rows = three_rows()
    write(out, rows, summary=False)
    with out.open("a") as fh:
        fh.write('{"run": "r1", "adapter": "ora')  # torn by a kill
    df = ladderbench.load_results(out)
    assert df["id"].tolist() == ["q1", "q2", "q3"]
    with pytest.warns(UserWarning, match="did not finish; summary computed from its 3 rows"):
        summary = ladderbench.load_summary(out)
    assert summary.to_json_dict() == summarise_run(out, rows).to_json_dict()
    assert summary.total == 3 and summary.errors == 1


def test_a_finished_run_gives_its_own_summary(tmp_path):
    out = tmp_path / "done.jsonl"
    write(out, three_rows())
    written = json.loads(out.read_text().splitlines()[-1])
    assert ladderbench.load_summary(out).to_json_dict() == written


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"run": "r1"}\n{}\n', ":1: "),
        ("not json\n", ":1: "),
        ("", "no result rows"),
    ],
)
def test_a_bad_file_is_one_line(tmp_path, content, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content)
    loaders = (
        [ladderbench.load_summary]
        if message == "no result rows"
        else [
            ladderbench.load_results,
            ladderbench.load_summary,
        ]
    )
    for load in loaders:
        with pytest.raises(UserError, match=message) as caught:
            load(bad)
        assert str(bad) in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(UserError, match="cannot read"):
        ladderbench.load_results(tmp_path / "missing.jsonl")


def test_an_empty_file_is_an_empty_frame_with_the_columns(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    df = ladderbench.load_results(empty)
    assert len(df) == 0 and {c: str(df[c].dtype) for c in EXPECTED_DTYPES} == EXPECTED_DTYPES


VOLATILE = ["run", "latencyMs"]  # a new run id and timings each run


@pytest.mark.parametrize("model", ["oracle", "echo", "random"])
def test_evaluate_gives_what_the_cli_gives(tmp_path, model):
    by_cli = tmp_path / "cli.jsonl"
    proc = cli(
        "run", "--model", model, "--levels", "4,5", "--limit", "5", "--seed", "3",
        "--out", str(by_cli), "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    from_cli = json.loads(proc.stdout)
    result = ladderbench.evaluate(model, levels=[4, 5], limit=5, seed=3, out=tmp_path / "api.jsonl")
    from_api = result.summary.to_json_dict()
    made = [summary.pop("provenance") for summary in (from_cli, from_api)]
    assert made[0]["questionsSha256"] == made[1]["questionsSha256"]
    assert "command" in made[0] and "command" not in made[1]  # the API has no command line
    for summary in (from_cli, from_api):
        summary.pop("run"), summary.pop("elapsedS")
    assert from_api == from_cli and from_api["total"] == 10
    assert result.path == tmp_path / "api.jsonl"
    pd.testing.assert_frame_equal(
        result.rows().drop(columns=VOLATILE),
        ladderbench.load_results(by_cli).drop(columns=VOLATILE),
    )


def test_evaluate_inside_a_running_event_loop(tmp_path):
    """As in Jupyter: the caller's thread is inside a loop, so the run goes to another thread."""
    threads = []

    async def notebook_cell():
        threads.append(threading.current_thread())
        return ladderbench.evaluate("oracle", limit=1, levels=(1, 2), out=tmp_path / "nb.jsonl")

    result = asyncio.run(notebook_cell())
    assert result.summary.total == 2 and result.summary.to_json_dict()["rate"] == 1.0
    assert result.rows()["pass"].all()
    assert threads == [threading.main_thread()]


def test_evaluate_keeps_errors_apart_and_warns(tmp_path):
    gold = {item.prompt: item.expected for item in StaticSuite(levels=[1], limit=4).items()}
    failing = sorted(gold)[1]
    with (
        FakeOpenAI(
            reply=gold.get, fault=lambda prompt, seen: "500" if prompt == failing else None
        ) as server,
        pytest.warns(UserWarning, match="1 of 4 attempts ended in an error"),
    ):
        result = ladderbench.evaluate(
            "openai:fake", base_url=server.base_url, levels=[1], limit=4, retries=0,
            out=tmp_path / "fake.jsonl",
        )  # fmt: skip
    df = result.rows()
    assert result.summary.errors == 1
    errored = df["error"].notna()
    assert errored.sum() == 1 and df.loc[errored, "pass"].isna().all()
    assert df.loc[~errored, "pass"].tolist() == [True, True, True]
    assert df.loc[~errored, "usage.total_tokens"].tolist() == [12, 12, 12]


def test_a_bad_suite_option_is_the_clis_error(tmp_path):
    proc = cli("run", "--model", "oracle", "--tiers", "1", "--out", str(tmp_path / "x.jsonl"))
    assert proc.returncode == 2
    with pytest.raises(UserError) as caught:
        ladderbench.evaluate("oracle", tiers=[1], out=tmp_path / "y.jsonl")
    assert proc.stderr.strip() == f"error: {caught.value}"
    assert not (tmp_path / "y.jsonl").exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"samples": 0}, "samples=0: must be at least 1"),
        ({"temperature": -1.0}, "temperature=-1.0: must be at least 0"),
        ({"model": "nonsense"}, "unknown model spec 'nonsense'"),
        ({"suite": "nonsense"}, "unknown suite 'nonsense'"),
    ],
)
def test_bad_arguments_are_user_errors(tmp_path, options, message):
    with pytest.raises(UserError, match=message):
        ladderbench.evaluate(**{"model": "oracle", "out": tmp_path / "z.jsonl", **options})


def test_suite_names_are_the_registry(tmp_path):
    assert list(typing.get_args(SuiteName)) == suite_names()


INTERRUPTED_CELL = """
import asyncio, os, signal, threading, time
from pathlib import Path
import ladderbench
from ladderbench.testing.fake_openai import FakeOpenAI

out = Path({out!r})
with FakeOpenAI(latency=0.2) as server:
    def cell():
        return ladderbench.evaluate(
            "openai:fake", base_url=server.base_url, limit=5, concurrency=1, out=out, cache=False
        )

    main = threading.main_thread().ident

    def interrupt_once_rows_are_written():
        while True:
            try:
                if out.read_text().count(chr(10)) >= 2:  # the header and a row
                    break
            except OSError:  # not there yet
                pass
            time.sleep(0.02)
        # to the main thread itself: a signal the kernel hands to another thread would not
        # wake the main thread's wait until the run had ended
        signal.pthread_kill(main, signal.SIGINT)

    async def notebook():
        threading.Thread(target=interrupt_once_rows_are_written, daemon=True).start()
        try:
            cell()
        except KeyboardInterrupt:
            return out.read_text().count(chr(10))

    # a running loop without asyncio.run's own SIGINT handler, as in a Jupyter kernel
    at_interrupt = asyncio.new_event_loop().run_until_complete(notebook())
    time.sleep(1.0)  # five more answers' time: a run still going would write more
    later = out.read_text().count(chr(10))
    again = ladderbench.evaluate(
        "openai:fake", base_url=server.base_url, limit=5, concurrency=1, out=out
    )
    print(at_interrupt, later, again.summary.total)
"""


def test_ctrl_c_inside_a_running_loop_stops_the_run_and_keeps_its_rows(tmp_path):
    out = tmp_path / "interrupted.jsonl"
    printed = python_output(
        INTERRUPTED_CELL.format(out=str(out)), hash_seed="0", path=[Path(__file__).parent]
    )
    at_interrupt, later, total = map(int, printed.split())
    assert 2 <= at_interrupt < 25  # rows kept, no summary: the run stopped early
    assert later == at_interrupt  # and it had stopped when KeyboardInterrupt came back
    assert total == 25  # the same call resumes it to the end


def test_the_readme_example_runs(tmp_path, monkeypatch, capsys):
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    section = readme.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("1.0 results/oracle.jsonl\n") and "level" in printed
