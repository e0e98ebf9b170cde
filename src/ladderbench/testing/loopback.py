"""An aiohttp server on 127.0.0.1 in a background thread, for tests and calibration replays.

Subclasses add their routes in ``routes(app)``; ``with Server() as server`` starts it on
``port`` (0: any free port, read back from ``server.port``) and stops it on exit.
"""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web


class LoopbackServer:
    """Serves ``routes`` on 127.0.0.1:``port`` from its own event loop and thread."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None

    def routes(self, app: web.Application) -> None:
        raise NotImplementedError

    async def _serve(self) -> None:
        app = web.Application()
        self.routes(app)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port)
        await site.start()
        self.port = runner.addresses[0][1]
        self._stop = asyncio.Event()
        self._ready.set()
        await self._stop.wait()
        await runner.cleanup()

    def __enter__(self) -> LoopbackServer:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_until_complete, args=(self._serve(),), daemon=True
        )
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError(f"{type(self).__name__} did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop and self._stop:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread:
            self._thread.join(10)
