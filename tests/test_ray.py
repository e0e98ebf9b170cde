"""``--executor ray``: the static ladder through Ray actors gives the rows of an in-process run,
and an actor killed mid-run has its attempt sent again, never written twice, never lost.

One local Ray cluster (127.0.0.1) serves the whole module; without Ray installed these tests
skip, except the one checking the one-line install hint.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from functools import partial

import pytest

from ladderbench.api import prepare_run, run_job
from ladderbench.errors import UserError
from ladderbench.models.registry import EndpointOptions
from ladderbench.runner.results import ResultWriter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite
from ladderbench.testing.fixed_time_model import FixedTimeAdapter

SELECTION = {"levels": [1, 2, 3], "limit": 6}
# What a run through Ray must reproduce exactly (the run id, timings and cache flag may differ).
COMPARED = ("id", "sample", "prompt", "expected", "response", "extracted", "score", "passed")


def answers(rows) -> list[tuple]:
    return sorted(tuple(getattr(row, field) for field in COMPARED) for row in rows)


def rows_of(path):
    results = ResultWriter(path).read()
    counts = Counter(row.key for row in results.rows)
    assert set(counts.values()) == {1}, "an attempt was written twice"
    return results.rows


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'ladderbench[ray]'")
    ray.init(address="local", _node_ip_address="127.0.0.1", num_cpus=4, include_dashboard=False)
    yield ray
    ray.shutdown()


def run(model, out, executor, workers=2):
    config = RunConfig(out=out, concurrency=4)
    job = prepare_run(
        model, "static", SELECTION, EndpointOptions(), config, seed=0, cache=False,
        workers=workers, executor=executor,
    )  # fmt: skip
    run_job(job)
    return rows_of(out)


def test_executor_ray_without_ray_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(UserError, match=r"pip install 'ladderbench\[ray\]'"):
        run("oracle", tmp_path / "r.jsonl", "ray")


def test_ray_address_needs_the_ray_executor(tmp_path):
    with pytest.raises(UserError, match="only with --executor ray"):
        prepare_run(
            "oracle", "static", SELECTION, EndpointOptions(), RunConfig(out=tmp_path / "r"),
            seed=0, cache=False, ray_address="127.0.0.1:6379",
        )  # fmt: skip


def test_an_unknown_executor_is_one_line(tmp_path):
    import ladderbench

    with pytest.raises(UserError, match="--executor dask: use local or ray"):
        ladderbench.evaluate("oracle", executor="dask", out=tmp_path / "r.jsonl", limit=1)


def test_a_cluster_address_nobody_answers_is_one_line_at_once(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'ladderbench[ray]'")
    import socket

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # even with the module's cluster up

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(UserError, match=f"RAY_ADDRESS 127.0.0.1:{port}: no Ray cluster answers"):
        run("oracle", tmp_path / "r.jsonl", "ray")


@pytest.mark.slow
def test_oracle_through_ray_gives_the_in_process_rows(tmp_path, ray_cluster):
    here = run("oracle", tmp_path / "here.jsonl", "local", workers=1)
    there = run("oracle", tmp_path / "ray.jsonl", "ray")
    assert len(here) == 18 and all(row.passed for row in here)
    assert answers(there) == answers(here)
    assert {row.adapter for row in there} == {"oracle"}


@pytest.mark.slow
def test_fake_local_model_through_ray_gives_the_in_process_rows(tmp_path, ray_cluster, monkeypatch):
    """The embedded model's adapter in the actors (its worker process a stand-in), as on a node."""
    monkeypatch.setenv("LADDERBENCH_LOCAL_WORKER", "ladderbench.testing.fake_llama_worker")
    model = tmp_path / "fake.gguf"
    model.write_bytes(b"GGUF stand-in")
    here = run(f"local:{model}", tmp_path / "here.jsonl", "local", workers=1)
    there = run(f"local:{model}", tmp_path / "ray.jsonl", "ray")
    assert len(here) == 18 and {row.response for row in here} == {"The answer is A."}
    assert answers(there) == answers(here)
    header = ResultWriter(tmp_path / "ray.jsonl").read().header
    assert header is not None and header.settings["backend"]["llamaCppPython"] == "fake"


@pytest.mark.slow
def test_a_model_missing_on_the_nodes_is_one_line(tmp_path, ray_cluster):
    with pytest.raises(UserError, match="no such GGUF file"):
        run(f"local:{tmp_path / 'absent.gguf'}", tmp_path / "r.jsonl", "ray")


@pytest.mark.slow
def test_an_actor_killed_mid_run_has_its_attempt_sent_again(tmp_path, ray_cluster):
    from ladderbench.runner.ray_executor import RayPool

    pool = RayPool(partial(FixedTimeAdapter, 0.05), actors=2)
    first = pool.actors[0]
    written = []

    def kill_after_three(row):
        written.append(row)
        if len(written) == 3:  # both actors are busy: one of them dies with a request in hand
            ray_cluster.kill(first, no_restart=True)

    suite = StaticSuite(levels=[1, 2, 3], limit=6)
    config = RunConfig(out=tmp_path / "killed.jsonl", concurrency=2)
    asyncio.run(run_suite(suite, pool, config, progress=kill_after_three))
    assert pool.requeued >= 1 and first in pool.dead
    rows = rows_of(config.out)
    assert len(rows) == 18 and all(row.error is None and row.passed for row in rows)
    reference = run("oracle", tmp_path / "here.jsonl", "local", workers=1)
    assert answers(rows) == answers(reference)


@pytest.mark.slow
def test_slow_grading_runs_as_a_ray_task_with_the_graders_own_errors(ray_cluster):
    import os

    from ladderbench.grading.scorer import GraderCrash, guarded
    from ladderbench.runner.ray_executor import RayPool

    pool = RayPool(partial(FixedTimeAdapter, 0.0), actors=1)
    suite = StaticSuite(levels=[1], limit=2)
    item = suite.items()[0]

    async def offloaded():
        verdict = await pool.offload(guarded, suite.grade, item, item.reference)
        elsewhere = await pool.offload(os.getpid)
        return verdict, elsewhere

    verdict, pid = asyncio.run(offloaded())
    assert verdict == guarded(suite.grade, item, item.reference) and verdict.passed
    assert pid != os.getpid()  # graded in a Ray worker, not in the driver

    def broken(item, text):
        raise KeyError("a grader bug")

    with pytest.raises(GraderCrash):
        asyncio.run(pool.offload(guarded, broken, item, "x"))
    asyncio.run(pool.aclose())


@pytest.mark.slow
def test_the_driver_killed_mid_run_then_resume_gives_every_attempt_once(tmp_path):
    """The CLI with its own private cluster: SIGKILL the driver, run the same command again."""
    import os
    import signal
    import subprocess
    import time

    pytest.importorskip("ray", reason="Ray is not installed: pip install 'ladderbench[ray]'")
    from cli_helpers import ladderbench, read_jsonl

    model, out = tmp_path / "fake.gguf", tmp_path / "run.jsonl"
    model.write_bytes(b"GGUF stand-in")
    args = [
        "run", "--model", f"local:{model}", "--executor", "ray", "--workers", "2",
        "--levels", "1,2", "--limit", "5", "--no-cache", "--out", str(out), "--quiet",
    ]  # fmt: skip
    env = {"LADDERBENCH_LOCAL_WORKER": "ladderbench.testing.fake_llama_worker"}
    slow = {**os.environ, **env, "FAKE_WORKER_DELAY": "0.3"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ladderbench", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=slow,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= 4:  # the header and 3 rows
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rows, summary = read_jsonl(out)
    assert summary is None and 3 <= len(rows) < 10
    resumed = ladderbench(*args, env=env)
    assert resumed.returncode == 0, resumed.stderr
    rows, summary = read_jsonl(out)
    keys = Counter((r["id"], r["sample"]) for r in rows)
    assert len(keys) == 10 and set(keys.values()) == {1} and summary["total"] == 10
