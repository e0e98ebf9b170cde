"""Each built-in grader's verdict on its shipped ladder, computed once per grader version.

Probing every grader on every report render cost seconds (importing every task, scipy for the
audit), for an answer that changes only when a grader or its ladder does. So a verdict is cached
under a key that hashes both: the ladder file's bytes, and the source of every ladderbench module
that the probe and the built-in graders import, followed transitively (lazy imports and package
data included). The registries import all their families and tasks, so a per-grader closure would
span the whole part anyway; one fingerprint for every grader is as tight, and cannot go stale.

The cache is one small JSON file per key in ``$LADDERBENCH_PROBE_CACHE`` (a folder) or
``~/.cache/ladderbench/probe``; one that cannot be read or written is skipped, never an error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

State = Literal["pass", "hold", "no ladder"]

PACKAGE = Path(__file__).resolve().parent.parent  # src/ladderbench
ROOTS = ("ladderbench.probe", "ladderbench.probe.verdicts")
_MODULE = re.compile(rb"\bladderbench(?:\.\w+)*")
_FROM_IMPORT = re.compile(rb"from\s+(ladderbench(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n]*)")
_NAME = re.compile(rb"(\w+)(?:\s+as\s+\w+)?")


@dataclass(frozen=True)
class ProbeVerdict:
    grader: str
    state: State
    detail: str


def default_cache_dir() -> Path:
    """``$LADDERBENCH_PROBE_CACHE`` or ``~/.cache/ladderbench/probe``."""
    env = os.environ.get("LADDERBENCH_PROBE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "ladderbench" / "probe"


def _module_files(dotted: str) -> list[Path]:
    """The files that importing ``dotted`` runs: each package's ``__init__``, then the module."""
    files: list[Path] = []
    folder = PACKAGE
    for part in dotted.split(".")[1:]:
        if (folder / part / "__init__.py").is_file():
            folder = folder / part
            files.append(folder / "__init__.py")
        elif (folder / part).with_suffix(".py").is_file():
            files.append((folder / part).with_suffix(".py"))
            break
        else:
            break  # an attribute (ladderbench.mod.name), not a module
    return files


def _references(source: bytes) -> set[str]:
    """Every ladderbench module a source names: imports anywhere in it, and dotted strings."""
    names = {m.decode() for m in _MODULE.findall(source)}
    for module, imported in _FROM_IMPORT.findall(source):
        listed = re.sub(rb"#[^\n]*", b"", imported)
        names.update(f"{module.decode()}.{n.decode()}" for n in _NAME.findall(listed))
    return names


@functools.cache
def source_fingerprint(roots: tuple[str, ...] = ROOTS) -> str:
    """sha256 of the source (and package data) of ``roots`` and all they import, transitively."""
    seen: set[Path] = {PACKAGE / "__init__.py"}
    todo = [f for root in roots for f in _module_files(root)]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _references(path.read_bytes()):
            todo.extend(_module_files(name))
    data = {f for p in seen if p.name == "__init__.py" for f in (p.parent / "data").rglob("*")}
    digest = hashlib.sha256()
    for path in sorted(seen | {f for f in data if f.is_file()}):
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def ladder_path(grader: str) -> Path:
    return Path(str(resources.files("ladderbench.probe") / "ladders")) / f"{grader}.jsonl"


def cache_key(grader: str, ladder: Path) -> str:
    blob = b"\0".join([grader.encode(), source_fingerprint().encode(), ladder.read_bytes()])
    return hashlib.sha256(blob).hexdigest()


def probe_builtin(grader: str, ladder: Path) -> ProbeVerdict:
    """Probe one built-in grader on its shipped ladder (the slow path)."""
    from ladderbench.probe import audit, builtin_graders, gate, load_rungs, probe

    known = builtin_graders()
    if grader not in known:
        return ProbeVerdict(grader, "no ladder", "not probed")
    rungs, _ = load_rungs(ladder)
    ledger = probe(rungs, known[grader], repeats=1, name=grader)
    report = audit(ledger)
    result = gate(ledger, report)
    return ProbeVerdict(
        grader,
        "pass" if result.passed else "hold",
        f"{len(report.cases)} cases, inversion rate {100 * result.inversion_rate:.1f}%",
    )


def _load(path: Path) -> ProbeVerdict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        verdict = ProbeVerdict(str(data["grader"]), data["state"], str(data["detail"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return verdict if verdict.state in get_args(State) else None


def _store(path: Path, verdict: ProbeVerdict) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(asdict(verdict)), encoding="utf-8")
        os.replace(tmp, path)  # readers see the whole file or none
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def shipped_verdicts(graders: Iterable[str], cache: Path | None = None) -> list[ProbeVerdict]:
    """The verdict of each named grader on its shipped ladder, from the cache where it can be."""
    folder = cache or default_cache_dir()
    verdicts = []
    for grader in sorted(set(graders)):
        ladder = ladder_path(grader)
        if not ladder.is_file():
            verdicts.append(ProbeVerdict(grader, "no ladder", "not probed"))
            continue
        stored = folder / f"{cache_key(grader, ladder)}.json"
        verdict = _load(stored)
        if verdict is None or verdict.grader != grader:
            verdict = probe_builtin(grader, ladder)
            _store(stored, verdict)
        verdicts.append(verdict)
    return verdicts
