"""The passages language and instruction-following tasks work on.

Without ``--sources`` they come from the project's own corpus (``live/data/corpus.jsonl``: original
paragraphs written for LadderBench, one JSON object per line with ``id``, ``topic`` and
``text``); with it, from the ``*.txt`` files given, split into paragraphs at blank lines.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ladderbench.live.base import Sources

MIN_WORDS = 40


@lru_cache(maxsize=1)
def default_corpus() -> tuple[str, ...]:
    path = resources.files("ladderbench.live") / "data" / "corpus.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(json.loads(line)["text"] for line in lines if line.strip())


def passages(sources: Sources) -> tuple[str, ...]:
    """Paragraphs to draw from, in a fixed order: the sources' when given, else the corpus."""
    if not sources.texts:
        return default_corpus()
    found = []
    for name in sorted(sources.texts):
        for block in sources.texts[name].split("\n\n"):
            paragraph = " ".join(block.split())
            if len(paragraph.split()) >= MIN_WORDS:
                found.append(paragraph)
    if not found:
        from ladderbench.errors import UserError

        raise UserError(
            f"--sources: no paragraph of {MIN_WORDS}+ words in {', '.join(sorted(sources.texts))}"
        )
    return tuple(found)
