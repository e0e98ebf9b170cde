"""Dated releases of the live suite, kept in one folder (the store).

    DIR/manifest.json                   releases, counts, sha256 of every file
    DIR/<category>/<task>.jsonl         published questions, active and removed
    DIR/private/<category>/<task>.jsonl held back from the latest release; published with the next

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

import hashlib
import hmac
import json
import os
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.jsonl import json_objects, read_text
from ladderbench.live.base import (
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
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
REFRESH_SHARE = Fraction(1, 6)


def check_date(value: str, what: str = "--release") -> str:
    if not DATE.match(value):
        raise UserError(f"{what} {value!r}: expected a date like 2026-12-01")
    return value


def parse_difficulty(text: str | None) -> dict[str, int]:
    """``--difficulty``: ``TASK=D`` pairs separated by commas."""
    chosen: dict[str, int] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        if not value.strip().isdigit():
            raise UserError(f"--difficulty {part.strip()!r}: expected TASK=D with D a whole number")
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
    difficulty: int = 0,
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

    @property
    def latest(self) -> str:
        return self.releases[-1]

    def path(self, task: str, private: bool = False) -> str:
        rel = f"{self.categories[task]}/{task}.jsonl"
        return f"{PRIVATE}/{rel}" if private else rel

    def save(self) -> dict[str, Any]:
        files: dict[str, bytes] = {}
        for task in sorted(self.categories):
            files[self.path(task)] = _file_bytes(self.public.get(task, []))
            if self.private.get(task):
                files[self.path(task, private=True)] = _file_bytes(self.private[task])
        manifest = {
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
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            for stale in self.root.glob(f"{PRIVATE}/*/*.jsonl"):
                if str(stale.relative_to(self.root)) not in files:
                    stale.unlink()
            for name, data in files.items():
                target = self.root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            (self.root / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        except OSError as exc:
            raise UserError(f"cannot write {self.root}: {exc.strerror or exc}") from None
        return manifest

    @classmethod
    def load(cls, root: Path) -> Store:
        """Read and check a store: manifest fields, every file's sha256, every record's fields."""
        path = root / MANIFEST
        if not path.is_file():
            raise UserError(f"{root}: not a live release folder (no {MANIFEST}); run 'live build'")
        try:
            manifest = json.loads(read_text(path))
            store = cls(
                root=root,
                releases=[check_date(r, f"{path}: release") for r in manifest["releases"]],
                per_task=int(manifest["perTask"]),
                private_share=Fraction(manifest["privateFraction"]),
                difficulty={k: int(v) for k, v in manifest.get("difficulty", {}).items()},
                key_check=str(manifest.get("keyCheck", "")),
            )
            hashes = dict(manifest["sha256"])
            counts = dict(manifest["counts"])
        except ValueError as exc:
            raise UserError(f"{path}: not valid JSON ({exc})") from None
        except (KeyError, TypeError) as exc:
            raise UserError(f"{path}: field {exc} missing or malformed") from None
        if not store.releases:
            raise UserError(f"{path}: no releases")
        for task, info in counts.items():
            store.categories[task] = str(info["category"])
        for name, digest in hashes.items():
            file = root / name
            if not file.is_file():
                if name.startswith(f"{PRIVATE}/"):
                    store.private_missing = True  # a published copy: the hold-back stays private
                    continue
                raise UserError(f"{file}: listed in {MANIFEST} but missing")
            data = file.read_bytes()
            if hashlib.sha256(data).hexdigest() != digest:
                raise UserError(f"{file}: sha256 does not match {MANIFEST}; the file was changed")
            records = [obj for _, obj in json_objects(file, data.decode("utf-8"))]
            for lineno, record in enumerate(records, start=1):
                missing = [key for key in RESERVED if key not in record]
                if missing:
                    raise UserError(f"{file}:{lineno}: field {missing[0]!r} missing")
            task = Path(name).stem
            target = store.private if name.startswith(f"{PRIVATE}/") else store.public
            target[task] = records
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
    if (root / MANIFEST).exists():
        raise UserError(
            f"{root} already holds a live store; use 'live refresh' for the next release"
        )
    if per_task < 1:
        raise UserError(f"--per-task {per_task}: must be at least 1")
    known = all_tasks()
    for name in [*(names or []), *(difficulty or {})]:
        if name not in known:
            raise UserError(f"unknown live task {name!r}; known: {', '.join(known)}")
    if not known:
        raise UserError("no live tasks are installed")
    secret = secret_from_env()
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
