"""The OpenAI-compatible adapter against the fault-injecting local server."""

import asyncio
import time

import pytest

from ladderbench.errors import UserError
from ladderbench.models.base import Request
from ladderbench.models.openai import OpenAIAdapter
from ladderbench.testing.fake_openai import FakeOpenAI

CANARY = "sk-canary-7d1f0e9a-never-write-me"


def request(prompt="What is 2+2?"):
    return Request(item_id="q", messages=({"role": "user", "content": prompt},))


def adapter(server, **kw):
    opts = dict(base_url=server.base_url, api_key=CANARY, timeout=1.0, retries=3, retry_wait=0.01)
    opts.update(kw)
    return OpenAIAdapter("fake-model", **opts)


def complete(ad, req=None, check=False):
    async def go():
        try:
            return await (ad.check if check else ad.complete)(req or request())
        finally:
            await ad.aclose()

    return asyncio.run(go())


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


def test_bad_base_url_is_rejected():
    with pytest.raises(UserError, match="not an http"):
        OpenAIAdapter("m", base_url="localhost:8080")
