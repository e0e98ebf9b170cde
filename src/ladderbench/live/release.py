"""Dated releases of the live suite, kept in one folder (the store).

    DIR/manifest.json                           releases, counts, sha256 of every file
    DIR/<category>/<task>.<release>.jsonl       published questions, active and removed
    DIR/private/<category>/<task>.<release>.jsonl  held back from the latest release; published
                                                with the next

Saving is atomic: each release writes its files under new names (stamped with the release), then
the manifest in one rename, which is the commit point; only then are the files the manifest no
longer names removed. A refresh killed or stopped by a full disk at any moment leaves the old
release or the new one, whole, and loading reads only the files the manifest names. Building and
refreshing hold an exclusive lock on the store (``manifest.json.lock``, naming the holder's PID).

A question is active at release R when it was released on or before R and not removed by R.
``build`` makes the first release; ``refresh`` the next: it publishes the held-back questions,
replaces about one sixth of the active ones (oldest tasks, then the tasks recent results show to
be easiest, first) and marks the replaced ones removed.

Everything unpublished comes from the maintainer's secret (``LADDERBENCH_LIVE_SECRET``): each
question's seed is an HMAC of it, and so is the choice of the hold-back. With the secret the same
inputs give the same bytes; without it nobody can build a question before it is published (the
package holds generators, never an unpublished answer). A published record carries its ``seed``,
``difficulty`` and the digests of its ``material``: no material is served twice in a store, and
no question's prompt quotes another question's answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from ladderbench.errors import UserError
from ladderbench.files import ExclusiveLock, atomic_write
from ladderbench.jsonl import json_objects, read_text
from ladderbench.live.base import (
    CATEGORIES,
    Question,
    Sources,
    Task,
    material_digest,
    question_seed,
    seeded_rng,
)
from ladderbench.live.registry import tasks as all_tasks

MANIFEST = "manifest.json"
PRIVATE = "private"
RESERVED = (
    "question_id",
    "category",
    "task",
    "subtask",
    "prompt",
    "ground_truth",
    "release_date",
    "removal_date",
    "seed",
    "difficulty",
    "material",
)
SECRET_ENV = "LADDERBENCH_LIVE_SECRET"
# An answer at least this long must not appear inside another question's prompt.
LEAK_MIN_CHARS = 24
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
REFRESH_SHARE = Fraction(1, 6)
# Bounds a manifest (or the command line) may not pass: beyond them generation would not end.
MAX_PER_TASK = 10_000
MAX_DIFFICULTY = 1_000
# A file of the store: <category>/<task>[.<release>].jsonl, under private/ when held back.
STORE_FILE = re.compile(
    r"(?:(?P<private>private)/)?(?P<category>[a-z_]+)/(?P<task>[A-Za-z0-9_]+)"
    r"(?:\.[0-9]{4}-[0-9]{2}-[0-9]{2})?\.jsonl"
)
SHA256 = re.compile(r"[0-9a-f]{64}")


def check_date(value: object, what: str = "--release") -> str:
    """A real calendar date written YYYY-MM-DD: 2026-13-45 is refused, not sorted as a date."""
    if isinstance(value, str) and DATE.fullmatch(value):
        with contextlib.suppress(ValueError):
            date.fromisoformat(value)
            return value
    raise UserError(f"{what} {value!r}: expected a date like 2026-12-01")


def parse_difficulty(text: str | None) -> dict[str, int]:
    """``--difficulty``: ``TASK=D`` pairs separated by commas."""
    chosen: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        if not value.strip().isascii() or not value.strip().isdigit():
            raise UserError(f"--difficulty {part.strip()!r}: expected TASK=D with D a whole number")
        if len(value.strip()) > 6 or int(value) > MAX_DIFFICULTY:
            raise UserError(f"--difficulty {part.strip()!r}: at most {MAX_DIFFICULTY}")
        chosen[name.strip()] = int(value)
    return chosen


def parse_fraction(text: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UserError(f"--private-fraction {text!r}: expected a fraction like 1/6") from None
    if not 0 <= value < 1:
        raise UserError(f"--private-fraction {text!r}: must be at least 0 and below 1")
    return value


def secret_from_env() -> str:
    """The maintainer's secret; building or refreshing a release without it is refused."""
    secret = os.environ.get(SECRET_ENV, "")
    if len(secret) < 16:
        raise UserError(
            f"live build and refresh need the maintainer's secret in {SECRET_ENV} (16+ random "
            "characters, kept private): it keeps the hold-back and future releases unguessable"
        )
    return secret


def key_check(secret: str) -> str:
    """A fingerprint that tells the right secret from a wrong one and reveals nothing of it."""
    return hmac.new(secret.encode(), b"ladderbench-live|key-check", hashlib.sha256).hexdigest()[:16]


def make_record(
    task: Task, question: Question, release: str, seed: str, difficulty: int
) -> dict[str, Any]:
    clash = set(RESERVED) & set(question.fields)
    if clash:
        raise ValueError(f"live task {task.name}: fields {sorted(clash)} are reserved")
    blob = json.dumps([task.name, question.subtask, question.prompt, question.ground_truth])
    return {
        "question_id": hashlib.sha256(blob.encode()).hexdigest()[:16],
        "category": task.category,
        "task": task.name,
        "subtask": question.subtask,
        "prompt": question.prompt,
        "ground_truth": question.ground_truth,
        "release_date": release,
        "removal_date": "",
        "seed": seed,
        "difficulty": difficulty,
        "material": sorted({material_digest(text) for text in question.material}),
        **question.fields,
    }


@dataclass
class Served:
    """What a store has already served: question ids, material, prompts and long answers.

    A new question is refused when its id or any of its material was served before, when its
    prompt quotes a served answer, or when its answer is quoted by a served prompt."""

    ids: set[str] = field(default_factory=set)
    material: set[str] = field(default_factory=set)
    prompts: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> Served:
        served = cls()
        for record in records:
            served.add(record)
        return served

    def add(self, record: dict[str, Any]) -> None:
        self.ids.add(record["question_id"])
        self.material.update(record.get("material") or [])
        self.prompts.append(record["prompt"])
        if len(record["ground_truth"]) >= LEAK_MIN_CHARS:
            self.answers.append(record["ground_truth"])

    def admits(self, record: dict[str, Any]) -> bool:
        if record["question_id"] in self.ids or self.material & set(record["material"]):
            return False
        if any(answer in record["prompt"] for answer in self.answers):
            return False
        answer = record["ground_truth"]
        return len(answer) < LEAK_MIN_CHARS or not any(answer in p for p in self.prompts)


def generate_questions(
    task: Task,
    release: str,
    count: int,
    sources: Sources,
    served: Served,
    secret: str,
    difficulty: int,
) -> list[dict[str, Any]]:
    """``count`` new questions that ``served`` admits (indices continue past refused ones)."""
    records: list[dict[str, Any]] = []
    index = 0
    while len(records) < count:
        if index >= count * 4 + 16:
            raise UserError(
                f"live task {task.name}: cannot generate {count} questions that share no "
                "material with earlier ones; run 'ladderbench live fetch' and pass --sources"
            )
        seed = question_seed(secret, release, task.name, index)
        index += 1
        fresh = replace(sources, used=sources.used | served.material)
        question = task.generate(seeded_rng(seed), fresh, difficulty)
        record = make_record(task, question, release, seed, difficulty)
        if served.admits(record):
            served.add(record)
            records.append(record)
    return records


def hold_back(
    records: list[dict[str, Any]], share: Fraction, release: str, task: str, secret: str
) -> set[str]:
    """The ids kept private from this release's new questions: chosen by the secret."""
    k = round(len(records) * share)
    seed = question_seed(secret, release, task, -1)
    return {r["question_id"] for r in seeded_rng(seed).sample(records, k)}


def generator_versions() -> dict[str, str]:
    """Libraries whose data shapes the questions: a release rebuilds byte for byte with these."""
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in ("ladderbench", "faker", "sympy"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


def _file_bytes(records: list[dict[str, Any]]) -> bytes:
    return b"".join(
        (json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n").encode() for r in records
    )


@dataclass
class Store:
    root: Path
    releases: list[str] = field(default_factory=list)
    per_task: int = 50
    private_share: Fraction = Fraction(1, 6)
    public: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # task -> records
    private: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    categories: dict[str, str] = field(default_factory=dict)  # task -> category
    difficulty: dict[str, int] = field(default_factory=dict)  # task -> difficulty of new questions
    key_check: str = ""  # key_check(secret) of the secret that built the store
    private_missing: bool = False  # a published copy: the manifest lists private files it lacks
    where: dict[str, str] = field(default_factory=dict)  # question id -> "file:line" it came from

    @property
    def latest(self) -> str:
        return self.releases[-1]

    def path(self, task: str, private: bool = False) -> str:
        """A task's file in the latest release: new names per release, so a save never
        overwrites a file the committed manifest names."""
        rel = f"{self.categories[task]}/{task}.{self.latest}.jsonl"
        return f"{PRIVATE}/{rel}" if private else rel

    def save(self) -> dict[str, Any]:
        """Write the files, then the manifest (the commit point), then remove what it no
        longer names: interrupted anywhere, the store holds the old release or the new one."""
        files: dict[str, bytes] = {}
        for task in sorted(self.categories):
            files[self.path(task)] = _file_bytes(self.public.get(task, []))
            if self.private.get(task):
                files[self.path(task, private=True)] = _file_bytes(self.private[task])
        manifest = self._manifest(files)
        for name, data in files.items():
            atomic_write(self.root / name, data)
        atomic_write(
            self.root / MANIFEST, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
        )
        for stale in _store_files(self.root):
            if stale.relative_to(self.root).as_posix() not in files:
                with contextlib.suppress(OSError):  # left behind, it is ignored and swept later
                    stale.unlink()
        return manifest

    def _manifest(self, files: dict[str, bytes]) -> dict[str, Any]:
        return {
            "suite": "live",
            "generators": generator_versions(),
            "releases": self.releases,
            "latest": self.latest,
            "perTask": self.per_task,
            "privateFraction": str(self.private_share),
            "difficulty": dict(sorted(self.difficulty.items())),
            "keyCheck": self.key_check,
            "counts": {
                task: {
                    "category": self.categories[task],
                    "active": sum(not r["removal_date"] for r in self.public.get(task, [])),
                    "removed": sum(bool(r["removal_date"]) for r in self.public.get(task, [])),
                    "private": len(self.private.get(task, [])),
                }
                for task in sorted(self.categories)
            },
            "sha256": {
                name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())
            },
        }

    @classmethod
    def load(cls, root: Path) -> Store:
        """Read and check a store: manifest fields, every file's name and sha256, every record's
        fields. Anything malformed is one line naming the file (and line and field)."""
        path = manifest_path(root)
        text = read_text(path)
        manifest = _parse_json(path, text)
        store = _store_of(root, path, manifest)
        hashes = _hashes(path, manifest)
        seen: dict[str, str] = {}
        for name, digest in hashes.items():
            private, task = _file_task(root, path, name, store.categories)
            target = store.private if private else store.public
            if task in target:
                raise UserError(f"{path}: field 'sha256': two files for task {task!r}")
            file = root / name
            if not file.is_file():
                if read_text(path) != text:  # a refresh committed meanwhile: read its release
                    return cls.load(root)
                if private:
                    store.private_missing = True  # a published copy: the hold-back stays private
                    continue
                raise UserError(f"{file}: listed in {MANIFEST} but missing")
            data = _read_bytes(file)
            if hashlib.sha256(data).hexdigest() != digest:
                raise UserError(f"{file}: sha256 does not match {MANIFEST}; the file was changed")
            target[task] = _records(file, data, task, store.categories[task], seen)
        store.where = seen
        return store

    def active(self, release: str) -> list[dict[str, Any]]:
        """Questions live at ``release``: released by then and not yet removed (private too)."""
        chosen = []
        for task in sorted(self.categories):
            for record in self.public.get(task, []) + self.private.get(task, []):
                removed = record["removal_date"]
                if record["release_date"] <= release and (not removed or removed > release):
                    chosen.append(record)
        return chosen


def manifest_path(root: Path) -> Path:
    """``root``'s manifest; a folder without one is not a store."""
    path = root / MANIFEST
    if not path.is_file():
        raise UserError(f"{root}: not a live release folder (no {MANIFEST}); run 'live build'")
    return path


def store_lock(root: Path) -> ExclusiveLock:
    """The lock that makes one process at a time build or refresh ``root``."""
    return ExclusiveLock(root / MANIFEST, f"live store {root}")


def _store_files(root: Path) -> list[Path]:
    """Files in ``root`` a save may have written (release files and leftover temporaries)."""
    found = []
    for category in CATEGORIES:
        for folder in (root / category, root / PRIVATE / category):
            if folder.is_dir() and folder.resolve().is_relative_to(root.resolve()):
                found += [
                    file
                    for file in folder.iterdir()
                    if STORE_FILE.fullmatch(file.relative_to(root).as_posix())
                    or (file.name.startswith(".") and file.name.endswith(".tmp"))
                ]
    return sorted(found)


def _parse_json(path: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc})") from None
    except RecursionError:
        raise UserError(f"{path}: not valid JSON (nested too deeply)") from None


def _read_bytes(file: Path) -> bytes:
    try:
        return file.read_bytes()
    except OSError as exc:
        raise UserError(f"{file}: cannot read ({exc.strerror or exc})") from None


def _field(path: Path, manifest: dict[str, Any], key: str, kind: type) -> Any:
    if key not in manifest:
        raise UserError(f"{path}: field {key!r} missing")
    value = manifest[key]
    if not isinstance(value, kind):  # a list, an object or a string: never a bool
        raise UserError(f"{path}: field {key!r}: expected {_KINDS[kind]}, got {value!r:.40}")
    return value


_KINDS = {list: "a list", dict: "an object", str: "a string", int: "a whole number"}


def _bounded(path: Path, key: str, value: Any, top: int, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= top:
        raise UserError(f"{path}: field {key!r}: expected a whole number {low}..{top}")
    return value


def _store_of(root: Path, path: Path, manifest: Any) -> Store:
    """The store's settings and tasks from its manifest, every field checked."""
    if not isinstance(manifest, dict):
        raise UserError(f"{path}: expected a JSON object")
    releases = [
        check_date(r, f"{path}: field 'releases':")
        for r in _field(path, manifest, "releases", list)
    ]
    if not releases:
        raise UserError(f"{path}: no releases")
    if releases != sorted(set(releases)):
        raise UserError(f"{path}: field 'releases': not in order, or a date twice")
    share = _field(path, manifest, "privateFraction", str)
    try:
        private_share = Fraction(share)
    except (ValueError, ZeroDivisionError):
        private_share = Fraction(-1)
    if not 0 <= private_share < 1:
        raise UserError(f"{path}: field 'privateFraction': expected a fraction like 1/6, below 1")
    difficulty = manifest.get("difficulty", {})
    if not isinstance(difficulty, dict):
        raise UserError(f"{path}: field 'difficulty': expected an object")
    store = Store(
        root=root,
        releases=releases,
        per_task=_bounded(path, "perTask", manifest.get("perTask"), MAX_PER_TASK, low=1),
        private_share=private_share,
        difficulty={
            str(k): _bounded(path, f"difficulty.{k}", v, MAX_DIFFICULTY)
            for k, v in difficulty.items()
        },
        key_check=str(manifest.get("keyCheck", "")),
    )
    for task, info in _field(path, manifest, "counts", dict).items():
        category = info.get("category") if isinstance(info, dict) else None
        if category not in CATEGORIES:
            raise UserError(f"{path}: field 'counts.{task}.category': expected one of {CATEGORIES}")
        store.categories[task] = category
    return store


def _hashes(path: Path, manifest: dict[str, Any]) -> dict[str, str]:
    hashes = _field(path, manifest, "sha256", dict)
    for name, digest in hashes.items():
        if not isinstance(digest, str) or not SHA256.fullmatch(digest):
            raise UserError(f"{path}: field 'sha256.{name}': expected a sha256 in hex")
    return hashes


def _file_task(root: Path, path: Path, name: str, categories: dict[str, str]) -> tuple[bool, str]:
    """(held back, task) of a file the manifest names; a name that could reach outside the
    store (absolute, ``..``, a link out) or fits no task of the manifest is refused."""
    pure = PurePosixPath(name)
    if pure.is_absolute() or ".." in pure.parts:
        raise UserError(f"{path}: file {name!r} is outside the store; refusing to read it")
    match = STORE_FILE.fullmatch(name)
    if match is None:
        raise UserError(f"{path}: file {name!r}: expected CATEGORY/TASK.RELEASE.jsonl")
    if not (root / name).resolve().is_relative_to(root.resolve()):
        raise UserError(f"{path}: file {name!r} links outside the store; refusing to read it")
    task = match["task"]
    if categories.get(task) != match["category"]:
        raise UserError(
            f"{path}: file {name!r}: task {task!r} is not in 'counts' under {match['category']!r}"
        )
    return match["private"] is not None, task


_TYPES: dict[str, tuple[type, ...]] = {
    "question_id": (str,),
    "category": (str,),
    "task": (str,),
    "subtask": (str, type(None)),
    "prompt": (str,),
    "ground_truth": (str,),
    "seed": (str,),
    "difficulty": (int, type(None)),
    "material": (list,),
}


def _records(
    file: Path, data: bytes, task: str, category: str, seen: dict[str, str]
) -> list[dict[str, Any]]:
    """A task file's records, each field checked; ``seen`` maps every id read so far to where."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{file}: not UTF-8 text ({exc.reason})") from None
    records = []
    for lineno, record in json_objects(file, text):
        where = f"{file}:{lineno}"
        _check_record(where, record, task, category)
        if record["question_id"] in seen:
            raise UserError(f"{where}: question_id {record['question_id']!r} appears twice")
        seen[record["question_id"]] = where
        records.append(record)
    return records


def _check_record(where: str, record: dict[str, Any], task: str, category: str) -> None:
    for key in RESERVED:
        if key not in record:
            raise UserError(f"{where}: field {key!r} missing")
        kinds = _TYPES.get(key)
        if kinds and (not isinstance(record[key], kinds) or isinstance(record[key], bool)):
            raise UserError(f"{where}: field {key!r}: expected {_KINDS[kinds[0]]}")
    if not all(isinstance(digest, str) for digest in record["material"]):
        raise UserError(f"{where}: field 'material': expected a list of strings")
    check_date(record["release_date"], f"{where}: field 'release_date':")
    if record["removal_date"] != "":
        check_date(record["removal_date"], f"{where}: field 'removal_date':")
    if record["task"] != task:
        raise UserError(f"{where}: field 'task': {record['task']!r} in the file of {task!r}")
    if record["category"] != category:
        raise UserError(
            f"{where}: field 'category': {record['category']!r}, the task's is {category!r}"
        )


def build(
    root: Path,
    release: str,
    sources: Sources,
    per_task: int = 50,
    private_share: Fraction = Fraction(1, 6),
    names: list[str] | None = None,
    difficulty: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The first release of a store (``difficulty``: per task, else ``RELEASE_DIFFICULTY``)."""
    check_date(release)
    if not 1 <= per_task <= MAX_PER_TASK:
        raise UserError(f"--per-task {per_task}: must be 1..{MAX_PER_TASK}")
    known = all_tasks()
    for name in [*(names or []), *(difficulty or {})]:
        if name not in known:
            raise UserError(f"unknown live task {name!r}; known: {', '.join(known)}")
    if not known:
        raise UserError("no live tasks are installed")
    secret = secret_from_env()
    _refuse_existing(root)
    with store_lock(root):
        _refuse_existing(root)  # again, now that no other build can be writing it
        store = Store(root, [release], per_task, private_share, key_check=key_check(secret))
        served = Served()
        for name, task in known.items():
            if names and name not in names:
                continue
            store.categories[name] = task.category
            store.difficulty[name] = _difficulty_of(name, difficulty)
            records = generate_questions(
                task, release, per_task, sources, served, secret, store.difficulty[name]
            )
            held = hold_back(records, private_share, release, name, secret)
            store.public[name] = [r for r in records if r["question_id"] not in held]
            store.private[name] = [r for r in records if r["question_id"] in held]
        return store.save()


def _refuse_existing(root: Path) -> None:
    if (root / MANIFEST).exists():
        raise UserError(
            f"{root} already holds a live store; use 'live refresh' for the next release"
        )


def _difficulty_of(task: str, chosen: Mapping[str, int] | None) -> int:
    from ladderbench.live.difficulty import RELEASE_DIFFICULTY

    value = (chosen or {}).get(task, RELEASE_DIFFICULTY.get(task, 0))
    if value < 0:
        raise UserError(f"--difficulty {task}={value}: must be at least 0")
    return value


def task_ease(results: list[Any]) -> dict[str, float]:
    """Mean score per task in recent results (higher is easier)."""
    scores: dict[str, list[float]] = defaultdict(list)
    for row in results:
        if row.task and row.error is None and row.score is not None:
            scores[row.task].append(row.score)
    return {task: sum(v) / len(v) for task, v in scores.items()}


def refresh(
    root: Path,
    release: str,
    sources: Sources,
    results: list[Any],
    difficulty: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The next release: publish the hold-back, replace about a sixth of the active questions
    (at the store's difficulty per task unless ``difficulty`` names another)."""
    check_date(release)
    manifest_path(root)  # before the lock, which would make the folder
    with store_lock(root):
        return _refresh(root, release, sources, results, difficulty)


def _refresh(
    root: Path,
    release: str,
    sources: Sources,
    results: list[Any],
    difficulty: Mapping[str, int] | None,
) -> dict[str, Any]:
    store = Store.load(root)
    if release <= store.latest:
        raise UserError(f"--release {release}: must be after the latest release {store.latest}")
    known = all_tasks()
    for name in difficulty or {}:
        if name not in store.categories:
            raise UserError(f"--difficulty: live task {name!r} is not in {root}")
    secret = secret_from_env()
    if store.key_check and key_check(secret) != store.key_check:
        raise UserError(f"{SECRET_ENV} is not the secret {root} was built with")
    store.key_check = key_check(secret)
    if store.private_missing:
        raise UserError(
            f"{root}: the private hold-back is missing (a published copy); "
            "refresh needs the maintainer's store"
        )
    served = Served.of(
        [r for records in [*store.public.values(), *store.private.values()] for r in records]
    )
    for task, records in store.private.items():
        store.public.setdefault(task, []).extend(records)
    store.private = {}
    active = {
        task: [r for r in store.public.get(task, []) if not r["removal_date"]]
        for task in store.categories
    }
    budget = round(sum(len(v) for v in active.values()) * REFRESH_SHARE)
    ease = task_ease(results)

    def age_then_ease(task: str) -> tuple[str, float, str]:
        oldest = min((r["release_date"] for r in active[task]), default=release)
        return (oldest, -ease.get(task, 0.0), task)

    replaced = 0
    for task in sorted(store.categories, key=age_then_ease):
        if replaced >= budget:
            break
        if task not in known:
            continue
        for record in active[task]:
            record["removal_date"] = release
        replaced += len(active[task])
        store.difficulty[task] = (difficulty or {}).get(task, store.difficulty.get(task, 0))
        records = generate_questions(
            known[task], release, store.per_task, sources, served, secret, store.difficulty[task]
        )
        held = hold_back(records, store.private_share, release, task, secret)
        store.public[task].extend(r for r in records if r["question_id"] not in held)
        store.private[task] = [r for r in records if r["question_id"] in held]
    store.releases.append(release)
    manifest = store.save()
    manifest["replaced"] = replaced
    return manifest
