"""One registry of model adapters, chosen by the ``--model`` spec (see DESIGN.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ladderbench.errors import UserError
from ladderbench.models.base import ModelAdapter

MODEL_SPECS = "local, local:PATH.gguf, openai:NAME, oracle, echo, random"


@dataclass(frozen=True)
class EndpointOptions:
    """Options for adapters that talk to a server; ignored by the others."""

    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 5
    retry_wait: float = 1.0


def make_adapter(spec: str, options: EndpointOptions | None = None, seed: int = 0) -> ModelAdapter:
    """Build the adapter a ``--model`` spec names; a bad spec is a one-line UserError."""
    options = options or EndpointOptions()
    kind, _, arg = spec.partition(":")
    if kind in ("oracle", "echo", "random") and not arg:
        from ladderbench.models import baselines

        if kind == "random":
            return baselines.RandomAdapter("random", seed=seed)
        return {"oracle": baselines.OracleAdapter, "echo": baselines.EchoAdapter}[kind](kind)
    if kind == "local":
        from ladderbench.models.local import LocalAdapter

        return LocalAdapter(arg or None, seed=seed)
    if kind == "openai" and arg:
        from ladderbench.models.openai import OpenAIAdapter

        base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
        if not base_url:
            raise UserError(
                f"--model {spec}: no endpoint; pass --base-url (e.g. http://127.0.0.1:8080/v1) "
                "or set OPENAI_BASE_URL"
            )
        api_key = options.api_key or os.environ.get("OPENAI_API_KEY")
        return OpenAIAdapter(
            arg,
            base_url=base_url,
            api_key=api_key,
            timeout=options.timeout,
            retries=options.retries,
            retry_wait=options.retry_wait,
        )
    raise UserError(f"unknown model spec {spec!r}; use one of: {MODEL_SPECS}")
