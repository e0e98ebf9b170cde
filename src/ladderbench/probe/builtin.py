"""Registers every built-in grader: the static ladder's, each puzzle family's, each live task's.

Importing this module fills ``GRADERS``; the registry imports it on first use.
"""

from __future__ import annotations

from ladderbench.grading.choice import score_choice
from ladderbench.grading.scorer import Scorer
from ladderbench.items import Item, Verdict
from ladderbench.live.registry import tasks
from ladderbench.probe.graders import GRADERS, Grader
from ladderbench.puzzles.registry import families
from ladderbench.puzzles.suite import score_puzzle


def _puzzle_scorer(family: str) -> Scorer:
    def score(item: Item, response: str) -> Verdict:
        return score_puzzle(item.model_copy(update={"family": family}), response)

    return score


GRADERS.add("static.choice", Grader("static.choice", score_choice))
for _name in sorted(families()):
    GRADERS.add(f"puzzles.{_name}", Grader(f"puzzles.{_name}", _puzzle_scorer(_name)))
for _name, _task in tasks().items():
    GRADERS.add(f"live.{_name}", Grader(f"live.{_name}", _task.scorer()))
