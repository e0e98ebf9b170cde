"""The contract every puzzle family implements, and the hash-derived seeding they all share."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Puzzle:
    """One generated instance: the full prompt a model sees and its single canonical answer."""

    prompt: str
    answer: str


def instance_rng(version: str, family: str, rung: int | str, seed: int) -> random.Random:
    """The only source of randomness for an instance: a hash of (suite version, family, rung, seed).

    ``rung`` is the v1 tier (an int) or, from v2 on, the difficulty written ``d<d>``. Hashing (not
    ``seed + index``) keeps neighbouring seeds unrelated and the stream identical on every machine
    and Python version.
    """
    key = f"ladderbench-puzzles|{version}|{family}|{rung}|{seed}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(key).digest(), "big"))


class Family:
    """A puzzle generator. Subclass, set ``name`` and ``tiers`` and implement the three methods.

    A config is a frozen dataclass of difficulty parameters. ``difficulty(d)`` gives the config
    at the open-ended difficulty ``d = 0, 1, 2, ...`` (suite v2 on); ``tiers`` maps each v1 tier
    this family has to its config (frozen: v1 regenerates byte for byte). ``generate`` builds one
    instance of a config and must draw every random choice from ``rng`` only.
    ``normalise`` turns a model's extracted answer text into the canonical form (or None when it
    cannot be read); an answer passes when ``matches(normalise(extracted), puzzle.answer)``.
    """

    name: ClassVar[str]
    tiers: ClassVar[dict[int, Any]]

    def generate(self, rng: random.Random, cfg: Any) -> Puzzle:
        raise NotImplementedError

    def difficulty(self, d: int) -> Any:
        """The config at difficulty ``d`` (every ``d >= 0`` is valid; harder as ``d`` grows)."""
        raise NotImplementedError

    def config(self, tier: int) -> Any:
        """The difficulty parameters of ``tier``; a tier this family lacks is a ValueError."""
        if tier not in self.tiers:
            raise ValueError(f"{self.name} has no tier {tier}; tiers: {sorted(self.tiers)}")
        return self.tiers[tier]

    def normalise(self, text: str) -> str | None:
        raise NotImplementedError

    def matches(self, reading: str, answer: str) -> bool:
        """Whether a normalised reading is the answer: equal, unless the family's prompt accepts
        more than one form (the text family: any letter case where case does not matter)."""
        return reading == answer

    def check(self, puzzle: Puzzle, extracted: str | None) -> bool:
        """The extracted answer, normalised, matches; nothing extracted never passes."""
        if extracted is None:
            return False
        reading = self.normalise(extracted)
        return reading is not None and self.matches(reading, puzzle.answer)
