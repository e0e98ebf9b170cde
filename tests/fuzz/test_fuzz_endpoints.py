"""Fuzz corpus of hostile endpoints, through the real command line.

One run answers every question with another body from the corpus (empty, HTML, truncated or
nested JSON, a body past the size cap, choices and content of the wrong types, absurd usage and
timings, bytes that are not UTF-8, gzip that is not gzip, headers lying about the length...), sent
raw over a socket so that nothing tidies them up on the way. Each must end as an error row or a
scored row, and the run as a summary with exit code 3 (0 if all were scored): never a traceback,
a hang or a lost row. Malformed endpoint flags are exit 2 before any request.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import re
import socketserver
import threading

import pytest

from cli_helpers import ladderbench, read_jsonl

CAP = 65536  # --max-response-bytes for the corpus run
KEY = "sk-fuzz-canary-0123456789abcdef"


def completion(content: object = "A", **extra: object) -> bytes:
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    return json.dumps({**body, **extra}).encode()


def http(body: bytes, status: str = "200 OK", headers: dict[str, str] | None = None) -> bytes:
    """A raw HTTP/1.1 response; ``headers`` replace the defaults (a lying Content-Length...)."""
    fields = {"Content-Type": "application/json", "Content-Length": str(len(body))}
    fields.update(headers or {})
    head = "".join(f"{k}: {v}\r\n" for k, v in fields.items() if v is not None)
    return f"HTTP/1.1 {status}\r\nConnection: close\r\n{head}\r\n".encode() + body


GOOD = http(completion("A"))
# name -> (the raw response, what the row must be: "scored", "error", or a piece of its error)
CORPUS: dict[str, tuple[bytes, str]] = {
    "empty": (http(b""), "not JSON"),
    "html": (
        http(b"<html><body>502 Bad Gateway</body></html>", headers={"Content-Type": "text/html"}),
        "not JSON",
    ),
    "truncated json": (http(b'{"choices": [{"message": {"content": "A'), "not JSON"),
    "json null": (http(b"null"), "without choices"),
    "json number": (http(b"12"), "without choices"),
    "json list": (http(b"[1, 2, 3]"), "without choices"),
    "huge, with its length": (http(b" " * (CAP + 1) + completion()), f"response over {CAP} bytes"),
    "huge, chunk after chunk": (
        http(b" " * (4 * CAP) + completion(), headers={"Content-Length": None}),
        f"response over {CAP} bytes",
    ),
    "gzip bomb": (
        http(gzip.compress(b" " * (64 * CAP) + completion()), headers={"Content-Encoding": "gzip"}),
        f"response over {CAP} bytes",
    ),
    "gzip lie": (http(completion(), headers={"Content-Encoding": "gzip"}), "mid-response"),
    "nested": (http(b"[" * 20_000 + b"]" * 20_000), "nested too deeply"),
    "nested in content": (
        http(b'{"choices": [{"message": {"content": ' + b"[" * 20_000 + b"]" * 20_000 + b"}}]}"),
        "nested too deeply",
    ),
    "choices a string": (http(b'{"choices": "A"}'), "without choices"),
    "choices a dict": (
        http(b'{"choices": {"0": {"message": {"content": "A"}}}}'),
        "without choices",
    ),
    "choice a number": (http(b'{"choices": [7]}'), "without choices"),
    "message a string": (http(b'{"choices": [{"message": "A"}]}'), "has no message"),
    "message null": (http(b'{"choices": [{"message": null}]}'), "has no message"),
    "content a list": (http(completion([{"type": "text", "text": "A"}])), "scored"),
    "content a number": (http(completion(4)), "message content is not text (int)"),
    "content a dict": (http(completion({"text": "A"})), "message content is not text (dict)"),
    "content a list of non-parts": (
        http(completion(["A", 1])),
        "message content is not text (list)",
    ),
    "content null": (http(completion(None)), "scored"),
    "content with NUL and a lone surrogate": (
        http(b'{"choices": [{"message": {"content": "A\\u0000\\ud800"}}]}'),
        "scored",
    ),
    "content echoing the key": (http(completion(f"A {KEY}")), "scored"),
    "usage strings": (
        http(completion(usage={"prompt_tokens": "10", "total_tokens": "x"})),
        "scored",
    ),
    "usage huge ints": (
        http(completion(usage={"prompt_tokens": 10**30, "total_tokens": 2**63})),
        "scored",
    ),
    "usage a 5000-digit int": (
        http(b'{"choices": [], "usage": {"total_tokens": ' + b"9" * 5000 + b"}}"),
        "not JSON",
    ),
    "usage bools and negatives": (
        http(completion(usage={"prompt_tokens": True, "completion_tokens": -3})),
        "scored",
    ),
    "usage a list": (http(completion(usage=[1, 2])), "scored"),
    "timings NaN": (
        http(completion()[:-1] + b', "timings": {"prompt_ms": NaN, "predicted_ms": 1}}'),
        "scored",
    ),
    "timings Infinity": (
        http(completion()[:-1] + b', "timings": {"prompt_ms": Infinity, "predicted_ms": 1}}'),
        "scored",
    ),
    "timings overflow": (
        http(completion(timings={"prompt_ms": 1e308, "predicted_ms": 1e308})),
        "scored",
    ),
    "timings negative": (http(completion(timings={"prompt_ms": -5, "predicted_ms": 1})), "scored"),
    "timings strings": (
        http(completion(timings={"prompt_ms": "1", "predicted_ms": "2"})),
        "scored",
    ),
    "not UTF-8": (http(b'{"choices": [{"message": {"content": "\xff\xfe\xc3"}}]}'), "not JSON"),
    "length longer than the body": (
        http(completion(), headers={"Content-Length": "1000"}),
        "mid-response",
    ),
    "length shorter than the body": (http(completion(), headers={"Content-Length": "20"}), "error"),
    "length not a number": (
        http(completion(), headers={"Content-Length": "lots"}),
        "connection error",
    ),
    "length negative": (http(completion(), headers={"Content-Length": "-1"}), "connection error"),
    "header line past the limit": (
        http(completion(), headers={"X-Pad": "p" * 100_000}),
        "connection error",
    ),
    "not HTTP at all": (b"SSH-2.0-OpenSSH_9.6\r\n", "connection error"),
    "nothing, then close": (b"", "connection"),
    "503 with Retry-After nan": (
        http(b"busy", "503 Service Unavailable", {"Retry-After": "nan"}),
        "HTTP 503",
    ),
    "429 with Retry-After inf": (
        http(b"", "429 Too Many Requests", {"Retry-After": "inf"}),
        "HTTP 429",
    ),
    "429 asking for days": (
        http(b"", "429 Too Many Requests", {"Retry-After": "999999"}),
        "asked to wait 999999s",
    ),
    "400 echoing the key at the cut": (
        http(b"x" * 190 + KEY.encode(), "400 Bad Request"),
        "HTTP 400: xxx",
    ),
    "500 with a huge body": (
        http(b"e" * (2 * CAP), "500 Internal Server Error"),
        f"response over {CAP} bytes",
    ),
}


class RawEndpoint(socketserver.ThreadingTCPServer):
    """Answers each new prompt with the next corpus response (a retry of a prompt gets the same
    one again); the first prompt, the run's configuration check, is answered well. Runs against
    it use --concurrency 1: with more, another request may arrive before the check's."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.lock = threading.Lock()
        self.pending = list(CORPUS)
        self.case_of: dict[str, str] = {}  # prompt -> corpus case name ("good" for the rest)

    def response_for(self, prompt: str) -> bytes:
        with self.lock:
            if prompt not in self.case_of:
                first = not self.case_of
                self.case_of[prompt] = "good" if first or not self.pending else self.pending.pop(0)
            case = self.case_of[prompt]
        return GOOD if case == "good" else CORPUS[case][0]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        length = 0
        while (line := self.rfile.readline(65536)) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        request = json.loads(self.rfile.read(length))
        response = self.server.response_for(request["messages"][-1]["content"])  # type: ignore[attr-defined]
        with contextlib.suppress(OSError):  # the client stopped reading (the size cap)
            self.wfile.write(response)


@pytest.fixture
def endpoint():
    server = RawEndpoint()
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def strict_json(line: str) -> object:
    """JSON as other readers take it: NaN and Infinity are not JSON."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in a results file")

    return json.loads(line, parse_constant=refuse)


def test_every_hostile_body_is_an_error_row_or_a_scored_row(tmp_path, endpoint):
    out = tmp_path / "fuzz.jsonl"
    cache = tmp_path / "cache.sqlite"
    proc = ladderbench(
        "run", "--model", "openai:fuzz", "--base-url", endpoint.base_url, "--api-key", KEY,
        "--levels", "1,2", "--limit", "25", "--concurrency", "1", "--retries", "1",
        "--retry-wait", "0", "--timeout", "20", "--max-response-bytes", str(CAP),
        "--out", str(out), "-q",
        env={"LADDERBENCH_CACHE": str(cache)}, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    lines = out.read_text().splitlines()
    for line in lines:
        strict_json(line)
    rows, summary = read_jsonl(out)
    assert summary is not None and len(rows) == 50 == summary["total"]
    assert len(endpoint.case_of) == 50 and not endpoint.pending  # every case was served
    outcome = {}
    for row in rows:
        case = endpoint.case_of[row["prompt"]]
        outcome[case] = "scored" if row["error"] is None else row["error"]
        if row["error"] is None:
            assert row["pass"] in (True, False) and row["response"] is not None
    for case, (_, expected) in CORPUS.items():
        if expected == "scored":
            assert outcome[case] == "scored", (case, outcome[case])
        else:  # "error": any error (which one depends on the client's HTTP parser)
            assert outcome[case] != "scored", case
            assert expected == "error" or expected in outcome[case], (case, outcome[case])
    assert summary["errors"] == sum(1 for e in outcome.values() if e != "scored")
    assert KEY not in out.read_text() and KEY.encode() not in cache.read_bytes()


def test_what_reaches_the_rows_of_odd_but_scored_bodies(tmp_path, endpoint):
    """Absurd token counts and server times are dropped, text is stored as UTF-8."""
    out = tmp_path / "fuzz.jsonl"
    proc = ladderbench(
        "run", "--model", "openai:fuzz", "--base-url", endpoint.base_url, "--api-key", KEY,
        "--levels", "1,2", "--limit", "25", "--concurrency", "1", "--retries", "0",
        "--max-response-bytes", str(CAP), "--out", str(out), "-q", "--no-cache",
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    rows, _ = read_jsonl(out)
    by_case = {endpoint.case_of[row["prompt"]]: row for row in rows}
    assert by_case["usage huge ints"]["usage"] == {}
    assert by_case["usage bools and negatives"]["usage"] == {}
    assert by_case["usage strings"]["usage"] == {}
    for case in ("timings NaN", "timings Infinity", "timings overflow", "timings negative"):
        assert by_case[case]["serverMs"] is None, case
    assert by_case["content with NUL and a lone surrogate"]["response"] == "A\x00\ufffd"
    assert by_case["content echoing the key"]["response"] == "A ***"
    assert by_case["content a list"]["response"] == "A"  # text parts, joined
    assert by_case["content null"]["response"] == ""


def test_a_run_reaching_only_hostile_bodies_after_the_check_still_ends_with_a_summary(
    tmp_path, endpoint
):
    endpoint.pending = ["nested", "huge, chunk after chunk", "not HTTP at all"] * 2
    out = tmp_path / "fuzz.jsonl"
    proc = ladderbench(
        "run", "--model", "openai:fuzz", "--base-url", endpoint.base_url,
        "--levels", "1", "--limit", "7", "--concurrency", "1", "--retries", "0",
        "--max-response-bytes", str(CAP), "--out", str(out), "-q", "--no-cache",
        timeout=120,
    )  # fmt: skip
    assert proc.returncode == 3 and "6 of 7 attempts ended in an error" in proc.stderr
    rows, summary = read_jsonl(out)
    assert len(rows) == 7 and summary is not None and summary["errors"] == 6


BAD_FLAGS = [
    (["--base-url", "http://127.0.0.1:99999/v1"], "Port out of range"),
    (["--base-url", "http://[::1/v1"], "Invalid IPv6 URL"),
    (["--base-url", "http://[::1]:8080:9/v1"], "--base-url"),
    (["--base-url", "http://exa mple.com/v1"], "spaces or control characters"),
    (["--base-url", "http://host:0/v1"], "port 0"),
    (["--base-url", "file:///etc/passwd"], "not an http"),
    (["--timeout", "inf"], "--timeout inf: must be a finite number"),
    (["--retry-wait", "inf"], "--retry-wait inf: must be a finite number"),
    (["--temperature", "inf"], "--temperature inf: must be a finite number"),
    (["--price-in", "inf"], "--price-in inf: must be a finite number"),
    (["--price-out", "inf"], "--price-out inf: must be a finite number"),
    (["--price-in", "1e999"], "--price-in inf: must be a finite number"),
]
# nan fails typer's own min= check: exit 2 with its usage message, naming the flag
BAD_FLAGS_TYPER = [
    (["--timeout", "nan"], "--timeout"),
    (["--retry-wait", "nan"], "--retry-wait"),
    (["--temperature", "nan"], "--temperature"),
    (["--price-in", "nan"], "--price-in"),
    (["--price-out", "nan"], "--price-out"),
    (["--max-response-bytes", "0"], "--max-response-bytes"),
    (["--max-response-bytes", "lots"], "--max-response-bytes"),
]


def _run_with(flags, tmp_path, server_url, monkeypatch, capsys):
    """``ladderbench run`` through the command's own entry point, in this process (a
    subprocess per flag would cost a second each): (exit code, stderr)."""
    from ladderbench import cli

    args = ["run", "--model", "openai:m", "--levels", "1", "--limit", "1", "-q"]
    if "--base-url" not in flags:
        args += ["--base-url", server_url]
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.setattr(
        "sys.argv", ["ladderbench", *args, *flags, "--out", str(tmp_path / "r.jsonl")]
    )
    with pytest.raises(SystemExit) as exit:
        cli.main()
    return exit.value.code, capsys.readouterr().err


@pytest.mark.parametrize("flags, message", BAD_FLAGS)
def test_malformed_endpoint_flags_are_one_line_before_any_request(
    flags, message, tmp_path, endpoint, monkeypatch, capsys
):
    code, err = _run_with(flags, tmp_path, endpoint.base_url, monkeypatch, capsys)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not endpoint.case_of and not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("flags, name", BAD_FLAGS_TYPER)
def test_flags_out_of_range_are_refused_by_the_parser(
    flags, name, tmp_path, endpoint, monkeypatch, capsys
):
    code, err = _run_with(flags, tmp_path, endpoint.base_url, monkeypatch, capsys)
    assert code == 2 and name in err and "Traceback" not in err, err
    assert not endpoint.case_of and not (tmp_path / "r.jsonl").exists()


def test_a_malformed_flag_is_one_line_from_the_installed_command(tmp_path, endpoint):
    proc = ladderbench(
        "run", "--model", "openai:m", "--base-url", "http://[::1/v1", "--timeout", "inf",
        "--out", str(tmp_path / "r.jsonl"), timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: --timeout inf: must be a finite number")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"timeout": float("inf")}, "timeout=inf: must be a finite number"),
        ({"retry_wait": float("nan")}, "retry_wait=nan: must be a finite number"),
        ({"temperature": float("inf")}, "temperature=inf: must be a finite number"),
        ({"price_in": float("nan")}, "price_in=nan: must be a finite number"),
        ({"price_out": float("inf")}, "price_out=inf: must be a finite number"),
        ({"max_response_bytes": 0}, "max_response_bytes=0: must be at least 1"),
        ({"base_url": "http://127.0.0.1:99999/v1"}, "Port out of range"),
    ],
)
def test_evaluate_refuses_the_same_arguments_before_any_request(
    options, message, tmp_path, endpoint, monkeypatch
):
    import ladderbench
    from ladderbench.errors import UserError

    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    options = {"base_url": endpoint.base_url, **options}
    with pytest.raises(UserError, match=re.escape(message)):
        ladderbench.evaluate("openai:m", levels=[1], limit=1, out=tmp_path / "r.jsonl", **options)
    assert not endpoint.case_of


def test_evaluate_takes_the_response_cap(tmp_path, endpoint, monkeypatch):
    import ladderbench

    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    endpoint.pending = ["huge, chunk after chunk"]
    with pytest.warns(UserWarning, match="1 of 2 attempts ended in an error"):
        result = ladderbench.evaluate(
            "openai:m", base_url=endpoint.base_url, levels=[1], limit=2, concurrency=1,
            retries=0, max_response_bytes=CAP, out=tmp_path / "r.jsonl",
        )  # fmt: skip
    errors = result.rows()["error"].dropna().tolist()
    assert errors == [f"response over {CAP} bytes; see --max-response-bytes"]
