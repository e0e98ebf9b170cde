"""LadderBench static ladder, standalone: the 150-question ladder against any OpenAI-compatible
endpoint, with nothing but the Python 3.8+ standard library.

It sends the same prompt and reads the answer with the same extraction code as the
``ladderbench`` package (inlined below when exported), at temperature 0, one question at a time.

    python run_ladderbench.py --model NAME --base-url http://127.0.0.1:8080/v1 [--levels 4,5]

Writes results_<model>_<timestamp>.json: every question's prediction, gold and raw output, and
the per-level table.
"""

import argparse
import contextlib
import json
import math
import os
import re
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path

# --- package imports: replaced by the inlined sources on export ---
from ladderbench.grading.extract import extract_choice
from ladderbench.static.suite import render_prompt

# --- end of package imports ---

LETTERS = "ABCD"
LEVEL_FILE = re.compile(r"^level(\d+)_[a-z0-9_-]+\.jsonl$")


def fail(message):
    sys.stderr.write("error: " + message + "\n")
    sys.exit(2)


def load_questions(folder, levels, limit):
    """Read levelN_*.jsonl beside this script; a bad line stops with file, line and field."""
    questions = []
    named = ((LEVEL_FILE.match(p.name), p) for p in Path(folder).glob("*.jsonl"))
    files = sorted((int(m.group(1)), p) for m, p in named if m)
    if not files:
        fail(f"{folder}: no level files (level1_easy.jsonl ...)")
    for level, path in files:
        if levels and level not in levels:
            continue
        taken = 0
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                q = json.loads(line)
            except ValueError:
                fail(f"{path}:{lineno}: not valid JSON")
            if not isinstance(q, dict):
                fail(f"{path}:{lineno}: expected a JSON object")
            for key in ("id", "question", "choices", "answer"):
                if key not in q:
                    fail(f"{path}:{lineno}: field {key!r}: missing")
            if not isinstance(q["choices"], list) or len(q["choices"]) != 4:
                fail(f"{path}:{lineno}: field 'choices': must be a list of exactly 4 strings")
            if q["answer"] not in LETTERS:
                fail(f"{path}:{lineno}: field 'answer': must be one of A, B, C, D")
            if limit is not None and taken >= limit:
                break
            taken += 1
            q["level"] = level
            questions.append(q)
    return questions


def ask(args, prompt):
    """One chat completion; retries 429, 5xx and dropped connections. Returns (text, error)."""
    body = json.dumps(
        {
            "model": args.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0.0,
            "max_tokens": args.max_tokens,
        }
    ).encode()
    headers = {"Content-Type": "application/json"}
    if args.api_key:
        headers["Authorization"] = "Bearer " + args.api_key
    url = args.base_url.rstrip("/") + "/chat/completions"
    error = "no attempt"
    for attempt in range(args.retries + 1):
        wait = min(2.0**attempt, 60.0)
        try:
            request = urllib.request.Request(url, data=body, headers=headers)
            with urllib.request.urlopen(request, timeout=args.timeout) as resp:
                data = json.loads(resp.read())
            return data["choices"][0]["message"].get("content") or "", None
        except urllib.error.HTTPError as exc:
            error = f"HTTP {exc.code}"
            if exc.code != 429 and exc.code < 500:
                return None, error
            with contextlib.suppress(ValueError):
                wait = max(wait, min(float(exc.headers.get("Retry-After") or 0), 120.0))
        except (urllib.error.URLError, OSError) as exc:
            error = "connection error: {}".format(getattr(exc, "reason", exc))
        except (ValueError, KeyError, IndexError, TypeError):
            error = "response is not an OpenAI chat completion"
        if attempt < args.retries:
            time.sleep(wait)
    return None, error


def wilson(passed, n, z=1.959963984540054):
    if n == 0:
        return 0.0, 1.0
    p = passed / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv=None):
    parser = argparse.ArgumentParser(description="LadderBench static ladder, standalone.")
    parser.add_argument("--model", required=True)
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    parser.add_argument("--api-key", default=os.environ.get("OPENAI_API_KEY"))
    parser.add_argument("--levels", help="e.g. 4,5")
    parser.add_argument("--limit", type=int, help="at most this many questions per level")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--retries", type=int, default=5)
    parser.add_argument("--data", default=str(Path(__file__).resolve().parent))
    parser.add_argument("--out-dir", default=".")
    args = parser.parse_args(argv)
    if not args.base_url:
        fail("no endpoint: pass --base-url (e.g. http://127.0.0.1:8080/v1) or set OPENAI_BASE_URL")
    try:
        levels = [int(x) for x in args.levels.split(",")] if args.levels else None
    except ValueError:
        fail(f"--levels {args.levels!r}: expected numbers like 4,5")

    questions = load_questions(args.data, levels, args.limit)
    records = []
    for i, q in enumerate(questions, 1):
        prompt = render_prompt(q["question"], q["choices"])
        text, error = ask(args, prompt)
        prediction = None if error else extract_choice(text, list(q["choices"]))
        records.append(
            {
                "id": q["id"],
                "level": q["level"],
                "category": q.get("category"),
                "prompt": prompt,
                "gold": q["answer"],
                "prediction": prediction,
                "correct": None if error else prediction == q["answer"],
                "raw_output": text,
                "error": error,
            }
        )
        sys.stderr.write(f"\r{i}/{len(questions)}")
    sys.stderr.write("\n")

    table: dict[str, dict] = {}
    for level in sorted({r["level"] for r in records}):
        rows = [r for r in records if r["level"] == level]
        scored = [r for r in rows if r["error"] is None]
        correct = sum(1 for r in scored if r["correct"])
        lo, hi = wilson(correct, len(scored))
        table[str(level)] = {
            "n": len(scored),
            "correct": correct,
            "accuracy": correct / len(scored) if scored else 0.0,
            "ci95": [lo, hi],
            "unparsed": sum(1 for r in scored if r["prediction"] is None),
            "errors": len(rows) - len(scored),
        }
    print("level      n  correct  accuracy   95% CI        unparsed  errors")
    for level, s in table.items():
        lo, hi = 100 * s["ci95"][0], 100 * s["ci95"][1]
        print(
            f"{level:<6} {s['n']:>5}  {s['correct']:>7}  {100 * s['accuracy']:>7.1f}%   "
            f"{lo:4.1f}-{hi:5.1f}%  {s['unparsed']:>8}  {s['errors']:>6}"
        )
    print("guessing baseline: 25.0%")
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", args.model)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out_dir) / (f"results_{safe}_{stamp}.json")
    result = {"model": args.model, "levels": table, "questions": records}
    out.write_text(json.dumps(result, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"results: {out}")


if __name__ == "__main__":
    main()
