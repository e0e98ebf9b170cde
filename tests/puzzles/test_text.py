"""The text family: every answer re-derived from the prompt text by an independent solver."""

from __future__ import annotations

import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.text import PLACEHOLDER, TIERS, TextConfig, TextFamily

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
    elif m := re.fullmatch(
        r"Reverse the order of the characters from position (\d+) to position (\d+)", step
    ):
        start, end = int(m.group(1)), int(m.group(2))
        assert 1 <= start < end <= len(chars)
        chars[start - 1 : end] = chars[start - 1 : end][::-1]
    elif m := re.fullmatch(
        r"Move the character at position (\d+) so that it is at position (\d+)", step
    ):
        source, target = int(m.group(1)), int(m.group(2))
        assert 1 <= source <= len(chars) and 1 <= target <= len(chars) and source != target
        moved = chars.pop(source - 1)
        chars.insert(target - 1, moved)
        assert chars[target - 1] == moved
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


# ---------------------------------------------------------------- v2: open-ended difficulty d

# d = 0..12 with several seeds, and two far rungs with fewer (they take longer to re-derive).
D_SEEDS = [(d, seed) for d in range(13) for seed in range(1, 9)] + [
    (d, seed) for d in (15, 20) for seed in (1, 2)
]
V2_EXAMPLE = "in place of the dots: <answer>...</answer>"


def start_text(prompt: str) -> str:
    found = re.search(r'\nText: "([^"]*)"\n', prompt)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("d", sorted({d for d, _ in D_SEEDS}))
def test_difficulty_rederived_from_prompt(d: int) -> None:
    for seed in [s for dd, s in D_SEEDS if dd == d]:
        puzzle = make_at(FAMILY, d, seed)
        expected, case_matters, n_steps = solve(puzzle.prompt)
        assert puzzle.answer == expected and not case_matters, (d, seed)
        assert FAMILY.check(puzzle, puzzle.answer) and FAMILY.check(puzzle, puzzle.answer.upper())
        assert V2_EXAMPLE in puzzle.prompt and "silver moon" not in puzzle.prompt
        assert re.fullmatch(r"[a-z]+( [a-z]+)*", puzzle.answer)
        text = start_text(puzzle.prompt)
        if d == 0:
            assert "exactly as it is" in puzzle.prompt and re.fullmatch(r"[a-z]+", text)
        elif d == 1:
            assert n_steps == 0 and (" " in text or len(text) <= 5)
        else:  # the edits never give the starting text back, so repeating it never passes
            assert n_steps == FAMILY.difficulty(d).max_ops >= 1 and puzzle.answer != text
            checks.assert_rejects(FAMILY, puzzle, [text])
        checks.assert_rejects(FAMILY, puzzle, [near_miss(puzzle.answer), PLACEHOLDER])


def test_placeholder_reads_as_nothing() -> None:
    """The v2 format example is ``<answer>...</answer>``: copying it is never an answer."""
    assert FAMILY.normalise(PLACEHOLDER) is None
    assert FAMILY.normalise(f" {PLACEHOLDER} ") is None
    assert f"<answer>{PLACEHOLDER}</answer>" in V2_EXAMPLE


def test_d1_covers_phrase_and_reversal() -> None:
    prompts = [make_at(FAMILY, 1, seed).prompt for seed in range(1, 17)]
    assert any("exactly as it is" in prompt for prompt in prompts)
    assert any("in reverse order" in prompt for prompt in prompts)


def test_hard_edits_appear_from_d5() -> None:
    def kinds(d: int) -> set[str]:
        prompts = [make_at(FAMILY, d, seed).prompt for seed in range(1, 5)]
        return {step.split()[0] for p in prompts for step in re.findall(r"^\d+\. (.+)$", p, re.M)}

    assert not {"Reverse", "Move", "Keep"} & kinds(4)
    assert {"Reverse", "Move", "Insert", "Delete", "Swap", "Replace"} <= kinds(5)


def effort(cfg: TextConfig) -> int:
    """Characters times edits to track; below the edits, words to echo and a word to reverse."""
    echo = cfg.max_words if "echo" in cfg.tasks else 0
    return 10 * cfg.max_ops * cfg.max_length + echo + ("reverse" in cfg.tasks)


def test_difficulty_grows() -> None:
    efforts = [effort(FAMILY.difficulty(d)) for d in range(31)]
    for d in range(30):
        assert efforts[d + 1] >= efforts[d], d
    for d in range(28):
        assert efforts[d + 3] > efforts[d], d
    assert efforts[0] == 1  # one word to repeat


def test_negative_difficulty_raises() -> None:
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v1_format_unchanged() -> None:
    for tier in sorted(TIERS):
        assert FAMILY.config(tier).v2_format is False
        assert "for example: <answer>silver moon</answer>" in make(tier, 1).prompt
