"""Simulation problems: a task scheduler, a bank account, a one-dimensional automaton."""

from __future__ import annotations

import random
from typing import Any

from ladderbench.live.tasks._code_templates.base import Args, Cases, Template, ordinal

TASKS_DESCRIPTION = """\
Tasks wait in a queue, given as a string of capital letters from front to back. In each time \
unit the processor looks at the first $d tasks of the queue (fewer if the queue is shorter), \
from the front, and runs the first of them whose letter was not run in any of the previous $n \
time units; that task leaves the queue and the others keep their order. If none of them may run, \
the processor is idle for that unit. Return the schedule as a string with one character per \
time unit (the letter run, or "." when idle), ending with the unit in which the last task \
runs."""

TASKS_REFERENCE = """\
def schedule(tasks: str) -> str:
    n = $n
    d = $d
    queue = list(tasks)
    out = []
    while queue:
        recent = out[-n:]
        chosen = -1
        for i in range(min(d, len(queue))):
            if queue[i] not in recent:
                chosen = i
                break
        if chosen < 0:
            out.append(".")
        else:
            out.append(queue.pop(chosen))
    return "".join(out)
"""


def _tasks_constants(rng: random.Random) -> dict[str, Any]:
    return {"n": rng.randint(1, 4), "d": rng.randint(2, 4)}


def _tasks_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    def queue(n: int, letters: str) -> str:
        return "".join(rng.choice(letters) for _ in range(n))

    typical = [[queue(rng.randint(6, 12), rng.choice(("AB", "ABC", "ABCD")))] for _ in range(6)]
    edges: list[Args] = [
        [""],
        ["A"],
        ["A" * 4],
        ["AB" * 3],
        ["A" * (c["d"] + 1) + "B"],
        ["ABCDEFG"],
    ]
    return typical, edges


BANK_DESCRIPTION = """\
An account starts at balance 0 and processes operations in order: "deposit X" adds X; \
"withdraw X" is rejected (nothing changes) when it would take the balance below -$limit, \
otherwise X is subtracted and, if the balance is then negative, an overdraft fee of $fee is \
subtracted as well (even when the fee takes the balance below -$limit). After the $every_ord, \
$every2_ord, $every3_ord, ... operation (rejected ones count) comes a monthly charge: when the \
balance is negative at that moment, the fee of $fee is charged once more. X is a positive \
integer. Return [final balance, rejected withdrawals, fees charged]."""

BANK_REFERENCE = """\
def run_account(ops: list[str]) -> list[int]:
    limit = $limit
    fee = $fee
    every = $every
    balance = rejected = fees = 0
    for count, op in enumerate(ops, 1):
        kind, amount = op.split()
        amount = int(amount)
        if kind == "deposit":
            balance += amount
        elif balance - amount < -limit:
            rejected += 1
        else:
            balance -= amount
            if balance < 0:
                balance -= fee
                fees += 1
        if count % every == 0 and balance < 0:
            balance -= fee
            fees += 1
    return [balance, rejected, fees]
"""


def _bank_constants(rng: random.Random) -> dict[str, Any]:
    every = rng.randint(3, 5)
    return {
        "limit": rng.choice((20, 30, 50, 75, 100)),
        "fee": rng.randint(2, 9),
        "every": every,
        "every_ord": ordinal(every),
        "every2_ord": ordinal(2 * every),
        "every3_ord": ordinal(3 * every),
    }


def _bank_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    limit = c["limit"]

    def ops(n: int) -> list[str]:
        return [
            f"{'deposit' if rng.random() < 0.4 else 'withdraw'} {rng.randint(5, limit)}"
            for _ in range(n)
        ]

    typical = [[ops(rng.randint(5, 10))] for _ in range(6)]
    edges: list[Args] = [
        [[]],
        [[f"withdraw {limit}"]],
        [[f"withdraw {limit + 1}"]],
        [[f"deposit {limit}", f"withdraw {2 * limit}", f"withdraw {limit}"]],
        [["withdraw 1"] * (2 * c["every"])],
    ]
    return typical, edges


AUTOMATON_DESCRIPTION = """\
A row of cells is a string of "#" (alive) and "." (dead). One step updates all cells at once from \
each cell's left neighbour, the cell itself and its right neighbour, wrapping around (the first \
cell's left neighbour is the last cell, and a row of one cell is its own neighbour on both \
sides). Read the three cells as a 3-bit binary number, alive = 1, left neighbour most \
significant; the new cell is alive exactly when bit number (that value) of $rule is 1 \
(elementary rule $rule, bit 0 being the least significant). Return the row after $steps steps."""

AUTOMATON_REFERENCE = """\
def evolve(row: str) -> str:
    rule = $rule
    steps = $steps
    cells = [1 if ch == "#" else 0 for ch in row]
    n = len(cells)
    for _ in range(steps):
        nxt = []
        for i in range(n):
            value = 4 * cells[i - 1] + 2 * cells[i] + cells[(i + 1) % n]
            nxt.append((rule >> value) & 1)
        cells = nxt
    return "".join("#" if c else "." for c in cells)
"""


def _automaton_constants(rng: random.Random) -> dict[str, Any]:
    return {
        "rule": rng.choice((30, 45, 54, 60, 90, 105, 110, 150, 184)),
        "steps": rng.randint(2, 5),
    }


def _automaton_cases(rng: random.Random, c: dict[str, Any]) -> Cases:
    def row(n: int) -> str:
        return "".join(rng.choice("#..") for _ in range(n))

    typical = [[row(rng.randint(7, 14))] for _ in range(6)]
    edges: list[Args] = [[""], ["#"], ["."], ["##"], ["#" * 9], ["." * 8 + "#"]]
    return typical, edges


SCHEDULE = Template(
    "simulation", TASKS_DESCRIPTION, TASKS_REFERENCE, _tasks_constants, _tasks_cases
)
RUN_ACCOUNT = Template("simulation", BANK_DESCRIPTION, BANK_REFERENCE, _bank_constants, _bank_cases)
EVOLVE = Template(
    "simulation", AUTOMATON_DESCRIPTION, AUTOMATON_REFERENCE, _automaton_constants, _automaton_cases
)
TEMPLATES: tuple[Template, ...] = (
    SCHEDULE,
    RUN_ACCOUNT,
    EVOLVE,
)
