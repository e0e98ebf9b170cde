"""Malformed rungs files and hostile graders for ``ladderbench probe``.

Every case ends in one line on stderr and exit 2 (bad input), or a finished probe that holds the
grader (exit 1): never a traceback or a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import ladderbench
from ladderbench.errors import UserError
from ladderbench.probe import load_rungs, resolve

GOOD = {
    "case_id": "c",
    "level": 0,
    "answer": "(B)",
    "question": "2 + 2?",
    "choices": ["3", "4"],
    "gold": "B",
}

# Graders a user might point --grade at; every one but ``fine`` misbehaves.
GRADERS = """
import time

def fine(case, answer):
    return 1.0 if "B" in answer else 0.0

def hangs(case, answer):
    while True:
        time.sleep(0.05)

def nan(case, answer):
    return float("nan")

def boolean(case, answer):
    return True

def huge_list(case, answer):
    return list(range(2_000_000))

def huge_int(case, answer):
    return 10 ** 20000

def text(case, answer):
    return "1.0"

def pair_of_junk(case, answer):
    return (object, "reason")

def exits(case, answer):
    raise SystemExit(0)

def raises(case, answer):
    raise RuntimeError("line one\\nline two")

def markup(case, answer):
    raise RuntimeError("[/red] is not markup here")

not_callable = 3
"""


def lines(*objects: object) -> str:
    return "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects)


def ladder_of(**change: object) -> list[dict]:
    return [{**GOOD, "level": i, "answer": a, **change} for i, a in enumerate(["no", "(C)", "(B)"])]


BAD_FILES: dict[str, bytes] = {
    "empty": b"",
    "blank lines": b"\n\n  \n",
    "not json": b"{case_id: c}\n",
    "a list, not an object": lines([GOOD]).encode(),
    "a number": b"3\n",
    "level is text": lines({**GOOD, "level": "one"}).encode(),
    "level negative": lines({**GOOD, "level": -1}).encode(),
    "level is a float": lines({**GOOD, "level": 1.5}).encode(),
    "level of 5000 digits": b'{"case_id": "c", "level": ' + b"9" * 5000 + b', "answer": "a"}\n',
    "level is a bool": lines({**GOOD, "level": True}).encode(),
    "case_id missing": lines({k: v for k, v in GOOD.items() if k != "case_id"}).encode(),
    "case_id empty": lines({**GOOD, "case_id": ""}).encode(),
    "case_id a list": lines({**GOOD, "case_id": ["c"]}).encode(),
    "answer missing": lines({k: v for k, v in GOOD.items() if k != "answer"}).encode(),
    "answer a number": lines({**GOOD, "answer": 4}).encode(),
    "evidence a dict": lines({**GOOD, "evidence": {"a": 1}}).encode(),
    "non-UTF-8": b'{"case_id": "c", "level": 0, "answer": "\xff\xfe"}\n',
    "UTF-16 with BOM": lines(GOOD).encode("utf-16"),
    "deeply nested": b'{"case_id": "c", "level": 0, "answer": "a", "x": '
    + b"[" * 100_000
    + b"]" * 100_000
    + b"}\n",
    "truncated": lines(GOOD).encode()[:-10],
    "NaN level": b'{"case_id": "c", "level": NaN, "answer": "a"}\n',
    "NUL bytes": b'{"case_id": "c\x00", "level": 0, "answer": "a"}\x00\n',
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_malformed_rungs_file_is_one_user_error(tmp_path: Path, name: str) -> None:
    rungs = tmp_path / "rungs.jsonl"
    rungs.write_bytes(BAD_FILES[name])
    with pytest.raises(UserError) as info:
        load_rungs(rungs)
    assert "\n" not in str(info.value) and str(rungs) in str(info.value)


@pytest.mark.parametrize("name", ["deeply nested", "non-UTF-8", "level is a bool"])
def test_the_command_line_says_it_in_one_line(tmp_path: Path, name: str) -> None:
    rungs = tmp_path / "rungs.jsonl"
    rungs.write_bytes(BAD_FILES[name])
    proc = ladderbench("probe", "--ladders", str(rungs), "--grade", "static.choice", timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr[-2000:]


def test_odd_paths_are_one_line(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.jsonl", tmp_path):
        proc = ladderbench("probe", "--ladders", str(path), "--grade", "static.choice", timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "graders.py").write_text(GRADERS)
    (tmp_path / "broken_syntax.py").write_text("def f(:\n")
    (tmp_path / "broken_import.py").write_text("1 / 0\n")
    (tmp_path / "exits_on_import.py").write_text("raise SystemExit(0)\n")
    (tmp_path / "rungs.jsonl").write_text(lines(*ladder_of(case_id="[/bold] c", defect="[/x]")))
    return tmp_path


BAD_SPECS = [
    "nomodule:fn",
    "graders:missing",
    "graders:not_callable",
    "graders:",
    ":fine",
    "broken_syntax:f",
    "broken_import:f",
    "exits_on_import:f",
    "no.such.builtin",
]


@pytest.mark.parametrize("spec", BAD_SPECS)
def test_a_grader_that_cannot_be_loaded_is_one_user_error(
    workdir: Path, spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(workdir)
    monkeypatch.setattr(sys, "path", list(sys.path))
    for module in ("broken_syntax", "broken_import", "exits_on_import"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(UserError) as info:
        resolve(spec)
    assert "\n" not in str(info.value) and "Traceback" not in str(info.value)


def test_an_unimportable_grader_on_the_command_line(workdir: Path) -> None:
    proc = ladderbench(
        "probe", "--ladders", "rungs.jsonl", "--grade", "broken_import:f", cwd=workdir
    )
    assert proc.returncode == 2 and "ZeroDivisionError" in proc.stderr, proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr[-2000:]


HELD = [
    "hangs",
    "nan",
    "boolean",
    "huge_list",
    "huge_int",
    "text",
    "pair_of_junk",
    "exits",
    "raises",
    "markup",
]


PROBE = [sys.executable, "-m", "ladderbench", "probe", "--ladders", "rungs.jsonl"]


def test_misbehaving_graders_are_held(workdir: Path) -> None:
    """Each through the command line, a few at a time: exit 1 (HOLD, the errored rungs counted),
    no traceback; the one that hangs is killed by the per-call limit."""
    env = {**os.environ, "COLUMNS": "200"}
    results = {}
    for batch in range(0, len(HELD), 3):
        running = {
            name: subprocess.Popen(
                [*PROBE, "--grade", f"graders:{name}", "--repeats", "1", "--grader-timeout", "1"],
                cwd=workdir,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name in HELD[batch : batch + 3]
        }
        for name, proc in running.items():
            out, err = proc.communicate(timeout=120)
            results[name] = (proc.returncode, out, err)
    for name, (code, out, err) in results.items():
        assert code == 1, (name, code, out[-2000:], err[-2000:])
        assert "HOLD" in out and "3 of 3 rungs errored" in out, (name, out)
        assert "Traceback" not in err, (name, err)
    assert "TimeLimitExceeded" in results["hangs"][1]


def test_a_sound_grader_still_passes(workdir: Path) -> None:
    proc = ladderbench(
        "probe", "--ladders", "rungs.jsonl", "--grade", "graders:fine", cwd=workdir, timeout=60
    )
    assert proc.returncode == 0 and "PASS" in proc.stdout, (proc.stdout, proc.stderr)
