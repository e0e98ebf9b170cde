"""The text family: every answer re-derived from the prompt text by an independent solver."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.text import TIERS, TextFamily

FAMILY = TextFamily()


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def apply_step(chars: list[str], step: str) -> list[str]:
    """Apply one numbered operation, with 1-based positions, to a list of characters."""
    chars = list(chars)
    if m := re.fullmatch(r'Insert the letter "([a-z])" at position (\d+)', step):
        pos = int(m.group(2))
        assert 1 <= pos <= len(chars) + 1
        chars.insert(pos - 1, m.group(1))
    elif m := re.fullmatch(r"Delete the character at position (\d+)", step):
        pos = int(m.group(1))
        assert 1 <= pos <= len(chars)
        del chars[pos - 1]
    elif m := re.fullmatch(r'Replace the character at position (\d+) with "([a-z])"', step):
        pos = int(m.group(1))
        assert 1 <= pos <= len(chars)
        chars[pos - 1] = m.group(2)
    elif m := re.fullmatch(r"Swap the characters at positions (\d+) and (\d+)", step):
        i, j = int(m.group(1)), int(m.group(2))
        assert 1 <= i < j <= len(chars)
        chars[i - 1], chars[j - 1] = chars[j - 1], chars[i - 1]
    elif m := re.fullmatch(
        r"Keep only the characters from position (\d+) to position (\d+) "
        r"\(both included\) and delete the rest",
        step,
    ):
        start, end = int(m.group(1)), int(m.group(2))
        assert 1 <= start <= end <= len(chars)
        chars = chars[start - 1 : end]
    else:
        raise AssertionError(f"unknown step: {step!r}")
    return chars


def solve(prompt: str) -> tuple[str, bool, int]:
    """(expected canonical answer, whether case matters, number of edit steps)."""
    text_match = re.search(r'\nText: "([^"]*)"\n', prompt)
    assert text_match is not None
    text = text_match.group(1)
    case_matters = "Case matters:" in prompt
    assert case_matters != ("Case does not matter:" in prompt)
    steps = re.findall(r"^\d+\. (.+)\.$", prompt, flags=re.MULTILINE)
    if "exactly as it is" in prompt:
        result = text
    elif "in reverse order" in prompt:
        result = "".join(reversed(text))
    elif "first letter of every word in upper case" in prompt:
        result = " ".join(word[:1].upper() + word[1:].lower() for word in text.split(" "))
    else:
        assert "Apply these operations" in prompt and steps
        chars = list(text)
        for step in steps:
            chars = apply_step(chars, step)
        result = "".join(chars)
    return (result if case_matters else result.lower()), case_matters, len(steps)


def test_required_tiers() -> None:
    assert {0, 1} <= set(TIERS)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        expected, case_matters, n_steps = solve(puzzle.prompt)
        assert puzzle.answer == expected, (tier, seed)
        assert FAMILY.check(puzzle, puzzle.answer)
        if tier == 0:
            assert n_steps == 0
        elif tier == 1:
            assert 1 <= n_steps <= 2 and not case_matters
        else:
            assert n_steps >= 3 and not case_matters


def test_tier0_covers_every_task() -> None:
    prompts = [make(0, seed).prompt for seed in SEEDS]
    for marker in ["exactly as it is", "in reverse order", "first letter of every word"]:
        assert any(marker in prompt for prompt in prompts), marker


def near_miss(answer: str) -> str:
    """The answer with its last letter changed."""
    last = answer[-1]
    other = "b" if last.lower() != "b" else "c"
    return answer[:-1] + (other.upper() if last.isupper() else other)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_normalise_variants(tier: int) -> None:
    for seed in SEEDS:
        puzzle = make(tier, seed)
        answer = puzzle.answer
        _, case_matters, _ = solve(puzzle.prompt)
        wrapped = [f" {answer} ", f'"{answer}"', f"\u201c{answer}\u201d", f"{answer}."]
        checks.assert_accepts(FAMILY, puzzle, [answer, *wrapped, answer.replace(" ", "  ")])
        checks.assert_rejects(FAMILY, puzzle, [near_miss(answer), answer + "x"])
        if case_matters:
            checks.assert_rejects(
                FAMILY, puzzle, [answer.lower(), answer.upper(), answer.capitalize()]
            )
        else:
            checks.assert_accepts(FAMILY, puzzle, [answer.upper(), answer.capitalize()])


def test_normalise_empty_is_none() -> None:
    checks.assert_unreadable(FAMILY, ["", '  ""  '])
    checks.assert_rejects(FAMILY, make(0, 1), [None])


def test_any_casing_passes_where_case_does_not_matter() -> None:
    """The prompt says case does not matter: title case, swapped and mixed case all pass."""
    for tier in sorted(TIERS):
        for seed in SEEDS:
            puzzle = make(tier, seed)
            _, case_matters, _ = solve(puzzle.prompt)
            if case_matters:
                continue
            answer = puzzle.answer
            mixed = "".join(c.upper() if i % 2 else c for i, c in enumerate(answer))
            checks.assert_accepts(FAMILY, puzzle, [answer.title(), answer.swapcase(), mixed])
            checks.assert_rejects(FAMILY, puzzle, [near_miss(answer).title()])
