"""Scale-out: embedded-model workers on this machine, and model workers as Ray actors.

A benchmark, not a test: it measures and prints Markdown tables, and asserts nothing. Three parts,
each through the real runner (``run_suite``: results file, exactly-once bookkeeping and all):

1. ``--workers 1`` against ``--workers 2`` with the embedded model (SmolLM2-135M, temperature 0)
   on the first questions of each static level, interleaved in rounds so both share the same
   spells of machine load.
2. A model of fixed service time (``FixedTimeAdapter``: one request at a time per actor) as
   1, 2, 4, 8, 16, 32 Ray actors on a local cluster: attempts per second against the ideal
   ``actors / service time``. Then the driver's dispatch ceiling: a service time of 0 and many
   requests in flight per actor, so that the driver alone sets the pace.
3. What Ray adds per attempt: the same zero-time model in-process and as one Ray actor.

Usage: ``.venv/bin/python bench/scale_out.py [--questions 4] [--max-tokens 32] [--service 0.05]``
(needs ``pip install 'ladderbench[ray]'`` for parts 2 and 3).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from machine_load import OtherLoad

from ladderbench.models.base import ModelAdapter, Sampling
from ladderbench.models.registry import make_adapter
from ladderbench.runner.run import RunConfig, run_suite
from ladderbench.static.suite import StaticSuite
from ladderbench.testing.fixed_time_model import FixedTimeAdapter


def timed_run(adapter: ModelAdapter, suite: StaticSuite, config: RunConfig) -> tuple[int, float]:
    """(attempts, seconds) of one run into a fresh file."""
    started = time.perf_counter()
    summary = asyncio.run(run_suite(suite, adapter, config))
    return summary.total, time.perf_counter() - started


def fresh(folder: Path, name: str, **options: object) -> RunConfig:
    out = folder / f"{name}-{time.monotonic_ns()}.jsonl"
    return RunConfig(out=out, **options)  # type: ignore[arg-type]


def local_workers(folder: Path, questions: int, max_tokens: int, rounds: int) -> None:
    suite = StaticSuite(limit=questions)
    rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(rounds):
        for workers in (1, 2):
            adapter = make_adapter("local", workers=workers)
            sampling = Sampling(max_tokens=max_tokens)
            config = fresh(folder, f"local{workers}", sampling=sampling, concurrency=workers)
            attempts, seconds = timed_run(adapter, suite, config)
            rates[workers].append(attempts / seconds)
    print(f"\n### Embedded model, {len(suite.items())} attempts, --max-tokens {max_tokens}\n")
    print("| workers | attempts/s (median of rounds) | all rounds |")
    print("|---:|---:|---|")
    for workers, values in rates.items():
        shown = ", ".join(f"{v:.2f}" for v in values)
        print(f"| {workers} | {statistics.median(values):.2f} | {shown} |")


def ray_run(
    folder: Path, make: Callable[[], ModelAdapter], actors: int, samples: int, concurrency: int
) -> tuple[int, float, int]:
    """(attempts, seconds, actor start seconds) of one static run through ``actors`` Ray actors."""
    from ladderbench.runner.ray_executor import RayPool

    started = time.perf_counter()
    pool = RayPool(make, actors)
    import ray

    ray.get([actor.describe.remote() for actor in pool.actors])  # all started before timing
    start_s = time.perf_counter() - started
    config = fresh(folder, f"ray{actors}", samples=samples, concurrency=concurrency)
    attempts, seconds = timed_run(pool, StaticSuite(), config)
    return attempts, seconds, round(start_s)


def ray_actors(folder: Path, service: float, counts: list[int]) -> None:
    print(f"\n### Ray actors, fixed service time {service * 1000:.0f} ms, one request per actor\n")
    print("| actors | attempts | attempts/s | ideal | of ideal | actors started in |")
    print("|---:|---:|---:|---:|---:|---:|")
    for actors in counts:
        ideal = actors / service
        samples = max(1, round(ideal * 4 / 150))  # about 4 s of work at the ideal rate
        make = partial(FixedTimeAdapter, service)
        attempts, seconds, start_s = ray_run(folder, make, actors, samples, actors)
        rate = attempts / seconds
        print(
            f"| {actors} | {attempts} | {rate:.0f} | {ideal:.0f} | {rate / ideal:.0%} "
            f"| {start_s} s |"
        )


def dispatch_ceiling(folder: Path, actors: int, slots: int) -> float:
    make = partial(FixedTimeAdapter, 0.0, slots)
    attempts, seconds, _ = ray_run(folder, make, actors, 20, actors * slots)
    return attempts / seconds


def in_process_rate(folder: Path, slots: int) -> float:
    suite = StaticSuite()
    config = fresh(folder, "inproc", samples=20, concurrency=slots)
    attempts, seconds = timed_run(FixedTimeAdapter(0.0, slots), suite, config)
    return attempts / seconds


def ray_cost(folder: Path) -> None:
    print("\n### Dispatch ceiling and the cost per attempt Ray adds (service time 0)\n")
    print("| where | in flight | attempts/s | ms per attempt |")
    print("|---|---:|---:|---:|")
    for label, rate in (
        ("in-process", in_process_rate(folder, 8)),
        ("1 Ray actor", dispatch_ceiling(folder, 1, 8)),
        ("4 Ray actors", dispatch_ceiling(folder, 4, 16)),
    ):
        flight = 8 if label != "4 Ray actors" else 64
        print(f"| {label} | {flight} | {rate:.0f} | {1000 / rate:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=4, help="per static level")
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--service", type=float, default=0.05, help="seconds per fake answer")
    parser.add_argument("--actors", default="1,2,4,8,16,32")
    parser.add_argument("--skip-local", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, OtherLoad() as load:
        folder = Path(tmp)
        print(f"machine: {os.cpu_count()} cores")
        if not args.skip_local:
            local_workers(folder, args.questions, args.max_tokens, args.rounds)
        import ray

        ray.init(address="local", _node_ip_address="127.0.0.1", include_dashboard=False)
        try:
            ray_actors(folder, args.service, [int(n) for n in args.actors.split(",")])
            ray_cost(folder)
        finally:
            ray.shutdown()
    print(f"\n{load.note()} (Ray's actors are not this process's children: their CPU counts here.)")


if __name__ == "__main__":
    main()
