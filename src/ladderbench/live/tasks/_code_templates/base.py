"""What a coding problem template is, and the input helpers the templates share.

A template is one parameterised problem: its category, its description and reference solution
(``string.Template`` texts filled with constants drawn per release), a drawer for those
constants and one for its test inputs. The function's name and signature are not repeated: they
are read from the reference's first line (``def name(...) -> ...:``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Args = list[Any]
Cases = tuple[list[Args], list[Args]]  # (typical inputs, edge-case inputs)
Category = Literal["strings", "arrays", "maps", "intervals", "simulation", "algorithms"]

_DEF_LINE = re.compile(r"def (\w+)\(.*\).*:")


@dataclass(frozen=True)
class Template:
    """One parameterised problem. ``description`` and ``reference`` are string.Template texts
    filled with the drawn constants ($name); the reference's first line is its signature."""

    category: Category
    description: str
    reference: str
    constants: Callable[[random.Random], dict[str, Any]] = field(repr=False)
    cases: Callable[[random.Random, dict[str, Any]], Cases] = field(repr=False)

    def __post_init__(self) -> None:
        if not _DEF_LINE.fullmatch(self.signature) or "$" in self.signature:
            raise ValueError(f"reference must start with a plain def line: {self.signature!r}")

    @property
    def signature(self) -> str:
        """The reference's def line, as the prompt shows it."""
        return self.reference.split("\n", 1)[0]

    @property
    def entry(self) -> str:
        """The function's name: what the tests call."""
        found = _DEF_LINE.fullmatch(self.signature)
        assert found is not None  # checked in __post_init__
        return found.group(1)

    @property
    def key(self) -> str:
        """The template's name (its function's name)."""
        return self.entry


VOCABULARY: tuple[str, ...] = (
    "apple", "river", "stone", "quiet", "lantern", "meadow", "copper", "violet", "harbor",
    "pepper", "glacier", "ember", "falcon", "orbit", "tunnel", "saddle", "thunder", "kettle",
    "marble", "window", "cactus", "velvet", "island", "rocket", "bridge", "cobalt", "maple",
    "oyster", "puzzle", "silver", "sunset", "walnut", "zephyr", "anchor", "banjo", "cinder",
    "dragon", "eagle", "fossil", "garnet", "hollow", "indigo", "jigsaw", "koala", "lemon",
    "mosaic", "nectar", "onion", "parrot", "quartz", "raven", "sphinx", "tulip", "umbra",
    "vortex", "wizard", "yonder", "zinc", "ax", "by", "ok", "go", "it", "up", "art", "sky",
)  # fmt: skip
ITEMS: tuple[str, ...] = (
    "bolt", "cable", "drill", "fuse", "gear", "hinge", "lens", "nail", "pump", "rope",
    "screw", "valve", "wire", "clamp", "spring",
)  # fmt: skip


# ---------------------------------------------------------------- helpers for inputs


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 22nd..."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def cased(rng: random.Random, word: str) -> str:
    r = rng.random()
    if r < 0.45:
        return word
    if r < 0.7:
        return word.capitalize()
    if r < 0.8:
        return word.upper()
    return "".join(c.upper() if rng.random() < 0.4 else c for c in word)


def sentence(rng: random.Random, words: int, marks: tuple[str, ...]) -> str:
    out = ""
    for i in range(words):
        if i:
            out += rng.choice(marks)
        out += cased(rng, rng.choice(VOCABULARY))
    return out


def letter_runs(rng: random.Random, alphabet: str, runs: int, longest: int) -> str:
    out, last = [], ""
    for _ in range(runs):
        letter = rng.choice([c for c in alphabet if c != last] or alphabet)
        out.append(letter * rng.randint(1, longest))
        last = letter
    return "".join(out)


def ints(rng: random.Random, n: int, low: int, high: int) -> list[int]:
    return [rng.randint(low, high) for _ in range(n)]
