"""The OpenAI-compatible adapter against the fault-injecting local server."""

import asyncio
import json
import sqlite3
import time

import pytest
from aiohttp import web

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.models import openai
from ladderbench.models.base import Request
from ladderbench.models.openai import OpenAIAdapter
from ladderbench.testing.fake_openai import FakeOpenAI
from ladderbench.testing.loopback import LoopbackServer

CANARY = "sk-canary-7d1f0e9a-never-write-me"


def request(prompt="What is 2+2?"):
    return Request(item_id="q", messages=({"role": "user", "content": prompt},))


def adapter(server, **kw):
    opts = dict(base_url=server.base_url, api_key=CANARY, timeout=1.0, retries=3, retry_wait=0.01)
    opts.update(kw)
    return OpenAIAdapter("fake-model", **opts)


def complete(ad, req=None, check=False, within=None):
    """One attempt; ``within`` seconds at most (a test of a wait that must not happen)."""

    async def go():
        try:
            return await (ad.check if check else ad.complete)(req or request())
        finally:
            await ad.aclose()

    return asyncio.run(asyncio.wait_for(go(), within))


class Canned(LoopbackServer):
    """Answers every request with one fixed status, body and headers."""

    def __init__(self, status=200, body=b"", headers=None):
        super().__init__()
        self.status, self.body, self.extra = status, body, headers or {}
        self.requests = 0

    async def _handle(self, request):
        self.requests += 1
        return web.Response(status=self.status, body=self.body, headers=self.extra)

    def routes(self, app):
        app.router.add_post("/v1/chat/completions", self._handle)

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}/v1"


def test_answer_usage_and_request_shape():
    with FakeOpenAI(reply=lambda p: "B") as server:
        done = complete(adapter(server))
    assert done.text == "B" and done.error is None and done.usage["total_tokens"] == 12
    body = server.requests[0]
    assert body["model"] == "fake-model" and body["temperature"] == 0.0
    assert server.headers[0]["Authorization"] == f"Bearer {CANARY}"


@pytest.mark.parametrize("fault", ["429", "500", "hang", "badjson", "nochoices", "drop"])
def test_transient_faults_are_retried_then_answered(fault):
    with FakeOpenAI(
        reply=lambda p: "C", fault=lambda p, n: fault if n < 2 else None, hang_s=3
    ) as server:
        done = complete(adapter(server))
    assert done.error is None and done.text == "C"
    assert len(server.requests) == 3


def test_retry_after_is_honoured():
    with FakeOpenAI(fault=lambda p, n: "429" if n == 0 else None, retry_after="0.6") as server:
        started = time.perf_counter()
        done = complete(adapter(server))
        waited = time.perf_counter() - started
    assert done.error is None and waited >= 0.6


@pytest.mark.parametrize(
    "fault, error",
    [
        ("500", "HTTP 500"),
        ("hang", "timeout after 1s"),
        ("badjson", "not JSON"),
        ("nochoices", "without choices"),
    ],
)
def test_exhausted_retries_come_back_as_error(fault, error):
    with FakeOpenAI(fault=lambda p, n: fault, hang_s=3) as server:
        done = complete(adapter(server, retries=1))
    assert done.error is not None and error in done.error and done.text == ""
    assert len(server.requests) == 2


def test_rejected_request_is_not_retried_and_key_is_scrubbed():
    with FakeOpenAI(fault=lambda p, n: "401") as server:
        done = complete(adapter(server))
    assert len(server.requests) == 1
    assert "HTTP 401" in done.error and CANARY not in done.error


@pytest.mark.parametrize(
    "fault, message",
    [
        ("401", "HTTP 401.*check --api-key"),
        ("404", "HTTP 404.*check --base-url"),
        ("badjson", "response is not JSON; is --base-url an OpenAI-compatible endpoint"),
        ("nochoices", "JSON response without choices"),
    ],
)
def test_first_attempt_turns_configuration_faults_into_one_line(fault, message):
    with (
        FakeOpenAI(fault=lambda p, n: fault) as server,
        pytest.raises(UserError, match=message) as err,
    ):
        complete(adapter(server), check=True)
    assert CANARY not in str(err.value) and "\n" not in str(err.value)


def test_first_attempt_still_retries_overload():
    with FakeOpenAI(reply=lambda p: "D", fault=lambda p, n: "429" if n == 0 else None) as server:
        assert complete(adapter(server), check=True).text == "D"


def test_unreachable_endpoint_fails_fast_on_first_attempt():
    with FakeOpenAI() as server:
        url = server.base_url  # the port is free again once the server stops
    started = time.perf_counter()
    with pytest.raises(UserError, match=r"127.0.0.1:\d+/v1/chat/completions: cannot connect"):
        complete(OpenAIAdapter("m", base_url=url, retries=3, retry_wait=30.0), check=True)
    assert time.perf_counter() - started < 10.0  # a single backoff would have taken 30 s or more


@pytest.mark.parametrize(
    "url, problem",
    [
        ("localhost:8080", "not an http"),
        ("http://127.0.0.1:99999/v1", "Port out of range"),
        ("http://[::1/v1", "Invalid IPv6 URL"),
        ("http://[zz]:80/v1", "IPv6"),
        ("http://host:abc/v1", "Port could not be cast"),
        ("http://exa mple.com/v1", "spaces or control characters"),
        ("http://host:0/v1", "port 0"),
    ],
)
def test_bad_base_url_is_one_line_before_any_request(url, problem):
    with pytest.raises(UserError, match=problem) as err:
        OpenAIAdapter("m", base_url=url)
    assert "\n" not in str(err.value) and str(err.value).startswith("--base-url")


# ------------------------------------------------------------------------------------------
# Hostile servers: an endless body, deep JSON, a key echoed back, absurd Retry-After


def test_an_endless_body_is_cut_at_the_cap_and_not_retried():
    with FakeOpenAI(fault=lambda p, n: "endless") as server:
        done = complete(adapter(server, max_response_bytes=200_000, timeout=30.0), within=20)
        time.sleep(0.2)
        sent = server.streamed
        time.sleep(0.2)
        assert server.streamed == sent  # the connection was closed: the stream has stopped
    assert done.error == "response over 200000 bytes; see --max-response-bytes"
    assert done.text == "" and len(server.requests) == 1  # a rambler rambles again: no retry
    assert sent < 16 * 2**20  # the cap and what socket buffers held, not all the server had


def test_a_content_length_over_the_cap_is_refused_unread():
    with Canned(body=b" " * 5000) as server:
        done = complete(adapter(server, max_response_bytes=4096))
    assert done.error == "response over 4096 bytes; see --max-response-bytes"
    assert server.requests == 1


def test_a_body_at_the_cap_is_read():
    body = json.dumps({"choices": [{"message": {"content": "E"}}]}).encode()
    with Canned(body=body) as server:
        done = complete(adapter(server, max_response_bytes=len(body)))
    assert done.error is None and done.text == "E"


def test_deeply_nested_json_is_a_bad_response_not_a_crash():
    with FakeOpenAI(fault=lambda p, n: "nested") as server:
        done = complete(adapter(server, retries=1))
        with pytest.raises(UserError, match=r"nested too deeply.*OpenAI-compatible endpoint"):
            complete(adapter(server), check=True)
    assert done.error == "response is JSON nested too deeply to read"


def test_the_key_is_scrubbed_from_the_whole_error_body_before_the_cut():
    # the key straddles byte 200, where the message is cut: no part of it may survive
    body = ("x" * 190 + CANARY + "y" * 50).encode()
    with Canned(status=400, body=body) as server:
        done = complete(adapter(server))
    assert done.error.startswith("HTTP 400: " + "x" * 190 + "***")
    assert "sk-canary" not in done.error and "never" not in done.error


def test_the_key_is_scrubbed_from_answers_unless_it_is_a_placeholder():
    reply = f"EMPTY; your key is {CANARY}"
    with FakeOpenAI(reply=lambda p: reply) as server:
        secret = complete(adapter(server))
        placeholder = complete(adapter(server, api_key="EMPTY"))
    assert secret.text == "EMPTY; your key is ***"
    assert placeholder.text == reply  # "EMPTY" is no secret: answers keep their letters


def test_an_echoed_key_reaches_neither_results_nor_cache(tmp_path):
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAI(reply=lambda p: f"A {CANARY}") as server:
        proc = ladderbench(
            "run", "--model", "openai:m", "--base-url", server.base_url, "--api-key", CANARY,
            "--levels", "1", "--limit", "2", "--out", str(tmp_path / "r.jsonl"), "-q",
            env={"LADDERBENCH_CACHE": str(cache)},
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows, summary = read_jsonl(tmp_path / "r.jsonl")
    assert len(rows) == 2 and summary is not None
    assert CANARY not in (tmp_path / "r.jsonl").read_text()
    stored = sqlite3.connect(cache).execute("SELECT * FROM responses").fetchall()
    assert stored and CANARY not in repr(stored)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-5", "Infinity", "soon"])
def test_retry_after_that_is_not_a_number_of_seconds_is_ignored(value):
    assert openai._retry_after(value) is None


def test_nan_retry_after_falls_back_to_the_backoff():
    with FakeOpenAI(fault=lambda p, n: "429" if n == 0 else None, retry_after="nan") as server:
        done = complete(adapter(server), within=10)
    assert done.error is None and len(server.requests) == 2


def test_a_retry_after_past_the_budget_ends_the_attempt_at_once():
    with FakeOpenAI(fault=lambda p, n: "429", retry_after="999999") as server:
        done = complete(adapter(server), within=10)
    assert len(server.requests) == 1 and done.text == ""
    assert done.error == (
        "HTTP 429; the server asked to wait 999999s, past the 300s budget of waiting per "
        "attempt (0s waited)"
    )


def test_the_waits_of_one_attempt_add_up_to_the_budget(monkeypatch):
    monkeypatch.setattr(openai, "WAIT_BUDGET_S", 0.5)
    with FakeOpenAI(fault=lambda p, n: "429", retry_after="0.2") as server:
        done = complete(adapter(server, retries=5), within=10)
    assert len(server.requests) == 3  # 0.2 + 0.2 waited; a third 0.2 would pass 0.5
    assert "asked to wait 0.2s, past the 0.5s budget" in done.error


def test_a_first_attempt_over_the_cap_is_an_errored_row_not_a_configuration_error():
    with FakeOpenAI(fault=lambda p, n: "endless") as server:
        done = complete(adapter(server, max_response_bytes=100_000), check=True, within=20)
    assert done.error.startswith("response over 100000 bytes")


def test_the_request_body_carries_the_run_settings_and_a_seed_per_sample(tmp_path, monkeypatch):
    """What a run asks for reaches the server under the names it reads: ``max_tokens``, the
    temperature, the system prompt first, and ``seed + sample`` so that samples differ."""
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    with FakeOpenAI(reply=lambda p: "A") as server:
        proc = ladderbench(
            "run", "--model", "openai:m", "--base-url", server.base_url, "--levels", "1",
            "--limit", "1", "--samples", "3", "--seed", "5", "--temperature", "0.7",
            "--max-tokens", "77", "--system-prompt", "Be brief.", "-q",
            "--out", str(tmp_path / "r.jsonl"),
        )  # fmt: skip
        bodies = list(server.requests)
    assert proc.returncode == 0, proc.stderr
    assert sorted(body["seed"] for body in bodies) == [5, 6, 7]
    for body in bodies:
        assert body["model"] == "m" and body["max_tokens"] == 77 and body["temperature"] == 0.7
        assert body["messages"][0] == {"role": "system", "content": "Be brief."}
        assert body["messages"][1]["role"] == "user" and len(body["messages"]) == 2
