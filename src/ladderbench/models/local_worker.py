"""The embedded model's worker process: llama.cpp loaded once, answering requests over pipes.

Run as ``python -m ladderbench.models.local_worker PATH --seed N --n-ctx N --threads N`` by the
``local`` adapter (``--threads`` 0: every core; with ``--workers N`` each worker gets its share).
llama.cpp is native code: a crash there (an unsupported CPU instruction, a bad build, out of
memory) kills this process and not the run, which then stops with one line and keeps its rows.

Protocol, one JSON object per line: the worker first writes ``{"ready": true, "backend": {...}}``
(or ``{"fatal": "..."}`` and exits 3 when the model cannot be loaded); then for each request line
``{"messages", "temperature", "max_tokens", "seed"}`` it writes ``{"text", "usage"}`` or
``{"error"}``. End of input ends the worker. llama.cpp's own prints go to stderr, never into the
protocol stream.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import IO, Any


def backend_info() -> dict[str, str]:
    """Which llama.cpp build answers: the package version and the CPU features compiled in."""
    import llama_cpp

    try:
        package = version("llama-cpp-python")
    except PackageNotFoundError:
        package = getattr(llama_cpp, "__version__", "unknown")
    info = llama_cpp.llama_print_system_info()
    text = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return {"llamaCppPython": package, "systemInfo": " ".join(text.split())}


def _protocol_stream() -> IO[str]:
    """Keep the real stdout for the protocol; point fd 1 at stderr for native prints."""
    stream = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return stream


def _send(stream: IO[str], message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, ensure_ascii=False) + "\n")
    stream.flush()


def _answer(llm: Any, request: dict[str, Any]) -> dict[str, Any]:
    try:
        out = llm.create_chat_completion(
            messages=request["messages"],
            temperature=request["temperature"],
            max_tokens=request["max_tokens"],
            seed=request["seed"],
        )
    except ValueError as exc:  # e.g. the prompt does not fit the context window
        return {"error": f"local model: {exc}"[:300]}
    usage = {k: int(v) for k, v in (out.get("usage") or {}).items() if isinstance(v, int)}
    return {"text": out["choices"][0]["message"].get("content") or "", "usage": usage}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ladderbench.models.local_worker")
    parser.add_argument("path")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args(argv)
    out = _protocol_stream()
    try:
        from llama_cpp import Llama

        llm = Llama(
            model_path=args.path,
            n_ctx=args.n_ctx,
            n_threads=args.threads or os.cpu_count() or 1,
            seed=args.seed,
            verbose=False,
        )
    except ImportError:
        _send(out, {"fatal": "llama-cpp-python is not installed"})
        return 3
    except (ValueError, RuntimeError) as exc:
        _send(out, {"fatal": f"not a loadable GGUF model ({exc})"})
        return 3
    _send(out, {"ready": True, "backend": backend_info()})
    for line in sys.stdin:
        if line.strip():
            _send(out, _answer(llm, json.loads(line)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
