"""Anagram: unscramble the letters of a common word, given its category as a clue.

Tier 2 uses common five- to eight-letter words: the model has to search letter orders for a real
word, which is hard for models that see text as tokens rather than letters, while the clue keeps
the search small for a human. Uniqueness: the word is drawn only from the built-in words whose
letter multiset no other built-in word shares (in any category), the list avoids words with a
common English anagram in the same category (lemon/melon, elbow/below/bowel), and the scramble
always differs from the word.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class AnagramConfig:
    """Difficulty parameters of one tier."""

    min_length: int
    max_length: int


TIERS: dict[int, AnagramConfig] = {
    2: AnagramConfig(5, 8),
}

# Built-in words by category clue; the clue is shown as "the word is <clue>".
CATEGORIES: dict[str, str] = {
    "an animal": """
        badger beaver camel cobra dolphin donkey eagle falcon ferret giraffe goose hyena koala
        lizard llama monkey moose mouse otter panda penguin pigeon rabbit shark sheep skunk
        snake spider tiger turtle weasel whale zebra
        """,
    "a fruit": """
        apple apricot banana cherry coconut grape guava lychee mango papaya peach raisin
        """,
    "a vegetable": """
        broccoli cabbage carrot celery garlic lettuce marrow onion parsnip pepper potato
        pumpkin radish spinach turnip
        """,
    "a colour": """
        amber beige black brown crimson green indigo ivory magenta maroon purple scarlet silver
        violet white yellow
        """,
    "a part of the body": """
        ankle brain cheek chest eyebrow finger forehead heart kidney knuckle liver mouth muscle
        navel nostril shoulder skull stomach thigh throat thumb tongue tooth wrist
        """,
    "a piece of clothing": """
        apron blouse bonnet cardigan dress glove jacket jumper kimono mitten poncho pyjamas
        sandal scarf shirt skirt slipper sweater tuxedo
        """,
    "a musical instrument": """
        banjo bugle cello clarinet cymbal flute guitar organ piano trombone trumpet ukulele
        viola violin
        """,
    "a job": """
        baker barber butcher cashier dancer dentist doctor driver judge lawyer nurse
        painter pilot plumber sailor singer soldier surgeon tailor teacher waiter writer
        """,
    "a piece of furniture": """
        armchair bench bookcase cabinet chair couch cupboard shelf stool table wardrobe
        """,
    "a vehicle": """
        bicycle canoe caravan ferry lorry minibus plane rocket scooter sledge tractor train
        truck wagon yacht
        """,
    "a sport": """
        archery baseball boxing cricket cycling diving fencing hockey karate netball rowing
        rugby skating soccer surfing tennis
        """,
    "a kitchen item": """
        blender colander fridge grater kettle knife ladle plate saucepan skillet spatula spoon
        teapot toaster whisk
        """,
}

# (word, clue) pairs, sorted by word so that choices never depend on dict or set order.
WORDS: tuple[tuple[str, str], ...] = tuple(
    sorted((word, clue) for clue, text in CATEGORIES.items() for word in text.split())
)

_LETTER_COUNTS = Counter("".join(sorted(word)) for word, _ in WORDS)

PROMPT = """Unscramble these letters to make a common English word. Use every letter exactly \
once. Clue: the word is {clue}.

Letters: {letters}

Write the word in lower case inside <answer></answer> tags, for example: <answer>planet</answer>"""


# A short sentence that names the word: "The word is X", "The answer: X", "It's X", "I think
# it is X". Only the text after it is read, and it must still be a single word.
_LEAD_IN = re.compile(
    r"(?:(?:so|well|ok|okay|i\s+think|i\s+believe)\s*,?\s+)?"
    r"(?:(?:the\s+|my\s+)?(?:final\s+|correct\s+|unscrambled\s+|hidden\s+)?"
    r"(?:answer|word|solution)(?:\s+is\b|\s*[:=])"
    r"|it(?:['\u2019]s|\s+is|\s+must\s+be)|that(?:['\u2019]s|\s+is)|this\s+is)"
    r"\s*:?\s*",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"(?:an?|the)\s+(?=[^\W\d_]{2,}\W*$)", re.IGNORECASE)
# Two runs of two or more letters with a space between: more than one word.
_SEVERAL_WORDS = re.compile(r"[^\W\d_]{2,}\W*\s+\W*[^\W\d_]{2,}")
_QUOTES = "\"'`.!\u201c\u201d\u2018\u2019"


def _word(text: str) -> str | None:
    """Letters only, lower case; spaces and hyphens between letters ("T-I-G-E-R") are dropped."""
    cleaned = re.sub(r"[\s\-]+", "", text.strip().strip(_QUOTES)).lower()
    return cleaned if re.fullmatch(r"[a-z]+", cleaned) else None


@register
class AnagramFamily(Family):
    """Unscramble a common word from its letters and a category clue."""

    name = "anagram"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: AnagramConfig) -> Puzzle:
        choices = [
            (word, clue)
            for word, clue in WORDS
            if cfg.min_length <= len(word) <= cfg.max_length
            and _LETTER_COUNTS["".join(sorted(word))] == 1
            and len(set(word)) > 1
        ]
        word, clue = rng.choice(choices)
        letters = list(word)
        while "".join(letters) == word:
            rng.shuffle(letters)
        prompt = PROMPT.format(clue=clue, letters=" ".join(letters).upper())
        return Puzzle(prompt, word)

    def normalise(self, text: str) -> str | None:
        """The word in lower case, or None when the text is not one candidate word.

        A short sentence naming the word ("The word is pepper.", "It's a tiger") reads as the
        word it names; any other text must be the word alone (quotes, a final full stop, spaces
        or hyphens between its letters allowed).
        """
        if not isinstance(text, str):
            return None
        lead_in = _LEAD_IN.match(text.strip())
        if lead_in:
            rest = _ARTICLE.sub("", text.strip()[lead_in.end() :].strip(), count=1)
            if _SEVERAL_WORDS.search(rest):
                return None  # "The word is papaya or guava": not one word
            return _word(rest)
        return _word(text)
