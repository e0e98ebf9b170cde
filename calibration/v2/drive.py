"""One step of the frontier model's adaptive search, answered by reasoning-only helper sessions.

The frontier class cannot run here: helper sessions answer prompts by reasoning alone and write
``{id, reply}`` lines (``raw/*.jsonl``). This script joins every raw reply with its prompt
(``asked/*.jsonl``) into ``frontier-replies.jsonl``, serves them with the replay server and runs
the real command, ``ladderbench run --suite puzzles --suite-version 2 --adaptive``, against it.
The search stops at the first round with a prompt nobody has answered yet (an errored attempt:
the replay server answers 404); those prompts are written to ``asked/round-NN.jsonl`` (prompts
only, never answers) and split into ``asked/round-NN-partK.jsonl`` for the helpers. Run it again
once they have answered; when it prints "search complete", ``frontier-adaptive.jsonl`` is the
record, scored exactly like any model's.

Usage (repository root): ``.venv/bin/python calibration/v2/drive.py --parts 4``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
SEEDS = "101-116"  # the tuning pool: never the seeds tiers are reported on
MODEL = "openai:frontier-reasoning-only"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def join() -> int:
    prompts = {}
    for path in sorted((HERE / "asked").glob("round-??.jsonl")):
        prompts.update({obj["id"]: obj["prompt"] for obj in read_jsonl(path)})
    replies = {}
    for path in sorted((HERE / "raw").glob("*.jsonl")):
        for obj in read_jsonl(path):
            if obj["id"] in replies:
                raise SystemExit(f"{path}: {obj['id']} answered twice")
            replies[obj["id"]] = obj["reply"]
    # Two instances can share a prompt (small difficulties draw from few expressions): the
    # replay server serves one reply per prompt, the first answered (by id) one.
    lines, served = [], set()
    for i in sorted(replies):
        if prompts[i] not in served:
            served.add(prompts[i])
            lines.append(
                json.dumps({"id": i, "prompt": prompts[i], "reply": replies[i]}, ensure_ascii=False)
            )
    (HERE / "frontier-replies.jsonl").write_text("\n".join(lines) + "\n" if lines else "")
    return len(lines)


def run_search(port: int) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "ladderbench.testing.replay", str(HERE / "frontier-replies.jsonl"),
         "--port", str(port)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        if not server.stdout.readline():  # {"base_url": ...} once it is serving
            raise SystemExit("the replay server did not start")
        done = subprocess.run(
            [".venv/bin/ladderbench", "run", "--model", MODEL, "--base-url",
             f"http://127.0.0.1:{port}/v1", "--suite", "puzzles", "--suite-version", "2",
             "--adaptive", "--seeds", SEEDS, "--retries", "0", "--no-cache", "--quiet",
             "--out", str(HERE / "frontier-adaptive.jsonl")],
            check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"ladderbench run failed (exit {done.returncode})")
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parts", type=int, default=4)
    parser.add_argument("--port", type=int, default=8097)
    args = parser.parse_args()
    (HERE / "asked").mkdir(exist_ok=True)
    (HERE / "raw").mkdir(exist_ok=True)
    answered = join()
    if answered:
        run_search(args.port)
        rows = read_jsonl(HERE / "frontier-adaptive.jsonl")
        missing = [r for r in rows if r.get("type") != "summary" and r.get("error")]
    else:  # nothing answered yet: the first round is every family at d = 0
        sys.path.insert(0, "src")
        from ladderbench.puzzles.suite import PuzzleSuite

        suite = PuzzleSuite(version="2", adaptive=True, seeds=list(range(101, 117)))
        missing = [{"id": i.id, "prompt": i.prompt} for i in suite.next_round([]) or []]
    if not missing:
        print(f"search complete: {answered} replies; record in {HERE / 'frontier-adaptive.jsonl'}")
        return
    number = len(list((HERE / "asked").glob("round-??.jsonl"))) + 1
    asked, seen = [], set()
    for r in missing:  # one attempt per prompt: a prompt two instances share is asked once
        if r["prompt"] not in seen:
            seen.add(r["prompt"])
            asked.append({"id": r["id"], "prompt": r["prompt"]})
    base = HERE / "asked" / f"round-{number:02d}"
    Path(f"{base}.jsonl").write_text(
        "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in asked)
    )
    for k in range(args.parts):
        part = asked[k :: args.parts]
        if part:
            Path(f"{base}-part{k + 1}.jsonl").write_text(
                "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in part)
            )
    when = time.strftime("%H:%M")
    print(f"round {number}: {len(asked)} prompts to answer in {base}-part*.jsonl ({when})")


if __name__ == "__main__":
    main()
