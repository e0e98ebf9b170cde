"""LadderBench static ladder, standalone: the 150-question ladder against any OpenAI-compatible
endpoint, with nothing but the Python 3.8+ standard library.

It sends the same prompt, reads the answer with the same extraction code and adds the rows up with
the same summary code as the ``ladderbench`` package (inlined below when exported), at
temperature 0, one question at a time. With no endpoint given it asks a local Ollama:

    python run_ladderbench.py --model qwen2.5:3b-instruct-q4_K_M [--levels 4,5]
    python run_ladderbench.py --model NAME --base-url http://127.0.0.1:8080/v1

The endpoint is --base-url, else OPENAI_BASE_URL, else Ollama's (OLLAMA_HOST, else
http://127.0.0.1:11434/v1). Prints the per-level table and writes results_<model>_<time>.jsonl in
the harness's own format (one row per question, the summary row last), so that
``ladderbench report`` and ``ladderbench compare`` read it like a ``ladderbench run``.
"""

import argparse
import contextlib
import json
import math
import os
import re
import secrets  # noqa: F401  (the inlined new_run_id's)
import socket
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone  # noqa: F401  (timezone: new_run_id's)
from pathlib import Path
from types import SimpleNamespace

# --- package imports: replaced by the inlined sources on export ---
from ladderbench.analysis.summary import summarise
from ladderbench.grading.extract import extract_choice
from ladderbench.models.endpoints import (
    MAX_RESPONSE_BYTES,
    MIN_SECRET_CHARS,
    ollama_url,
    public_url,
    server_ms,
    writable,
)
from ladderbench.runner.run import new_run_id
from ladderbench.static.suite import BASELINE, render_prompt

# --- end of package imports ---

LETTERS = "ABCD"
LEVEL_FILE = re.compile(r"^level(\d+)_[a-z0-9_-]+\.jsonl$")
OLLAMA = "ollama"  # the adapter kind of a run on Ollama's endpoint (as ``--model ollama:NAME``)
OPENAI = "openai"  # and of one on an endpoint given (as ``--model openai:NAME --base-url URL``)


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


def endpoint(args):
    """(base URL, adapter kind, API key): --base-url, else OPENAI_BASE_URL, else Ollama's.

    OPENAI_API_KEY goes only to an endpoint given; Ollama needs none (--api-key is always sent).
    """
    given = args.base_url or os.environ.get("OPENAI_BASE_URL")
    if given:
        return given, OPENAI, args.api_key or os.environ.get("OPENAI_API_KEY")
    try:
        return ollama_url(os.environ.get("OLLAMA_HOST")), OLLAMA, args.api_key
    except ValueError as exc:
        fail(str(exc))


def hint(args, problem):
    """What to do about a first request that failed (``problem``: unreachable, or the status)."""
    if args.kind == OLLAMA:
        if problem == "unreachable":
            return (
                "is Ollama running? start it with 'ollama serve' and pull the model with "
                f"'ollama pull {args.model}' (or set OLLAMA_HOST / --base-url)"
            )
        if problem == 404:
            return f"is the model pulled? 'ollama pull {args.model}'"
    if problem == "unreachable":
        return "is the server running and --base-url right?"
    if problem in (401, 403):
        return "check --api-key / OPENAI_API_KEY"
    if problem == 404:
        return "check --base-url (usually ends in /v1) and the model name"
    return "check the model name and options"


def scrub(args, text):
    """The API key never appears in a message or a results file (a key under 8 characters is a
    placeholder such as EMPTY, left alone as the harness leaves it)."""
    key = args.api_key
    return text.replace(key, "***") if key and len(key) >= MIN_SECRET_CHARS else text


def completion(data):
    """(text, usage, server ms) of a chat completion, read as the harness reads it; ValueError
    if none."""
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("JSON response without choices")
    message = choices[0].get("message") or {}
    text = message.get("content") if isinstance(message, dict) else None
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return (
        text if isinstance(text, str) else "",
        {k: v for k, v in usage.items() if isinstance(v, int)},
        server_ms(data.get("timings")),
    )


def ask(args, prompt, first=False):
    """One chat completion; retries 429, 5xx and dropped connections.

    Returns (text, usage, latency in ms, server ms, error). On the first question a wrong
    endpoint stops the run with one line (as the harness's first attempt does) instead of a file
    of errors.
    """
    body = json.dumps(
        {
            "model": args.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0.0,
            "max_tokens": args.max_tokens,
            "seed": 0,
        }
    ).encode()
    headers = {"Content-Type": "application/json"}
    if args.api_key:
        headers["Authorization"] = "Bearer " + args.api_key
    url = args.base_url.rstrip("/") + "/chat/completions"
    where = public_url(url)
    error = "no attempt"
    for attempt in range(args.retries + 1):
        wait = min(2.0**attempt, 60.0)
        started = time.perf_counter()
        try:
            request = urllib.request.Request(url, data=body, headers=headers)
            with urllib.request.urlopen(request, timeout=args.timeout) as resp:
                raw = resp.read(MAX_RESPONSE_BYTES + 1)  # never more than the cap in memory
            if len(raw) > MAX_RESPONSE_BYTES:
                return None, {}, 0.0, None, f"response over {MAX_RESPONSE_BYTES} bytes"
            text, usage, server = completion(json.loads(raw))
            latency = (time.perf_counter() - started) * 1000
            answer = writable(scrub(args, text))
            return answer, usage, latency, server, None
        except urllib.error.HTTPError as exc:
            error = f"HTTP {exc.code}"
            if exc.code != 429 and exc.code < 500:  # rejected: said as the harness says it
                said = exc.read(MAX_RESPONSE_BYTES).decode("utf-8", "replace")
                error = f"{error}: {scrub(args, said)[:200]}"  # scrubbed whole, then cut
                if first:
                    fail(f"{where}: {error[:160]}; {hint(args, exc.code)}")
                return None, {}, 0.0, None, error[:300]
            with contextlib.suppress(ValueError):  # an HTTP date: our own backoff
                asked = float(exc.headers.get("Retry-After") or 0)
                if math.isfinite(asked):  # nan, inf: our own backoff
                    wait = max(wait, min(asked, 120.0))
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if first and isinstance(reason, (ConnectionRefusedError, socket.gaierror)):
                fail(f"{where}: cannot connect ({reason}); {hint(args, 'unreachable')}")
            error = f"connection error: {reason}"
        except (ValueError, RecursionError) as exc:  # not JSON, nested too deep, no choices
            error = "response is not an OpenAI chat completion"
            if first:
                fail(
                    f"{where}: {error} ({exc}); is --base-url an OpenAI-compatible endpoint "
                    "(ending in /v1)?"
                )
        if attempt < args.retries:
            time.sleep(wait)
    return None, {}, 0.0, None, error


def result_row(args, run_id, q, prompt, answer):
    """The harness's result row (``ladderbench.items.ResultRow``, by alias) for one question."""
    text, usage, latency_ms, server, error = answer
    extracted = None if error else extract_choice(text, list(q["choices"]))
    passed = None if error else extracted == q["answer"]
    return {
        "run": run_id,
        "adapter": args.kind,
        "model": args.model,
        "suite": "static",
        "id": q["id"],
        "family": None,
        "task": None,
        "category": q.get("category"),
        "level": q["level"],
        "tier": None,
        "difficulty": None,
        "seed": None,
        "sample": 0,
        "prompt": prompt,
        "expected": q["answer"],
        "response": None if error else text,
        "extracted": extracted,
        "score": None if error else 1.0 if passed else 0.0,
        "pass": passed,
        "latencyMs": round(latency_ms, 1),
        "serverMs": None if server is None else round(server, 1),
        "cached": False,  # the standalone keeps no cache
        "usage": usage,
        "error": error,
    }


def summary_row(args, rows, levels, elapsed_s):
    """The summary row, from the harness's own summary code (rows read by attribute)."""
    records = [SimpleNamespace(passed=row["pass"], **row) for row in rows]
    summary = summarise(
        records,  # type: ignore[arg-type]  # duck-typed: a ResultRow's fields, as attributes
        rung="level",
        group="category",
        samples=1,
        baseline=BASELINE,
    )
    summary["settings"] = {
        "adapter": args.kind,
        "model": args.model,
        "endpoint": public_url(args.base_url.rstrip("/")),
        "data": str(Path(args.data).resolve()),
        "levels": levels,
        "limit": args.limit,
        "temperature": 0.0,
        "maxTokens": args.max_tokens,
        "samples": 1,
        "runner": "standalone",
    }
    summary["elapsedS"] = round(elapsed_s, 3)
    return {"type": "summary", **summary}


def open_out(path):
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")


def print_table(summary):
    print("level      n  correct  accuracy   95% CI        unparsed  errors")
    for level, s in summary["byLevel"].items():
        lo, hi = 100 * s["ci95"][0], 100 * s["ci95"][1]
        print(
            f"{level:<6} {s['n']:>5}  {s['passed']:>7}  {100 * s['rate']:>7.1f}%   "
            f"{lo:4.1f}-{hi:5.1f}%  {s['unparsed']:>8}  {s['errors']:>6}"
        )
    print(f"guessing baseline: {100 * BASELINE:.1f}%")
    for line in summary["flags"] + summary["notes"]:
        print(line)


def main(argv=None):
    parser = argparse.ArgumentParser(description="LadderBench static ladder, standalone.")
    parser.add_argument("--model", required=True, help="e.g. qwen2.5:3b-instruct-q4_K_M")
    parser.add_argument(
        "--base-url", help="OpenAI-compatible endpoint (default OPENAI_BASE_URL, else Ollama's)"
    )
    parser.add_argument("--api-key", help="default OPENAI_API_KEY, sent to a given endpoint only")
    parser.add_argument("--levels", help="e.g. 4,5")
    parser.add_argument("--limit", type=int, help="at most this many questions per level")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--retries", type=int, default=5)
    parser.add_argument("--data", default=str(Path(__file__).resolve().parent))
    parser.add_argument("--out-dir", default=".")
    args = parser.parse_args(argv)
    args.base_url, args.kind, args.api_key = endpoint(args)
    if not re.match(r"^https?://[^/]", args.base_url):
        fail(f"--base-url {args.base_url!r}: not an http(s) URL like http://host:port/v1")
    try:
        levels = [int(x) for x in args.levels.split(",")] if args.levels else None
    except ValueError:
        fail(f"--levels {args.levels!r}: expected numbers like 4,5")

    questions = load_questions(args.data, levels, args.limit)
    if not questions:
        fail(f"{args.data}: no questions for --levels {args.levels} --limit {args.limit}")
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", args.model).strip("_") or "model"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out_dir) / f"results_{safe}_{stamp}.jsonl"
    run_id = new_run_id()
    started = time.perf_counter()
    rows = []
    handle = None
    for i, q in enumerate(questions, 1):
        prompt = render_prompt(q["question"], q["choices"])
        row = result_row(args, run_id, q, prompt, ask(args, prompt, first=i == 1))
        rows.append(row)
        handle = handle or open_out(out)  # after the first answer: a wrong endpoint writes nothing
        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        handle.flush()  # a run cut short still leaves rows ``ladderbench report`` reads
        sys.stderr.write(f"\r{i}/{len(questions)}")
    sys.stderr.write("\n")
    summary = summary_row(args, rows, levels, time.perf_counter() - started)
    handle = handle or open_out(out)
    with handle:
        handle.write(json.dumps(summary, ensure_ascii=False) + "\n")
    print_table(summary)
    print(f"results: {out} (read it again with: ladderbench report {out})")
    if summary["errors"]:
        sys.stderr.write(
            f"{summary['errors']} of {summary['total']} questions ended in an error and were "
            "not scored (the rates are over the scored ones)\n"
        )
        sys.exit(3)


if __name__ == "__main__":
    main()
