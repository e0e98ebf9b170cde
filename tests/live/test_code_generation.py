"""code_generation: the hidden tests are re-derived from the prompt text by independent solutions.

The prompt names the function; its constants are read back from the description with regular
expressions, and each template is solved again here, in a different way from the reference
(``oracle`` below, also used by test_code_completion). Answers are scored through the sandbox.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import json
import random
import re
import textwrap
from collections import Counter, defaultdict, deque
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import (
    HARDER_LEVELS,
    INDICES,
    RELEASE,
    load_ladder,
    make_question,
    record,
)

from ladderbench.errors import UserError
from ladderbench.execution import sandbox
from ladderbench.grading.code import extract_code
from ladderbench.live.base import Question, Sources
from ladderbench.live.tasks._code_problems import (
    MAX_TESTS,
    MIN_TESTS,
    TEMPLATES,
    make_problem,
    problem_fields,
)
from ladderbench.live.tasks._code_templates import algorithms
from ladderbench.live.tasks.code_generation import CodeGeneration

TASK = CodeGeneration()


@pytest.fixture(autouse=True)
def run_trusted_code_without_namespaces():
    """These tests run only trusted code (and arbitrary text): where the machine cannot make
    namespaces they still run, without them (test_sandbox covers the refusal)."""
    with sandbox.unsafe_allowed(not sandbox.isolation().sealed):
        yield


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def fence(code: str, lang: str = "python") -> str:
    return f"```{lang}\n{code}```"


# ---------------------------------------------------------------- independent solutions


def _num(pattern: str, text: str, group: int = 1) -> int:
    m = re.search(pattern, text)
    assert m, pattern
    return int(m.group(group))


def _rotate(text: str, prompt: str) -> str:
    direction, k = re.search(r"cyclically to the (left|right) by (\d+) positions", prompt).groups()

    def one(m: re.Match) -> str:
        word = m.group()
        s = int(k) % len(word)
        if direction == "right":
            s = (len(word) - s) % len(word)
        moved = word.lower()[s:] + word.lower()[:s]
        return "".join(c.upper() if o.isupper() else c for c, o in zip(moved, word))

    return re.sub(r"[A-Za-z]+", one, text)


def _compress(s: str, prompt: str) -> str:
    cap = _num(r"pieces of at most (\d+) letters", prompt)
    t = _num(r"Write each piece of at least (\d+) letters", prompt)
    out = ""
    for letter, group in itertools.groupby(s):
        full, rest = divmod(len(list(group)), cap)
        for size in [cap] * full + ([rest] if rest else []):
            out += f"{size}{letter}" if size >= t else letter * size
    return out


def _justify(words: list[str], prompt: str) -> list[str]:
    width = _num(r"lines of exactly (\d+) characters", prompt)
    side = re.search(r"the (leftmost|rightmost) gaps get one extra", prompt).group(1)
    lines = textwrap.wrap(" ".join(words), width, break_long_words=False)
    out = []
    for n, line in enumerate(lines):
        parts = line.split(" ")
        if n == len(lines) - 1 or len(parts) == 1:
            out.append(line.ljust(width))
            continue
        gaps = [1] * (len(parts) - 1)
        order = range(len(gaps)) if side == "leftmost" else range(len(gaps) - 1, -1, -1)
        spare = width - len(line)
        for i in itertools.cycle(order):
            if not spare:
                break
            gaps[i] += 1
            spare -= 1
        out.append("".join(p + " " * g for p, g in zip(parts, [*gaps, 0])))
    return out


def _shift(text: str, prompt: str) -> str:
    k = _num(r"by the vowel (\d+) places? later", prompt)
    m = _num(r"reverse the characters of the (\d+)(?:st|nd|rd|th),", prompt)
    table = {v: "aeiou"[(i + k) % 5] for i, v in enumerate("aeiou")}
    table.update({v.upper(): w.upper() for v, w in table.items()})
    words = [w.translate(str.maketrans(table)) for w in text.split(" ")]
    with_vowel = [i for i, w in enumerate(words) if set(w.lower()) & set("aeiou")]
    for n, i in enumerate(with_vowel, 1):
        if n % m == 0:
            words[i] = words[i][::-1]
    return " ".join(words)


def _partition(nums: list[int], prompt: str) -> list[int]:
    m = _num(r"divisible by (\d+)", prompt)
    r = _num(r"to the left by (\d+) positions", prompt)
    step = _num(r"index is a multiple of (\d+)", prompt)
    d = deque(sorted(nums, key=lambda x: x % m == 0))
    d.rotate(-r)
    return [-x if i % step == 0 else x for i, x in enumerate(d)]


def _next_jump(nums: list[int], prompt: str) -> list[int]:
    w = _num(r"i < j <= i \+ (\d+)", prompt)
    d = _num(r"nums\[j\] >= nums\[i\] \+ (\d+)", prompt)
    n = len(nums)
    return [
        next((j - i for j in range(i + 1, min(n, i + w + 1)) if nums[j] - nums[i] >= d), 0)
        for i in range(n)
    ]


def _count_divisible(nums: list[int], prompt: str) -> int:
    least = _num(r"of length at least (\d+)", prompt)
    m = _num(r"whose sum is divisible by (\d+)", prompt)
    prefix = [0, *itertools.accumulate(nums)]
    return sum(
        (prefix[j] - prefix[i]) % m == 0
        for i in range(len(prefix))
        for j in range(i + least, len(prefix))
    )


def _store(ops: list[str], prompt: str) -> list[str]:
    cap = _num(r"more than (\d+) units", prompt)
    stock: Counter = Counter()
    for op in ops:
        verb, a, b = op.split()
        if verb == "add":
            stock[a] = min(cap, stock[a] + int(b))
        elif verb == "remove" and 0 < int(b) <= stock[a]:
            stock[a] -= int(b)
        elif verb == "rename" and stock[a] > 0 and a != b:
            stock[b] = min(cap, stock[b] + stock[a])
            stock[a] = 0
    return sorted(f"{name}:{qty}" for name, qty in stock.items() if qty > 0)


def _top_words(text: str, prompt: str) -> list[list]:
    short = _num(r"shorter than (\d+) letters", prompt)
    k = _num(r"Return the (\d+) most frequent", prompt)
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) >= short]
    counts = Counter(words)
    ranked = sorted(counts, key=lambda w: (-counts[w], words.index(w)))
    return [[w, counts[w]] for w in ranked[:k]]


def _groups(values: dict[str, int], prompt: str) -> dict[str, list[str]]:
    m = _num(r"modulo (\d+)", prompt)
    out = defaultdict(list)
    for name in sorted(values, key=lambda n: (values[n], n)):
        out[str(values[name] % m)].append(name)
    return dict(out)


def _covered(intervals: list[list[int]], prompt: str) -> int:
    g = _num(r"at most (\d+) past the block's end", prompt)
    blocks: list[list[int]] = []
    for a, b in sorted(intervals):
        if blocks and a <= blocks[-1][1] + g:
            blocks[-1][1] = max(blocks[-1][1], b)
        else:
            blocks.append([a, b])
    return sum(b - a for a, b in blocks)


def _rooms(meetings: list[list[int]], prompt: str) -> int:
    c = _num(r"needs (\d+) minutes of cleaning", prompt)
    free_at: list[int] = []
    for start, end in sorted(meetings):
        if free_at and free_at[0] <= start:
            heapq.heapreplace(free_at, end + c)
        else:
            heapq.heappush(free_at, end + c)
    return len(free_at)


def _free(busy: list[list[int]], prompt: str) -> list[list[int]]:
    start = _num(r"working day is \[(\d+), (\d+)\)", prompt, 1)
    end = _num(r"working day is \[(\d+), (\d+)\)", prompt, 2)
    shortest = _num(r"at least (\d+) minutes long", prompt)
    taken = [False] * (end - start)
    for a, b in busy:
        for t in range(max(a, start), min(b, end)):
            taken[t - start] = True
    out = []
    for is_taken, group in itertools.groupby(enumerate(taken), key=lambda p: p[1]):
        minutes = [t for t, _ in group]
        if not is_taken and len(minutes) >= shortest:
            out.append([start + minutes[0], start + minutes[-1] + 1])
    return out


def _schedule(tasks: str, prompt: str) -> str:
    d = _num(r"looks at the first (\d+) tasks", prompt)
    n = _num(r"previous (\d+) time units", prompt)
    queue, last, out, t = list(tasks), {}, "", 0
    while queue:
        ready = [i for i, x in enumerate(queue[:d]) if last.get(x, -(10**9)) < t - n]
        if ready:
            last[queue[ready[0]]] = t
            out += queue.pop(ready[0])
        else:
            out += "."
        t += 1
    return out


def _account(ops: list[str], prompt: str) -> list[int]:
    limit = _num(r"take the balance below -(\d+)", prompt)
    fee = _num(r"overdraft fee of (\d+)", prompt)
    every = _num(r"After the (\d+)(?:st|nd|rd|th),", prompt)
    balance = rejected = fees = 0
    for i, op in enumerate(ops, 1):
        verb, amount = op.split()
        if verb == "deposit":
            balance += int(amount)
        elif balance - int(amount) >= -limit:
            balance -= int(amount)
            if balance < 0:
                balance, fees = balance - fee, fees + 1
        else:
            rejected += 1
        if i % every == 0 and balance < 0:
            balance, fees = balance - fee, fees + 1
    return [balance, rejected, fees]


def _evolve(row: str, prompt: str) -> str:
    rule = _num(r"elementary rule (\d+)", prompt)
    steps = _num(r"after (\d+) steps", prompt)
    bits = format(rule, "08b")[::-1]
    for _ in range(steps):
        n = len(row)
        row = "".join(
            "#"
            if bits[
                int(
                    "".join(
                        "1" if c == "#" else "0" for c in (row[i - 1], row[i], row[(i + 1) % n])
                    ),
                    2,
                )
            ]
            == "1"
            else "."
            for i in range(n)
        )
    return row


ORACLES = {
    "rotate_words": _rotate,
    "compress_runs": _compress,
    "justify": _justify,
    "shift_vowels": _shift,
    "partition_rotate": _partition,
    "next_jump": _next_jump,
    "count_divisible": _count_divisible,
    "run_store": _store,
    "top_words": _top_words,
    "group_by_remainder": _groups,
    "covered_length": _covered,
    "rooms_needed": _rooms,
    "free_slots": _free,
    "schedule": _schedule,
    "run_account": _account,
    "evolve": _evolve,
}


# ---------------------------------------------------------------- algorithmic (difficulty >= 1)

SMALL = 300  # inputs up to this size are also checked by brute force


def _windows(nums: list[int], prompt: str) -> int:
    least = _num(r"j - i >= (\d+) such that", prompt)
    conditions = [
        (int(r), int(m))
        for r, m in re.findall(r"leaves remainder (\d+) when divided by (\d+)", prompt)
    ]
    prefix = list(itertools.accumulate(nums, initial=0))

    def good(total: int) -> bool:
        return all(total % m == r for r, m in conditions)

    if len(nums) <= SMALL:
        return sum(
            good(prefix[j] - prefix[i])
            for i in range(len(prefix))
            for j in range(i + least, len(prefix))
        )
    # positions of each residue key; a pair needs the start's key to equal the end's minus r
    where: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for i, total in enumerate(prefix):
        where[tuple(total % m for _, m in conditions)].append(i)
    count = 0
    for j, total in enumerate(prefix):
        want = tuple((total - r) % m for r, m in conditions)
        count += bisect.bisect_right(where[want], j - least)
    return count


def _chain(nums: list[int], prompt: str) -> int:
    gap = _num(r"at least (\d+) greater than the element", prompt)
    if len(nums) <= SMALL:
        best = [1] * len(nums)
        for i, x in enumerate(nums):
            for j in range(i):
                if x - nums[j] >= gap:
                    best[i] = max(best[i], best[j] + 1)
        return max(best, default=0)
    values = sorted(set(nums))
    tree = [0] * (len(values) + 1)  # Fenwick tree of prefix maxima over the sorted values

    def query(count: int) -> int:
        top = 0
        while count > 0:
            top = max(top, tree[count])
            count -= count & -count
        return top

    def update(pos: int, value: int) -> None:
        while pos <= len(values):
            tree[pos] = max(tree[pos], value)
            pos += pos & -pos

    answer = 0
    for x in nums:
        length = query(bisect.bisect_right(values, x - gap)) + 1
        update(bisect.bisect_left(values, x) + 1, length)
        answer = max(answer, length)
    return answer


def _calm(nums: list[int], prompt: str) -> int:
    t = _num(r"the smallest element is at most (\d+)\.", prompt)
    if len(nums) <= SMALL:
        return sum(
            max(nums[i:j]) - min(nums[i:j]) <= t
            for i in range(len(nums))
            for j in range(i + 1, len(nums) + 1)
        )
    # sparse tables of maxima and minima, queried for each start's furthest calm end
    highs, lows = [nums], [nums]
    while 2 ** len(highs) <= len(nums):
        half = 2 ** (len(highs) - 1)
        highs.append([max(a, b) for a, b in zip(highs[-1], highs[-1][half:])])
        lows.append([min(a, b) for a, b in zip(lows[-1], lows[-1][half:])])

    def spread(i: int, j: int) -> int:  # max - min of nums[i:j]
        level = (j - i).bit_length() - 1
        top = max(highs[level][i], highs[level][j - 2**level])
        return top - min(lows[level][i], lows[level][j - 2**level])

    count, end = 0, 0  # the furthest calm end never moves left as the start moves right
    for i in range(len(nums)):
        end = max(end, i + 1)
        while end < len(nums) and spread(i, end + 1) <= t:
            end += 1
        count += end - i
    return count


def _meetings(meetings: list[list[int]], prompt: str) -> int:
    c = _num(r"start >= end \+ (\d+)", prompt)
    if len(meetings) <= 12:  # every subset
        best = 0
        for chosen in itertools.product([False, True], repeat=len(meetings)):
            picked = sorted(m for m, take in zip(meetings, chosen) if take)
            if all(b[0] >= a[1] + c for a, b in itertools.pairwise(picked)):
                best = max(best, sum(m[2] for m in picked))
        return best
    # by start, from the last: skip meeting i, or take it and jump to the first allowed start
    ordered = sorted(meetings)
    starts = [m[0] for m in ordered]
    best = [0] * (len(ordered) + 1)
    for i in range(len(ordered) - 1, -1, -1):
        after = bisect.bisect_left(starts, ordered[i][1] + c)
        best[i] = max(best[i + 1], ordered[i][2] + best[after])
    return best[0]


MOD = 1_000_000_007


def _strings(n: int, prompt: str) -> int:
    q = _num(r"over an alphabet of (\d+) letters", prompt)
    k = _num(r"appears more than (\d+) times in a row", prompt)
    if n <= 16 and q**n <= 100_000:  # every word
        return (
            sum(
                all(len(list(run)) <= k for _, run in itertools.groupby(word))
                for word in itertools.product(range(q), repeat=n)
            )
            % MOD
        )
    # f(m) = q^m for m <= k, else (q - 1) * (f(m - 1) + ... + f(m - k)): the last run has
    # length 1..k and a letter other than the run before it. x^n modulo that recurrence's
    # characteristic polynomial gives f(n) as a combination of f(0..k-1)... (Kitamasa).
    first = [0] + [q**m % MOD for m in range(1, k + 1)]  # f(0) = 0 is not used below
    if n <= k:
        return first[n]

    def mulmod(a: list[int], b: list[int]) -> list[int]:
        product = [0] * (2 * k - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                product[i + j] = (product[i + j] + x * y) % MOD
        for d in range(len(product) - 1, k - 1, -1):  # x^k = (q - 1)(x^(k-1) + ... + 1)
            top, product[d] = product[d], 0
            for t in range(1, k + 1):
                product[d - t] = (product[d - t] + top * (q - 1)) % MOD
        return product[:k]

    # f(1..k) are the initial terms: shift so that index 0 is f(1)
    result, base, e = [1] + [0] * (k - 1), ([0, 1] + [0] * k)[:k] if k > 1 else [q - 1], n - 1
    while e:
        if e & 1:
            result = mulmod(result, base)
        base = mulmod(base, base)
        e >>= 1
    return sum(c * first[i + 1] for i, c in enumerate(result)) % MOD


ALGORITHM_ORACLES = {
    "count_windows": _windows,
    "longest_chain": _chain,
    "count_calm": _calm,
    "best_meetings": _meetings,
    "count_strings": _strings,
}


def oracle(prompt: str, args: list[Any]) -> Any:
    """The answer for args, from the prompt text alone."""
    name = re.search(r"^def (\w+)\(", prompt, re.M) or re.search(r"^(\w+)\(.*\) == ", prompt, re.M)
    return {**ORACLES, **ALGORITHM_ORACLES}[name.group(1)](*args, prompt)


def prompt_examples(prompt: str) -> list[tuple[str, str]]:
    """The example lines 'name(args) == output' as (call text, output text)."""
    block = prompt.split("Examples:\n", 1)[1].split("\n\n", 1)[0]
    return [tuple(line.split(" == ", 1)) for line in block.splitlines()]


# ---------------------------------------------------------------- tests


def test_every_template_in_64_questions() -> None:
    assert len(TEMPLATES) >= 12 and set(ORACLES) == {t.key for t in TEMPLATES}
    seen = Counter(make(i).fields["template"] for i in INDICES)
    assert len(seen) >= 12
    assert {make(i).subtask for i in INDICES} == {
        "strings",
        "arrays",
        "maps",
        "intervals",
        "simulation",
    }


def test_hidden_tests_rederived_from_prompt() -> None:
    import ast

    for index in INDICES:
        q = make(index)
        tests = q.fields["tests"]
        assert MIN_TESTS <= len(tests) <= MAX_TESTS
        assert f"def {q.fields['entry_point']}(" in q.prompt
        for test in tests:
            assert oracle(q.prompt, test["input"]) == test["output"], (index, test)
        examples = prompt_examples(q.prompt)
        assert len(examples) == 2
        for (call, out), test in zip(examples, tests):
            args = ast.literal_eval("[" + call.split("(", 1)[1][:-1] + "]")
            assert args == test["input"]
            assert ast.literal_eval(out) == test["output"] == oracle(q.prompt, args)


def test_hidden_tests_go_beyond_the_examples() -> None:
    for index in INDICES:
        tests = make(index).fields["tests"]
        inputs = [repr(t["input"]) for t in tests]
        assert len(set(inputs)) == len(inputs)
        # an empty input (or the smallest one) is among the hidden tests
        sizes = [len(t["input"][0]) for t in tests]
        assert min(sizes[2:]) <= 1, index


def _mutant(reference: str) -> str:
    """The reference with its first integer constant off by one (a misread description)."""
    lines = reference.splitlines()
    for i, line in enumerate(lines):
        m = re.fullmatch(r"    (\w+) = (\d+)", line)
        if m:
            value = int(m.group(2))
            lines[i] = f"    {m.group(1)} = {value + 1 if value < 100 else value - 1}"
            return "\n".join(lines) + "\n"
    raise AssertionError("no constant")


def test_wrong_answers_score_zero() -> None:
    for index in range(12):
        rec = record(make(index))
        ref = rec["ground_truth"]
        entry = rec["entry_point"]
        wrong = [
            "",
            "I would loop over the input and build the answer.",
            fence(ref.replace(":\n", "\n", 1)),  # syntax error
            fence(_mutant(ref)),
            fence(ref.replace(f"def {entry}(", f"def {entry}_v2(")),  # wrong name
            fence(ref)
            + "\nOn reflection that is off by one; use this instead:\n"
            + fence(_mutant(ref)),
            fence(f"def {entry}(*args):\n    return None\n"),
            "```python\n" + f"def {entry}(*args):\n    print({rec['tests'][0]['output']!r})\n```",
        ]
        for answer in wrong:
            assert TASK.score(rec, answer).score == 0.0, (index, answer)


def test_examples_only_solution_fails() -> None:
    """Hard-coding the two examples shown in the prompt is not enough."""
    for index in range(12):
        rec = record(make(index))
        cases = {repr(t["input"]): t["output"] for t in rec["tests"][:2]}
        code = f"def {rec['entry_point']}(*args):\n    return {cases!r}.get(repr(list(args)))\n"
        assert TASK.score(rec, fence(code)).score == 0.0


def test_alternative_formats_score_one() -> None:
    for index in range(6):
        rec = record(make(index))
        ref = rec["ground_truth"]
        entry = rec["entry_point"]
        call = f"{entry}({', '.join(repr(a) for a in rec['tests'][0]['input'])})"
        answers = [
            fence(ref, "py"),
            fence(ref, "Python3"),
            fence(ref, ""),
            "~~~python\n" + ref + "~~~",
            "Here is my solution.\n\n```python\n" + ref,  # never closed
            "Let me think.\n"
            + fence(ref)
            + "\nIt runs in linear time. Usage:\n"
            + fence(f"print({call})"),
            "<think>first idea:\n" + fence(_mutant(ref)) + "</think>\nFinal:\n" + fence(ref),
            "Draft:\n" + fence(_mutant(ref)) + "\nFixed the constant:\n" + fence(ref),
            f"<solution>\n{ref}</solution>",
            ref,
            "from collections import deque\n\n" + ref,
            fence(ref.replace("\n", "\r\n")),
            fence("class Solution:\n" + textwrap.indent(ref.replace("(", "(self, ", 1), "    ")),
            fence("import sys\n" + ref + f"\nif __name__ == '__main__':\n    print({call})\n"),
            fence(ref, "python") + "\n\nOutput:\n```\n" + repr(rec["tests"][0]["output"]) + "\n```",
        ]
        for answer in answers:
            assert TASK.score(rec, answer).score == 1.0, (index, answer)


def test_extract_code() -> None:
    assert extract_code("no code here") is None
    assert extract_code("```python\n```") is None
    assert extract_code("```python\nx = 1\n```\n```python\ny = 2\n```") == "y = 2\n"
    assert extract_code("```python\ndef f(): pass\n```\n```python\nf()\n```", "f") == (
        "def f(): pass\n"
    )
    assert extract_code("```text\nout\n```\n```python\nx = 1\n```\n```bash\nrun\n```") == "x = 1\n"
    assert extract_code("<think>```python\nbad\n```</think>") is None
    assert extract_code(None) is None  # type: ignore[arg-type]


def test_prompt_states_the_format() -> None:
    prompt = make(0).prompt
    assert "```python" in prompt and "last fenced" in prompt and "Examples:" in prompt
    assert "collections" in prompt and "heapq" in prompt


def test_shipped_ladder_covers_five_templates() -> None:
    rungs = load_ladder("code_generation")
    assert len({make(int(r.case_id.split("/")[1])).fields["template"] for r in rungs}) >= 5


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "```",
                "```python\n",
                "def ",
                "rotate_words",
                "(",
                ")",
                ":\n",
                "    return ",
                "x",
                "\n",
                "<solution>",
                "</solution>",
                "import os\n",
                "while 1: pass\n",
                "'''",
                "\t",
                "def f(*a):\n",
                "1/0\n",
                "~~~",
            ]
        ),
        max_size=14,
    )
)
def test_score_never_raises_on_code_like_text(parts: list[str]) -> None:
    s = TASK.score(record(make(0)), "".join(parts)).score
    assert 0.0 <= s <= 1.0


def test_malformed_record_scores_zero() -> None:
    rec = record(make(0))
    answer = TASK.reference(rec)
    assert TASK.score({}, answer).score == 0.0
    assert TASK.score({**rec, "tests": []}, answer).score == 0.0
    assert TASK.score({**rec, "tests": [{"input": 3}]}, answer).score == 0.0
    assert TASK.score({**rec, "entry_point": "not valid"}, answer).score == 0.0
    assert TASK.score("not a dict", answer).score == 0.0  # type: ignore[arg-type]


# ---------------------------------------------------------------- fetched stdin/stdout problems


def coding_file(**changes: Any) -> str:
    data = {
        "kind": "coding",
        "source": "example-judge",
        "url": "https://example.org/problem/17",
        "title": "Sum of a list",
        "published": "2026-11-30",
        "licence": "CC BY 4.0",
        "statement": "The first line holds n, the second n integers. Print their sum.",
        "answer": None,
        "choices": None,
        "tests": [
            {"input": "3\n1 2 3\n", "output": "6\n"},
            {"input": "1\n-5\n", "output": "-5"},
            {"input": "4\n10 20 30 40\n", "output": "100  \n\n"},
        ],
    }
    data.update(changes)
    return json.dumps(data)


def coding_sources(**files: str) -> Sources:
    dates = {name: json.loads(text).get("published", "") for name, text in files.items()}
    return Sources(problems=dict(files), dates=dates)


SUM_PROGRAM = "n = int(input())\nprint(sum(map(int, input().split())))\n"


def fetched_record(**changes: Any) -> dict:
    return record(make_question(TASK, 0, sources=coding_sources(p=coding_file(**changes))))


def test_fetched_program_runs_on_the_files_tests() -> None:
    rec = fetched_record()
    assert rec["subtask"] == "fetched_program" and len(rec["tests"]) == 3
    assert TASK.score(rec, TASK.reference(rec)).score == 1.0
    assert TASK.score(rec, fence(SUM_PROGRAM)).score == 1.0
    buffered = "import sys\ndata = sys.stdin.buffer.read().split()\nprint(sum(map(int, data[1:])))"
    assert TASK.score(rec, fence(buffered)).score == 1.0
    exits = "import sys\nn = int(input())\nprint(sum(map(int, input().split())))\nsys.exit(0)\n"
    assert TASK.score(rec, fence(exits)).score == 1.0


def test_fetched_program_wrong_slow_or_crashing_scores_zero() -> None:
    rec = fetched_record()
    wrong = [
        "n = int(input())\nprint(sum(map(int, input().split())) + 1)\n",
        "print(6)\n",  # the example only
        "while True:\n    pass\n",
        "import os\nprint(os.getcwd())\n",
        "import sys\nsys.exit(3)\n",
        "def f(:\n",
    ]
    for program in wrong:
        assert TASK.score(rec, fence(program)).score == 0.0, program
    assert TASK.score(rec, "no code here").score == 0.0


def test_fetched_prompt_shows_statement_and_first_test_and_names_material() -> None:
    q = make_question(TASK, 0, sources=coding_sources(p=coding_file()))
    assert "Print their sum." in q.prompt and "3\n1 2 3\n```" in q.prompt
    assert "standard input" in q.prompt and "```python" in q.prompt
    assert q.material == (json.loads(coding_file())["statement"],)


def test_fetched_problems_newest_first_fresh_only_then_exhausted() -> None:
    sources = coding_sources(
        old=coding_file(published="2026-01-01", statement="Old: print the sum."),
        new=coding_file(published="2026-11-30", statement="New: print the sum."),
    )
    first = make_question(TASK, 0, sources=sources)
    assert first.material == ("New: print the sum.",)
    second = make_question(TASK, 5, sources=sources.using(first.material))
    assert second.material == ("Old: print the sum.",)
    spent = sources.using(["New: print the sum.", "Old: print the sum."])
    with pytest.raises(UserError, match="every fetched coding problem"):
        make_question(TASK, 0, sources=spent)


def test_templates_are_the_fallback_without_coding_problems() -> None:
    competition = json.dumps(
        {**json.loads(coding_file()), "kind": "competition", "answer": "4", "tests": None}
    )
    assert make_question(TASK, 0, sources=coding_sources(c=competition)) == make(0)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"tests": []}, "tests"),
        ({"tests": None}, "tests"),
        ({"tests": [{"input": "1"}]}, "tests"),
        ({"tests": [{"input": 1, "output": "1"}]}, "tests"),
        ({"statement": None}, "statement"),
        ({"kind": None}, "kind"),
        ({"url": ["x"]}, "url"),
    ],
)
def test_malformed_coding_file_is_one_line_naming_file_and_field(changes, field) -> None:
    with pytest.raises(UserError) as error:
        make_question(TASK, 0, sources=coding_sources(**{"bad.json": coding_file(**changes)}))
    message = str(error.value)
    assert "\n" not in message and message.startswith("bad.json") and repr(field) in message


# ---------------------------------------------------------------- difficulty

DIFFICULTIES = HARDER_LEVELS


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_hidden_tests_rederived_at_every_difficulty(difficulty: int) -> None:
    """Every hidden test, the largest included, re-derived from the prompt by the independent
    solutions (brute force on the small inputs)."""
    for index in range(2):
        q = make_question(TASK, index, difficulty=difficulty)
        assert q.subtask == "algorithms" and q.fields["template"] in ALGORITHM_ORACLES
        assert MIN_TESTS <= len(q.fields["tests"]) <= MAX_TESTS
        for test in q.fields["tests"]:
            assert oracle(q.prompt, test["input"]) == test["output"], (difficulty, index)
        assert all(len(call) < 200 for call, _ in prompt_examples(q.prompt))  # small examples
        rec = record(q)
        assert TASK.score(rec, TASK.reference(rec)).score == 1.0, (difficulty, index)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_every_algorithmic_template_rederived(difficulty: int) -> None:
    """Each algorithmic template at each difficulty (two seeds), from its signature and
    description alone."""
    for template in algorithms.templates(algorithms.scale(difficulty)):
        for seed in range(2):
            problem = make_problem(random.Random(seed), template)
            text = problem.signature + "\n" + problem.description
            for args, expected in problem.tests:
                assert oracle(text, args) == expected, (difficulty, template.key, seed)


def test_difficulty_zero_is_v1() -> None:
    for index in range(16):
        assert make_question(TASK, index, difficulty=0) == make(index)


def _sizes(difficulty: int) -> tuple[int, int]:
    """(the longest hidden list, the largest hidden n) over every algorithmic template."""
    size = algorithms.scale(difficulty)
    longest = largest = 0
    for template in algorithms.templates(size):
        for seed in range(2):
            problem = make_problem(random.Random(seed), template)
            for args, _ in problem.tests:
                if isinstance(args[0], list):
                    longest = max(longest, len(args[0]))
                else:
                    largest = max(largest, args[0])
    return longest, largest


def test_difficulty_grows() -> None:
    """The hidden inputs grow with d (lists up to their cap, n without bound), and so do the
    conditions, the allowed run and the stress tests."""
    sizes = [_sizes(d) for d in (1, 3, 5, 8, 12, 20)]
    assert [s[0] for s in sizes] == sorted(s[0] for s in sizes) and sizes[0][0] < sizes[3][0]
    assert all(a[1] < b[1] for a, b in itertools.pairwise(sizes))
    scales = [algorithms.scale(d) for d in range(1, 21)]
    for low, high in itertools.pairwise(scales):
        assert high.string_digits == low.string_digits + 1
        assert high.conditions >= low.conditions and high.run_limit >= low.run_limit
    assert scales[-1].conditions == 6 and scales[-1].run_limit == 8


NAIVE = {  # correct but slow solutions; constants come first, read from the description
    "count_windows": """\
def count_windows(nums):
    count = 0
    for i in range(len(nums)):
        total = 0
        for j in range(i, len(nums)):
            total += nums[j]
            if j + 1 - i >= LEAST and all(total % m == r for m, r in CONDITIONS):
                count += 1
    return count
""",
    "longest_chain": """\
def longest_chain(nums):
    best = [1] * len(nums)
    for i in range(len(nums)):
        for j in range(i):
            if nums[i] - nums[j] >= GAP and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return max(best, default=0)
""",
    "count_calm": """\
def count_calm(nums):
    count = 0
    for i in range(len(nums)):
        hi = lo = nums[i]
        for j in range(i, len(nums)):
            hi, lo = max(hi, nums[j]), min(lo, nums[j])
            if hi - lo > T:
                break
            count += 1
    return count
""",
    "best_meetings": """\
def best_meetings(meetings):
    ordered = sorted(meetings, key=lambda m: m[1])
    best = []
    for i, (start, end, value) in enumerate(ordered):
        top = value
        for j in range(i):
            if ordered[j][1] + C <= start:
                top = max(top, best[j] + value)
        best.append(top)
    return max(best, default=0)
""",
    "count_strings": """\
def count_strings(n):
    ways = [Q] + [0] * (K - 1)  # by the length of the last run
    for _ in range(n - 1):
        ways = [sum(ways) * (Q - 1) % 1000000007] + ways[:-1]
    return sum(ways) % 1000000007
""",
}


def naive_program(problem) -> str:
    """The slow solution of ``problem``'s template with its constants from the description."""
    text = problem.description
    found = {
        "LEAST": re.search(r"j - i >= (\d+)", text),
        "GAP": re.search(r"at least (\d+) greater", text),
        "T": re.search(r"is at most (\d+)\.", text),
        "C": re.search(r"start >= end \+ (\d+)", text),
        "Q": re.search(r"alphabet of (\d+) letters", text),
        "K": re.search(r"more than (\d+) times", text),
    }
    lines = [f"{name} = {m.group(1)}" for name, m in found.items() if m]
    stated = re.findall(r"remainder (\d+) when divided by (\d+)", text)
    lines.append(f"CONDITIONS = {[(int(m), int(r)) for r, m in stated]!r}")
    return "\n".join(lines) + "\n" + NAIVE[problem.entry]


def _passes(problem, code: str, tests) -> bool:
    rec = {**problem_fields(problem), "ground_truth": problem.reference, "subtask": "algorithms"}
    rec["tests"] = [{"input": args, "output": out} for args, out in tests]
    return TASK.score(rec, fence(code)).score == 1.0


def test_naive_solutions_time_out_at_high_difficulty() -> None:
    """Correct but slow solutions pass every small test at any d, and at d = 8 no longer pass
    the large hidden ones, which the reference passes."""
    for template in algorithms.templates(algorithms.scale(8)):
        problem = make_problem(random.Random(3), template)
        naive = naive_program(problem)
        small = [(a, o) for a, o in problem.tests if not isinstance(a[0], int) or a[0] < 10**4]
        small = [(a, o) for a, o in small if not isinstance(a[0], list) or len(a[0]) <= 100]
        assert _passes(problem, naive, small), template.key
        assert not _passes(problem, naive, problem.tests), template.key
        assert _passes(problem, problem.reference, problem.tests), template.key
