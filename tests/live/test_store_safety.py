"""A live store survives its writers: a full disk or a kill at any point of a refresh (or a
build) leaves the old release or the new one, whole; one writer at a time; no manifest name
reaches outside the store."""

import builtins
import contextlib
import errno
import io
import json
import os
import random
import shutil
import signal
import time

import pytest
from test_release import toy_tasks  # noqa: F401 (a fixture)

from ladderbench.errors import UserError
from ladderbench.files import ExclusiveLock
from ladderbench.live.base import Sources
from ladderbench.live.release import MANIFEST, Store, build, refresh
from ladderbench.live.suite import LiveSuite

OLD, NEW = "2026-12-01", "2027-01-01"


def contents(root):
    """What a reader of the store sees: releases and every record, public and private."""
    store = Store.load(root)
    return store.releases, store.public, store.private


class Disk:
    """Every file opened for writing (the lock file aside) and every rename or removal is an
    event; at event ``stop_at`` the disk fills (half a write lands, then ENOSPC) or the process
    is killed. Patches open itself, so it holds for any way the store is written."""

    def __init__(self, stop_at=0, kill=False):
        self.events = 0
        self.stop_at = stop_at
        self.kill = kill

    def event(self):
        self.events += 1
        if self.events == self.stop_at and self.kill:
            os.kill(os.getpid(), signal.SIGKILL)
        return self.events == self.stop_at

    def patch(self, monkeypatch):
        real_open, real_replace, real_unlink = builtins.open, os.replace, os.unlink
        disk = self

        class Filling:
            def __init__(self, handle):
                self.handle = handle

            def write(self, data):
                self.handle.write(data[: len(data) // 2])
                self.handle.flush()
                if disk.kill:
                    os.kill(os.getpid(), signal.SIGKILL)
                raise OSError(errno.ENOSPC, "No space left on device")

            def __getattr__(self, name):
                return getattr(self.handle, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.handle.close()

        def opening(file, mode="r", *args, **kwargs):
            handle = real_open(file, mode, *args, **kwargs)
            writing = any(flag in mode for flag in "wax+")
            if writing and not str(file).endswith(".lock") and disk.event():
                return Filling(handle)
            return handle

        def replacing(src, dst, *args, **kwargs):
            disk.event()
            return real_replace(src, dst, *args, **kwargs)

        def unlinking(path, *args, **kwargs):
            if not str(path).endswith(".lock"):
                disk.event()
            return real_unlink(path, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", opening)
        monkeypatch.setattr(io, "open", opening)
        monkeypatch.setattr(os, "replace", replacing)
        monkeypatch.setattr(os, "unlink", unlinking)


@pytest.fixture
def stores(tmp_path, toy_tasks):  # noqa: F811
    """A built store (``old``) and, from a copy, its refresh (``new``); and the events of it."""
    old = tmp_path / "old"
    build(old, OLD, Sources.empty(), per_task=6)
    new = tmp_path / "new"
    shutil.copytree(old, new)
    with pytest.MonkeyPatch.context() as patch:
        counting = Disk()
        counting.patch(patch)
        refresh(new, NEW, Sources.empty(), [])
    assert counting.events >= 5  # files, manifest and removals: each a point to fail at
    return old, new, counting.events


def test_a_full_disk_at_any_write_of_a_refresh_leaves_the_old_store(tmp_path, stores):
    old, new, events = stores
    for k in range(1, events + 1):
        store = tmp_path / f"k{k}"
        shutil.copytree(old, store)
        with pytest.MonkeyPatch.context() as patch:
            Disk(stop_at=k).patch(patch)
            with contextlib.suppress(UserError):  # a failure after the commit is not raised
                refresh(store, NEW, Sources.empty(), [])
        assert contents(store) in (contents(old), contents(new)), f"disk full at event {k}"
        if contents(store) == contents(old):  # the retry makes the very same release
            refresh(store, NEW, Sources.empty(), [])
        assert contents(store) == contents(new)


def test_a_kill_at_any_point_of_a_refresh_leaves_the_old_or_the_new_store(tmp_path, stores):
    old, new, events = stores
    outcomes = set()
    for k in range(1, events + 2):
        store = tmp_path / f"k{k}"
        shutil.copytree(old, store)
        pid = os.fork()
        if pid == 0:  # the child refreshes and is killed at event k (or finishes)
            try:
                with pytest.MonkeyPatch.context() as patch:
                    Disk(stop_at=k, kill=True).patch(patch)
                    refresh(store, NEW, Sources.empty(), [])
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        seen = contents(store)
        assert seen in (contents(old), contents(new)), f"killed at event {k}"
        outcomes.add((seen == contents(new), os.WIFSIGNALED(status)))
        assert len(LiveSuite(store).records) > 0
    assert outcomes >= {(False, True), (True, True), (True, False)}


def test_a_kill_at_a_random_moment_of_a_refresh(tmp_path, toy_tasks):  # noqa: F811
    old = tmp_path / "old"
    build(old, OLD, Sources.empty(), per_task=60)
    new = tmp_path / "new"
    shutil.copytree(old, new)
    started = time.monotonic()
    refresh(new, NEW, Sources.empty(), [])
    took = time.monotonic() - started
    rng = random.Random(16)
    for attempt in range(8):
        store = tmp_path / f"a{attempt}"
        shutil.copytree(old, store)
        pid = os.fork()
        if pid == 0:
            try:
                refresh(store, NEW, Sources.empty(), [])
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, took * 1.2))
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        assert contents(store) in (contents(old), contents(new)), f"attempt {attempt}"


def test_a_build_stopped_midway_leaves_no_store_and_builds_again(tmp_path, toy_tasks):  # noqa: F811
    whole = tmp_path / "whole"
    with pytest.MonkeyPatch.context() as patch:
        counting = Disk()
        counting.patch(patch)
        build(whole, OLD, Sources.empty(), per_task=6)
    stopped = 0
    for k in range(1, counting.events + 1):
        store = tmp_path / f"k{k}"
        try:
            with pytest.MonkeyPatch.context() as patch:
                Disk(stop_at=k).patch(patch)
                build(store, OLD, Sources.empty(), per_task=6)
        except UserError as exc:
            assert "No space left" in str(exc)
            stopped += 1
            with pytest.raises(UserError, match="not a live release folder"):
                Store.load(store)
            build(store, OLD, Sources.empty(), per_task=6)  # into the folder it left
        assert contents(store) == contents(whole), f"disk full at event {k}"
    assert stopped >= 5  # at each of the four files and the manifest


def test_files_the_manifest_does_not_name_are_ignored_and_swept(tmp_path, toy_tasks):  # noqa: F811
    build(tmp_path, OLD, Sources.empty(), per_task=6)
    stray = tmp_path / "math" / f"toy_add.{NEW}.jsonl"
    stray.write_text('{"half": "a file from a refresh that was killed"\n')
    Store.load(tmp_path)
    refresh(tmp_path, NEW, Sources.empty(), [])
    names = set(json.loads((tmp_path / MANIFEST).read_text())["sha256"])
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.jsonl")}
    assert on_disk == names and all(NEW in name for name in names)


def test_a_store_of_the_earlier_layout_refreshes_into_the_new_one(tmp_path, toy_tasks):  # noqa: F811
    """Stores written before release-stamped names (CATEGORY/TASK.jsonl) load and refresh."""
    build(tmp_path, OLD, Sources.empty(), per_task=6)
    before = contents(tmp_path)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    for name in list(manifest["sha256"]):
        unstamped = name.replace(f".{OLD}", "")
        (tmp_path / name).rename(tmp_path / unstamped)
        manifest["sha256"][unstamped] = manifest["sha256"].pop(name)
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    assert contents(tmp_path) == before
    refresh(tmp_path, NEW, Sources.empty(), [])
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.jsonl")}
    assert on_disk == set(json.loads((tmp_path / MANIFEST).read_text())["sha256"])


def test_the_sweep_never_follows_a_folder_out_of_the_store(tmp_path, toy_tasks):  # noqa: F811
    root = tmp_path / "store"
    build(root, OLD, Sources.empty(), per_task=6)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    keep = outside / f"toy_add.{OLD}.jsonl"
    keep.write_text("not the store's\n")
    (root / "coding").symlink_to(outside, target_is_directory=True)
    refresh(root, NEW, Sources.empty(), [])
    assert keep.read_text() == "not the store's\n"


def test_one_refresh_at_a_time(tmp_path, toy_tasks):  # noqa: F811
    build(tmp_path, OLD, Sources.empty(), per_task=6)
    before = contents(tmp_path)
    with ExclusiveLock(tmp_path / MANIFEST, "another refresh"):  # as a second process holds it
        with pytest.raises(UserError, match=rf"in use .*PID {os.getpid()}\)") as caught:
            refresh(tmp_path, NEW, Sources.empty(), [])
        assert "\n" not in str(caught.value)
    assert contents(tmp_path) == before
    fresh = tmp_path / "fresh"
    with ExclusiveLock(fresh / MANIFEST, "another build"), pytest.raises(UserError, match="in use"):
        build(fresh, OLD, Sources.empty(), per_task=6)
    assert not (fresh / MANIFEST).exists()
    refresh(tmp_path, NEW, Sources.empty(), [])  # released: the next refresh goes ahead
    assert not (tmp_path / f"{MANIFEST}.lock").exists()


def test_two_refreshes_in_two_processes(tmp_path, toy_tasks):  # noqa: F811
    build(tmp_path, OLD, Sources.empty(), per_task=6)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # holds the store's lock until told to go on (or the test ends)
        try:
            os.close(go_w)
            with ExclusiveLock(tmp_path / MANIFEST, f"live store {tmp_path}"):
                os.write(ready_w, b"x")
                os.read(go_r, 1)
        finally:
            os._exit(0)
    try:
        os.read(ready_r, 1)
        with pytest.raises(
            UserError, match=rf"in use by another ladderbench process \(PID {pid}\)"
        ):
            refresh(tmp_path, NEW, Sources.empty(), [])
    finally:
        os.close(go_w)
        os.waitpid(pid, 0)
    assert refresh(tmp_path, NEW, Sources.empty(), [])["latest"] == NEW


def _named(root, task):
    """The file the manifest names for ``task`` (public)."""
    names = json.loads((root / MANIFEST).read_text())["sha256"]
    return next(n for n in names if f"/{task}." in n and not n.startswith("private/"))


def _rename_file(root, edit):
    manifest = json.loads((root / MANIFEST).read_text())
    manifest["sha256"] = {edit(name): digest for name, digest in manifest["sha256"].items()}
    (root / MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    "target, message",
    [
        ("../../etc/hostname", "outside the store"),
        ("/etc/hostname", "outside the store"),
        ("math/../../../etc/hostname", "outside the store"),
        ("LINK", "links outside the store"),
    ],
)
def test_a_manifest_naming_a_file_outside_the_store_is_refused(
    tmp_path,
    toy_tasks,  # noqa: F811
    target,
    message,
):
    root = tmp_path / "store"
    build(root, OLD, Sources.empty(), per_task=4)
    outside = tmp_path / "secret.jsonl"
    name = _named(root, "toy_add")
    outside.write_bytes((root / name).read_bytes())
    if target == "LINK":
        (root / name).unlink()
        (root / name).symlink_to(outside)
        target = name
    _rename_file(root, lambda n: target if n == name else n)
    with pytest.raises(UserError, match=message) as caught:
        Store.load(root)
    assert "\n" not in str(caught.value)


def test_an_impossible_date_is_refused_wherever_a_release_is_taken(tmp_path, toy_tasks):  # noqa: F811
    with pytest.raises(UserError, match="'2026-13-45': expected a date"):
        build(tmp_path, "2026-13-45", Sources.empty(), per_task=4)
    build(tmp_path, OLD, Sources.empty(), per_task=4)
    with pytest.raises(UserError, match="'2027-02-30': expected a date"):
        refresh(tmp_path, "2027-02-30", Sources.empty(), [])
    with pytest.raises(UserError, match="--release '2026-12-32': expected a date"):
        LiveSuite(tmp_path, release="2026-12-32")
    assert contents(tmp_path)[0] == [OLD]


def test_a_reader_that_raced_a_refresh_reads_the_new_release(tmp_path, stores, monkeypatch):
    """A run read the manifest just before a refresh committed and removed the old files."""
    import ladderbench.live.release as release

    old, new, _ = stores
    expected = contents(new)
    stale = [(old / MANIFEST).read_text()]
    real = release.read_text
    monkeypatch.setattr(release, "read_text", lambda p: stale.pop() if stale else real(p))
    assert contents(new) == expected and not stale


# ---------------------------------------------------------------- exports replace files whole


def _prompts(folder):
    from ladderbench.cli import export_prompts

    out = folder / "prompts.jsonl"
    return out, lambda: export_prompts(out, suite="static", levels="1", limit=1)


def _suite(folder):
    from ladderbench.puzzles.export import export_suite, render
    from ladderbench.puzzles.suite import PuzzleSuite

    suite = PuzzleSuite(tiers=[1], seeds=[1, 2])
    return folder / min(render(suite)), lambda: export_suite(suite, folder)


def _standalone(folder):
    from ladderbench.static.standalone import export_standalone

    return folder / "run_ladderbench.py", lambda: export_standalone(folder)


def _provenance(folder):
    from ladderbench.live.fetch import PROVENANCE
    from ladderbench.live.fetch import Store as Fetched

    def save():
        fetched = Fetched(folder, "2026-12-01T00:00:00Z")
        fetched.provenance["a.txt"] = {"file": "a.txt", "published": "2026-11-30"}
        fetched.save_provenance()

    return folder / PROVENANCE, save


@pytest.mark.parametrize("export", [_prompts, _suite, _standalone, _provenance])
def test_an_export_stopped_by_a_full_disk_keeps_the_file_it_replaces(tmp_path, export):
    target, write = export(tmp_path)
    write()
    earlier = b'{"file": "the earlier export"}\n'
    target.write_bytes(earlier)
    with pytest.MonkeyPatch.context() as patch:
        Disk(stop_at=1).patch(patch)
        with pytest.raises(UserError, match="No space left on device") as caught:
            write()
    assert "\n" not in str(caught.value)
    assert target.read_bytes() == earlier
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # nothing aside
