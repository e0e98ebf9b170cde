"""The caesar family: every answer re-derived by decrypting the ciphertext independently."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.caesar import (
    PLACEHOLDER,
    TIERS,
    VOCABULARY,
    CaesarConfig,
    CaesarFamily,
)

FAMILY = CaesarFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def rotate(letter: str, offset: int) -> str:
    return chr((ord(letter) - ord("A") + offset) % 26 + ord("A"))


def solve(prompt: str) -> str:
    """Decrypt the prompt's ciphertext using only the shift and direction the prompt states."""
    rule = re.search(
        r"shifted (forward|backward) \(towards [AZ]\) by (\d+) places.*?"
        r"turns A into ([A-Z]) and Z into ([A-Z])\)",
        prompt,
    )
    cipher = re.search(r"\nEncrypted: ([A-Z ]+)\n", prompt)
    assert rule is not None and cipher is not None
    shift = int(rule.group(2)) * (1 if rule.group(1) == "forward" else -1)
    assert 1 <= abs(shift) <= 25
    assert rotate("A", shift) == rule.group(3) and rotate("Z", shift) == rule.group(4)
    ciphertext = cipher.group(1)
    plain = "".join(c if c == " " else rotate(c, -shift) for c in ciphertext)
    assert plain != ciphertext
    return plain


def test_required_tiers() -> None:
    assert 2 in TIERS


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    directions = set()
    for seed in SEEDS:
        puzzle = make(tier, seed)
        plain = solve(puzzle.prompt)
        assert puzzle.answer == plain, (seed, puzzle.answer, plain)
        assert re.fullmatch(r"[A-Z]+( [A-Z]+){4,6}", puzzle.answer)
        assert FAMILY.check(puzzle, puzzle.answer)
        directions.add("forward" in puzzle.prompt)
    assert directions == {True, False}


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in range(1, 17):
        puzzle = make(tier, seed)
        answer = puzzle.answer
        variants = [
            answer.lower(),
            answer.capitalize() + ".",
            f'  "{answer}"  ',
            answer.replace(" ", "  "),
            answer.title() + "!",
        ]
        checks.assert_accepts(FAMILY, puzzle, variants)
        last = answer[-1]
        near_misses = [
            answer[:-1] + ("Q" if last != "Q" else "X"),
            answer.rsplit(" ", 1)[0],
            answer.replace(" ", ""),
        ]
        checks.assert_rejects(FAMILY, puzzle, near_misses)


def test_normalise_unreadable_is_none() -> None:
    checks.assert_unreadable(FAMILY, ["", " ... 42 "])


# ---------------------------------------------------------------- v2: open-ended difficulty d

D_SEEDS = [(d, seed) for d in range(13) for seed in range(1, 7)] + [
    (d, seed) for d in (15, 20) for seed in (1, 2)
]
V2_EXAMPLE = "in place of the dots: <answer>...</answer>"
# Words a sentence may use: the family's parts of speech and the clause joiner.
SENTENCE_WORDS = {word for words in VOCABULARY.values() for word in words} | {"AND"}


def ciphertext(prompt: str) -> str:
    found = re.search(r"\nEncrypted: ([A-Z ]+)\n", prompt)
    assert found is not None
    return found.group(1)


def search_solve(prompt: str) -> str:
    """Try every forward shift 1-25; exactly one must give only words of the stated list."""
    listed = re.search(r"a word of this list:\n([A-Z ]+)\n", prompt)
    assert listed is not None
    vocabulary = set(listed.group(1).split())
    assert vocabulary == SENTENCE_WORDS
    cipher = ciphertext(prompt)
    fits = []
    for shift in range(1, 26):
        plain = "".join(c if c == " " else rotate(c, -shift) for c in cipher)
        if all(word in vocabulary for word in plain.split()):
            fits.append(plain)
    assert len(fits) == 1, fits
    return fits[0]


def vigenere_solve(prompt: str) -> tuple[str, list[str]]:
    """Undo the stated keys, last first; each key letter is a shift of its place from A = 0,
    counted over letters only. Returns the plaintext and the keys."""
    keys = re.findall(r"^Key(?: \d+)?: ([A-Z]+)$", prompt, flags=re.MULTILINE)
    numbered = re.findall(r"^Key (\d+): ", prompt, flags=re.MULTILINE)
    assert keys and (numbered == [str(n) for n in range(1, len(keys) + 1)] or len(keys) == 1)
    text = ciphertext(prompt)
    for key in reversed(keys):
        letters = iter(range(len(text)))
        out = []
        for char in text:
            if char == " ":
                out.append(char)
            else:
                out.append(rotate(char, -(ord(key[next(letters) % len(key)]) - ord("A"))))
        text = "".join(out)
    return text, keys


def solve_v2(prompt: str) -> str:
    if "Vigenere" in prompt:
        return vigenere_solve(prompt)[0]
    if "The number of places is not given" in prompt:
        return search_solve(prompt)
    return solve(prompt)


@pytest.mark.parametrize("d", sorted({d for d, _ in D_SEEDS}))
def test_difficulty_rederived_from_prompt(d: int) -> None:
    cfg = FAMILY.difficulty(d)
    for seed in [s for dd, s in D_SEEDS if dd == d]:
        puzzle = make_at(FAMILY, d, seed)
        plain = solve_v2(puzzle.prompt)
        assert puzzle.answer == plain, (d, seed)
        assert set(plain.split()) <= SENTENCE_WORDS
        assert plain.count(" AND ") + 1 == cfg.clauses
        assert ciphertext(puzzle.prompt) != plain
        assert puzzle.prompt.endswith(V2_EXAMPLE) and "THE CAT SAT" not in puzzle.prompt
        assert FAMILY.check(puzzle, puzzle.answer)
        checks.assert_rejects(FAMILY, puzzle, [PLACEHOLDER, ciphertext(puzzle.prompt)])
        if cfg.mode == "vigenere":
            keys = vigenere_solve(puzzle.prompt)[1]
            assert [len(key) for key in keys] == list(cfg.key_lengths)
            assert "A" not in "".join(keys)  # every key letter moves its letter


def test_modes_by_difficulty() -> None:
    assert [FAMILY.difficulty(d).mode for d in range(7)] == [
        *["shift"] * 3,
        *["search"] * 2,
        *["vigenere"] * 2,
    ]
    assert FAMILY.difficulty(0).max_shift == 3
    assert "by the same number of places" in make_at(FAMILY, 3, 1).prompt
    assert FAMILY.difficulty(8).key_lengths == (6, 7)
    assert FAMILY.difficulty(20).key_lengths == (18, 19, 20, 21, 22)


def effort(cfg: CaesarConfig) -> int:
    """Clauses times the shifts to add per letter; a hidden shift and a larger one count extra."""
    per_letter = 1 + sum(cfg.key_lengths)
    return 100 * cfg.clauses * per_letter + 50 * (cfg.mode == "search") + cfg.max_shift


def test_difficulty_grows() -> None:
    efforts = [effort(FAMILY.difficulty(d)) for d in range(41)]
    for d in range(40):
        assert efforts[d + 1] > efforts[d], d
    for d in range(30):
        cfg, later = FAMILY.difficulty(d), FAMILY.difficulty(d + 1)
        assert later.clauses >= cfg.clauses and len(later.key_lengths) >= len(cfg.key_lengths)


def test_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_placeholder_reads_as_nothing() -> None:
    assert FAMILY.normalise(PLACEHOLDER) is None
    assert f"<answer>{PLACEHOLDER}</answer>" in V2_EXAMPLE


def test_v1_format_unchanged() -> None:
    assert FAMILY.config(2).v2_format is False and FAMILY.config(2).mode == "shift"
    assert make(2, 1).prompt.endswith("for example: <answer>THE CAT SAT ON THE MAT</answer>")
