"""Caesar: decrypt a short sentence whose letters were shifted by a stated amount.

The shift and its direction are given, so decryption is mechanical and the answer is unique: the
model has to shift each letter back, wrapping around the alphabet, for every letter of a 5-7
word sentence. Tier 2 needs reliable letter arithmetic over 25-45 letters, which small models
tend to lose track of; the sentence is built from common words on a simple grammatical pattern,
so a model that decodes most letters can use the language to check itself.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class CaesarConfig:
    """Difficulty parameters of one tier."""

    min_shift: int
    max_shift: int
    patterns: tuple[tuple[str, ...], ...]  # sentence shapes, as parts of speech


TIERS: dict[int, CaesarConfig] = {
    2: CaesarConfig(
        min_shift=1,
        max_shift=25,
        patterns=(
            ("det", "adj", "noun", "verb", "det", "noun"),
            ("det", "noun", "verb", "det", "adj", "noun"),
            ("det", "adj", "noun", "verb", "det", "adj", "noun"),
            ("det", "noun", "verb", "det", "noun"),
        ),
    ),
}


def _sorted_words(text: str) -> tuple[str, ...]:
    return tuple(sorted(text.split()))


# Built-in vocabulary, upper case and sorted; a sentence takes one word per part of speech.
VOCABULARY: dict[str, tuple[str, ...]] = {
    "det": _sorted_words("HER HIS MY OUR THAT THE THIS YOUR"),
    "adj": _sorted_words(
        "BIG BLUE BRAVE BUSY CLEAN COLD DARK FAST GOOD GREEN HAPPY HOT KIND LITTLE LONG "
        "LOUD NEW OLD QUIET RED SMALL SOFT TALL WARM WHITE YOUNG"
    ),
    "noun": _sorted_words(
        "APPLE BABY BIRD BOAT BOOK BOX CAKE CAR CAT CHILD DOG DOOR FARMER FISH FRIEND "
        "GARDEN GIRL HORSE HOUSE LETTER MOUSE RIVER ROAD SHIP SONG TABLE TEACHER TRAIN "
        "TREE WINDOW"
    ),
    "verb": _sorted_words(
        "BRINGS BUILDS CARRIES FINDS FOLLOWS HELPS HOLDS KNOWS LIKES LOVES MAKES MOVES "
        "OPENS PAINTS PULLS PUSHES SEES SELLS TAKES WANTS WATCHES"
    ),
}

PROMPT = """The sentence below was encrypted with a Caesar cipher: every letter was shifted \
{direction} by {shift} places in the alphabet, wrapping around between Z and A (so this shift \
turns A into {a_becomes} and Z into {z_becomes}). Spaces were left unchanged.

Encrypted: {ciphertext}

Decrypt it. Write the original sentence in upper case, with single spaces between the words, \
inside <answer></answer> tags, for example: <answer>THE CAT SAT ON THE MAT</answer>"""

DIRECTIONS = {1: "forward (towards Z)", -1: "backward (towards A)"}


def shift_text(text: str, offset: int) -> str:
    """Shift every upper-case letter by ``offset`` places, wrapping; other characters stay."""
    alphabet = string.ascii_uppercase
    table = str.maketrans(alphabet, alphabet[offset % 26 :] + alphabet[: offset % 26])
    return text.translate(table)


@register
class CaesarFamily(Family):
    """Decrypt a Caesar-shifted sentence, the shift and direction given."""

    name = "caesar"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: CaesarConfig) -> Puzzle:
        pattern = rng.choice(cfg.patterns)
        sentence = " ".join(rng.choice(VOCABULARY[part]) for part in pattern)
        shift = rng.randint(cfg.min_shift, cfg.max_shift)
        sign = rng.choice(sorted(DIRECTIONS))
        prompt = PROMPT.format(
            direction=DIRECTIONS[sign],
            shift=shift,
            a_becomes=shift_text("A", sign * shift),
            z_becomes=shift_text("Z", sign * shift),
            ciphertext=shift_text(sentence, sign * shift),
        )
        return Puzzle(prompt, sentence)

    def normalise(self, text: str) -> str | None:
        words = re.findall(r"[A-Z]+", text.upper())
        return " ".join(words) or None
