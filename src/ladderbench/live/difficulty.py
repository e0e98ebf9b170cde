"""The difficulty each live task's new questions get in a release, placed by calibration.

0 is the v1 mix of each task's subtasks. The values are chosen so that a frontier model answering
without tools scores under 70% overall (evidence: ``calibration/live/``); ``live build`` and
``live refresh`` take ``--difficulty TASK=D`` to override one task.
"""

from __future__ import annotations

RELEASE_DIFFICULTY: dict[str, int] = {}
