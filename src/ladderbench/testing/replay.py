"""Replay recorded replies as an OpenAI-compatible endpoint, so they are scored like any model's.

Calibration measures classes of model that cannot run here: a frontier model, say, answering by
reasoning alone. Its raw replies are written to a JSONL file, one ``{"prompt", "reply"}`` object per
line (``id`` and other fields are kept for the record and ignored here), and this server answers
each prompt with its recorded reply: ``ladderbench run --model openai:NAME --base-url URL`` then
extracts, scores and summarises them exactly as it would a live model's. A prompt with no recorded
reply is answered 404 with a message saying so, never with a made-up reply, so it becomes an error
row and is never scored. One attempt per prompt: a prompt recorded twice is an error in the file.

``python -m ladderbench.testing.replay REPLIES.jsonl [--port N]`` prints ``{"base_url": ...}`` and
serves on 127.0.0.1 until interrupted; ``with ReplayServer(load_replies(path)) as server`` in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
from pathlib import Path

from aiohttp import web

from ladderbench.errors import UserError
from ladderbench.jsonl import json_objects, read_text
from ladderbench.testing.fake_openai import FakeOpenAI


def load_replies(path: Path) -> dict[str, str]:
    """Prompt -> recorded reply; a line without both as strings, or a prompt twice, is an error."""
    replies: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for lineno, obj in json_objects(path, read_text(path)):
        prompt, reply = obj.get("prompt"), obj.get("reply")
        for field, value in (("prompt", prompt), ("reply", reply)):
            if not isinstance(value, str):
                raise UserError(f"{path}:{lineno}: field {field!r}: expected a string")
        assert isinstance(prompt, str) and isinstance(reply, str)
        if prompt in replies:
            raise UserError(
                f"{path}:{lineno}: this prompt already has a reply at line {first_line[prompt]}; "
                "record one attempt per prompt"
            )
        replies[prompt] = reply
        first_line[prompt] = lineno
    if not replies:
        raise UserError(f"{path}: no recorded replies")
    return replies


class ReplayServer(FakeOpenAI):
    """Answers each recorded prompt with its reply, and any other prompt with a 404."""

    def __init__(self, replies: dict[str, str], port: int = 0) -> None:
        super().__init__(reply=replies.__getitem__, port=port)
        self.replies = replies

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()  # aiohttp keeps the body: the parent reads it again
        if body["messages"][-1]["content"] not in self.replies:
            message = "no recorded reply for this prompt (replay server)"
            return web.json_response({"error": {"message": message}}, status=404)
        return await super()._handle(request)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("replies", type=Path, help="JSONL of {prompt, reply} objects")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        replies = load_replies(args.replies)
    except UserError as exc:
        raise SystemExit(f"error: {exc}") from None
    with ReplayServer(replies, port=args.port) as server:
        print(json.dumps({"base_url": server.base_url, "replies": len(replies)}), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
