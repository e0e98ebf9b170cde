"""One registry of model adapters, chosen by the ``--model`` spec (see DESIGN.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ladderbench.errors import UserError
from ladderbench.models.base import ModelAdapter
from ladderbench.models.endpoints import MAX_RESPONSE_BYTES
from ladderbench.registry import Registry

MODEL_SPECS = "local, local:PATH.gguf, openai:NAME, ollama:NAME, oracle, echo, random"


@dataclass(frozen=True)
class EndpointOptions:
    """Options for adapters that talk to a server; ignored by the others.

    ``max_response_bytes`` caps one response body (8 MiB): reading stops there, and the attempt
    is an error row, not retried (see ``models/openai.py``).
    """

    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 120.0
    retries: int = 5
    retry_wait: float = 1.0
    max_response_bytes: int = MAX_RESPONSE_BYTES


AdapterFactory = Callable[[str, str, EndpointOptions, int], ModelAdapter]
"""(spec, argument after the colon, endpoint options, seed) -> adapter."""

# Adapters that ``--workers N`` can run as N model processes on this machine.
MULTI_WORKER = ("local",)


def _baseline(spec: str, arg: str, options: EndpointOptions, seed: int) -> ModelAdapter:
    from ladderbench.models import baselines

    if arg:
        raise UserError(f"unknown model spec {spec!r}; use one of: {MODEL_SPECS}")
    if spec == "random":
        return baselines.RandomAdapter("random", seed=seed)
    return {"oracle": baselines.OracleAdapter, "echo": baselines.EchoAdapter}[spec](spec)


def _local(spec: str, arg: str, options: EndpointOptions, seed: int) -> ModelAdapter:
    from ladderbench.models.local import LocalAdapter  # imported only when asked for

    return LocalAdapter(arg or None, seed=seed)


def _openai(spec: str, arg: str, options: EndpointOptions, seed: int) -> ModelAdapter:
    """Any OpenAI-compatible endpoint; with only an API key, OpenAI's own."""
    from ladderbench.models.endpoints import OPENAI_URL
    from ladderbench.models.openai import OpenAIAdapter

    if not arg:
        raise UserError(f"unknown model spec {spec!r}; use one of: {MODEL_SPECS}")
    api_key = options.api_key or os.environ.get("OPENAI_API_KEY")
    base_url = options.base_url or os.environ.get("OPENAI_BASE_URL")
    if not base_url and not api_key:
        raise UserError(
            f"--model {spec}: no endpoint; pass --base-url (e.g. http://127.0.0.1:8080/v1) "
            f"or set OPENAI_BASE_URL, or give --api-key / OPENAI_API_KEY for {OPENAI_URL}"
        )
    return OpenAIAdapter(
        arg,
        base_url=base_url or OPENAI_URL,
        api_key=api_key,
        timeout=options.timeout,
        retries=options.retries,
        retry_wait=options.retry_wait,
        max_response_bytes=options.max_response_bytes,
    )


def _ollama(spec: str, arg: str, options: EndpointOptions, seed: int) -> ModelAdapter:
    """A model served by Ollama: its local endpoint (or OLLAMA_HOST's), no API key needed.

    OPENAI_BASE_URL and OPENAI_API_KEY are not read: they belong to another server, and a key
    must not travel to one it was not meant for.
    """
    from ladderbench.models.endpoints import ollama_url
    from ladderbench.models.openai import OllamaAdapter

    if not arg:
        raise UserError(f"unknown model spec {spec!r}; use one of: {MODEL_SPECS}")
    try:
        base_url = options.base_url or ollama_url(os.environ.get("OLLAMA_HOST"))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    return OllamaAdapter(
        arg,
        base_url=base_url,
        api_key=options.api_key,
        timeout=options.timeout,
        retries=options.retries,
        retry_wait=options.retry_wait,
        max_response_bytes=options.max_response_bytes,
    )


# Adapters that answer without a model: not evidence about any model's ability.
BASELINES: tuple[str, ...] = ("oracle", "echo", "random")

ADAPTERS: Registry[AdapterFactory] = Registry("model adapter")
for _kind in BASELINES:
    ADAPTERS.add(_kind, _baseline)
ADAPTERS.add("local", _local)
ADAPTERS.add("openai", _openai)
ADAPTERS.add("ollama", _ollama)


def make_adapter(
    spec: str, options: EndpointOptions | None = None, seed: int = 0, workers: int = 1
) -> ModelAdapter:
    """Build the adapter a ``--model`` spec names; a bad spec is a one-line UserError.

    ``workers`` > 1 starts that many model processes (``local`` only: a server-backed model
    takes ``--concurrency`` instead).
    """
    kind, _, arg = spec.partition(":")
    if kind not in ADAPTERS:
        raise UserError(f"unknown model spec {spec!r}; use one of: {MODEL_SPECS}")
    if workers != 1:
        if kind not in MULTI_WORKER:
            raise UserError(
                f"--workers {workers}: model processes are for --model local; {spec} takes "
                "--concurrency (or --executor ray --workers N to spread it over Ray actors)"
            )
        from ladderbench.models.local import local_workers

        return local_workers(arg or None, seed, workers)
    return ADAPTERS.get(kind)(spec, arg, options or EndpointOptions(), seed)
