"""The OpenAI-compatible adapter against the fault-injecting local server."""

import asyncio
import contextlib
import json
import re
import sqlite3
import time
import types

import pytest
from aiohttp import web

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.models import openai
from ladderbench.models.base import Request, Sampling
from ladderbench.models.openai import OllamaAdapter, OpenAIAdapter
from ladderbench.models.registry import EndpointOptions
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
    with pytest.raises(UserError) as err:
        complete(OpenAIAdapter("m", base_url=url, retries=3, retry_wait=30.0), check=True)
    # the OS's reason alone, not aiohttp's wrapper around it, then what to check
    assert re.fullmatch(
        r"http://127.0.0.1:\d+/v1/chat/completions: cannot connect \(\[Errno \d+\] [^()]*\(.*\)\); "
        r"is the server running and --base-url right\?",
        str(err.value),
    )
    assert time.perf_counter() - started < 10.0  # a single backoff would have taken 30 s or more


@pytest.mark.parametrize(
    "url, problem",
    [
        ("localhost:8080", r"not an http\(s\) URL like http://host:port/v1"),
        ("ftp://host/v1", r"not an http\(s\) URL like http://host:port/v1"),
        ("http:///v1", r"not an http\(s\) URL like http://host:port/v1"),
        ("http://127.0.0.1:99999/v1", "Port out of range.*"),  # Python's own texts
        ("http://[::1/v1", "Invalid IPv6 URL"),
        ("http://[zz]:80/v1", ".*IPv6.*"),
        ("http://host:abc/v1", "Port could not be cast.*"),
        ("http://exa mple.com/v1", "it contains spaces or control characters"),
        ("http://host:0/v1", "port 0 is not a port a server listens on"),
    ],
)
def test_bad_base_url_is_one_line_before_any_request(url, problem):
    with pytest.raises(UserError) as err:
        OpenAIAdapter("m", base_url=url)
    assert re.fullmatch(re.escape(f"--base-url {url!r}: ") + problem, str(err.value))


@pytest.mark.parametrize("url", ["https://api.example.com/v1", "http://[::1]:8080/v1/"])
def test_an_https_or_ipv6_base_url_is_accepted(url):
    assert OpenAIAdapter("m", base_url=url).url == url.rstrip("/") + "/chat/completions"


def test_a_base_url_with_a_trailing_slash_reaches_the_endpoint():
    with FakeOpenAI(reply=lambda p: "F") as server:
        done = complete(adapter(server, base_url=server.base_url + "/"))
    assert done.error is None and done.text == "F"


def test_the_defaults_of_an_adapter_are_the_command_line_defaults():
    made, options = OpenAIAdapter("m", base_url="http://h/v1"), EndpointOptions()
    assert (made.timeout, made.retries, made.retry_wait, made.max_response_bytes) == (
        options.timeout,
        options.retries,
        options.retry_wait,
        options.max_response_bytes,
    )


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
    assert done.error == "HTTP 400: " + "x" * 190 + "***" + "y" * 7  # 200 characters of body


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
    monkeypatch.setattr(openai, "WAIT_BUDGET_S", 0.4)
    with FakeOpenAI(fault=lambda p, n: "429", retry_after="0.2") as server:
        done = complete(adapter(server, retries=5), within=10)
    assert len(server.requests) == 3  # 0.2 + 0.2 waited, the whole budget; a third would pass it
    assert done.error == (
        "HTTP 429; the server asked to wait 0.2s, past the 0.4s budget of waiting per attempt "
        "(0s waited)"
    )


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


def test_the_request_body_names_max_tokens_and_seeds_each_sample():
    sampling = Sampling(temperature=0.5, max_tokens=77, seed=5)
    seeded = Request(item_id="q", messages=request().messages, sampling=sampling, sample=2)
    with FakeOpenAI() as server:
        complete(adapter(server), seeded)
        complete(adapter(server), request())
    seeded, unseeded = server.requests
    assert seeded["max_tokens"] == 77 and seeded["temperature"] == 0.5 and seeded["seed"] == 7
    assert unseeded["max_tokens"] == 512 and "seed" not in unseeded
    assert server.headers[0]["Content-Type"] == "application/json"


# ------------------------------------------------------------------------------------------
# What comes back: answers, token counts, times, and the errors of answers that are not answers


def answer(body, **kw):
    """The completion for a 200 answer with this JSON ``body``, tried once."""
    with Canned(body=json.dumps(body).encode()) as server:
        return complete(adapter(server, retries=0, **kw))


def test_content_in_text_parts_is_joined_and_null_content_is_an_empty_answer():
    parts = [{"type": "text", "text": "4"}, {"type": "image_url"}, {"type": "text", "text": "2"}]
    assert answer({"choices": [{"message": {"content": parts}}]}).text == "42"
    done = answer({"choices": [{"message": {"content": None, "tool_calls": []}}]})
    assert done.text == "" and done.error is None


@pytest.mark.parametrize(
    "content, kind", [([{"text": 4}], "list"), (["4"], "list"), (4, "int"), ({"text": "4"}, "dict")]
)
def test_content_that_is_not_text_is_a_bad_response(content, kind):
    done = answer({"choices": [{"message": {"content": content}}]})
    assert done.error == f"JSON response whose message content is not text ({kind})"


@pytest.mark.parametrize(
    "body, error",
    [
        ([{"choices": [{"message": {"content": "A"}}]}], "JSON response without choices"),
        ({"choices": [{"text": "A"}]}, "JSON response whose first choice has no message"),
    ],
)
def test_a_body_that_is_not_a_chat_completion_is_a_bad_response(body, error):
    assert answer(body).error == error


def test_only_usage_counts_that_are_whole_numbers_in_range_are_kept():
    usage = {
        "prompt_tokens": 0,
        "completion_tokens": 2**53,
        "total_tokens": 2**53 + 1,
        "cached_tokens": "3",
        "reasoning_tokens": True,
        "audio_tokens": 1.0,
        "image_tokens": -1,
        "details": None,
    }
    done = answer({"choices": [{"message": {"content": "A"}}], "usage": usage})
    assert done.usage == {"prompt_tokens": 0, "completion_tokens": 2**53}
    assert answer({"choices": [{"message": {"content": "A"}}], "usage": [1]}).usage == {}


def test_latency_is_the_time_from_sending_to_the_answer_in_milliseconds(monkeypatch):
    clock = iter([100.0, 100.25])  # when the request is sent, when its answer is read
    monkeypatch.setattr(openai, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    with FakeOpenAI() as server:
        done = complete(adapter(server))
    assert done.latency_ms == 250.0
    assert done.server_ms == 4.0  # the server's own prompt_ms + predicted_ms


def test_a_dropped_connection_and_a_redirect_loop_are_errored_attempts():
    with FakeOpenAI(fault=lambda p, n: "drop") as server:
        assert complete(adapter(server, retries=0)).error == "connection dropped mid-response"
    with Canned(status=307, headers={"Location": "/v1/chat/completions"}) as server:
        assert complete(adapter(server, retries=0)).error == "connection error: TooManyRedirects"


def test_an_error_body_that_is_not_utf8_is_read_with_replacement_characters():
    with Canned(status=400, body=b"bad \xff byte") as server:
        assert complete(adapter(server)).error == "HTTP 400: bad \ufffd byte"


def test_backoff_doubles_from_retry_wait_up_to_a_cap_plus_jitter(monkeypatch):
    jitter = []
    monkeypatch.setattr(openai.random, "uniform", lambda a, b: jitter.append((a, b)) or b)
    made = OpenAIAdapter("m", base_url="http://h/v1", retry_wait=0.5)
    assert [made._backoff(retry) for retry in (0, 1, 2, 3, 7, 8)] == [
        1.0,
        1.5,
        2.5,
        4.5,
        60.5,
        60.5,
    ]  # 0.5 * 2**retry, at most 60 s, + at most 0.5 s of jitter
    assert set(jitter) == {(0, 0.5)}


@pytest.mark.parametrize("retry_after", [None, 2.0])
def test_a_backoff_past_the_budget_names_the_wait_it_would_have_taken(retry_after):
    exc = openai.TransientError("HTTP 503", retry_after)
    with pytest.raises(openai.GaveUpError) as err:
        OpenAIAdapter._next_wait(exc, 400.0, 10.0)
    assert str(err.value) == (
        "HTTP 503; the next retry would wait 400s, past the 300s budget of waiting per attempt "
        "(10s waited)"
    )


@pytest.mark.parametrize(
    "status, hint",
    [
        (401, "check --api-key / OPENAI_API_KEY"),
        (403, "check --api-key / OPENAI_API_KEY"),
        (404, "check --base-url (usually ends in /v1) and the model name"),
        (400, "check the model name and options"),
        (422, "check the model name and options"),
    ],
)
def test_a_rejected_first_attempt_says_what_to_check(status, hint):
    with Canned(status=status, body=b"x" * 300) as server, pytest.raises(UserError) as err:
        complete(adapter(server), check=True)
    where = f"{server.base_url}/chat/completions"
    assert str(err.value) == f"{where}: HTTP {status}: {'x' * 150}; {hint}"  # 160 characters
    assert server.requests == 1


def test_a_key_of_the_minimum_secret_length_is_scrubbed_from_answers():
    key = "k" * openai.MIN_SECRET_CHARS
    with FakeOpenAI(reply=lambda p: f"the key is {key}") as server:
        assert complete(adapter(server, api_key=key)).text == "the key is ***"


def test_an_adapter_can_be_closed_unused_and_twice():
    async def close(ad):
        await ad.aclose()
        await ad.aclose()

    asyncio.run(close(OpenAIAdapter("m", base_url="http://h/v1")))
    with FakeOpenAI() as server:
        used = adapter(server)
        complete(used)
        asyncio.run(close(used))
        assert complete(used).text == "A"  # a new session in the new event loop


@pytest.mark.parametrize(
    "status, hint",
    [(404, "is the model pulled? 'ollama pull llama3'"), (401, "check --api-key / OPENAI_API_KEY")],
)
def test_ollama_says_what_to_check_in_its_own_terms(status, hint):
    with Canned(status=status, body=b"no") as server, pytest.raises(UserError) as err:
        complete(OllamaAdapter("llama3", base_url=server.base_url), check=True)
    assert str(err.value).endswith(f": HTTP {status}: no; {hint}")
    with FakeOpenAI() as server:
        url = server.base_url  # the port is free again once the server stops
    with pytest.raises(UserError) as err:
        complete(OllamaAdapter("llama3", base_url=url), check=True)
    assert str(err.value).endswith(
        "; is Ollama running? start it with 'ollama serve' and pull the model with "
        "'ollama pull llama3' (or set OLLAMA_HOST / --base-url)"
    )


def test_without_a_key_no_authorization_header_is_sent():
    with FakeOpenAI() as server:
        complete(adapter(server, api_key=None))
    assert "Authorization" not in server.headers[0]


class Gathering(Canned):
    """Holds each request until ``expected`` are in flight at once (or a few seconds pass)."""

    def __init__(self, expected):
        super().__init__(body=json.dumps({"choices": [{"message": {"content": "G"}}]}).encode())
        self.expected, self.peak, self.in_flight = expected, 0, 0
        self.all_in = None

    async def _handle(self, request):
        self.all_in = self.all_in or asyncio.Event()
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        if self.in_flight >= self.expected:
            self.all_in.set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.all_in.wait(), 5)
        self.in_flight -= 1
        return await super()._handle(request)


def test_requests_in_flight_are_not_capped_by_the_connection_pool():
    """``--concurrency`` above aiohttp's default pool of 100 connections sends all at once."""
    with Gathering(expected=120) as server:
        made = adapter(server, timeout=30.0)

        async def burst():
            try:
                return await asyncio.gather(*(made.complete(request()) for _ in range(120)))
            finally:
                await made.aclose()

        done = asyncio.run(burst())
    assert server.peak == 120 and {c.text for c in done} == {"G"}


def test_settings_name_the_adapter_model_and_endpoint_without_credentials():
    made = OpenAIAdapter("m", base_url="https://user:secret@api.example.com:8443/v1/")
    assert made.settings() == {
        "adapter": "openai",
        "model": "m",
        "endpoint": "https://api.example.com:8443/v1",
    }
    assert OllamaAdapter("llama3", base_url="http://127.0.0.1:11434/v1").settings()["adapter"] == (
        "ollama"
    )
