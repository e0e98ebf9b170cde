"""The response cache in-process (issue #20: its only tests ran the CLI in a child process, where
a mutation pass cannot see them)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from ladderbench.errors import UserError
from ladderbench.items import Completion
from ladderbench.models.base import Request, Sampling
from ladderbench.runner.cache import ResponseCache, cache_key, default_cache_path

SETTINGS = {"kind": "openai", "model": "m", "baseUrl": "http://x"}


def request(prompt="2+2?", **kw):
    return Request(item_id="q", messages=({"role": "user", "content": prompt},), **kw)


def test_a_completion_comes_back_marked_cached_and_an_error_is_never_kept(tmp_path):
    cache = ResponseCache(tmp_path / "deep" / "folder" / "c.sqlite")
    try:
        assert cache.get("k") is None
        cache.put("k", Completion(text="4", usage={"completion_tokens": 1}))
        cache.put("bad", Completion(error="HTTP 500"))
        hit = cache.get("k")
        assert hit is not None and hit.text == "4" and hit.cached is True
        assert hit.usage == {"completion_tokens": 1}
        assert cache.get("bad") is None
        cache.put("k", Completion(text="5"))  # a later answer replaces the earlier one
        assert cache.get("k").text == "5"
    finally:
        cache.close()
    mode = sqlite3.connect(tmp_path / "deep" / "folder" / "c.sqlite").execute("PRAGMA journal_mode")
    assert mode.fetchone()[0] == "wal"  # readers never wait for a writer


def test_a_row_this_version_cannot_read_is_a_miss(tmp_path):
    path = tmp_path / "c.sqlite"
    ResponseCache(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO responses VALUES ('k', '{\"text\": 5')")
    cache = ResponseCache(path)
    try:
        assert cache.get("k") is None
    finally:
        cache.close()


def test_another_table_or_not_sqlite_is_refused_in_one_line(tmp_path):
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE responses (a TEXT, b TEXT, c TEXT)")
    with pytest.raises(UserError) as err:
        ResponseCache(other)
    assert str(err.value) == (
        f"response cache {other}: not a LadderBench cache (its responses table has columns "
        "a, b, c); pass --no-cache or set LADDERBENCH_CACHE"
    )
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all, just text" * 100)
    with pytest.raises(
        UserError, match=r"^response cache .*junk\.sqlite: .*; pass --no-cache or fix it$"
    ):
        ResponseCache(junk)


@pytest.mark.parametrize(
    "changed",
    [
        lambda: (dict(SETTINGS, model="other"), request()),
        lambda: (SETTINGS, request("3+3?")),
        lambda: (SETTINGS, request(sampling=Sampling(temperature=0.5))),
        lambda: (SETTINGS, request(sampling=Sampling(max_tokens=7))),
        lambda: (SETTINGS, request(sampling=Sampling(seed=3))),
        lambda: (SETTINGS, request(sample=1)),
    ],
)
def test_every_part_of_the_request_is_in_the_key(changed):
    assert cache_key(*changed()) != cache_key(SETTINGS, request())


def test_the_key_is_a_stable_hash_of_content_not_of_order_or_gold():
    key = cache_key(SETTINGS, request("é?"))
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == cache_key(dict(reversed(list(SETTINGS.items()))), request("é?"))
    assert key == cache_key(SETTINGS, request("é?", reference="B", choices=("a", "b")))


def test_the_key_of_a_request_is_pinned():
    """A change to the key's layout empties every user's cache: it must be on purpose."""
    assert cache_key(SETTINGS, request("é?")) == (
        "3e12448c222e6acb235acc5cf8dd818bcc577b351806fa39a52321050aaa3e54"
    )


def test_a_stored_row_holds_the_answer_not_the_cached_mark(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    cache.put("k", Completion(text="4", cached=True))
    cache.close()
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT completion FROM responses").fetchone()
    assert '"text":"4"' in stored and "cached" not in stored


def test_the_cache_answers_a_run_in_another_thread(tmp_path):
    """The API runs a coroutine in a worker thread inside a running loop (Jupyter), with the
    cache opened by the caller's thread."""
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("k", Completion(text="4"))
    got = []

    def worker():
        got.append(cache.get("k"))
        cache.put("k2", Completion(text="5"))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    try:
        assert got[0] is not None and got[0].text == "4"
        assert cache.get("k2").text == "5"
    finally:
        cache.close()


def test_the_cache_lives_in_ladderbench_cache_or_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "mine.sqlite"))
    assert default_cache_path() == tmp_path / "mine.sqlite"
    monkeypatch.setenv("HOME", str(tmp_path))
    default = tmp_path / ".cache" / "ladderbench" / "responses.sqlite"
    monkeypatch.setenv("LADDERBENCH_CACHE", "")  # set but empty: the default
    assert default_cache_path() == default
    monkeypatch.delenv("LADDERBENCH_CACHE")
    assert default_cache_path() == default
