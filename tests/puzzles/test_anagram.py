"""The anagram family: every answer re-derived from the prompt's letters and clue by searching the
built-in word list (the family's data, used here as a dictionary) with an independent matcher."""

from __future__ import annotations

import random
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.anagram import (
    CATEGORIES,
    EXTRA_CATEGORIES,
    PLACEHOLDER,
    TIERS,
    WORDS,
    AnagramConfig,
    AnagramFamily,
    fillings,
)

FAMILY = AnagramFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def letter_counts(word: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for letter in word:
        counts[letter] = counts.get(letter, 0) + 1
    return counts


def parse(prompt: str) -> tuple[str, str]:
    clue = re.search(r"Clue: the word is (.+?)\.\n", prompt)
    letters = re.search(r"\nLetters: ([A-Z](?: [A-Z])+)\n", prompt)
    assert clue is not None and letters is not None
    return clue.group(1), letters.group(1).replace(" ", "").lower()


def test_required_tiers() -> None:
    assert 2 in TIERS


def test_word_list_has_no_anagram_pairs() -> None:
    words = [word for word, _ in WORDS]
    assert len(words) == len(set(words))
    for i, first in enumerate(words):
        for second in words[i + 1 :]:
            assert letter_counts(first) != letter_counts(second), (first, second)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        clue, scrambled = parse(puzzle.prompt)
        target = letter_counts(scrambled)
        any_clue = [word for word, _ in WORDS if letter_counts(word) == target]
        with_clue = [word for word, category in WORDS if category == clue and word in any_clue]
        assert with_clue == any_clue == [puzzle.answer], (seed, scrambled, clue, any_clue)
        assert scrambled != puzzle.answer
        assert 5 <= len(puzzle.answer) <= 8
        assert FAMILY.check(puzzle, puzzle.answer)


def test_example_answer_is_not_a_puzzle_word() -> None:
    example = re.search(r"for example: <answer>(\w+)</answer>", make(2, 1).prompt)
    assert example is not None
    assert example.group(1) not in {word for word, _ in WORDS}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        answer = puzzle.answer
        variants = [
            answer.upper(),
            answer.capitalize() + ".",
            f' "{answer}" ',
            " ".join(answer.upper()),
            "-".join(answer),
        ]
        checks.assert_accepts(FAMILY, puzzle, variants)
        last = answer[-1]
        near_misses = [
            answer[:-1] + ("q" if last != "q" else "x"),
            answer + "s",
            parse(puzzle.prompt)[1],
        ]
        checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_unreadable_is_none() -> None:
    checks.assert_unreadable(FAMILY, ["", "   ", "42", "cat!?", "\u00e9clair"])


def test_normalise_reads_a_sentence_naming_the_word() -> None:
    """Regression (probe case anagram/t2/s65): "The word is pepper." reads pepper."""
    puzzle = Puzzle("", "pepper")
    accepted = [
        "The word is pepper.",
        "the word is: Pepper",
        'The unscrambled word is "pepper".',
        "It's pepper!",
        "It\u2019s pepper",
        "It is a pepper.",
        "I think it is pepper",
        "Answer: pepper",
        "So, the answer is P-E-P-P-E-R.",
    ]
    checks.assert_accepts(FAMILY, puzzle, accepted)
    rejected = [
        "The word is peper.",
        "The word is papaya or pepper.",
        "The word is pepper, a vegetable.",
        "The word is",
        "pepper or guava",
    ]
    checks.assert_rejects(FAMILY, puzzle, rejected)
    assert FAMILY.normalise("The word is papaya or guava.") is None


# ---------------------------------------------------------------- v2: open-ended difficulty d

D_SEEDS = [(d, seed) for d in range(13) for seed in range(1, 7)] + [
    (d, seed) for d in (15, 20) for seed in (1, 2)
]
V2_EXAMPLE = "in place of the dots: <answer>...</answer>"


def test_added_words_leave_the_v1_draw_alone() -> None:
    """v1 draws among 5-8 letter words: the v2 additions are all shorter or longer."""
    added = [word for text in EXTRA_CATEGORIES.values() for word in text.split()]
    assert added and all(len(word) <= 4 or len(word) >= 9 for word in added)
    v1_words = sorted(word for text in CATEGORIES.values() for word in text.split())
    assert [word for word, _ in WORDS if 5 <= len(word) <= 8] == v1_words


def parse_slots(prompt: str) -> tuple[list[tuple[str, int]], str]:
    """The (clue, length) of each word, in the listed order, and the pooled letters."""
    slots = re.findall(r"^(\d+)\. (.+), (\d+) letters$", prompt, flags=re.MULTILINE)
    assert [int(n) for n, _, _ in slots] == list(range(1, len(slots) + 1))
    letters = re.search(r"\nLetters: ([A-Z](?: [A-Z])+)\n", prompt)
    assert letters is not None
    return [(clue, int(length)) for _, clue, length in slots], letters.group(1).replace(
        " ", ""
    ).lower()


def all_fillings(slots: list[tuple[str, int]], letters: str) -> list[list[str]]:
    """Every way to give each slot a list word of its clue and length, the words in strictly
    alphabetical order, using the letters exactly: a plain depth-first search over letter counts."""
    by_slot = [
        sorted(word for word, clue in WORDS if clue == want and len(word) == length)
        for want, length in slots
    ]
    found: list[list[str]] = []

    def extend(chosen: list[str], left: dict[str, int]) -> None:
        if len(chosen) == len(slots):
            if not any(left.values()):
                found.append(chosen)
            return
        for word in by_slot[len(chosen)]:
            if chosen and word <= chosen[-1]:
                continue
            need = letter_counts(word)
            if all(left.get(letter, 0) >= n for letter, n in need.items()):
                rest = dict(left)
                for letter, n in need.items():
                    rest[letter] -= n
                extend([*chosen, word], rest)

    extend([], letter_counts(letters))
    return found


@pytest.mark.parametrize("d", sorted({d for d, _ in D_SEEDS}))
def test_difficulty_rederived_from_prompt(d: int) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in [s for dd, s in D_SEEDS if dd == d]:
        puzzle = make_at(FAMILY, d, seed)
        assert puzzle.prompt.endswith(V2_EXAMPLE) and "planet" not in puzzle.prompt
        if cfg.words == 1:
            clue, scrambled = parse(puzzle.prompt)
            target = letter_counts(scrambled)
            any_clue = [word for word, _ in WORDS if letter_counts(word) == target]
            with_clue = [w for w, category in WORDS if category == clue and w in any_clue]
            assert with_clue == any_clue == [puzzle.answer], (d, seed, scrambled)
            assert scrambled != puzzle.answer
            assert cfg.min_length <= len(puzzle.answer) <= cfg.max_length
        else:
            slots, letters = parse_slots(puzzle.prompt)
            assert len(slots) == cfg.words
            assert all_fillings(slots, letters) == [puzzle.answer.split()], (d, seed)
            assert all(length >= 5 for _, length in slots)
        assert FAMILY.check(puzzle, puzzle.answer)
        checks.assert_rejects(FAMILY, puzzle, [PLACEHOLDER])


def test_generator_count_agrees_with_solver() -> None:
    """The generator's uniqueness count (``fillings``) against the test's own search, on fitting
    pools, pools with one letter changed (no filling) and two same-clue slots (order counts)."""
    rng = random.Random(7)
    pool = [(word, clue) for word, clue in WORDS if len(word) >= 5]
    for _ in range(30):
        chosen = sorted(rng.sample(pool, 3))
        slots = [(clue, len(word)) for word, clue in chosen]
        letters = "".join(word for word, _ in chosen)
        assert fillings(slots, letters, limit=9) == len(all_fillings(slots, letters)) == 1
        changed = ("q" if letters[0] != "q" else "z") + letters[1:]
        assert fillings(slots, changed, limit=9) == len(all_fillings(slots, changed)) == 0
    two_animals = [("an animal", 5), ("an animal", 5)]
    assert fillings(two_animals, "zebratiger") == 1
    assert all_fillings(two_animals, "zebratiger") == [["tiger", "zebra"]]


def test_several_words_normalise() -> None:
    for d in (4, 7):
        puzzle = make_at(FAMILY, d, 1)
        answer, words = puzzle.answer, puzzle.answer.split()
        accepted = [
            answer.upper(),
            answer.title() + ".",
            f' "{answer}" ',
            "  ".join(words),
            " ".join("-".join(word) for word in words),
        ]
        checks.assert_accepts(FAMILY, puzzle, accepted)
        rejected = [
            " ".join(reversed(words)),
            "".join(words),
            " ".join(words[:-1]),
            " ".join(answer.replace(" ", "")),
            answer + " s",
            PLACEHOLDER,
        ]
        checks.assert_rejects(FAMILY, puzzle, rejected)


def test_one_word_still_ignores_spaces() -> None:
    """v1 read "tig er" as tiger (spaces inside one word dropped); so does v2's reader."""
    puzzle = Puzzle("", "tiger")
    checks.assert_accepts(FAMILY, puzzle, ["tig er", "T I G E R", "ti-ger", "TIG ER."])
    checks.assert_rejects(FAMILY, puzzle, ["tiger s", "tiger apple"])


def test_placeholder_reads_as_nothing() -> None:
    assert FAMILY.normalise(PLACEHOLDER) is None
    assert f"<answer>{PLACEHOLDER}</answer>" in V2_EXAMPLE


def effort(cfg: AnagramConfig) -> int:
    """Words to untangle from one pool first, then the length of a single word."""
    return 100 * cfg.words + cfg.min_length


def test_difficulty_grows() -> None:
    efforts = [effort(FAMILY.difficulty(d)) for d in range(41)]
    for d in range(40):
        assert efforts[d + 1] >= efforts[d], d
    for d in range(30):  # the number of words stops at 30 (d = 32)
        assert efforts[d + 3] > efforts[d], d
    assert [FAMILY.difficulty(d).words for d in (3, 4, 5, 12, 20)] == [1, 2, 3, 10, 18]


def test_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v1_format_unchanged() -> None:
    assert FAMILY.config(2) == AnagramConfig(5, 8)
    assert make(2, 1).prompt.endswith("for example: <answer>planet</answer>")
