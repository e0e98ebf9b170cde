"""Harness overhead: ``ladderbench run`` against a local OpenAI-compatible server, in numbers.

A benchmark, not a test: it measures and prints a Markdown table, and asserts nothing.

The project's fake server (``python -m ladderbench.testing.fake_openai``) runs as a separate
process, instant (latency 0) and then with 0.2 s per request. A synthetic static ladder of 1000
four-choice questions (5 level files x 200) makes ``ladderbench run --data DIR`` send exactly 1000
chat-completion requests; a 100-question folder gives the marginal cost per request.

Measured in the same run, each the median of ``--reps`` repetitions after one untimed warm-up:

  (a) a sequential stdlib loop, ``http.client`` on one persistent connection: the baseline;
  (b) a bare aiohttp client at concurrency 32 (reference for the client library);
  (c) the whole ``ladderbench run`` command, start-up included, wall and child CPU seconds, for
      1000 and for 100 questions -> marginal CPU ms per request;
  (d) ``ladderbench`` start-up alone (oracle, ``--limit 1``);
  (e) with 0.2 s latency: the command at concurrency 32 against the ideal 1000 x 0.2 / 32 s.

``--profile`` adds a cProfile of the 1000-question command (top functions, time by module) and
``python -X importtime`` of the start-up, to show where the time goes.

Usage: ``.venv/bin/python bench/harness_overhead.py [--reps 5] [--profile]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import platform
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from machine_load import OtherLoad

from ladderbench.static.suite import render_prompt

LEVELS = 5
CONCURRENCY = 32
LATENCY = 0.2
# What the harness sends with its defaults (temperature 0, --max-tokens 512, --seed 0).
MAX_TOKENS = 512
SEED = 0
TARGET_RATIO = 1.5  # whole command vs the sequential stdlib loop
TARGET_CPU_MS = 0.3  # marginal CPU per request
TARGET_LATENCY_RATIO = 1.05  # wall under latency vs the ideal


def ladderbench_exe() -> str:
    beside = Path(sys.executable).with_name("ladderbench")
    if beside.exists():
        return str(beside)
    found = shutil.which("ladderbench")
    if not found:
        sys.exit("ladderbench is not installed: run `make setup` (or pip install -e .)")
    return found


# ---------------------------------------------------------------------------- data and server


def write_ladder(folder: Path, per_level: int) -> list[str]:
    """Write ``LEVELS`` level files of ``per_level`` questions each; return the prompts."""
    folder.mkdir(parents=True, exist_ok=True)
    prompts = []
    for level in range(1, LEVELS + 1):
        lines = []
        for i in range(per_level):
            a, b = 1000 * level + i, 7 * i + 3
            total = a + b
            choices = [str(total), str(total + 1), str(total - 1), str(total + 10)]
            question = f"What is {a} + {b}?"
            lines.append(
                json.dumps(
                    {
                        "id": f"bench-{level}-{i}",
                        "level": level,
                        "category": "arithmetic",
                        "question": question,
                        "choices": choices,
                        "answer": "A",  # the fake server always replies "A"
                    }
                )
            )
            prompts.append(render_prompt(question, choices))
        (folder / f"level{level}_bench.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    return prompts


@contextlib.contextmanager
def fake_server(latency: float) -> Iterator[str]:
    """The project's fake OpenAI server as a separate process; yields its base URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "ladderbench.testing.fake_openai", "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"the fake server exited without a URL (code {proc.wait()})")
        yield json.loads(line)["base_url"]
    finally:
        proc.terminate()
        proc.wait(10)


def payload(prompt: str) -> dict:
    """The body the harness's OpenAI adapter sends for one attempt (default settings)."""
    return {
        "model": "bench",
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0.0,
        "max_tokens": MAX_TOKENS,
        "seed": SEED,
    }


# ---------------------------------------------------------------------------- the clients


def stdlib_loop(base_url: str, prompts: list[str]) -> tuple[float, float]:
    """(a) One persistent http.client connection, one request after another: (wall, cpu)."""
    parts = urlsplit(base_url)
    path = parts.path.rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json"}
    wall, cpu = time.perf_counter(), time.process_time()
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    answers = []
    for prompt in prompts:
        conn.request("POST", path, json.dumps(payload(prompt)), headers)
        resp = conn.getresponse()
        body = json.loads(resp.read())
        if resp.status != 200:
            sys.exit(f"stdlib loop: HTTP {resp.status}")
        answers.append(body["choices"][0]["message"]["content"])
    conn.close()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if len(answers) != len(prompts):
        sys.exit("stdlib loop: missing answers")
    return wall, cpu


def bare_aiohttp(base_url: str, prompts: list[str], concurrency: int) -> tuple[float, float]:
    """(b) A bare aiohttp client with ``concurrency`` workers: (wall, cpu)."""
    url = base_url.rstrip("/") + "/chat/completions"

    async def main() -> list[str]:
        todo = iter(prompts)
        answers: list[str] = []
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

            async def worker() -> None:
                for prompt in todo:
                    async with session.post(url, json=payload(prompt)) as resp:
                        body = json.loads(await resp.read())
                        answers.append(body["choices"][0]["message"]["content"])

            await asyncio.gather(*(worker() for _ in range(concurrency)))
        return answers

    wall, cpu = time.perf_counter(), time.process_time()
    answers = asyncio.run(main())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if len(answers) != len(prompts):
        sys.exit("bare aiohttp: missing answers")
    return wall, cpu


@dataclass
class CommandRun:
    wall: float
    cpu: float  # user + system seconds of the child
    elapsed: float | None  # the runner's own elapsedS from the summary row


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(
    args: list[str], out: Path, expect_rows: int, env: dict[str, str] | None = None
) -> CommandRun:
    """Run a ladderbench command to completion: wall and CPU seconds of the child process."""
    if out.exists():
        out.unlink()  # an existing --out would be resumed
    cpu0, wall0 = child_cpu(), time.perf_counter()
    proc = subprocess.run(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env
    )
    wall, cpu = time.perf_counter() - wall0, child_cpu() - cpu0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)}\nexit {proc.returncode}: {proc.stderr.strip()}")
    lines = [json.loads(line) for line in out.read_text("utf-8").split("\n") if line]
    rows = [line for line in lines[:-1] if line.get("type") != "run"]  # the header is no row
    summary = lines[-1]
    errors = sum(1 for row in rows if row.get("error"))
    if len(rows) != expect_rows or errors or summary.get("type") != "summary":
        sys.exit(f"{out}: {len(rows)} rows ({errors} errors), expected {expect_rows} clean rows")
    return CommandRun(wall, cpu, summary.get("elapsedS"))


def run_args(base_url: str, data: Path, out: Path, concurrency: int = CONCURRENCY) -> list[str]:
    return [
        ladderbench_exe(),
        "run",
        "--model",
        "openai:bench",
        "--base-url",
        base_url,
        "--data",
        str(data),
        "--concurrency",
        str(concurrency),
        "--no-cache",
        "--quiet",
        "--out",
        str(out),
    ]


def startup_args(out: Path) -> list[str]:
    return [
        ladderbench_exe(),
        "run",
        "--model",
        "oracle",
        "--limit",
        "1",
        "--quiet",
        "--out",
        str(out),
    ]


# ---------------------------------------------------------------------------- measuring


Task = tuple[Callable[..., Any], tuple[Any, ...]]


def medians(reps: int, tasks: dict[str, Task]) -> dict[str, tuple]:
    """Run each task once untimed (warm-up), then ``reps`` rounds of all tasks interleaved.

    Interleaving (a, b, c, d, a, b, c, d, ...) exposes every measurement to the same spells of
    other work on the machine, so their ratios hold up better than back-to-back batches.
    Returns the median of each field per task.
    """
    for fn, args in tasks.values():
        fn(*args)
    results: dict[str, list[Any]] = {name: [] for name in tasks}
    for _ in range(reps):
        for name, (fn, args) in tasks.items():
            results[name].append(fn(*args))
    return {name: summarise_runs(runs) for name, runs in results.items()}


def summarise_runs(runs: list[Any]) -> tuple:
    if isinstance(runs[0], CommandRun):
        elapsed = [r.elapsed for r in runs if r.elapsed is not None]
        return (
            statistics.median(r.wall for r in runs),
            statistics.median(r.cpu for r in runs),
            statistics.median(elapsed) if elapsed else None,
        )
    return tuple(statistics.median(r[i] for r in runs) for i in range(len(runs[0])))


def median_of(reps: int, fn: Callable[..., Any], *args: Any) -> tuple:
    return medians(reps, {"only": (fn, args)})["only"]


def interpreter_start(reps: int) -> float:
    def once() -> tuple[float]:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        return (time.perf_counter() - t,)

    return median_of(reps, once)[0]


def fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def measure(reps: int, tmp: Path) -> dict:
    prompts_1000 = write_ladder(tmp / "ladder1000", 1000 // LEVELS)
    write_ladder(tmp / "ladder100", 100 // LEVELS)
    out = tmp / "out.jsonl"
    # The same start-up with compiled bytecode cached (in a temp dir, not in the tree): shows
    # what PYTHONDONTWRITEBYTECODE=1 (set on the project's machines) costs an editable install.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    m: dict = {
        "reps": reps,
        "bytecode_env": os.environ.get("PYTHONDONTWRITEBYTECODE", ""),
    }
    m["python"] = interpreter_start(reps)
    with fake_server(0.0) as url:
        m |= medians(
            reps,
            {
                "a": (stdlib_loop, (url, prompts_1000)),
                "b": (bare_aiohttp, (url, prompts_1000, CONCURRENCY)),
                "c1000": (run_command, (run_args(url, tmp / "ladder1000", out), out, 1000)),
                "c100": (run_command, (run_args(url, tmp / "ladder100", out), out, 100)),
                "d": (run_command, (startup_args(out), out, 5)),
                "d_pyc": (run_command, (startup_args(out), out, 5, env)),
            },
        )
    with fake_server(LATENCY) as url:
        latency_runs = medians(
            max(1, min(reps, 3)),
            {
                "e_bare": (bare_aiohttp, (url, prompts_1000, CONCURRENCY)),
                "e": (run_command, (run_args(url, tmp / "ladder1000", out), out, 1000)),
            },
        )
    m |= latency_runs
    return m


def report(m: dict) -> str:
    a_wall, a_cpu = m["a"]
    b_wall, b_cpu = m["b"]
    c_wall, c_cpu, c_el = m["c1000"]
    c100_wall, c100_cpu, c100_el = m["c100"]
    d_wall, d_cpu, _ = m["d"]
    e_wall, e_cpu, e_el = m["e"]
    eb_wall, _ = m["e_bare"]
    ideal = 1000 * LATENCY / CONCURRENCY
    marginal_ms = (c_cpu - c100_cpu) / 900 * 1000
    ratio = c_wall / a_wall
    lat_ratio = e_wall / ideal
    lines = [
        f"## Harness overhead (median of {m['reps']}; latency runs median of "
        f"{max(1, min(m['reps'], 3))})",
        "",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; the fake server is a separate process "
        "sharing the same cores. " + m["load_note"],
        "",
        "| measurement | requests | wall s | CPU s | runner elapsedS | req/s (wall) | vs (a) |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| (a) stdlib http.client loop, 1 connection, sequential — baseline | 1000 "
        f"| {fmt(a_wall)} | {fmt(a_cpu)} (in-process) | - | {1000 / a_wall:.0f} | 1.00x |",
        f"| (b) bare aiohttp, concurrency 32 | 1000 | {fmt(b_wall)} | {fmt(b_cpu)} (in-process) "
        f"| - | {1000 / b_wall:.0f} | {b_wall / a_wall:.2f}x |",
        f"| (c) `ladderbench run` whole command, concurrency 32 | 1000 | {fmt(c_wall)} "
        f"| {fmt(c_cpu)} | {fmt(c_el)} | {1000 / c_wall:.0f} | {ratio:.2f}x |",
        f"| (c) `ladderbench run` whole command, concurrency 32 | 100 | {fmt(c100_wall)} "
        f"| {fmt(c100_cpu)} | {fmt(c100_el)} | {100 / c100_wall:.0f} | - |",
        f"| (d) start-up: `ladderbench run --model oracle --limit 1` | 0 | {fmt(d_wall)} "
        f"| {fmt(d_cpu)} | - | - | - |",
        f"| `python -c pass` (interpreter alone, for reference) | 0 | {fmt(m['python'])} "
        "| - | - | - | - |",
        f"| (d) start-up, bytecode cached (PYTHONPYCACHEPREFIX) | 0 | {fmt(m['d_pyc'][0])} "
        f"| {fmt(m['d_pyc'][1])} | - | - | - |",
        f"| (e) bare aiohttp, concurrency 32, latency {LATENCY} s | 1000 | {fmt(eb_wall)} "
        f"| - | - | {1000 / eb_wall:.0f} | - |",
        f"| (e) `ladderbench run`, concurrency 32, latency {LATENCY} s | 1000 | {fmt(e_wall)} "
        f"| {fmt(e_cpu)} | {fmt(e_el)} | {1000 / e_wall:.0f} | - |",
        "",
        "| target | measured | target | verdict |",
        "|---|---:|---:|---|",
        f"| whole command (start-up included) vs sequential stdlib loop | {ratio:.2f}x "
        f"({fmt(c_wall)} s vs {fmt(a_wall)} s) | <= {TARGET_RATIO}x | "
        f"{verdict(ratio <= TARGET_RATIO)} |",
        f"| marginal CPU per request, (cpu1000 - cpu100) / 900 | {marginal_ms:.4f} ms "
        f"| < {TARGET_CPU_MS} ms | {verdict(marginal_ms < TARGET_CPU_MS)} |",
        f"| wall at latency {LATENCY} s, concurrency 32, vs ideal 1000 x {LATENCY} / 32 "
        f"= {ideal:.2f} s | {lat_ratio:.3f}x ({fmt(e_wall)} s) | <= {TARGET_LATENCY_RATIO}x "
        f"| {verdict(lat_ratio <= TARGET_LATENCY_RATIO)} |",
        "",
        f"PYTHONDONTWRITEBYTECODE={m['bytecode_env'] or '(unset)'} in this environment; "
        "with it set, the editable package's own modules are compiled from source at every "
        "start (the start-up row marked bytecode cached shows the difference).",
        "",
        f"Reading the latency row: with a fixed {LATENCY} s per request, 32 workers need "
        f"ceil(1000/32) = 32 rounds = {32 * LATENCY:.2f} s at best "
        f"({32 * LATENCY / ideal:.3f}x the ideal); the bare aiohttp client took "
        f"{fmt(eb_wall)} s ({eb_wall / ideal:.3f}x) and the runner itself {fmt(e_el)} s "
        f"({(e_el or 0) / ideal:.3f}x). The command's {fmt(e_wall)} s is the runner plus "
        f"start-up ({fmt(d_wall)} s) and {fmt(e_wall - d_wall - (e_el or 0))} s of the rest "
        "(importing aiohttp and tenacity, loading the 1000 questions, the summary, printing).",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- profiling


def module_of(filename: str) -> str:
    """A short module group for a profiled file: ladderbench.<part>, a package, or stdlib."""
    if filename.startswith("<") or filename == "~":
        return "builtins (C)"
    match = re.search(r"site-packages/([^/]+)", filename)
    if match:
        return match.group(1).removesuffix(".py")
    match = re.search(r"/ladderbench/([^/]+)", filename)
    if match:
        return "ladderbench." + match.group(1).removesuffix(".py")
    match = re.search(r"/python3\.\d+/([^/]+)", filename)
    if match:
        return "stdlib " + match.group(1).removesuffix(".py")
    return Path(filename).name


PHASES = (
    ("typer: parse options (lazy imports included)", "typer/core.py", "parse_args"),
    ("make_suite: load + validate the level files", "ladderbench/suites.py", "make_suite"),
    ("make_adapter: import aiohttp/tenacity, build adapter", "models/registry.py", "make_adapter"),
    ("asyncio.run(run_suite): the runner", "asyncio/runners.py", "run"),
    ("  adapter.complete (everything below it per request)", "models/openai.py", "complete"),
    ("  _post: the retry wrapper (tenacity) around _post_once", "models/openai.py", "_post"),
    ("  _post_once: aiohttp request + JSON + Completion", "models/openai.py", "_post_once"),
    ("  suite.grade (extract_choice)", "static/suite.py", "grade"),
    ("  ResultWriter.append (json.dumps + flush per row)", "runner/results.py", "append"),
    ("  summarise", "analysis/summary.py", "summarise"),
    ("_show: print the tables", "ladderbench/cli.py", "_show"),
)


def phase_times(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Cumulative seconds of the phases above (the outermost matching function)."""
    found = []
    for label, file_part, func in PHASES:
        best = 0.0
        for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():
            if name == func and filename.endswith(file_part):
                best = max(best, ct)
        found.append((label, best))
    return found


def import_times(args: list[str]) -> list[tuple[int, int, int, str]]:
    """``python -X importtime`` of a command: (cumulative us, self us, depth, module)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    found = []
    for line in proc.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| ( *)(\S+)", line)
        if match:
            self_us, cum_us, indent, name = match.groups()
            found.append((int(cum_us), int(self_us), len(indent) // 2, name))
    return found


def profile(tmp: Path) -> str:
    """cProfile and ``-X importtime`` of the 1000-question command, as Markdown."""
    prof = tmp / "run.prof"
    out = tmp / "prof.jsonl"
    data = tmp / "ladder1000"
    with fake_server(0.0) as url:
        args = ["-m", "ladderbench", *run_args(url, data, out)[1:]]
        run_command([sys.executable, "-m", "cProfile", "-o", str(prof), *args], out, 1000)
        out.unlink()
        imports = import_times(args)
    stats = pstats.Stats(str(prof))
    total = stats.total_tt
    lines = [
        f"### cProfile of the 1000-question command ({total:.3f} s under the profiler, "
        "which inflates the per-request Python code about 2-3x)",
        "",
        "| phase (cumulative) | s | share |",
        "|---|---:|---:|",
    ]
    imports_s = sum(i[1] for i in imports) / 1e6
    for label, seconds in phase_times(stats):
        lines.append(f"| {label} | {seconds:.3f} | {seconds / total:.0%} |")
    by_module: dict[str, float] = defaultdict(float)
    rows = []
    for (filename, line, func), (_cc, nc, tt, _ct, _callers) in stats.stats.items():
        by_module[module_of(filename)] += tt
        rows.append((tt, nc, f"{module_of(filename)}:{func}:{line}"))
    lines += ["", "Own time (tottime) by module, top 12:", ""]
    lines += ["| module | tottime s | share |", "|---|---:|---:|"]
    for name, tt in sorted(by_module.items(), key=lambda kv: -kv[1])[:12]:
        lines.append(f"| {name} | {tt:.3f} | {tt / total:.0%} |")
    lines += ["", "Top 12 functions by own time:", ""]
    lines += ["| function | calls | tottime s |", "|---|---:|---:|"]
    for tt, nc, name in sorted(rows, reverse=True)[:12]:
        lines.append(f"| `{name}` | {nc} | {tt:.3f} |")
    lines += [
        "",
        f"### `python -X importtime` of the same command ({imports_s:.3f} s importing in all, "
        "inflated by the measurement)",
        "",
        "| module (top-level import) | cumulative ms | self ms |",
        "|---|---:|---:|",
    ]
    for cum_us, self_us, _depth, name in sorted(i for i in imports if i[2] == 0)[::-1][:10]:
        lines.append(f"| {name} | {cum_us / 1000:.1f} | {self_us / 1000:.1f} |")
    lines += ["", "| module (any depth), by own time | self ms |", "|---|---:|"]
    for _cum, self_us, _depth, name in sorted(imports, key=lambda i: -i[1])[:10]:
        lines.append(f"| {name} | {self_us / 1000:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions (median)")
    parser.add_argument(
        "--profile", action="store_true", help="also profile the command and its imports"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ladderbench-bench-") as tmp:
        with OtherLoad() as load:
            m = measure(max(1, args.reps), Path(tmp))
        m["load_note"] = load.note()
        print(report(m), flush=True)
        if args.profile:
            print()
            print(profile(Path(tmp)))


if __name__ == "__main__":
    main()
