"""LadderBench inside Inspect: the tasks ask what ``ladderbench run`` asks and score the same
replies the same, rung by rung; ``ladderbench report`` reads their ``.eval`` logs back.

Every model here is the project's fake OpenAI server on 127.0.0.1; a guard refuses (and records)
any connection elsewhere, so a test that passes also shows Inspect reached for no network.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each eval starts Inspect; the CLI checks start Pythons

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="the Inspect tasks need inspect_ai: pip install 'ladderbench[inspect]'"
)

import ladderbench  # noqa: E402
from cli_helpers import ladderbench as run_cli  # noqa: E402
from cli_helpers import python_output  # noqa: E402
from ladderbench.api import load_results  # noqa: E402
from ladderbench.live.base import Sources  # noqa: E402
from ladderbench.live.release import build  # noqa: E402
from ladderbench.suites import make_suite  # noqa: E402
from ladderbench.testing.fake_openai import FakeOpenAI  # noqa: E402

MODEL = "gpt-4o-mini"  # a name Inspect's openai provider sends to /v1/chat/completions
LOOPBACK = ("127.0.0.1", "::1", "localhost")

# Installed in a child Python (PYTHONPATH): record and refuse connections beyond this machine.
GUARD = """
import os, socket
_log = os.environ["NETWORK_GUARD_LOG"]
_connect = socket.socket.connect
def _guarded(self, address, *a):
    host = address[0] if isinstance(address, tuple) else ""
    if isinstance(address, tuple) and host not in ("127.0.0.1", "::1", "localhost"):
        with open(_log, "a") as f:
            f.write(repr(address) + "\\n")
        raise OSError("network refused by the test guard")
    return _connect(self, address, *a)
socket.socket.connect = _guarded
"""


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Refuse connections beyond loopback in this process, and fail a test that tried one."""
    attempts: list[object] = []
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: object, *rest: object) -> object:
        if isinstance(address, tuple) and address[0] not in LOOPBACK:
            attempts.append(address)
            raise OSError("network refused by the test guard")
        return connect(self, address, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    yield attempts
    assert attempts == [], f"tried to reach the network: {attempts}"


def by_prompt(items: list, answer: Callable[[object, int], str]) -> Callable[[str], str]:
    """A fake model that answers each item's prompt with ``answer(item, bucket)``, the buckets
    0, 1, 2 in turn down the items (Inspect and ladderbench get the same reply)."""
    replies = {item.prompt: answer(item, index % 3) for index, item in enumerate(items)}
    return lambda prompt: replies.get(prompt, "no idea")


def inspect_eval(
    task: object, server: FakeOpenAI, log_dir: Path, model: str = MODEL, **options: object
) -> Path:
    """Run a task with Inspect's Python API against ``server``; the path of its ``.eval`` log."""
    (log,) = inspect_ai.eval(
        task,
        model=f"openai/{model}",
        model_base_url=server.base_url,
        log_dir=str(log_dir),
        display="none",
        **options,
    )
    assert log.status == "success", log.error
    return Path(log.location)


def ladderbench_run(server: FakeOpenAI, out: Path, *options: str) -> dict:
    """``ladderbench run`` against ``server``: its summary."""
    result = run_cli(
        "run",
        "--model",
        f"openai:{MODEL}",
        "--base-url",
        server.base_url,
        "--api-key",
        "test-key",
        "--no-cache",
        "--retries",
        "0",
        "--out",
        str(out),
        "--json",
        *options,
    )
    assert result.returncode in (0, 3), result.stderr
    return json.loads(result.stdout)


def report_json(path: Path) -> dict:
    result = run_cli("report", "--json", str(path))
    assert result.returncode == 0, result.stderr
    assert "did not finish" not in result.stderr
    return json.loads(result.stdout)


def metrics(log_path: Path) -> dict[str, float]:
    log = inspect_ai.log.read_eval_log(str(log_path), header_only=True)
    assert log.results is not None
    (scores,) = log.results.scores
    return {name: metric.value for name, metric in scores.metrics.items()}


def same_verdicts(log_path: Path, run_path: Path) -> None:
    """Each attempt read back from the log is the run's: same reply, reading, score and pass."""
    columns = ["id", "sample", "prompt", "expected", "response", "extracted", "score", "pass"]
    from_log = load_results(log_path)[columns].sort_values("id").reset_index(drop=True)
    from_run = load_results(run_path)[columns].sort_values("id").reset_index(drop=True)
    assert from_log.equals(from_run)


def asked(server: FakeOpenAI) -> list[tuple]:
    """What the model was sent, request by request (in prompt order)."""
    return sorted(
        (json.dumps(r["messages"]), r.get("temperature"), r.get("max_tokens"))
        for r in server.requests
    )


# ---------------------------------------------------------------- the static ladder


def test_static_levels_equal_ladderbench_run(tmp_path: Path) -> None:
    from ladderbench.inspect_tasks import static  # noqa: F401  (registers ladderbench/static)

    items = make_suite("static", levels=[1, 2], limit=4).items()
    letters = "ABCD"

    def answer(item, bucket: int) -> str:  # right, wrong, or no letter at all
        wrong = letters[(letters.index(item.expected) + 1) % 4]
        return [item.expected, f"The answer is {wrong}.", "I cannot tell."][bucket]

    reply = by_prompt(items, answer)
    with FakeOpenAI(reply=reply) as server:
        # by registered name, the task arguments as Inspect parses -T levels=1,2 -T limit=4
        log = inspect_eval(
            "ladderbench/static",
            server,
            tmp_path / "logs",
            task_args={"levels": ["1", "2"], "limit": 4},
        )
        via_inspect = asked(server)
        server.requests.clear()
        run = ladderbench_run(server, tmp_path / "run.jsonl", "--levels", "1,2", "--limit", "4")
        assert asked(server) == via_inspect  # the same prompts, temperature 0, 512 tokens
    assert via_inspect[0][1:] == (0.0, 512)
    assert {row[0] for row in via_inspect} == {
        json.dumps([{"role": "user", "content": item.prompt}]) for item in items
    }

    scores = metrics(log)
    assert {name: scores[f"level {name}"] for name in run["byLevel"]} == {
        name: bucket["rate"] for name, bucket in run["byLevel"].items()
    }
    assert scores["accuracy"] == pytest.approx(run["rate"])
    assert 0 < run["rate"] < 1  # the replies are a mix, so equal rates mean something

    read = report_json(log)
    assert read["byLevel"] == run["byLevel"] and read["byCategory"] == run["byCategory"]
    assert (read["suite"], read["adapter"], read["model"]) == (
        "static",
        "inspect",
        f"openai/{MODEL}",
    )
    assert read["settings"]["maxTokens"] == 512 and read["settings"]["temperature"] == 0.0
    same_verdicts(log, tmp_path / "run.jsonl")
    compared = run_cli("compare", "--json", str(log), str(tmp_path / "run.jsonl"))
    assert compared.returncode == 0, compared.stderr
    (paired,) = json.loads(compared.stdout)["pairedTests"]
    assert (paired["shared"], paired["difference"]) == (len(items), 0.0)

    # the printed tables are the run's, but for whose model it was
    table = run_cli("report", str(log))
    assert table.returncode == 0, table.stderr
    expected = run_cli("report", str(tmp_path / "run.jsonl")).stdout
    label = re.compile(r"(inspect:openai/|openai:)" + re.escape(MODEL))
    assert normalised(label.sub("MODEL", table.stdout)) == normalised(label.sub("MODEL", expected))


def normalised(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def test_an_errored_sample_is_an_error_not_a_wrong_answer(tmp_path: Path) -> None:
    from ladderbench.inspect_tasks import static

    items = make_suite("static", levels=[1], limit=3).items()
    broken = items[1].prompt
    with FakeOpenAI(
        reply=lambda prompt: "A", fault=lambda prompt, seen: "500" if prompt == broken else None
    ) as server:
        # a model name Inspect does not know as OpenAI's goes to the Responses API unless told
        log = inspect_eval(
            static(levels=1, limit=3),
            server,
            tmp_path,
            model="local-model",
            model_args={"responses_api": False},
            fail_on_error=False,
            max_retries=0,
        )
    rows = load_results(log).set_index("id")
    assert rows.loc[items[1].id, "error"] and rows.loc[items[1].id, "pass"] is pd_na()
    assert rows["error"].isna().sum() == 2
    read = report_json(log)
    assert (read["total"], read["errors"], read["byLevel"]["1"]["n"]) == (3, 1, 2)


def pd_na() -> object:
    import pandas as pd

    return pd.NA


# ---------------------------------------------------------------- the puzzle ladder


def test_puzzle_tiers_equal_ladderbench_run(tmp_path: Path) -> None:
    from ladderbench.inspect_tasks import puzzles

    options = {"tiers": [0, 1, 2], "seeds": [1, 2], "families": ["arithmetic", "caesar", "text"]}
    items = make_suite("puzzles", **options).items()

    def answer(item, bucket: int) -> str:
        return [item.reference, "<answer>0</answer>", "no idea"][bucket]

    with FakeOpenAI(reply=by_prompt(items, answer)) as server:
        # arguments as -T would give them: ranges, and a comma list split into names
        task = puzzles(tiers="0-2", seeds=["1", "2"], families=["arithmetic", "caesar", "text"])
        log = inspect_eval(task, server, tmp_path / "logs")
        run = ladderbench_run(
            server,
            tmp_path / "run.jsonl",
            "--suite",
            "puzzles",
            "--tiers",
            "0-2",
            "--seeds",
            "1,2",
            "--families",
            "arithmetic,caesar,text",
        )
    scores = metrics(log)
    assert {name: scores[f"tier {name}"] for name in run["byTier"]} == {
        name: bucket["rate"] for name, bucket in run["byTier"].items()
    }
    assert {name: scores[f"family {name}"] for name in run["byFamily"]} == {
        name: bucket["rate"] for name, bucket in run["byFamily"].items()
    }
    assert 0 < run["rate"] < 1
    read = report_json(log)
    assert read["byTier"] == run["byTier"] and read["byFamily"] == run["byFamily"]
    assert read["settings"]["seeds"] == "1-2" and read["settings"]["suiteVersion"] == "1"
    same_verdicts(log, tmp_path / "run.jsonl")


def test_puzzle_task_arguments_are_checked_as_the_cli_checks_them() -> None:
    from ladderbench.errors import UserError
    from ladderbench.inspect_tasks import puzzles

    with pytest.raises(UserError, match="tier 9 is out of range"):
        puzzles(tiers=9)
    with pytest.raises(UserError, match="expected numbers and ranges"):
        puzzles(seeds="one")
    task = puzzles(suite_version=2, difficulties="0-1", families="caesar", seeds=[3])
    assert [s.id for s in task.dataset] == ["caesar/d0/s3", "caesar/d1/s3"]


# ---------------------------------------------------------------- a live release


def test_live_task_scores_equal_ladderbench_run(tmp_path: Path) -> None:
    from ladderbench.inspect_tasks import live

    store = tmp_path / "store"
    build(
        store,
        "2026-11-01",
        Sources.empty(),
        per_task=3,
        private_share=0,
        names=["navigation", "plot_unscrambling"],
    )
    items = make_suite("live", live_dir=store).items()

    def answer(item, bucket: int) -> str:  # right, partly right (two lines swapped), or wrong
        lines = item.reference.split("\n")
        if bucket == 1 and len(lines) > 3:
            lines[1], lines[2] = lines[2], lines[1]
        return "\n".join(lines) if bucket < 2 else "<solution>no idea</solution>"

    with FakeOpenAI(reply=by_prompt(items, answer)) as server:
        log = inspect_eval(live(live_dir=str(store)), server, tmp_path / "logs")
        run = ladderbench_run(
            server, tmp_path / "run.jsonl", "--suite", "live", "--live-dir", str(store)
        )
    scores = metrics(log)
    assert {task: scores[f"task {task}"] for task in run["byTask"]} == pytest.approx(
        {task: entry["score"] for task, entry in run["byTask"].items()}
    )
    partial = [s for s in load_results(log)["score"] if 0 < s < 1]
    assert partial, "no partial credit: the test does not exercise it"
    read = report_json(log)
    assert read["byTask"] == run["byTask"] and read["overall"] == run["overall"]
    same_verdicts(log, tmp_path / "run.jsonl")


# ---------------------------------------------------- the command line and the entry point


def entry_point() -> tuple[str, str]:
    """The Inspect entry point pyproject.toml declares: (name, module)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib

    pyproject = Path(__file__).parents[1] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text())["project"]["entry-points"]["inspect_ai"]
    ((name, module),) = declared.items()
    return name, module


def test_entry_point_names_the_module_that_registers_the_tasks() -> None:
    import importlib

    from inspect_ai._util.registry import registry_lookup

    name, module = entry_point()
    assert name == "ladderbench"  # Inspect loads it for names ladderbench/...
    importlib.import_module(module)
    for task in ("static", "puzzles", "live"):
        assert registry_lookup("task", f"ladderbench/{task}") is not None, task


def test_inspect_eval_command_by_entry_point(tmp_path: Path) -> None:
    """``inspect eval ladderbench/static --model openai/...``, the package's entry point
    installed as pyproject.toml declares it, in a child process refused any network."""
    name, module = entry_point()
    (tmp_path / "site").mkdir()
    installed = {(e.name, e.value) for e in metadata.entry_points(group="inspect_ai")}
    path = [tmp_path / "site"]
    if (name, module) not in installed:  # a checkout not installed with pip: declare it here
        path.append(Path(ladderbench.__file__).resolve().parents[1])
        dist = tmp_path / "site" / "ladderbench_entry_point_check-0.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: ladderbench-entry-point-check\nVersion: 0\n"
        )
        (dist / "entry_points.txt").write_text(f"[inspect_ai]\n{name} = {module}\n")
    (tmp_path / "site" / "sitecustomize.py").write_text(GUARD)
    guard_log = tmp_path / "network.log"
    env = {
        **os.environ,
        # the installed package as pip put it; a second copy on the path would declare the
        # entry point twice, and Inspect then finds no task at all
        "PYTHONPATH": os.pathsep.join(map(str, path)),
        "NETWORK_GUARD_LOG": str(guard_log),
        "OPENAI_API_KEY": "test-key",
    }
    reach_out = "import socket; socket.create_connection(('192.0.2.1', 443), timeout=1)"
    subprocess.run([sys.executable, "-c", reach_out], env=env, capture_output=True, timeout=60)
    assert guard_log.read_text().startswith("('192.0.2.1', 443)")  # the guard is in place
    guard_log.unlink()
    with FakeOpenAI(reply=lambda prompt: "B") as server:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "inspect_ai",
                "eval",
                "ladderbench/static",
                "--model",
                f"openai/{MODEL}",
                "--model-base-url",
                server.base_url,
                "-T",
                "levels=1,2",
                "-T",
                "limit=2",
                "-T",
                "system_prompt=Answer tersely.",
                "--max-tokens",
                "64",
                "--log-dir",
                str(tmp_path / "logs"),
                "--display",
                "none",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert len(server.requests) == 4
        assert {r["max_tokens"] for r in server.requests} == {64}  # --max-tokens wins over 512
        system = {"role": "system", "content": "Answer tersely."}
        assert all(r["messages"][0] == system for r in server.requests)
    assert not guard_log.exists(), guard_log.read_text()
    (log,) = (tmp_path / "logs").glob("*.eval")
    read = report_json(log)
    assert {k: v["n"] for k, v in read["byLevel"].items()} == {"1": 2, "2": 2}
    assert read["settings"]["maxTokens"] == 64
    assert read["settings"]["systemPrompt"] == "Answer tersely."


# ---------------------------------------------------------------- logs ladderbench cannot read


def test_a_log_of_another_task_is_one_line(tmp_path: Path) -> None:
    from inspect_ai import Task
    from inspect_ai.dataset import Sample

    (log,) = inspect_ai.eval(
        Task(dataset=[Sample(input="hi", target="hi")], name="other"),
        model="mockllm/model",
        log_dir=str(tmp_path),
        display="none",
    )
    result = run_cli("report", log.location)
    assert result.returncode == 2
    assert "not of a LadderBench task" in result.stderr and "Traceback" not in result.stderr


def test_a_file_that_is_not_a_log_is_one_line(tmp_path: Path) -> None:
    from ladderbench.errors import UserError

    bad = tmp_path / "bad.eval"
    bad.write_text('{"not": "a zip"}\n')
    other = tmp_path / "other.eval"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("readme.txt", "hello")
    for path, said in [
        (bad, "not a readable Inspect log"),
        (other, "not a readable Inspect log"),
        (tmp_path / "missing.eval", "no such file"),
    ]:
        with pytest.raises(UserError, match=re.escape(f"{path}: {said}")) as caught:
            load_results(path)
        assert "\n" not in str(caught.value)


def test_importing_ladderbench_never_loads_inspect() -> None:
    code = (
        "import sys, ladderbench, ladderbench.api, ladderbench.cli, ladderbench.runner.results; "
        "print('inspect_ai' in sys.modules)"
    )
    assert python_output(code, hash_seed="0", path=[]) == "False"
