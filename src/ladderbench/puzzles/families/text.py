"""Text: copy or edit a short string exactly.

Tier 0 is the floor: repeat a short phrase, reverse a short word, or capitalise each word of a
phrase (the one task where letter case matters). Tier 1 is string surgery: one or two precise
edits (insert, delete, swap, replace, keep a slice) at 1-based positions of a common word, so the
model must count characters and track how each edit shifts the later positions. Tier 2 applies
three edits to a string of random letters, where no familiar word helps the model keep its place.

Open-ended difficulty (suite v2, ``difficulty(d)``): d = 0 repeats one common word (the floor a
135M-parameter model clears); d = 1 repeats a two- or three-word phrase or reverses a word of at
most five letters; d = 2 is two edits of a common word (v1 tier 1 had one or two). From d = 3
on the text is random letters, 3d + 6 of them, and there are d(d - 1)/2 edits (3 at d = 3, 10 at
d = 5, 28 at d = 8, 66 at d = 12, 190 at d = 20): every step adds d more edits, each one a shift
of positions to recount, and three more letters to hold, so the chance of one slip somewhere
grows fast. From d = 5 two harder edits join in: reversing a stretch of the text and moving one
character elsewhere, each of which renumbers a whole range of positions. v2 prompts show the
answer format as ``<answer>...</answer>``, which the normaliser reads as nothing (a tiny model
that copies the example scores nothing, never a lucky match).

Case: case sensitivity is carried by the answers themselves. Case-insensitive tasks have
lower-case answers, and ``matches`` accepts any casing of them (the prompt says case does not
matter); the case task (capitalising each word of a phrase of two or more words) always has a
genuinely mixed answer such as "Green Apple", which must be matched exactly. ``normalise`` folds an
answer that is all lower case, all upper case, or lower case with a capital first letter to lower
case, and keeps any other mix of cases as written.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class TextConfig:
    """Difficulty parameters of one v1 tier or v2 difficulty.

    Every field added for v2 defaults to v1's behaviour, so the v1 tiers draw the same numbers.
    """

    tasks: tuple[str, ...]  # "echo", "reverse", "title" or "edit"
    min_ops: int = 0  # edit only: number of operations
    max_ops: int = 0
    min_length: int = 0  # edit only: length of the starting string
    max_length: int = 0
    random_letters: bool = False  # edit only: random letters instead of a common word
    min_words: int = 2  # echo only: words in the phrase
    max_words: int = 4
    max_reverse: int = 6  # reverse only: longest word
    kinds: tuple[str, ...] = ()  # edit kinds to draw from; () is v1's set (slice included)
    v2_format: bool = False  # v2: "<answer>...</answer>" as the format; edits never undo all


TIERS: dict[int, TextConfig] = {
    0: TextConfig(tasks=("echo", "reverse", "title")),
    1: TextConfig(tasks=("edit",), min_ops=1, max_ops=2, min_length=5, max_length=8),
    2: TextConfig(
        tasks=("edit",), min_ops=3, max_ops=3, min_length=9, max_length=12, random_letters=True
    ),
}

# The edit kinds of v2 configs: no "slice", which would throw away the work of the edits before
# it; from d = 5 on, block reversal and moving a character, which renumber whole ranges.
BASIC_KINDS = ("insert", "delete", "replace", "swap")
HARD_KINDS = (*BASIC_KINDS, "reverse", "move")


def difficulty(d: int) -> TextConfig:
    """The config at difficulty ``d``: see the module docstring for what each step adds."""
    if d < 0:
        raise ValueError(f"difficulty must be >= 0, got {d}")
    if d == 0:
        return TextConfig(tasks=("echo",), min_words=1, max_words=1, v2_format=True)
    if d == 1:
        return TextConfig(
            tasks=("echo", "reverse"), min_words=2, max_words=3, max_reverse=5, v2_format=True
        )
    if d == 2:
        return TextConfig(
            tasks=("edit",), min_ops=2, max_ops=2, min_length=5, max_length=8, v2_format=True
        )
    ops, length = d * (d - 1) // 2, 3 * d + 6
    return TextConfig(
        tasks=("edit",),
        min_ops=ops,
        max_ops=ops,
        min_length=length,
        max_length=length,
        random_letters=True,
        kinds=BASIC_KINDS if d < 5 else HARD_KINDS,
        v2_format=True,
    )


# Common lower-case English words; phrases and edited words are drawn from the sorted tuple.
_WORD_TEXT = """
apple basket bird blue bread bridge bright candle castle chair cloud coffee cold corner dance
dark desert dinner door dream early earth field finger flower forest friend garden glass gold
green happy heavy honey horse island jacket kitchen lamp letter light little market metal mirror
money morning mountain music night ocean orange paper pencil pepper picture planet pocket quiet
rabbit river road rocket salt second silver simple small snow soft spring stone storm street
summer sunny table thunder tiger timber tower train travel valley velvet village water window
winter wooden yellow
"""
WORDS: tuple[str, ...] = tuple(sorted(_WORD_TEXT.split()))

PROMPT = """Text task. {instruction}

Text: "{text}"

{case_rule} Write only the resulting text, without quotes, inside <answer></answer> tags, \
for example: <answer>silver moon</answer>"""

# v2: the format in words and a placeholder that reads as nothing (``normalise("...")`` is None).
PROMPT_V2 = """Text task. {instruction}

Text: "{text}"

{case_rule} Write only the resulting text, without quotes, inside <answer></answer> tags, \
in place of the dots: <answer>...</answer>"""
PLACEHOLDER = "..."

INSTRUCTIONS = {
    "echo": "Repeat the text below exactly as it is.",
    "reverse": "Write the letters of the word below in reverse order, from last to first.",
    "title": (
        "Rewrite the text below with the first letter of every word in upper case and all "
        "other letters in lower case."
    ),
    "edit": (
        "Apply these operations to the text below, in order. Positions count characters "
        "from 1 (the first character is at position 1), and each operation uses the positions "
        "of the text as it is after the operations before it. Inserting a letter at position "
        "p means the new letter becomes the character at position p.\n{steps}"
    ),
}

CASE_RULES = {
    False: "Case does not matter: lower case, upper case and a capital first letter are all "
    "accepted.",
    True: "Case matters: every letter must be in exactly the right case.",
}


def _edit(rng: random.Random, text: str, kinds: tuple[str, ...] = ()) -> tuple[str, str]:
    """One random edit of ``text`` that changes it: (description, new text).

    ``kinds`` empty is v1's set, drawn exactly as v1 drew it; deleting (and slicing) needs at
    least four characters.
    """
    n = len(text)
    if kinds:
        allowed = [k for k in kinds if n >= 4 or k not in ("delete", "reverse", "move")]
    else:
        allowed = ["insert", "replace", "swap"] + (["delete", "slice"] if n >= 4 else [])
    kind = rng.choice(allowed)
    if kind in ("reverse", "move"):
        return _reorder(rng, text, kind)
    if kind == "insert":
        pos, letter = rng.randint(1, n + 1), rng.choice(string.ascii_lowercase)
        return f'insert the letter "{letter}" at position {pos}', (
            text[: pos - 1] + letter + text[pos - 1 :]
        )
    if kind == "delete":
        pos = rng.randint(1, n)
        return f"delete the character at position {pos}", text[: pos - 1] + text[pos:]
    if kind == "replace":
        pos = rng.randint(1, n)
        letter = rng.choice([c for c in string.ascii_lowercase if c != text[pos - 1]])
        return f'replace the character at position {pos} with "{letter}"', (
            text[: pos - 1] + letter + text[pos:]
        )
    if kind == "swap":
        if len(set(text)) == 1:  # every character the same: nothing to swap, insert instead
            return f'insert the letter "z" at position {n + 1}', text + "z"
        if kinds:  # v2: draw two positions until they differ (v1 listed every pair, O(n^2))
            i, j = sorted(rng.sample(range(1, n + 1), 2))
            while text[i - 1] == text[j - 1]:
                i, j = sorted(rng.sample(range(1, n + 1), 2))
        else:
            pairs = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)]
            i, j = rng.choice([(i, j) for i, j in pairs if text[i - 1] != text[j - 1]])
        chars = list(text)
        chars[i - 1], chars[j - 1] = chars[j - 1], chars[i - 1]
        return f"swap the characters at positions {i} and {j}", "".join(chars)
    start = rng.randint(1, n - 2)
    end = rng.randint(start + 2, n if start > 1 else n - 1)
    return (
        f"keep only the characters from position {start} to position {end} "
        "(both included) and delete the rest",
        text[start - 1 : end],
    )


def _reorder(rng: random.Random, text: str, kind: str) -> tuple[str, str]:
    """Reverse a stretch of ``text`` or move one character, always changing the text (v2 only).

    Positions are drawn until the edit changes the text (a few tries on random letters); a text
    of one repeated letter cannot be reordered and gets a letter inserted instead.
    """
    n = len(text)
    if len(set(text)) == 1:
        return f'insert the letter "z" at position {n + 1}', text + "z"
    while True:
        if kind == "reverse":
            i = rng.randint(1, n - 2)
            j = rng.randint(i + 2, n)
            stretch = text[i - 1 : j]
            if stretch != stretch[::-1]:
                return (
                    f"reverse the order of the characters from position {i} to position {j}",
                    text[: i - 1] + stretch[::-1] + text[j:],
                )
        else:
            i, j = rng.sample(range(1, n + 1), 2)
            if _moved(text, i, j) != text:
                return (
                    f"move the character at position {i} so that it is at position {j}",
                    _moved(text, i, j),
                )


def _moved(text: str, source: int, target: int) -> str:
    """``text`` with its character at ``source`` taken out and put back at ``target``."""
    rest = text[: source - 1] + text[source:]
    return rest[: target - 1] + text[source - 1] + rest[target - 1 :]


_QUOTES = {('"', '"'), ("'", "'"), ("`", "`"), ("\u201c", "\u201d"), ("\u2018", "\u2019")}


def _fold_case(text: str) -> str:
    """Lower-case text whose letters are all lower, all upper, or capitalised-first-only."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return text
    rest = "".join(letters[1:])
    if "".join(letters).isupper() or (rest == rest.lower()):
        return text.lower()
    return text


@register
class TextFamily(Family):
    """Repeat, reverse, capitalise or edit a short string."""

    name = "text"
    tiers = TIERS

    def difficulty(self, d: int) -> TextConfig:
        return difficulty(d)

    def generate(self, rng: random.Random, cfg: TextConfig) -> Puzzle:
        task = rng.choice(cfg.tasks)
        if task == "echo":
            count = rng.randint(cfg.min_words, cfg.max_words)
            text = " ".join(rng.choice(WORDS) for _ in range(count))
            return self._puzzle(cfg, task, text, text, case_matters=False)
        if task == "reverse":
            word = rng.choice([w for w in WORDS if len(w) <= cfg.max_reverse and w != w[::-1]])
            return self._puzzle(cfg, task, word, word[::-1], case_matters=False)
        if task == "title":
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 3)))
            return self._puzzle(cfg, task, text, text.title(), case_matters=True)
        if cfg.random_letters:
            length = rng.randint(cfg.min_length, cfg.max_length)
            text = "".join(rng.choice(string.ascii_lowercase) for _ in range(length))
        else:
            text = rng.choice([w for w in WORDS if cfg.min_length <= len(w) <= cfg.max_length])
        count = rng.randint(cfg.min_ops, cfg.max_ops)
        while True:
            steps, result = [], text
            for number in range(1, count + 1):
                description, result = _edit(rng, result, cfg.kinds)
                steps.append(f"{number}. {description[0].upper()}{description[1:]}.")
            # v2: edits that happen to give the text back would make "repeat it" right.
            if not cfg.v2_format or result != text:
                break
        return self._puzzle(cfg, task, text, result, case_matters=False, steps="\n".join(steps))

    @staticmethod
    def _puzzle(
        cfg: TextConfig, task: str, text: str, answer: str, case_matters: bool, steps: str = ""
    ) -> Puzzle:
        instruction = INSTRUCTIONS[task].format(steps=steps)
        template = PROMPT_V2 if cfg.v2_format else PROMPT
        prompt = template.format(
            instruction=instruction, text=text, case_rule=CASE_RULES[case_matters]
        )
        return Puzzle(prompt, answer)

    def matches(self, reading: str, answer: str) -> bool:
        if answer == answer.lower():  # a case-insensitive task: any casing is the same answer
            return reading.lower() == answer
        return reading == answer

    def normalise(self, text: str) -> str | None:
        cleaned = " ".join(text.split())
        quoted = len(cleaned) >= 2 and (cleaned[0], cleaned[-1]) in _QUOTES
        if quoted:
            cleaned = " ".join(cleaned[1:-1].split())
        cleaned = cleaned.rstrip(".").rstrip()  # a sentence-final full stop; answers have none
        return _fold_case(cleaned) or None
