"""Issue #19: the operating system, not the audit hook, keeps model-written code away from the
user's files, as root and as an unprivileged user, with the hook and without it.

The corpus lives in sandbox_escapes.py. As root it runs in this process (the worker drops to
``nobody``); the unprivileged run is a child process of an unprivileged user (``nobody``, through
``runuser``, when the tests run as root; this user otherwise) whose home holds the canary.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import sandbox_escapes
from sandbox_escapes import make_targets, run_corpus

from ladderbench.execution import sandbox

ROOT = os.geteuid() == 0
ISO = sandbox.isolation()
HELPER = Path(sandbox_escapes.__file__)
SRC = Path(sandbox.__file__).parents[2]


def _as_nobody(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["runuser", "-u", "nobody", "--", "env", "-i", "PATH=/usr/bin:/bin", *command],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _unprivileged_python() -> str:
    """An interpreter nobody can run (ours may live under /root), or skip saying why."""
    if shutil.which("runuser") is None:
        pytest.skip("no runuser to run the corpus as an unprivileged user")
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' to run the corpus as")
    if _as_nobody(["unshare", "--user", "--map-root-user", "true"]).returncode != 0:
        pytest.skip("this machine allows no user namespaces to an unprivileged user")
    for python in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        if python and _as_nobody([python, "-c", "import dataclasses"]).returncode == 0:
            return python
    pytest.skip("no Python interpreter that the user nobody may run")


@pytest.fixture
def scratch() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="sandbox-boundary-"))
    os.chmod(base, 0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _unprivileged_corpus(base: Path, kind: str) -> dict:
    if not ROOT:  # we are the unprivileged user
        with sandbox.unsafe_allowed(not ISO.sealed):
            return run_corpus(make_targets(base), kind)
    python = _unprivileged_python()
    entry = pwd.getpwnam("nobody")
    targets = make_targets(base, (entry.pw_uid, entry.pw_gid))
    spec = {key: str(getattr(targets, key)) for key in ("home", "outside", "results", "token")}
    done = _as_nobody(
        [
            f"HOME={targets.home}",
            f"PYTHONPATH={SRC}",
            python,
            str(HELPER),
            json.dumps(spec | {"kind": kind}),
        ]
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    # Checked again from here: the canary file and the .bashrc as they were, nothing outside.
    assert (targets.home / ".bashrc").read_text() == "# the user's\n"
    assert not list(targets.outside.iterdir())
    return report


@pytest.mark.skipif(not ISO.sealed, reason=f"no sealed root here: {ISO.note}")
@pytest.mark.parametrize("kind", ["files", pytest.param("limits", marks=pytest.mark.slow)])
@pytest.mark.parametrize("user", ["root", "unprivileged"])
def test_escape_corpus_is_contained(user: str, kind: str, scratch: Path) -> None:
    if user == "root":
        if not ROOT:
            pytest.skip("the tests do not run as root")
        report = run_corpus(make_targets(scratch), kind)
    else:
        report = _unprivileged_corpus(scratch, kind)
    print(f"{user}: {report['mechanism']}")
    assert report["sealed"], report["mechanism"]
    assert report["problems"] == [], report
    assert report["runs"] == 2 * len(
        (sandbox_escapes.file_attacks if kind == "files" else sandbox_escapes.limit_attacks)(
            make_targets(Path(tempfile.mkdtemp(dir=scratch)))
        )
    )


def test_the_sealed_root_shows_only_what_the_interpreter_needs() -> None:
    """Without the hook the code lists its root: the work directory, /proc, /dev and the
    folders the interpreter's files lie in; no /home, /tmp or /etc."""
    if not ISO.sealed:
        pytest.skip(f"no sealed root here: {ISO.note}")
    code = "import os\ndef f():\n    return sorted(os.listdir('/')), sorted(os.listdir('/dev'))\n"
    run = sandbox.run_function(code, "f", [[]], limits=sandbox_escapes.FAST, audit_hook=False)
    top, devices = run.outcomes[0].value
    tops = {path.split("/")[1] for path in ISO.sealed_binds}
    assert set(top) == tops | {"dev", "proc", "work"}, top
    assert not {"home", "tmp", "etc"} & set(top)
    assert set(devices) <= {"null", "zero", "random", "urandom"}


def test_ldd_listing_gives_the_loader_and_the_library_folders() -> None:
    listing = (
        "\tlinux-vdso.so.1 (0x00007ffd)\n"
        "\tlibpython3.11.so.1.0 => /opt/py/lib/libpython3.11.so.1.0 (0x00007f01)\n"
        "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f02)\n"
        "\t/lib64/ld-linux-x86-64.so.2 (0x00007f03)\n"
    )
    assert sandbox._ldd_paths(listing) == {
        "/opt/py/lib",
        "/lib/x86_64-linux-gnu",
        "/lib64/ld-linux-x86-64.so.2",
    }


def test_fstab_paths_are_escaped() -> None:
    assert sandbox._fstab_path("/tmp/a b\tc\\d#e") == "/tmp/a\\040b\\011c\\134d\\043e"
