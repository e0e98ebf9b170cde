"""Anagram: unscramble the letters of a common word, given its category as a clue.

Tier 2 uses common five- to eight-letter words: the model has to search letter orders for a real
word, which is hard for models that see text as tokens rather than letters, while the clue keeps
the search small for a human. Uniqueness: the word is drawn only from the built-in words whose
letter multiset no other built-in word shares (in any category), the list avoids words with a
common English anagram in the same category (lemon/melon, elbow/below/bowel), and the scramble
always differs from the word.

Open-ended difficulty (suite v2, ``difficulty(d)``): one word with its category clue of 3-4
letters at d = 0, 5-6 at d = 1, 7-8 at d = 2 and 9-12 at d = 3 (longer words: more orders to
search). From d = 4 on the letters of d - 2 words (of 5 or more letters) are scrambled together:
2 words at d = 4, 3 at d = 5, 6 at d = 8, 10 at d = 12, 18 at d = 20. The prompt gives each
word's clue and length, in the alphabetical order of the words, so the model must split one pool
of letters between the words while it searches each word. Uniqueness: the generator counts the
ways to fill the slots from the built-in list (clue, length and alphabetical order respected,
every letter used once) and redraws unless there is exactly one; a single word relies on v1's
unique letter multisets. v2 prompts show the answer format as ``<answer>...</answer>``, which the
normaliser reads as nothing. Growth is bounded by the word list (about 440 words): the number of
words is capped at 30 (d = 32), beyond which d adds nothing.
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
    """Difficulty parameters of one v1 tier or v2 difficulty; the v2 fields default to v1's.

    ``min_length``/``max_length`` bound every word; ``words`` above 1 scrambles that many words
    together (v2 only).
    """

    min_length: int
    max_length: int
    words: int = 1
    v2_format: bool = False  # "<answer>...</answer>" as the format example


TIERS: dict[int, AnagramConfig] = {
    2: AnagramConfig(5, 8),
}

MAX_WORDS = 30  # the word list bounds how many words one puzzle can take and stay unique


def difficulty(d: int) -> AnagramConfig:
    """The config at difficulty ``d``: see the module docstring for what each step adds."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d <= 3:
        low, high = ((3, 4), (5, 6), (7, 8), (9, 12))[d]
        return AnagramConfig(low, high, v2_format=True)
    return AnagramConfig(5, 99, words=min(d - 2, MAX_WORDS), v2_format=True)


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

# Added for v2: only words of 3-4 or 9+ letters, so the v1 draw (5-8 letters, unique letter
# multiset) picks from exactly the same list as before; no two words in both lists are anagrams.
EXTRA_CATEGORIES: dict[str, str] = {
    "an animal": """
        ant bear bee cat cow crab deer dog duck elk emu fox frog goat hen lamb lion mole owl pig
        seal swan toad yak
        alligator armadillo butterfly caterpillar centipede chameleon chimpanzee crocodile
        dragonfly grasshopper hippopotamus hummingbird jellyfish orangutan porcupine rhinoceros
        salamander tarantula wildebeest woodpecker
        """,
    "a fruit": """
        date fig kiwi lime pear plum
        blackberry blueberry cantaloupe clementine cranberry gooseberry grapefruit nectarine
        passionfruit persimmon pineapple pomegranate raspberry strawberry tangerine watermelon
        """,
    "a vegetable": """
        bean corn kale leek okra pea yam
        artichoke asparagus aubergine beansprout cauliflower courgette horseradish sweetcorn
        watercress
        """,
    "a colour": """
        blue gold grey navy pink red rose teal
        aquamarine chartreuse periwinkle turquoise vermilion
        """,
    "a part of the body": """
        arm chin ear eye foot hair hand heel hip jaw knee leg lip lung neck nose palm rib shin toe
        cheekbone collarbone fingernail intestine
        """,
    "a piece of clothing": """
        belt boot cap cape coat gown hat robe sari sock tie vest
        dungarees nightgown tracksuit turtleneck underpants waistcoat sweatshirt
        """,
    "a musical instrument": """
        drum gong harp horn lute oboe tuba
        accordion didgeridoo glockenspiel harmonica harpsichord saxophone tambourine xylophone
        """,
    "a job": """
        chef cook maid monk poet vet
        accountant architect astronaut carpenter electrician firefighter hairdresser journalist
        librarian pharmacist photographer receptionist scientist shopkeeper veterinarian
        """,
    "a piece of furniture": """
        bed cot crib desk sofa
        footstool highchair sideboard
        """,
    "a vehicle": """
        cab car jeep taxi tram van
        aeroplane ambulance bulldozer campervan helicopter hovercraft limousine motorbike
        motorcycle skateboard snowmobile steamroller submarine
        """,
    "a sport": """
        golf judo sumo
        athletics badminton basketball gymnastics kickboxing triathlon volleyball wrestling
        """,
    "a kitchen item": """
        bowl cup fork jug mug oven pan sink tray wok
        breadboard casserole chopsticks corkscrew dishwasher microwave nutcracker tablespoon
        """,
}

# (word, clue) pairs, sorted by word so that choices never depend on dict or set order.
WORDS: tuple[tuple[str, str], ...] = tuple(
    sorted(
        (word, clue)
        for table in (CATEGORIES, EXTRA_CATEGORIES)
        for clue, text in table.items()
        for word in text.split()
    )
)

_LETTER_COUNTS = Counter("".join(sorted(word)) for word, _ in WORDS)

PROMPT = """Unscramble these letters to make a common English word. Use every letter exactly \
once. Clue: the word is {clue}.

Letters: {letters}

Write the word in lower case inside <answer></answer> tags, for example: <answer>planet</answer>"""


FORMAT_V1 = "for example: <answer>planet</answer>"
# v2: the format in words and a placeholder that reads as nothing (``normalise("...")`` is None).
FORMAT_V2 = "in place of the dots: <answer>...</answer>"
PLACEHOLDER = "..."

PROMPT_WORDS = """Unscramble these letters to make {count} common English words. Use every \
letter exactly once. The words, listed in alphabetical order, are:
{slots}

Letters: {letters}

Write the {count} words in lower case, in that order, separated by single spaces, inside \
<answer></answer> tags, in place of the dots: <answer>...</answer>"""


def _counts(word: str) -> tuple[int, ...]:
    return tuple(word.count(letter) for letter in "abcdefghijklmnopqrstuvwxyz")


def fillings(slots: list[tuple[str, int]], letters: str, limit: int = 2) -> int:
    """How many ways (up to ``limit``) to fill ``slots`` of (clue, length) with built-in words in
    strictly alphabetical order that use every one of ``letters`` exactly once."""
    options = [
        [(word, _counts(word)) for word, clue in WORDS if clue == want and len(word) == length]
        for want, length in slots
    ]
    found = 0

    def walk(i: int, left: tuple[int, ...], previous: str) -> None:
        nonlocal found
        if i == len(slots):
            found += 1
            return
        for word, counts in options[i]:
            if word > previous and all(a <= b for a, b in zip(counts, left)):
                walk(i + 1, tuple(b - a for a, b in zip(counts, left)), word)
                if found >= limit:
                    return

    walk(0, _counts(letters), "")
    return found


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


def _words(text: str) -> str | None:
    """``_word``, except that several words of two or more letters keep one space between them
    ("butterfly netball"); letters spelled out one by one ("T I G E R") still make one word."""
    word = _word(text)
    if word is None:
        return None
    parts = text.strip().strip(_QUOTES).lower().split()
    groups = [group for group in (part.replace("-", "") for part in parts) if group]
    if len(groups) > 1 and any(len(group) > 1 for group in groups):
        return " ".join(groups)
    return word


@register
class AnagramFamily(Family):
    """Unscramble a common word from its letters and a category clue."""

    name = "anagram"
    tiers = TIERS

    def difficulty(self, d: int) -> AnagramConfig:
        return difficulty(d)

    def generate(self, rng: random.Random, cfg: AnagramConfig) -> Puzzle:
        if cfg.words > 1:
            return self._several(rng, cfg)
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
        if cfg.v2_format:
            prompt = prompt.replace(FORMAT_V1, FORMAT_V2)
        return Puzzle(prompt, word)

    @staticmethod
    def _several(rng: random.Random, cfg: AnagramConfig) -> Puzzle:
        """``cfg.words`` words scrambled together; redrawn until exactly one filling fits."""
        pool = [(w, c) for w, c in WORDS if cfg.min_length <= len(w) <= cfg.max_length]
        while True:
            chosen = sorted(rng.sample(pool, cfg.words))
            slots = [(clue, len(word)) for word, clue in chosen]
            letters = list("".join(word for word, _ in chosen))
            rng.shuffle(letters)
            if fillings(slots, "".join(letters)) == 1:
                break
        listed = "\n".join(
            f"{n}. {clue}, {length} letters" for n, (clue, length) in enumerate(slots, 1)
        )
        prompt = PROMPT_WORDS.format(
            count=cfg.words, slots=listed, letters=" ".join(letters).upper()
        )
        return Puzzle(prompt, " ".join(word for word, _ in chosen))

    def matches(self, reading: str, answer: str) -> bool:
        """Several words must be the words in order; one word ignores spaces, as v1 did."""
        if " " in answer:
            return reading == answer
        return reading.replace(" ", "") == answer

    def normalise(self, text: str) -> str | None:
        """The word(s) in lower case, or None when the text is not one candidate answer.

        A short sentence naming one word ("The word is pepper.", "It's a tiger") reads as the
        word it names; any other text must be the word alone (quotes, a final full stop, spaces
        or hyphens between its letters allowed) or several words separated by spaces.
        """
        if not isinstance(text, str):
            return None
        lead_in = _LEAD_IN.match(text.strip())
        if lead_in:
            rest = _ARTICLE.sub("", text.strip()[lead_in.end() :].strip(), count=1)
            if _SEVERAL_WORDS.search(rest):
                return None  # "The word is papaya or guava": not one word
            return _word(rest)
        return _words(text)
