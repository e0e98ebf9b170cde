"""Caesar: decrypt a short sentence whose letters were shifted by a stated amount.

The shift and its direction are given, so decryption is mechanical and the answer is unique: the
model has to shift each letter back, wrapping around the alphabet, for every letter of a 5-7
word sentence. Tier 2 needs reliable letter arithmetic over 25-45 letters, which small models
tend to lose track of; the sentence is built from common words on a simple grammatical pattern,
so a model that decodes most letters can use the language to check itself.

Open-ended difficulty (suite v2, ``difficulty(d)``), sentences of ``clauses`` clauses joined by
AND (5-7 words each):

* d = 0: one clause, shifted by a stated 1-3 places; d = 1: any stated shift (v1's tier 2);
  d = 2: two clauses, so twice the letters to shift without a slip.
* d = 3, 4: the shift is not given (between 1 and 25, forward). The prompt lists the vocabulary
  and says exactly one shift turns every word into a listed word, which the generator checks by
  trying all 25: the model must search for the shift before it decrypts 2, then 3, clauses.
* d >= 5, with k = d - 4: a Vigenere cipher whose keys are stated: 1 + k // 4 keys applied in
  turn, of lengths 2 + k, 3 + k, ... (consecutive lengths, so together they repeat only after
  their product and cannot be folded into one short key), over 3 + k // 2 clauses. Every letter
  then needs its own shift, the sum of one letter of every key, tracked by letter position
  across the spaces: d = 5 is one key of 3 letters over 3 clauses, d = 8 two keys of 6 and 7
  letters over 5 clauses, d = 12 three keys of 10-12 letters over 7 clauses, d = 20 five keys of
  18-22 letters over 11 clauses. Decryption with stated keys is deterministic: the answer is
  unique and re-derivable.

v2 prompts show the answer format as ``<answer>...</answer>``, which the normaliser reads as
nothing.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

PATTERNS: tuple[tuple[str, ...], ...] = (
    ("det", "adj", "noun", "verb", "det", "noun"),
    ("det", "noun", "verb", "det", "adj", "noun"),
    ("det", "adj", "noun", "verb", "det", "adj", "noun"),
    ("det", "noun", "verb", "det", "noun"),
)
MODES = ("shift", "search", "vigenere")


@dataclass(frozen=True)
class CaesarConfig:
    """Difficulty parameters of one v1 tier or v2 difficulty; the v2 fields default to v1's.

    ``mode``: "shift" states the shift (v1), "search" hides it and lists the vocabulary,
    "vigenere" states ``key_lengths``-long keys applied in turn (shift fields unused).
    """

    min_shift: int
    max_shift: int
    patterns: tuple[tuple[str, ...], ...]  # clause shapes, as parts of speech
    clauses: int = 1  # clauses joined by AND
    mode: str = "shift"
    key_lengths: tuple[int, ...] = ()  # vigenere only
    v2_format: bool = False  # "<answer>...</answer>" as the format example


TIERS: dict[int, CaesarConfig] = {
    2: CaesarConfig(min_shift=1, max_shift=25, patterns=PATTERNS),
}


def difficulty(d: int) -> CaesarConfig:
    """The config at difficulty ``d``: see the module docstring for what each step adds."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d <= 2:
        return CaesarConfig(1, 3 if d == 0 else 25, PATTERNS, clauses=max(d, 1), v2_format=True)
    if d <= 4:
        return CaesarConfig(1, 25, PATTERNS, clauses=d - 1, mode="search", v2_format=True)
    k = d - 4
    lengths = tuple(2 + k + i for i in range(1 + k // 4))
    return CaesarConfig(
        1, 25, PATTERNS, clauses=3 + k // 2, mode="vigenere", key_lengths=lengths, v2_format=True
    )


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

JOINER = "AND"  # joins clauses; not in VOCABULARY, so v1 sentences never contain it
SEARCH_WORDS: tuple[str, ...] = tuple(
    sorted({JOINER, *(word for words in VOCABULARY.values() for word in words)})
)

PROMPT = """The sentence below was encrypted with a Caesar cipher: every letter was shifted \
{direction} by {shift} places in the alphabet, wrapping around between Z and A (so this shift \
turns A into {a_becomes} and Z into {z_becomes}). Spaces were left unchanged.

Encrypted: {ciphertext}

Decrypt it. Write the original sentence in upper case, with single spaces between the words, \
inside <answer></answer> tags, for example: <answer>THE CAT SAT ON THE MAT</answer>"""

FORMAT_V1 = "for example: <answer>THE CAT SAT ON THE MAT</answer>"
# v2: the format in words and a placeholder that reads as nothing (``normalise("...")`` is None).
FORMAT_V2 = "in place of the dots: <answer>...</answer>"
PLACEHOLDER = "..."

ANSWER_RULE = """Decrypt it. Write the original sentence in upper case, with single spaces \
between the words, inside <answer></answer> tags, """

PROMPT_SEARCH = """The sentence below was encrypted with a Caesar cipher: every letter was \
shifted forward (towards Z) by the same number of places in the alphabet, wrapping around from Z \
to A. Spaces were left unchanged. The number of places is not given: it is between 1 and 25, and \
exactly one choice turns every encrypted word back into a word of this list:
{vocabulary}

Encrypted: {ciphertext}

"""

PROMPT_VIGENERE = """The sentence below was encrypted with a Vigenere cipher. A key letter \
shifts a letter forward (towards Z) by its place in the alphabet counting from A = 0 (B = 1, \
C = 2, ..., Z = 25), wrapping around from Z to A. The key is written under the letters of the \
sentence again and again: the first letter of the sentence is shifted by the first key letter, \
the second letter by the second key letter, and so on, starting the key over after its last \
letter. Spaces were left unchanged and do not use up a key letter.
{keys}

Encrypted: {ciphertext}

"""

DIRECTIONS = {1: "forward (towards Z)", -1: "backward (towards A)"}


def shift_text(text: str, offset: int) -> str:
    """Shift every upper-case letter by ``offset`` places, wrapping; other characters stay."""
    alphabet = string.ascii_uppercase
    table = str.maketrans(alphabet, alphabet[offset % 26 :] + alphabet[: offset % 26])
    return text.translate(table)


def vigenere(text: str, key: str, sign: int = 1) -> str:
    """Shift the n-th letter of ``text`` by ``sign`` times the n-th key letter (A = 0), the key
    repeating; spaces stay and use up no key letter."""
    out, n = [], 0
    for char in text:
        if char == " ":
            out.append(char)
            continue
        out.append(shift_text(char, sign * (ord(key[n % len(key)]) - ord("A"))))
        n += 1
    return "".join(out)


def search_shifts(ciphertext: str) -> list[int]:
    """Every forward shift 1-25 whose undoing turns each word into a word of SEARCH_WORDS."""
    known = set(SEARCH_WORDS)
    return [
        shift
        for shift in range(1, 26)
        if all(word in known for word in shift_text(ciphertext, -shift).split())
    ]


@register
class CaesarFamily(Family):
    """Decrypt a Caesar-shifted sentence, the shift and direction given."""

    name = "caesar"
    tiers = TIERS

    def difficulty(self, d: int) -> CaesarConfig:
        return difficulty(d)

    def generate(self, rng: random.Random, cfg: CaesarConfig) -> Puzzle:
        if cfg.mode == "search":
            return self._search(rng, cfg)
        if cfg.mode == "vigenere":
            return self._vigenere(rng, cfg)
        sentence = self._sentence(rng, cfg)
        shift = rng.randint(cfg.min_shift, cfg.max_shift)
        sign = rng.choice(sorted(DIRECTIONS))
        prompt = PROMPT.format(
            direction=DIRECTIONS[sign],
            shift=shift,
            a_becomes=shift_text("A", sign * shift),
            z_becomes=shift_text("Z", sign * shift),
            ciphertext=shift_text(sentence, sign * shift),
        )
        if cfg.v2_format:
            prompt = prompt.replace(FORMAT_V1, FORMAT_V2)
        return Puzzle(prompt, sentence)

    @staticmethod
    def _sentence(rng: random.Random, cfg: CaesarConfig) -> str:
        """``cfg.clauses`` clauses joined by AND (one clause draws exactly what v1 drew)."""
        clauses = []
        for _ in range(cfg.clauses):
            pattern = rng.choice(cfg.patterns)
            clauses.append(" ".join(rng.choice(VOCABULARY[part]) for part in pattern))
        return f" {JOINER} ".join(clauses)

    def _search(self, rng: random.Random, cfg: CaesarConfig) -> Puzzle:
        """Unknown forward shift; redrawn until exactly one shift gives listed words only."""
        while True:
            sentence = self._sentence(rng, cfg)
            ciphertext = shift_text(sentence, rng.randint(cfg.min_shift, cfg.max_shift))
            if len(search_shifts(ciphertext)) == 1:
                break
        prompt = PROMPT_SEARCH.format(vocabulary=" ".join(SEARCH_WORDS), ciphertext=ciphertext)
        return Puzzle(prompt + ANSWER_RULE + FORMAT_V2, sentence)

    def _vigenere(self, rng: random.Random, cfg: CaesarConfig) -> Puzzle:
        """Stated keys (letters B-Z, so every key letter moves) applied one after another."""
        sentence = self._sentence(rng, cfg)
        keys = [
            "".join(rng.choice(string.ascii_uppercase[1:]) for _ in range(length))
            for length in cfg.key_lengths
        ]
        ciphertext = sentence
        for key in keys:
            ciphertext = vigenere(ciphertext, key)
        if len(keys) == 1:
            stated = f"Key: {keys[0]}"
        else:
            listed = "\n".join(f"Key {n}: {key}" for n, key in enumerate(keys, 1))
            stated = (
                f"The sentence was encrypted {len(keys)} times, with key 1 first and then each "
                f"key below on the result of the one before it:\n{listed}"
            )
        prompt = PROMPT_VIGENERE.format(keys=stated, ciphertext=ciphertext)
        return Puzzle(prompt + ANSWER_RULE + FORMAT_V2, sentence)

    def normalise(self, text: str) -> str | None:
        words = re.findall(r"[A-Z]+", text.upper())
        return " ".join(words) or None
