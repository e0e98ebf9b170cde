"""Publish a puzzle suite as files, and prove a published copy regenerates byte for byte.

``export`` writes one JSONL per family (one instance per line, in tier then seed order) and a
``manifest.json`` with the suite version, seed set, counts and the sha256 of every file.
``verify`` regenerates from the manifest alone and compares bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.files import atomic_write
from ladderbench.puzzles.suite import PuzzleSuite
from ladderbench.ranges import format_ranges, parse_ranges

MANIFEST = "manifest.json"


def render(suite: PuzzleSuite) -> dict[str, bytes]:
    """File name -> exact bytes of the published suite."""
    lines: dict[str, list[str]] = {}
    for inst in suite.instances():
        record = {
            "id": inst.id,
            "family": inst.family,
            "tier": inst.tier,
            "seed": inst.seed,
            "prompt": inst.puzzle.prompt,
            "answer": inst.puzzle.answer,
        }
        if inst.cell.difficulty is not None:
            record["difficulty"] = inst.cell.difficulty
        lines.setdefault(f"{inst.family}.jsonl", []).append(
            json.dumps(record, ensure_ascii=False, sort_keys=True)
        )
    return {name: ("\n".join(rows) + "\n").encode() for name, rows in sorted(lines.items())}


def manifest_for(suite: PuzzleSuite, files: dict[str, bytes]) -> dict[str, Any]:
    grid = {} if suite.difficulties is None else {"difficulties": format_ranges(suite.difficulties)}
    return {
        **grid,
        "suite": "puzzles",
        "version": suite.version,
        "seeds": format_ranges(suite.seeds),
        "tiers": sorted({cell.tier for cell in suite.cells if cell.tier is not None}),
        "families": sorted({cell.family for cell in suite.cells}),
        "counts": {name: data.count(b"\n") for name, data in files.items()},
        "total": sum(data.count(b"\n") for data in files.values()),
        "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
    }


def export_suite(suite: PuzzleSuite, directory: Path) -> dict[str, Any]:
    if suite.secret_key:
        raise UserError("secret seed sets are never exported; drop --secret-key")
    files = render(suite)
    manifest = manifest_for(suite, files)
    for name, data in files.items():  # each whole or not at all; the manifest last
        atomic_write(directory / name, data)
    atomic_write(
        directory / MANIFEST, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    )
    return manifest


@dataclass
class Verification:
    manifest: dict[str, Any]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _first_difference(name: str, published: bytes, fresh: bytes) -> str:
    for lineno, (a, b) in enumerate(zip(published.splitlines(), fresh.splitlines()), start=1):
        if a != b:
            return f"{name}:{lineno}: instance differs from its regeneration"
    published_lines, fresh_lines = published.count(b"\n"), fresh.count(b"\n")
    return f"{name}: {published_lines} lines published, {fresh_lines} regenerated"


def verify_suite(directory: Path) -> Verification:
    """Regenerate what the manifest describes and compare every file byte for byte."""
    path = directory / MANIFEST
    try:
        manifest = json.loads(path.read_text())
        seeds = parse_ranges(str(manifest["seeds"]), f"{path}: field 'seeds'")
        suite = PuzzleSuite(
            tiers=None if "difficulties" in manifest else manifest["tiers"],
            seeds=seeds,
            names=manifest["families"],
            version=str(manifest["version"]),
            difficulties=(
                parse_ranges(str(manifest["difficulties"]), f"{path}: field 'difficulties'")
                if "difficulties" in manifest
                else None
            ),
        )
        expected_sha = dict(manifest["sha256"])
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise UserError(f"{path}: not valid JSON ({exc})") from None
    except (KeyError, TypeError) as exc:
        raise UserError(f"{path}: field {exc} missing or malformed") from None
    fresh = render(suite)
    problems = []
    for name in sorted(set(fresh) | set(expected_sha)):
        if name not in expected_sha:
            problems.append(f"{name}: regenerated but not in the manifest")
            continue
        published_path = directory / name
        if not published_path.is_file():
            problems.append(f"{name}: listed in the manifest but missing")
            continue
        published = published_path.read_bytes()
        if hashlib.sha256(published).hexdigest() != expected_sha[name]:
            problems.append(f"{name}: sha256 does not match the manifest (file changed)")
        elif name not in fresh or published != fresh[name]:
            problems.append(_first_difference(name, published, fresh.get(name, b"")))
    return Verification(manifest, problems)
