"""Hidden function: infer a composed function from input -> output examples and apply it.

A hidden function f on integers (0..99) or on short lists of digits is a composition of
primitives from a small DSL that the prompt lists in full (integers: add, multiply, square,
mod, digit sum, reverse digits, integer divide; lists: sort, reverse, add / multiply each,
keep even / odd, take / drop the first n, running sums, drop duplicates). The prompt shows
input -> output examples and asks for f(query).

Why each tier is harder:
- tier 4: one primitive, 4 examples: a lookup against the listed operations.
- tier 5: two primitives, 4-5 examples: ~30^2 candidates and the intermediate value is hidden.
- tier 6: three primitives, 5-6 examples: ~30^3 candidates; partial explanations that fit
  some examples must be discarded, which needs systematic search rather than a guess.

Suite v2 (``difficulty(d)``, open-ended): the examples are as few as determine the answer -
the generator shows examples one at a time and stops at the first count where every program
of 1..depth steps that fits them gives the same f(query) - so no redundant example lets a
guess be checked. Each step of d adds one of:
- composition length: depth = min(1 + (d + 1) // 2, 4) (d = 0: 1 step; d = 1-2: 2; d = 3-4:
  3; d >= 5: 4), each extra hidden step multiplies the search (~30x) and hides one more
  intermediate value;
- larger inputs, at every step: integers are drawn from 0..round(10 ** (1 + d / 3)) - 1
  (0..9 at d = 0, 0..99 at d = 3, 0..999 at d = 6, 0..9999 at d = 9, ...: one more digit
  every three steps) and lists hold 3..4 + d digits. Longer values mean more to track by
  hand through every hidden step, without enlarging the program search.
The composition length is capped at 4 because proving uniqueness over all programs of 5 steps
(~2 million distinct value vectors for the integer DSL) takes tens of seconds in Python; the
other axes grow without bound. v2 prompts show a placeholder answer template that the
normaliser cannot read, not an answer-like example.

Uniqueness: every DSL program with 1..depth steps is enumerated (deduplicated by its values on
the example and query inputs, which is all that matters) and an instance is kept only when all
programs consistent with the examples agree on f(query) and none shorter than the drawn one
fits, so a tier's function really needs its number of steps. Otherwise everything is redrawn
from the same rng.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise
from typing import Any

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register

Value = Any  # an int, or a tuple of ints for the list domain
# (name, function of one value). Callable[..., Any]: mypy cannot infer a lambda that binds its
# constant as a default argument (``lambda x, k=k: x + k``) against a one-argument Callable.
Op = tuple[str, Callable[..., Any]]


@dataclass(frozen=True)
class HiddenFunctionConfig:
    """One rung. v1 tiers set depth and an example count; ``difficulty(d)`` (v2) sets depth
    min(1 + (d + 1) // 2, 4), inputs 0..round(10 ** (1 + d / 3)) - 1 and lists of 3..4 + d
    digits, and shows only the examples that determine the answer (see the module doc)."""

    depth: int  # primitives composed in the hidden function (and the most the prompt allows)
    min_examples: int
    max_examples: int
    max_int_input: int = 99  # integer inputs are drawn from 0..max_int_input
    min_list_len: int = 3
    max_list_len: int = 6  # list inputs hold digits 0..9
    max_value: int = 9999  # every shown output (and each list element) stays <= this
    # Suite v2: show examples only until the answer is determined (min/max_examples then
    # bound that count) and a placeholder answer template; False keeps v1's draws and prompt.
    minimal_examples: bool = False


TIERS: dict[int, HiddenFunctionConfig] = {
    4: HiddenFunctionConfig(depth=1, min_examples=4, max_examples=4),
    5: HiddenFunctionConfig(depth=2, min_examples=4, max_examples=5),
    6: HiddenFunctionConfig(depth=3, min_examples=5, max_examples=6),
}

PROMPT_TEMPLATE = """\
A hidden function f takes {domain} and returns {codomain}. f is {steps}, each chosen from \
this list (a letter such as k stands for one fixed number from the range shown):
{operations}

Examples:
{examples}

What is f({query})?

{answer_format}"""

V1_ANSWER_FORMAT = """\
Give your final answer in the same notation as the example outputs (an integer such as 42, \
or a list such as [3, 1, 2]) inside <answer></answer> tags, for example <answer>42</answer> \
or <answer>[3, 1, 2]</answer>."""

V2_ANSWER_FORMAT = """\
Give your final answer in the same notation as the example outputs (an integer, or a list of \
integers in square brackets separated by commas). Put your final answer inside \
<answer></answer> tags, like this: <answer>YOUR VALUE</answer>."""
PLACEHOLDER = "YOUR VALUE"
MAX_DEPTH = 4  # the longest v2 composition whose uniqueness the generator proves quickly

INT_OPERATIONS = """\
- add k (k = 1..9)
- multiply by k (k = 2..5)
- square (x * x)
- mod m (the remainder of x divided by m, m = 2..10)
- digit sum (the sum of the decimal digits of x)
- reverse digits (write the decimal digits in reverse order; leading zeros vanish: 120 -> 21)
- integer divide by d (divide by d and round down, d = 2..5)"""

LIST_OPERATIONS = """\
- sort (ascending)
- reverse (reverse the order of the elements)
- add k to each element (k = 1..5)
- multiply each element by k (k = 2 or 3)
- keep even (keep only the even elements, in order)
- keep odd (keep only the odd elements, in order)
- take first n (keep only the first n elements, n = 1..3; a shorter list is kept whole)
- drop first n (remove the first n elements, n = 1 or 2; a shorter list becomes [])
- running sum (replace each element by the sum of itself and all elements before it)
- drop duplicates (keep only the first occurrence of each value)"""


def _digit_sum(x: int) -> int:
    return sum(int(c) for c in str(x))


def _reverse_digits(x: int) -> int:
    return int(str(x)[::-1])


def _int_ops() -> tuple[Op, ...]:
    ops: list[Op] = [(f"add {k}", lambda x, k=k: x + k) for k in range(1, 10)]
    ops += [(f"multiply by {k}", lambda x, k=k: x * k) for k in range(2, 6)]
    ops.append(("square", lambda x: x * x))
    ops += [(f"mod {m}", lambda x, m=m: x % m) for m in range(2, 11)]
    ops.append(("digit sum", _digit_sum))
    ops.append(("reverse digits", _reverse_digits))
    ops += [(f"integer divide by {d}", lambda x, d=d: x // d) for d in range(2, 6)]
    return tuple(ops)


def _list_ops() -> tuple[Op, ...]:
    ops: list[Op] = [
        ("sort", lambda xs: tuple(sorted(xs))),
        ("reverse", lambda xs: xs[::-1]),
    ]
    ops += [(f"add {k} to each", lambda xs, k=k: tuple(x + k for x in xs)) for k in range(1, 6)]
    ops += [(f"multiply each by {k}", lambda xs, k=k: tuple(x * k for x in xs)) for k in (2, 3)]
    ops.append(("keep even", lambda xs: tuple(x for x in xs if x % 2 == 0)))
    ops.append(("keep odd", lambda xs: tuple(x for x in xs if x % 2 == 1)))
    ops += [(f"take first {n}", lambda xs, n=n: xs[:n]) for n in (1, 2, 3)]
    ops += [(f"drop first {n}", lambda xs, n=n: xs[n:]) for n in (1, 2)]
    ops.append(("running sum", lambda xs: tuple(accumulate(xs))))
    ops.append(("drop duplicates", lambda xs: tuple(dict.fromkeys(xs))))
    return tuple(ops)


# The candidate programs are built once, in a fixed order.
INT_OPS: tuple[Op, ...] = _int_ops()
LIST_OPS: tuple[Op, ...] = _list_ops()

MAX_ATTEMPTS = 5000
MIN_DISTINCT_OUTPUTS = 3


def _show(value: Value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _too_big(value: Value, limit: int) -> bool:
    if isinstance(value, tuple):
        return any(v > limit for v in value)
    return value > limit


def consistent_answers(
    ops: Sequence[Op], inputs: Sequence[Value], outputs: Sequence[Value], depth: int
) -> dict[Value, int]:
    """Map each f(query) given by a program of 1..depth steps that fits every example to the
    fewest steps that give it. ``inputs`` holds the example inputs followed by the query.

    Programs are explored breadth first as vectors of values on all inputs; a vector already
    expanded is not expanded again (its continuations are the same), which keeps depth 3 cheap.
    """
    n = len(outputs)
    target = tuple(outputs)
    answers: dict[Value, int] = {}
    frontier = [tuple(inputs)]
    seen: set[tuple[Value, ...]] = set()
    for d in range(1, depth + 1):
        last = d == depth
        nxt: list[tuple[Value, ...]] = []
        for state in frontier:
            for _, fn in ops:
                if last and fn(state[0]) != target[0]:
                    continue  # cheap rejection on the first example
                new = tuple(fn(v) for v in state)
                if new[:n] == target and new[n] not in answers:
                    answers[new[n]] = d
                if not last and new not in seen:
                    seen.add(new)
                    nxt.append(new)
        frontier = nxt
    return answers


def _draw_inputs(rng: random.Random, cfg: HiddenFunctionConfig, domain: str, count: int) -> list:
    if domain == "int":
        return rng.sample(range(cfg.max_int_input + 1), count)
    values: list[tuple[int, ...]] = []
    while len(values) < count:
        length = rng.randint(cfg.min_list_len, cfg.max_list_len)
        xs = tuple(rng.randint(0, 9) for _ in range(length))
        if xs not in values:
            values.append(xs)
    return values


def _run(program: Sequence[Op], x: Value) -> Value:
    for _, fn in program:
        x = fn(x)
    return x


def _reducible(program: Sequence[Op], ops: Sequence[Op], inputs: Sequence[Value]) -> bool:
    """Two adjacent steps act on ``inputs`` as no step or one step (add 2 then add 3, sort
    twice...): a shorter program fits, so the draw is wasted; skip the search."""
    for (_, first), (_, second) in pairwise(program):
        pair = [second(first(x)) for x in inputs]
        if pair == list(inputs) or any(pair == [fn(x) for x in inputs] for _, fn in ops):
            return True
    return False


def _steps_text(depth: int) -> str:
    if depth == 1:
        return "exactly one operation"
    return f"a sequence of 1 to {depth} operations applied one after another"


def _useful_values(ops: Sequence[Op], x: Value, y: Value, depth: int) -> list[set[Value]]:
    """``useful[k]``: the values k steps from x from which y is reachable in 0..depth-k more
    steps. Scalar layers are far smaller than the vector states, so they prune the search."""
    layers: list[set[Value]] = [{x}]
    for _ in range(depth - 1):
        layers.append({fn(v) for v in layers[-1] for _, fn in ops})
    useful: list[set[Value]] = [set() for _ in range(depth + 1)]
    useful[depth] = {y}
    for k in range(depth - 1, -1, -1):
        useful[k] = {v for v in layers[k] if v == y or any(fn(v) in useful[k + 1] for _, fn in ops)}
    return useful


def pruned_answers(
    ops: Sequence[Op],
    inputs: Sequence[Value],
    outputs: Sequence[Value],
    query: Value,
    depth: int,
    stop_at: int = 0,
    useful: list[set[Value]] | None = None,
) -> dict[Value, int]:
    """Like ``consistent_answers`` (f(query) of every fitting program of 1..depth steps, to
    the fewest steps giving it) but pruned by the first example: a state whose first value
    cannot reach the first output in the steps left is dropped (``useful``: that example's
    ``_useful_values``, when already known). Stops once ``stop_at`` different answers are
    known (0: never)."""
    n = len(outputs)
    target = tuple(outputs)
    if useful is None:
        useful = _useful_values(ops, inputs[0], outputs[0], depth)
    answers: dict[Value, int] = {}
    frontier = [(*inputs, query)]
    seen: set[tuple[Value, ...]] = set()
    for d in range(1, depth + 1):
        nxt: list[tuple[Value, ...]] = []
        for state in frontier:
            for _, fn in ops:
                if fn(state[0]) not in useful[d]:
                    continue
                new = tuple(fn(v) for v in state)
                if new[:n] == target and new[n] not in answers:
                    answers[new[n]] = d
                    if len(answers) == stop_at:
                        return answers
                if d < depth and new not in seen:
                    seen.add(new)
                    nxt.append(new)
        frontier = nxt
    return answers


def _fewest_examples(
    ops: Sequence[Op],
    pool: Sequence[Value],
    outputs: Sequence[Value],
    query: Value,
    cfg: HiddenFunctionConfig,
) -> int | None:
    """The fewest leading examples of ``pool`` after which every fitting program agrees on
    f(query), or None when the whole pool leaves it open or a shorter program fits."""
    useful = _useful_values(ops, pool[0], outputs[0], cfg.depth)
    for k in range(max(1, cfg.min_examples), len(pool) + 1):
        answers = pruned_answers(
            ops, pool[:k], outputs[:k], query, cfg.depth, stop_at=2, useful=useful
        )
        if len(answers) > 1:
            continue  # (fewer than two answers: the search ran to the end)
        if len(answers) == 1 and min(answers.values()) == cfg.depth:
            return k
        return None
    return None


@register
class HiddenFunction(Family):
    name = "hidden_function"
    tiers = TIERS

    def difficulty(self, d: int) -> HiddenFunctionConfig:
        """Depth min(1 + (d + 1) // 2, 4), then larger inputs (see the module docstring); whole
        numbers stop growing at 18 digits (d = 51, what ``random.sample`` can draw from), lists
        keep growing."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        max_input = round(10 ** (1 + min(d, 51) / 3)) - 1  # one more digit every three steps
        return HiddenFunctionConfig(
            depth=min(1 + (d + 1) // 2, MAX_DEPTH),
            min_examples=1,
            max_examples=8 + d // 4,
            max_int_input=max_input,
            min_list_len=3,
            max_list_len=4 + d,
            max_value=max(9999, 100 * max_input),
            minimal_examples=True,
        )

    def generate(self, rng: random.Random, cfg: HiddenFunctionConfig) -> Puzzle:
        if cfg.minimal_examples:
            return self._generate_minimal(rng, cfg)
        for _ in range(MAX_ATTEMPTS):
            domain = rng.choice(("int", "list"))
            ops = INT_OPS if domain == "int" else LIST_OPS
            program = [rng.choice(ops) for _ in range(cfg.depth)]
            n_examples = rng.randint(cfg.min_examples, cfg.max_examples)
            inputs = _draw_inputs(rng, cfg, domain, n_examples + 1)
            values = []
            for x in inputs:
                for _, fn in program:
                    x = fn(x)
                values.append(x)
            if any(_too_big(v, cfg.max_value) for v in values) or values[-1] == ():
                continue
            if len(set(values[:-1])) < MIN_DISTINCT_OUTPUTS:
                continue  # a near-constant function is guessable without understanding it
            answers = consistent_answers(ops, inputs, values[:-1], cfg.depth)
            if set(answers) != {values[-1]} or answers[values[-1]] != cfg.depth:
                continue
            examples = "\n".join(f"f({_show(x)}) = {_show(y)}" for x, y in zip(inputs, values[:-1]))
            steps = (
                "exactly one operation"
                if cfg.depth == 1
                else f"a sequence of 1 to {cfg.depth} operations applied one after another"
            )
            prompt = PROMPT_TEMPLATE.format(
                domain="an integer" if domain == "int" else "a list of integers",
                codomain="an integer" if domain == "int" else "a list of integers",
                steps=steps,
                operations=INT_OPERATIONS if domain == "int" else LIST_OPERATIONS,
                examples=examples,
                query=_show(inputs[-1]),
                answer_format=V1_ANSWER_FORMAT,
            )
            return Puzzle(prompt=prompt, answer=_show(values[-1]))
        raise RuntimeError(f"hidden_function: no unique instance in {MAX_ATTEMPTS} draws")

    def _generate_minimal(self, rng: random.Random, cfg: HiddenFunctionConfig) -> Puzzle:
        """v2: a program of exactly ``cfg.depth`` steps, the fewest examples fixing f(query)."""
        for _ in range(MAX_ATTEMPTS):
            domain = rng.choice(("int", "list"))
            ops = INT_OPS if domain == "int" else LIST_OPS
            program = [rng.choice(ops) for _ in range(cfg.depth)]
            inputs = _draw_inputs(rng, cfg, domain, cfg.max_examples + 1)
            query, pool = inputs[0], inputs[1:]
            values = [_run(program, x) for x in inputs]
            if any(_too_big(v, cfg.max_value) for v in values) or values[0] == ():
                continue
            if len(set(values[1:])) < MIN_DISTINCT_OUTPUTS or _reducible(program, ops, inputs):
                continue
            shown = _fewest_examples(ops, pool, values[1:], query, cfg)
            if shown is None:
                continue
            examples = "\n".join(
                f"f({_show(x)}) = {_show(y)}" for x, y in zip(pool[:shown], values[1 : shown + 1])
            )
            prompt = PROMPT_TEMPLATE.format(
                domain="an integer" if domain == "int" else "a list of integers",
                codomain="an integer" if domain == "int" else "a list of integers",
                steps=_steps_text(cfg.depth),
                operations=INT_OPERATIONS if domain == "int" else LIST_OPERATIONS,
                examples=examples,
                query=_show(query),
                answer_format=V2_ANSWER_FORMAT,
            )
            return Puzzle(prompt=prompt, answer=_show(values[0]))
        raise RuntimeError(f"hidden_function: no unique instance in {MAX_ATTEMPTS} draws")

    def normalise(self, text: str) -> str | None:
        """An integer ("42", "+42", "1,234") or a list ("[1, 2, 3]", "(1,2,3)", "1 2 3").

        A leading "f(...) =" is dropped. A bare single number is an integer; a list needs
        brackets or at least two elements, so "5" and "[5]" stay different answers.
        """
        if not isinstance(text, str):
            return None
        s = text.strip()
        if "=" in s:
            s = s.rsplit("=", 1)[1]
        s = s.strip().strip("`'\"").strip().rstrip(".").strip()
        if not s or len(s) > 1000:
            return None
        number = re.fullmatch(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d{1,50})", s)
        if number:
            value = int(number.group(2).replace(",", ""))
            return str(-value if number.group(1) == "-" else value)
        bracketed = s[0] in "[(" and s[-1] in "])"
        inner = s[1:-1] if bracketed else s
        tokens = [t for t in re.split(r"[\s,;]+", inner) if t]
        if not tokens:
            return "[]" if bracketed else None
        if not bracketed and len(tokens) < 2:
            return None
        if not all(re.fullmatch(r"[+-]?\d{1,50}", t) for t in tokens):
            return None
        return "[" + ", ".join(str(int(t)) for t in tokens) + "]"
