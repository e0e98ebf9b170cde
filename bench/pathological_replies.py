"""Answer readers and scorers on pathological replies: time per reply and growth with its length.

Every reader (the extraction functions, each puzzle family's scoring, each live task's scorer)
reads every family of ``ladderbench.testing.hostile_replies`` at a small and a large size (10k and
100k characters by default). Linear code takes about ten times as long at ten times the length;
quadratic code a hundred. Each reader runs in a child process that reports one family at a time,
so a reader that takes longer than ``--cap`` seconds on one reply is recorded as "> cap" and the
child is restarted at the next family (the old extraction code needs minutes on some of them).
``--src`` points the children at another checkout's ``src`` to measure the code before a change.

The baseline, measured in the same run on the same replies, is one regular-expression pass over
the reply (``re.findall(r"\\S+", reply)``): the least a reader that looks at every word does.

    .venv/bin/python bench/pathological_replies.py                    # this checkout
    .venv/bin/python bench/pathological_replies.py --src /tmp/old/src # another one
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import select
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def hostile_replies() -> Any:
    """This checkout's corpus, loaded by path: ``--src`` may name code from before it existed."""
    path = ROOT / "src" / "ladderbench" / "testing" / "hostile_replies.py"
    spec = importlib.util.spec_from_file_location("hostile_replies", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def core_readers() -> dict[str, Callable[[str], Any]]:
    from ladderbench.grading import extract

    options = ["London", "Paris", "12", "$18"]
    return {
        "strip_think": extract.strip_think,
        "normalise_text": extract.normalise_text,
        "extract_choice": lambda reply: extract.extract_choice(reply, options),
        "extract_answer": extract.extract_answer,
        "extract_table_text": extract.extract_table_text,
        "extract_reply_text": extract.extract_reply_text,
    }


def puzzle_readers() -> dict[str, Callable[[str], Any]]:
    from ladderbench.grading.extract import extract_answer
    from ladderbench.puzzles import registry

    def reader(family) -> Callable[[str], Any]:
        return lambda reply: family.normalise(extract_answer(reply) or "")

    return {f"puzzle:{name}": reader(f) for name, f in registry.families().items()}


def live_readers() -> dict[str, Callable[[str], Any]]:
    from ladderbench.live.base import Sources, question_rng
    from ladderbench.live.registry import TASKS

    def reader(task) -> Callable[[str], Any]:
        q = task.generate(question_rng("2026-12-01", task.name, 0), Sources.empty(), 0)
        record = {"ground_truth": q.ground_truth, "subtask": q.subtask, **q.fields}
        return lambda reply: task.score(record, reply)

    # The coding tasks run the reply in the sandbox: their time is the sandbox's, not a reader's.
    names = [n for n in TASKS.names() if n not in ("code_completion", "code_generation")]
    return {f"live:{name}": reader(TASKS.get(name)) for name in names}


def readers() -> dict[str, Callable[[str], Any]]:
    return {**core_readers(), **puzzle_readers(), **live_readers()}


def baseline(reply: str) -> Any:
    return re.findall(r"\S+", reply)


def child(reader_name: str, families: list[str], sizes: list[int]) -> None:
    """Time one reader on each family and size (CPU seconds of this thread); one JSON line per
    reply, as soon as it is done."""
    reply = hostile_replies().reply
    fn = baseline if reader_name == "baseline" else readers()[reader_name]
    for family in families:
        for size in sizes:
            text = reply(family, size)
            started = time.thread_time()  # CPU time: other processes on the machine delay a
            fn(text)  # reader but do not make it do more work
            elapsed = time.thread_time() - started
            print(json.dumps([family, size, elapsed]), flush=True)


def measure(reader: str, families: list[str], sizes: list[int], cap: float, src: Path) -> dict:
    """{(family, size): seconds or None (over the cap)} for one reader, in child processes."""
    results: dict[tuple[str, int], float | None] = {}
    todo = list(families)
    while todo:
        args = [sys.executable, __file__, "--child", reader, "--src", str(src)]
        args += ["--sizes", *map(str, sizes)]
        proc = subprocess.Popen([*args, "--families", *todo], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        pending = [(f, s) for f in todo for s in sizes]
        while pending:
            ready, _, _ = select.select([proc.stdout], [], [], cap + 5)
            line = proc.stdout.readline() if ready else ""
            if not line:  # over the cap (or the child died): this reply and its family's rest
                proc.kill()
                family = pending[0][0]
                for f, s in pending:
                    if f == family:
                        results[(f, s)] = None
                todo = todo[todo.index(family) + 1 :]
                break
            family, size, seconds = json.loads(line)
            results[(family, size)] = seconds if seconds <= cap else None
            pending.remove((family, size))
        else:
            todo = []
        proc.wait()
    return results


def show(seconds: float | None, cap: float) -> str:
    return f"> {cap:g} s" if seconds is None else f"{seconds * 1000:.1f}"


def table(all_results: dict, families: list[str], small: int, large: int, cap: float) -> str:
    """Per reader: its slowest family at the large size, that family's growth, the median time."""
    base = all_results["baseline"]
    base_large = statistics.median(base[(f, large)] for f in families)
    lines = [
        f"| reader | slowest family | ms at {large // 1000}k | growth {small // 1000}k→"
        f"{large // 1000}k | vs baseline | median ms at {large // 1000}k |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for reader, results in all_results.items():
        if reader == "baseline":
            continue

        def slowness(family: str, results: dict = results) -> float:
            value = results[(family, large)]
            return float("inf") if value is None else value

        worst = max(families, key=slowness)
        w_large, w_small = results[(worst, large)], results[(worst, small)]
        growth = "-" if w_large is None or not w_small else f"{w_large / w_small:.0f}x"
        versus = "-" if w_large is None else f"{w_large / base_large:.0f}x"
        finished = [results[(f, large)] for f in families if results[(f, large)] is not None]
        median = statistics.median(finished) * 1000 if finished else float("nan")
        lines.append(
            f"| {reader} | {worst} | {show(w_large, cap)} | {growth} | {versus} | {median:.1f} |"
        )
    lines.append(
        f"| baseline `re.findall(r'\\S+')` | - | {base_large * 1000:.1f} (median) | - | 1x | - |"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--cap", type=float, default=20.0, help="seconds per reply at most")
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--readers", nargs="*", help="reader names (default: all)")
    parser.add_argument("--families", nargs="*", help="reply families (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", nargs="*", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    families = args.families or list(hostile_replies().FAMILIES)
    if args.child:
        child(args.child, families, args.sizes)
        return
    names = args.readers or list(readers())
    sizes = [args.small, args.large]
    results = {"baseline": measure("baseline", families, sizes, args.cap, args.src)}
    for name in names:
        results[name] = measure(name, families, sizes, args.cap, args.src)
        print(f"  {name} done", file=sys.stderr, flush=True)
    print(f"Source: {args.src}; Python {sys.version.split()[0]}; nproc {os.cpu_count()}")
    print()
    print(table(results, families, args.small, args.large, args.cap))


if __name__ == "__main__":
    main()
