"""The passages language and instruction-following tasks work on.

Fresh outside material comes first: the ``*.txt`` files of ``--sources`` (written by ``ladderbench
live fetch``), split into paragraphs at blank lines and drawn newest file first. The project's own
corpus (``live/data/corpus.jsonl``: original paragraphs written for LadderBench, one JSON object per
line with ``id``, ``topic`` and ``text``) is only the fallback: it ships with the package, so its
passages are public. Either way a passage an earlier question drew on (``Sources.used``) is never
drawn again, and a task out of fresh passages stops with a one-line ``UserError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib import resources

from ladderbench.errors import UserError
from ladderbench.live.base import Sources

MIN_WORDS = 40
# With --sources a question draws among this many of the newest fresh paragraphs (at least).
NEWEST_WINDOW = 16


@lru_cache(maxsize=1)
def default_corpus() -> tuple[str, ...]:
    path = resources.files("ladderbench.live") / "data" / "corpus.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(json.loads(line)["text"] for line in lines if line.strip())


def _paragraphs(text: str) -> list[str]:
    """The paragraphs of a source file (blocks between blank lines) long enough to use."""
    found = []
    for block in text.split("\n\n"):
        paragraph = " ".join(block.split())
        if len(paragraph.split()) >= MIN_WORDS:
            found.append(paragraph)
    return found


def _no_paragraph(sources: Sources) -> UserError:
    return UserError(
        f"--sources: no paragraph of {MIN_WORDS}+ words in {', '.join(sorted(sources.texts))}"
    )


def passages(sources: Sources) -> tuple[str, ...]:
    """Paragraphs to draw from, in a fixed order: the sources' when given, else the corpus."""
    if not sources.texts:
        return default_corpus()
    found = [p for name in sorted(sources.texts) for p in _paragraphs(sources.texts[name])]
    if not found:
        raise _no_paragraph(sources)
    return tuple(found)


def fresh_passages(
    sources: Sources, task: str, least: int = 1, usable: Callable[[str], bool] | None = None
) -> list[str]:
    """Unused passages to draw from, in draw order.

    With ``--sources``: the newest ``NEWEST_WINDOW`` (or ``least``, if more) fresh paragraphs,
    newest file first, so that a release serves its newest material first. Without sources, or
    once every source paragraph is used: every fresh corpus passage (with nothing used yet that is
    the whole corpus, as version 1 drew from). Only passages ``usable`` accepts count, when
    given. A ``UserError`` when fewer than ``least`` are left.
    """

    def keep(texts: Iterable[str]) -> list[str]:
        return [t for t in sources.fresh(texts) if usable is None or usable(t)]

    if sources.texts:
        ordered = [
            p
            for name in sources.newest_first(sources.texts)
            for p in _paragraphs(sources.texts[name])
        ]
        if not ordered:
            raise _no_paragraph(sources)
        found = keep(dict.fromkeys(ordered))  # a paragraph in two files counts once
        if len(found) >= least:
            return found[: max(NEWEST_WINDOW, least)]
    found = keep(default_corpus())
    if len(found) < least:
        pool = "--sources and the packaged corpus" if sources.texts else "the packaged corpus"
        raise UserError(
            f"live task {task}: fewer than {least} unused usable passages left in {pool}; run "
            "'ladderbench live fetch' and pass --sources (or lower --per-task)"
        )
    return found
