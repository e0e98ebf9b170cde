"""The embedded model in a worker process against llama.cpp in-process, on the static ladder.

A benchmark, not a test: it measures and prints a Markdown table, and asserts nothing.

The ``local`` adapter runs llama.cpp in a child process so that a native crash cannot take a run
down. This measures what that isolation costs, in the same run, on the same prompts and settings
(SmolLM2-135M-Instruct, temperature 0, seed 0, ``--max-tokens``): (a) the baseline, ``Llama``
loaded in this process and called directly, as the adapter did before; (b) ``LocalAdapter``
through its worker. The two are interleaved in rounds (a, b, a, b, ...) so that they share the same
spells of machine load, and the medians are compared. Model loading is timed apart.

Usage: ``.venv/bin/python bench/local_worker.py [--questions 30] [--rounds 3] [--max-tokens 64]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from machine_load import OtherLoad

from ladderbench.models.base import Request, Sampling
from ladderbench.models.local import LocalAdapter, default_model_path


def prompts(n: int) -> list[str]:
    from ladderbench.suites import make_suite

    items = make_suite("static").items()
    step = max(1, len(items) // n)
    return [item.prompt for item in items[::step][:n]]


def in_process(llm, texts: list[str], max_tokens: int) -> float:
    started = time.perf_counter()
    for text in texts:
        llm.create_chat_completion(
            messages=[{"role": "user", "content": text}],
            temperature=0.0,
            max_tokens=max_tokens,
            seed=0,
        )
    return time.perf_counter() - started


def in_worker(adapter: LocalAdapter, texts: list[str], max_tokens: int) -> float:
    async def go() -> float:
        started = time.perf_counter()
        for i, text in enumerate(texts):
            request = Request(
                item_id=str(i),
                messages=({"role": "user", "content": text},),
                sampling=Sampling(max_tokens=max_tokens, seed=0),
            )
            completion = await adapter.complete(request)
            assert completion.error is None, completion.error
        return time.perf_counter() - started

    return asyncio.run(go())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=64)
    args = parser.parse_args()
    texts = prompts(args.questions)
    path = default_model_path()
    with OtherLoad() as load:
        measured = measure(args, texts, path)
    report(args, texts, measured, load)


def measure(args: argparse.Namespace, texts: list[str], path) -> dict:
    from llama_cpp import Llama

    t0 = time.perf_counter()
    llm = Llama(model_path=str(path), n_ctx=2048, n_threads=os.cpu_count() or 1, seed=0,
                verbose=False)  # fmt: skip
    load_in_process = time.perf_counter() - t0
    t0 = time.perf_counter()
    adapter = LocalAdapter()
    load_worker = time.perf_counter() - t0
    a, b = [], []
    for _ in range(args.rounds):
        a.append(in_process(llm, texts, args.max_tokens))
        b.append(in_worker(adapter, texts, args.max_tokens))
    adapter.close()
    return {"a": a, "b": b, "load_in_process": load_in_process, "load_worker": load_worker}


def report(args: argparse.Namespace, texts: list[str], m: dict, load: OtherLoad) -> None:
    a, b = m["a"], m["b"]
    load_in_process, load_worker = m["load_in_process"], m["load_worker"]
    ma, mb = statistics.median(a), statistics.median(b)
    n = len(texts)
    print(f"{n} static-ladder prompts, --max-tokens {args.max_tokens}, {args.rounds} rounds, "
          f"medians. {load.note()}\n")  # fmt: skip
    print("| | questions/s | s per round | ratio to in-process |")
    print("|---|---|---|---|")
    print(f"| (a) llama.cpp in-process (baseline) | {n / ma:.2f} | {ma:.2f} | 1.00 |")
    print(f"| (b) `local` adapter, worker process | {n / mb:.2f} | {mb:.2f} | {ma / mb:.2f} |")
    print(f"\nmodel load: in-process {load_in_process:.2f} s; worker start, load, handshake and "
          f"model sha256 {load_worker:.2f} s")  # fmt: skip
    print("rounds (a): " + ", ".join(f"{x:.2f}" for x in a))
    print("rounds (b): " + ", ".join(f"{x:.2f}" for x in b))


if __name__ == "__main__":
    main()
