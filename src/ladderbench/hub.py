"""A suite as a Hugging Face dataset folder: ``datasets.load_dataset(DIR)`` reads it as it is.

``suite export --format hf`` writes ``data/test.jsonl`` (one row per item, in the suite's order,
with a ``rung`` column) and a ``README.md`` dataset card whose YAML front matter declares the
config, the features and the split size, so no loading script is needed. The card also carries
the licence, the suite version, the sha256 of the data file and of the export's manifest, how
the rows were made and how to score a model with ladderbench. The live suite exports only its
published questions: a release's private hold-back never leaves ``private/``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ladderbench.errors import UserError
from ladderbench.files import atomic_write
from ladderbench.items import Item
from ladderbench.runner.provenance import package_version, questions_digest

DATA_FILE = "data/test.jsonl"
CARD = "README.md"
MANIFEST = "manifest.json"
LICENSE = "cc-by-4.0"

# Each row's columns, as ``datasets`` features: (name, dtype); "list" is a list of strings.
FEATURES: tuple[tuple[str, str], ...] = (
    ("id", "string"),
    ("rung", "string"),
    ("prompt", "string"),
    ("expected", "string"),
    ("reference", "string"),
    ("choices", "list"),
    ("level", "int64"),
    ("tier", "int64"),
    ("difficulty", "int64"),
    ("family", "string"),
    ("category", "string"),
    ("task", "string"),
    ("seed", "int64"),
)


@dataclass(frozen=True)
class Export:
    """What a suite contributes to its card besides the rows."""

    suite: str
    version: str
    rung: str  # what the ``rung`` column holds, in words
    made: str  # how the rows were made
    selection: dict[str, Any]
    source: dict[str, str] = field(default_factory=dict)  # what the rows came from, by hash
    flags: str = ""  # the ``ladderbench run`` options that ask the same items


def rung_of(item: Item) -> str:
    """The rung an item is summarised by: ``L3`` (level), ``T2`` (tier), ``d5`` (a difficulty
    off the tier table) or the live task."""
    if item.level is not None:
        return f"L{item.level}"
    if item.tier is not None:
        return f"T{item.tier}"
    if item.difficulty is not None and item.family is not None:
        return f"d{item.difficulty}"
    return item.task or ""


def item_row(item: Item) -> dict[str, Any]:
    """One dataset row: the item's public fields (its scorer's ``record`` stays out)."""
    row = {name: getattr(item, name, None) for name, _ in FEATURES if name != "rung"}
    row["choices"] = list(item.choices)
    row["rung"] = rung_of(item)
    return {name: row[name] for name, _ in FEATURES}


def render_rows(items: list[Item]) -> bytes:
    return b"".join(
        (json.dumps(item_row(item), ensure_ascii=False, sort_keys=False) + "\n").encode()
        for item in items
    )


def _yaml(value: Any, indent: int = 0) -> list[str]:
    """Block YAML for the card's front matter (dicts, lists and scalars; strings JSON-quoted,
    which YAML reads as double-quoted scalars)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, dict | list) and inner:
                lines.append(f"{pad}{key}:")
                lines.extend(_yaml(inner, indent + 2))
            else:
                lines.append(f"{pad}{key}: {_scalar(inner)}")
    else:
        for inner in value:
            block = _yaml(inner, indent + 2) if isinstance(inner, dict | list) else []
            if block:
                lines.append(f"{pad}- {block[0].lstrip()}")
                lines.extend(block[1:])
            else:
                lines.append(f"{pad}- {_scalar(inner)}")
    return lines


def _scalar(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return json.dumps(value, ensure_ascii=True)


def _feature(name: str, dtype: str) -> dict[str, Any]:
    return {"name": name, "list": "string"} if dtype == "list" else {"name": name, "dtype": dtype}


def front_matter(export: Export, rows: int, data: bytes) -> dict[str, Any]:
    return {
        "license": LICENSE,
        "pretty_name": f"LadderBench {export.suite} suite",
        "language": ["en"],
        "task_categories": ["question-answering", "text-generation"],
        "tags": ["ladderbench", "evaluation", "benchmark", export.suite],
        "size_categories": [_size_category(rows)],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": "test", "path": DATA_FILE}],
            }
        ],
        "dataset_info": {
            "features": [_feature(name, dtype) for name, dtype in FEATURES],
            "splits": [{"name": "test", "num_bytes": len(data), "num_examples": rows}],
        },
    }


def _size_category(rows: int) -> str:
    for bound, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if rows < bound:
            return label
    return "100K<n<1M"


PROMPT_NOTE = (
    "`prompt` is the exact text ladderbench sends as the user message (a `--system-prompt`, when "
    "given, goes before it as a system message); nothing else is added, so a model answering "
    "elsewhere sees what a ladderbench run shows it."
)


def card(export: Export, manifest: dict[str, Any], manifest_sha: str, matter: str) -> str:
    """The dataset card: front matter, then what a user of the data needs to know."""
    columns = "\n".join(
        f"| `{name}` | {'list of string' if dtype == 'list' else dtype} |"
        for name, dtype in FEATURES
    )
    selection = ", ".join(
        f"{k} {', '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in export.selection.items()
        if v is not None
    )
    sources = "".join(f"\n- {key}: `{value}`" for key, value in export.source.items())
    return f"""---
{matter}
---

# LadderBench {export.suite} suite (version {export.version})

Written by `ladderbench suite export --format hf` (ladderbench {manifest["ladderbench"]}).
Load it with `datasets.load_dataset("PATH")`: one `test` split, {manifest["rows"]} rows, one per
item, in the order a ladderbench run asks them; `rung` is {export.rung}.

- Licence: the questions are released under CC-BY-4.0.
- Suite version: {export.version}; selection: {selection or "everything"}.{sources}
- `{DATA_FILE}` sha256: `{manifest["sha256"][DATA_FILE]}`
- `{MANIFEST}` sha256: `{manifest_sha}` (suite, version, selection, counts per rung, the
  questions digest `{manifest["questionsSha256"]}` a results file records as `questionsSha256`)

## How the rows were made

{export.made}

## Columns

| column | type |
|---|---|
{columns}

`expected` is the gold answer the scorer compares with; `reference` is that answer written the
way a model should reply (what ladderbench's `oracle` model answers). Columns that do not apply
to this suite are null.

## Prompt

{PROMPT_NOTE}

## Scoring with ladderbench

Scores count only when computed by ladderbench's scorer for this suite (answer extraction,
normalisation, partial credit): run the suite itself,

```
ladderbench run --suite {export.suite}{export.flags} --model openai:NAME --base-url URL
```

or, for replies produced elsewhere, write them as `{{"id", "prompt", "reply"}}` lines, serve them
with `python -m ladderbench.testing.replay` and run `--model openai:NAME` against it.
"""


def export_hub(items: list[Item], export: Export, directory: Path) -> dict[str, Any]:
    """Write the dataset folder (every file atomically); its manifest comes back."""
    if not items:
        raise UserError(f"--suite {export.suite}: nothing to export in this selection")
    data = render_rows(items)
    counts: dict[str, int] = {}
    for item in items:
        counts[rung_of(item)] = counts.get(rung_of(item), 0) + 1
    manifest = {
        "format": "hf",
        "suite": export.suite,
        "version": export.version,
        "selection": export.selection,
        "ladderbench": package_version(),
        "license": LICENSE,
        "rows": len(items),
        "counts": counts,
        "questionsSha256": questions_digest(items),
        **export.source,
        "sha256": {DATA_FILE: hashlib.sha256(data).hexdigest()},
    }
    manifest_bytes = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    manifest_sha = hashlib.sha256(manifest_bytes).hexdigest()
    matter = "\n".join(_yaml(front_matter(export, len(items), data)))
    atomic_write(directory / DATA_FILE, data)
    atomic_write(directory / MANIFEST, manifest_bytes)
    atomic_write(directory / CARD, card(export, manifest, manifest_sha, matter).encode())
    return manifest


def describe(suite: Any) -> tuple[list[Item], Export]:
    """The items a suite publishes and its card's facts; the live suite's hold-back left out."""
    from ladderbench.live.suite import LiveSuite
    from ladderbench.puzzles.suite import PuzzleSuite
    from ladderbench.static.suite import StaticSuite

    if isinstance(suite, StaticSuite):
        return suite.items(), _static(suite)
    if isinstance(suite, PuzzleSuite):
        return suite.items(), _puzzles(suite)
    if isinstance(suite, LiveSuite):
        return _live(suite)
    raise UserError(f"--suite {suite.name}: no Hugging Face export for this suite")


def _flags(**options: Any) -> str:
    """`` --name value`` for each option given (lists comma-separated)."""
    given = {k: v for k, v in options.items() if v not in (None, "", [])}
    return "".join(
        f" --{k.replace('_', '-')} {','.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in given.items()
    )


def _static(suite: Any) -> Export:
    from ladderbench.static.loader import default_data_dir
    from ladderbench.static.suite import PROMPT_TEMPLATE

    shipped = suite.data_dir is None or Path(suite.data_dir) == default_data_dir()
    return Export(
        suite="static",
        version=package_version() if shipped else f"user data {suite.data_dir}",
        rung="the level, `L1` (easy) to `L5` (expert)",
        made=(
            "Original four-choice questions written for LadderBench, 30 per level, each "
            "rendered with the one prompt template of the static ladder (`expected` is the "
            "correct letter, `choices` the four options):\n\n```\n"
            f"{PROMPT_TEMPLATE}\n```"
        ),
        selection={"levels": suite.levels, "limit": suite.limit},
        flags=_flags(levels=suite.levels, limit=suite.limit, data=suite.data_dir),
    )


def _puzzles(suite: Any) -> Export:
    from ladderbench.puzzles import registry
    from ladderbench.ranges import format_ranges

    if suite.secret_key:
        raise UserError(
            "secret seed sets are never exported: unset LADDERBENCH_SECRET to export public seeds"
        )
    if suite.adaptive:
        raise UserError("--adaptive picks its items as it runs: export a grid (--difficulties)")
    all_families = sorted(suite.names) == sorted(registry.families())
    return Export(
        suite="puzzles",
        version=suite.version,
        rung="the tier, `T0` to `T6` (or `dN`, difficulty N, for a grid off the tier table)",
        made=(
            "Each row is one puzzle instance, a pure function of (suite version, family, tier or "
            "difficulty, seed): `ladderbench suite export --suite puzzles` with the same "
            "selection regenerates it byte for byte, and `ladderbench suite verify` checks a "
            "copy in the files format. The family's generator writes the prompt, which states "
            "the answer format (`<answer>...</answer>`); `expected` is the answer its "
            "independent solver found."
        ),
        flags=_flags(
            suite_version=suite.version,
            seeds=format_ranges(suite.seeds),
            tiers=format_ranges(sorted({c.tier for c in suite.cells if c.tier is not None})),
            families=None if all_families else ",".join(suite.names),
            difficulties=format_ranges(suite.difficulties) if suite.difficulties else None,
            limit=suite.limit,
        ),
        selection={
            "seeds": format_ranges(suite.seeds),
            "tiers": sorted({c.tier for c in suite.cells if c.tier is not None}) or None,
            "families": suite.names,
            "difficulties": format_ranges(suite.difficulties) if suite.difficulties else None,
        },
    )


def _live(suite: Any) -> tuple[list[Item], Export]:
    from ladderbench.live.release import MANIFEST as STORE_MANIFEST
    from ladderbench.live.release import Store

    store = Store.load(suite.root)
    published = {r["question_id"] for records in store.public.values() for r in records}
    items = [item for item in suite.items() if item.id in published]
    store_sha = hashlib.sha256((suite.root / STORE_MANIFEST).read_bytes()).hexdigest()
    export = Export(
        suite="live",
        version=suite.release,
        rung="the live task (its category is in `category`)",
        made=(
            f"The published questions active at release {suite.release} of a live store "
            "(`ladderbench live build` / `live refresh`): each generated from the release's "
            "material and a seed only the maintainer's secret gives, and scored against ground "
            "truth (`expected`) with no judge model. The release's private hold-back is not in "
            "this dataset; it is published with the next release."
        ),
        selection={"release": suite.release, "tasks": sorted({i.task for i in items if i.task})},
        source={"storeManifestSha256": store_sha},
        flags=f" --live-dir STORE --release {suite.release}",
    )
    return items, export
