"""The difficulty each live task's new questions get in a release, placed by calibration.

0 is the v1 mix of each task's subtasks. These are the report release's values
(``calibration/live/README.md``): the highest difficulties tried whose ground truth stayed
unambiguous to frontier readers and whose prompts stay under about 50,000 characters (typos and
plot_unscrambling as far as the packaged corpus allows three questions; connections where
readers stopped finding second groupings). They do not hold the frontier reader under 70%: it
scores 96.6% at them; the calibration README says why. ``live build`` and ``live refresh`` take
``--difficulty TASK=D`` to override a task.
"""

from __future__ import annotations

RELEASE_DIFFICULTY: dict[str, int] = {
    "amps_hard": 20,
    "code_completion": 12,
    "code_generation": 12,
    "column_type": 40,
    "competition": 20,
    "connections": 16,
    "instruction_following": 32,
    "navigation": 30,
    "plot_unscrambling": 8,
    "proof_fill": 48,
    "spatial": 40,
    "table_join": 40,
    "table_reformat": 40,
    "typos": 28,
    "web_of_lies": 28,
    "zebra": 20,
}
