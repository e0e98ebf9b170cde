"""The HTML report never shows a setting named like a credential, however it is spelt or nested."""

import json

from cli_helpers import ladderbench


def test_secret_settings_are_left_out_at_any_depth_and_any_case(tmp_path, monkeypatch):
    monkeypatch.setenv("LADDERBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    out = tmp_path / "r.jsonl"
    assert (
        ladderbench("run", "--model", "oracle", "--limit", "1", "-q", "--out", str(out)).returncode
        == 0
    )
    *lines, last = out.read_text().splitlines()
    summary = json.loads(last)
    summary["settings"].update(
        {
            "API_Key": "sk-canary-top",
            "proxy": {"headers": {"Authorization": "Bearer sk-canary-nested"}},
            "extra": [{"x-api-key": "sk-canary-list"}, {"secretKey": "sk-canary-camel"}],
            "maxTokens": 512,
        }
    )
    out.write_text("\n".join([*lines, json.dumps(summary)]) + "\n")
    page = tmp_path / "r.html"
    assert ladderbench("report", str(out), "--html", str(page)).returncode == 0
    html = page.read_text()
    assert "sk-canary" not in html
    assert "maxTokens" in html and "proxy" in html
