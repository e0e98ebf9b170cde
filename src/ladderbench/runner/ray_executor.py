"""``--executor ray``: the model as Ray actors over a cluster; the driver stays the one writer.

Each actor builds the adapter on its node (a GGUF path must exist there; an OpenAI-compatible
endpoint is called from there, so many actors spread rate limits and endpoints). Slow grading work
runs as Ray tasks. Results never leave the driver: it awaits each answer and writes the row
itself, so resume and "every attempt exactly once" are those of an in-process run. An actor (or
its node) that dies mid-request has the request sent again to a replacement, never written twice.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from typing import Any, TypeVar

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import ModelAdapter, ModelCrash, Request
from ladderbench.models.pool import free_slots

T = TypeVar("T")

INSTALL_LINE = "--executor ray needs Ray: pip install 'ladderbench[ray]'"
# Passed on to the actors, which may run where the driver's environment is not.
FORWARDED_ENV = ("LADDERBENCH_LOCAL_WORKER", "OPENAI_API_KEY", "OPENAI_BASE_URL", "OLLAMA_HOST")
# Requests in flight per actor for adapters without a limit of their own (endpoints).
ENDPOINT_SLOTS = 64


def import_ray() -> Any:
    """The ``ray`` module, or the one line saying how to install it."""
    try:
        import ray
    except ImportError:
        raise UserError(INSTALL_LINE) from None
    return ray


def _check_reachable(address: str, label: str) -> None:
    """A HOST:PORT nobody listens on is one line at once, not minutes of Ray's retries."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return  # "auto", "ray://...": Ray's own forms, left to Ray
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise UserError(
            f"{label} {address}: no Ray cluster answers there ({exc.strerror or exc}); "
            "start one with 'ray start --head' or leave the option out for a local one"
        ) from None


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (or RAY_ADDRESS), else start a private one on 127.0.0.1.

    True when this call started Ray, so that closing the pool shuts it down again.
    """
    ray = import_ray()
    if ray.is_initialized():
        return False
    label = "--ray-address" if address else "RAY_ADDRESS"
    address = address or os.environ.get("RAY_ADDRESS") or None
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if address:
            _check_reachable(address, label)
            ray.init(address=address, **quiet)
        else:  # "local": never someone else's cluster on this machine
            ray.init(address="local", _node_ip_address="127.0.0.1", **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local cluster on 127.0.0.1"
        raise UserError(f"--executor ray: cannot start or join {where} ({exc})") from None
    return True


class ModelActor:
    """One copy of the model on a Ray node; built on first use, so that a bad model spec comes
    back as the adapter's own one-line error rather than as a dead actor."""

    def __init__(self, make: Callable[[], ModelAdapter]) -> None:
        self.make = make
        self.adapter: ModelAdapter | None = None

    def _adapter(self) -> ModelAdapter:
        if self.adapter is None:
            self.adapter = self.make()
        return self.adapter

    async def describe(self) -> dict[str, Any]:
        adapter = self._adapter()
        return {
            "kind": adapter.kind,
            "model": adapter.model,
            "cacheable": adapter.cacheable,
            "limit": adapter.concurrency_limit,
            "settings": adapter.settings(),
        }

    async def complete(self, request: Request) -> Completion:
        return await self._adapter().complete(request)

    async def check(self, request: Request) -> Completion:
        return await self._adapter().check(request)

    async def close(self) -> None:
        if self.adapter is not None:
            await self.adapter.aclose()


def _work(work: Callable[..., T], *args: Any) -> T:
    return work(*args)


def _cause(exc: BaseException) -> BaseException:
    """The exception raised inside a Ray task or actor, without Ray's wrapping."""
    cause = getattr(exc, "cause", None)
    return cause if isinstance(cause, BaseException) else exc


class RayPool(ModelAdapter):
    """``actors`` Ray actors each holding the adapter ``make`` builds, behind one adapter.

    Kind, model, settings and cacheability are the actors' own: the results file and the cache
    do not tell a Ray run from an in-process one.
    """

    def __init__(
        self, make: Callable[[], ModelAdapter], actors: int, address: str | None = None
    ) -> None:
        if actors < 1:
            raise UserError(f"--workers {actors}: must be at least 1")
        self.ray = import_ray()
        self.owns_ray = connect(address)
        self.make = make
        env = {name: os.environ[name] for name in FORWARDED_ENV if name in os.environ}
        # SPREAD: one actor per node before two on any, so that an endpoint on 127.0.0.1 is each
        # node's own server (a vLLM per GPU node) and a GGUF model uses every node's cores
        self.actor_class = self.ray.remote(ModelActor).options(
            max_concurrency=1000,
            runtime_env={"env_vars": env} if env else None,
            scheduling_strategy="SPREAD",
        )
        self.remote_work = self.ray.remote(_work)
        self.size = actors
        self.actors: list[Any] = []
        self.dead: set[Any] = set()
        self.requeued = 0  # requests sent again after their actor died
        self.shared: dict[tuple[int, str], Any] = {}
        self._free: asyncio.Queue[Any] | None = None
        try:
            self.actors = [self._spawn() for _ in range(actors)]
            info = self._describe(self.actors)[0]
        except BaseException:
            self._shutdown()
            raise
        super().__init__(info["model"])
        self.kind = info["kind"]  # type: ignore[misc]  # recorded as the actors' adapter
        self.cacheable = info["cacheable"]  # type: ignore[misc]
        self.info_settings: dict[str, Any] = info["settings"]
        self.slots: int = info["limit"] or ENDPOINT_SLOTS
        self.concurrency_limit = (  # type: ignore[misc]
            info["limit"] * actors if info["limit"] else None
        )

    def _spawn(self) -> Any:
        return self.actor_class.remote(self.make)

    def _describe(self, actors: list[Any]) -> list[dict[str, Any]]:
        """Every actor loads its model now: a node without the GGUF file fails the start, not
        the middle of the run."""
        try:
            info: list[dict[str, Any]] = self.ray.get([a.describe.remote() for a in actors])
        except self.ray.exceptions.RayTaskError as exc:
            raise _cause(exc) from None
        except self.ray.exceptions.RayActorError as exc:
            first = str(exc).strip().splitlines()[0][:200]
            raise ModelCrash(f"a Ray actor died while loading the model ({first})") from None
        return info

    def _queue(self) -> asyncio.Queue[Any]:
        """Free actor slots (made on first use, in the running loop)."""
        if self._free is None:
            self._free = free_slots(self.actors, self.slots)
        return self._free

    def _replace(self, actor: Any) -> None:
        """An actor died: a new one takes its slots (its other in-flight calls fail too, and
        its free slots are dropped when taken, so the slot count stays the same)."""
        if actor in self.dead:
            return
        self.dead.add(actor)
        fresh = self._spawn()
        self.actors.append(fresh)
        free = self._queue()
        for _ in range(self.slots):
            free.put_nowait(fresh)

    async def _call(self, request: Request, check: bool) -> Completion:
        free = self._queue()
        deaths = 0
        while True:
            actor = await free.get()
            if actor in self.dead:
                continue  # a slot of an actor that has died since
            method = actor.check if check else actor.complete
            try:
                completion: Completion = await method.remote(request)
            except self.ray.exceptions.RayActorError as exc:
                self._replace(actor)
                self.requeued += 1
                deaths += 1
                if deaths > 3 * self.size:
                    raise ModelCrash(f"Ray actors keep dying ({exc})") from None
                continue
            except self.ray.exceptions.RayTaskError as exc:
                free.put_nowait(actor)
                raise _cause(exc) from None
            free.put_nowait(actor)
            return completion

    async def complete(self, request: Request) -> Completion:
        return await self._call(request, check=False)

    async def check(self, request: Request) -> Completion:
        return await self._call(request, check=True)

    def _share(self, arg: Any) -> Any:
        """A bound method (a suite's grader) goes into the object store once, not per call."""
        owner = getattr(arg, "__self__", None)
        if owner is None or not callable(arg):
            return arg
        key = (id(owner), arg.__name__)
        if key not in self.shared:
            self.shared[key] = self.ray.put(arg)
        return self.shared[key]

    async def offload(self, work: Callable[..., T], *args: Any) -> T:
        """Slow grading (sympy, sandboxed code) as a Ray task, off the driver."""
        try:
            result: T = await self.remote_work.remote(work, *map(self._share, args))
        except self.ray.exceptions.RayTaskError as exc:
            raise _cause(exc) from None
        return result

    def settings(self) -> dict[str, Any]:
        return self.info_settings

    def _shutdown(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()
            self.owns_ray = False

    async def aclose(self) -> None:
        """Let each live actor close its model (a worker process), then end the actors."""
        live = [a for a in self.actors if a not in self.dead]
        await asyncio.gather(*(a.close.remote() for a in live), return_exceptions=True)
        self._shutdown()


def ray_adapter(
    make: Callable[[], ModelAdapter], actors: int, address: str | None = None
) -> ModelAdapter:
    """The model ``make`` builds, as ``actors`` Ray actors (``--executor ray --workers N``)."""
    return RayPool(make, actors, address)
