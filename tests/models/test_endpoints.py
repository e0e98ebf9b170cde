"""Endpoints chosen by convention: OPENAI_API_KEY alone reaches OpenAI, ``ollama:NAME`` a local
Ollama (or OLLAMA_HOST's), and the results of either are read back like any run."""

import json

import pytest

from cli_helpers import ladderbench, read_jsonl
from ladderbench.errors import UserError
from ladderbench.models.endpoints import OPENAI_URL, ollama_url
from ladderbench.models.registry import EndpointOptions, make_adapter
from ladderbench.testing.fake_openai import FakeOpenAI

OLLAMA_MODEL = "qwen2.5:3b-instruct-q4_K_M"
KEY = "sk-openai-canary-not-for-ollama"


@pytest.fixture(autouse=True)
def no_endpoint_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    "host, url",
    [
        (None, "http://127.0.0.1:11434/v1"),
        ("", "http://127.0.0.1:11434/v1"),
        ("1.2.3.4", "http://1.2.3.4:11434/v1"),
        (":56789", "http://127.0.0.1:56789/v1"),
        ("0.0.0.0:8080", "http://0.0.0.0:8080/v1"),
        ("example.com:56789/", "http://example.com:56789/v1"),
        ("http://example.com", "http://example.com:80/v1"),
        ("https://example.com", "https://example.com:443/v1"),
        ("https://example.com:56789/proxy/", "https://example.com:56789/proxy/v1"),
        ("[::1]:9000", "http://[::1]:9000/v1"),
    ],
)
def test_ollama_host_is_read_as_ollamas_clients_read_it(host, url):
    assert ollama_url(host) == url


@pytest.mark.parametrize("host", ["localhost:port", "ftp://example.com"])
def test_a_bad_ollama_host_is_one_line(monkeypatch, host):
    monkeypatch.setenv("OLLAMA_HOST", host)
    with pytest.raises(UserError, match="OLLAMA_HOST") as info:
        make_adapter("ollama:m")
    assert "\n" not in str(info.value)


def test_ollama_spec_keeps_the_colons_of_the_model_name():
    adapter = make_adapter(f"ollama:{OLLAMA_MODEL}")
    assert (adapter.kind, adapter.model) == ("ollama", OLLAMA_MODEL)
    assert adapter.settings()["endpoint"] == "http://127.0.0.1:11434/v1"


def test_ollama_reads_neither_openai_variable_and_base_url_overrides(monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://elsewhere:1/v1")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box:11500")
    adapter = make_adapter("ollama:m")
    assert adapter.settings()["endpoint"] == "http://gpu-box:11500/v1"
    assert "Authorization" not in adapter._headers()
    given = make_adapter("ollama:m", EndpointOptions(base_url="http://127.0.0.1:9/v1"))
    assert given.settings()["endpoint"] == "http://127.0.0.1:9/v1"


@pytest.mark.parametrize("options", [EndpointOptions(api_key=KEY), None])
def test_an_openai_key_alone_reaches_openai(monkeypatch, options):
    if options is None:
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
    adapter = make_adapter("openai:gpt-4o-mini", options)
    assert adapter.url == f"{OPENAI_URL}/chat/completions"  # chosen, never connected to
    assert adapter._headers()["Authorization"] == f"Bearer {KEY}"


def test_a_given_endpoint_beats_the_openai_default(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert make_adapter("openai:m").settings()["endpoint"] == "http://127.0.0.1:9/v1"


def test_openai_with_neither_endpoint_nor_key_names_both_ways():
    with pytest.raises(UserError) as info:
        make_adapter("openai:m")
    message = str(info.value)
    assert "\n" not in message
    assert "--base-url" in message and "OPENAI_BASE_URL" in message
    assert "OPENAI_API_KEY" in message and OPENAI_URL in message


def test_ollama_run_on_ollama_host_is_recorded_resumed_and_reported(tmp_path):
    out = tmp_path / "ollama.jsonl"
    args = ("run", "--model", f"ollama:{OLLAMA_MODEL}", "--out", str(out), "-q")
    with FakeOpenAI(reply=lambda p: "B") as server:
        env = {"OLLAMA_HOST": f"127.0.0.1:{server.port}", "OPENAI_API_KEY": KEY}
        env |= {"LADDERBENCH_CACHE": str(tmp_path / "cache.sqlite"), "OPENAI_BASE_URL": ""}
        proc = ladderbench(*args, "--limit", "1", env=env)
        assert proc.returncode == 0, proc.stderr
        again = ladderbench(*args, "--limit", "2", env=env)  # the same job, extended
        assert again.returncode == 0, again.stderr
    assert {r["model"] for r in server.requests} == {OLLAMA_MODEL}
    assert all("Authorization" not in h for h in server.headers)
    rows, summary = read_jsonl(out)
    assert len(rows) == 10 and {(r["adapter"], r["model"]) for r in rows} == {
        ("ollama", OLLAMA_MODEL)
    }
    assert summary["settings"]["endpoint"] == f"http://127.0.0.1:{server.port}/v1"
    report = ladderbench("report", str(out), "--json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["adapter"] == "ollama"


def test_ollama_not_running_says_to_start_it_and_pull_the_model(tmp_path):
    with FakeOpenAI() as server:
        host = f"127.0.0.1:{server.port}"  # free again once the server stops
    proc = ladderbench(
        "run",
        "--model",
        f"ollama:{OLLAMA_MODEL}",
        "--out",
        str(tmp_path / "r.jsonl"),
        "-q",
        env={"OLLAMA_HOST": host, "LADDERBENCH_CACHE": str(tmp_path / "cache.sqlite")},
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"http://{host}/v1/chat/completions: cannot connect" in proc.stderr
    assert "ollama serve" in proc.stderr and f"ollama pull {OLLAMA_MODEL}" in proc.stderr


def test_ollama_missing_model_says_to_pull_it(tmp_path):
    with FakeOpenAI(fault=lambda p, n: "404") as server:
        proc = ladderbench(
            "run",
            "--model",
            "ollama:nope",
            "--out",
            str(tmp_path / "r.jsonl"),
            "-q",
            env={
                "OLLAMA_HOST": f"127.0.0.1:{server.port}",
                "LADDERBENCH_CACHE": str(tmp_path / "cache.sqlite"),
            },
        )
    assert proc.returncode == 2 and "ollama pull nope" in proc.stderr, proc.stderr
