"""Shortest path: every answer is re-derived from the prompt alone with Floyd-Warshall."""

from __future__ import annotations

import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from ladderbench.puzzles.base import Puzzle
from ladderbench.puzzles.families.shortest_path import TIERS, ShortestPath

FAMILY = ShortestPath()
INF = float("inf")


def make(tier: int, seed: int) -> Puzzle:
    return make_puzzle(FAMILY, tier, seed)


def parse(prompt: str) -> tuple[int, list[tuple[str, str, int]], str, str]:
    """(declared town count, roads, start, goal) read from the prompt text."""
    count = int(re.search(r"shows (\d+) towns", prompt).group(1))
    roads = [(a, b, int(w)) for a, b, w in re.findall(r"^(\w+) - (\w+): (\d+) km$", prompt, re.M)]
    start, goal = re.search(r"shortest route from (\w+) to (\w+)\?", prompt).groups()
    return count, roads, start, goal


def floyd_warshall(
    towns: list[str], roads: list[tuple[str, str, int]]
) -> dict[tuple[str, str], float]:
    dist = {(a, b): (0 if a == b else INF) for a in towns for b in towns}
    for a, b, w in roads:
        dist[a, b] = min(dist[a, b], w)
        dist[b, a] = min(dist[b, a], w)
    for k, i, j in itertools.product(towns, towns, towns):
        if dist[i, k] + dist[k, j] < dist[i, j]:
            dist[i, j] = dist[i, k] + dist[k, j]
    return dist


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_answer_rederived_from_prompt(tier: int) -> None:
    cfg = TIERS[tier]
    direct_answers = 0
    for seed in SEEDS:
        puzzle = make(tier, seed)
        count, roads, start, goal = parse(puzzle.prompt)
        towns = sorted({a for a, _, _ in roads} | {b for _, b, _ in roads})
        assert len(towns) == count and cfg.min_nodes <= count <= cfg.max_nodes
        assert start in towns and goal in towns and start != goal
        pairs = [frozenset((a, b)) for a, b, _ in roads]
        assert len(pairs) == len(set(pairs)), "each road is listed once"
        dist = floyd_warshall(towns, roads)
        assert all(dist[a, b] < INF for a in towns for b in towns), "the map is connected"
        assert str(dist[start, goal]) == puzzle.answer, f"tier {tier} seed {seed}"
        # Not a trivial instance: no single road is a shortest route.
        direct = [w for a, b, w in roads if {a, b} == {start, goal}]
        direct_answers += bool(direct) and min(direct) == dist[start, goal]
    assert direct_answers == 0


def shortest_route_hops(
    towns: list[str], roads: list[tuple[str, str, int]], start: str, goal: str
) -> int:
    """Fewest roads on any shortest route, by a search over (town, roads used) states."""
    dist = floyd_warshall(towns, roads)
    target = dist[start, goal]
    # Dynamic programme: best[k][t] = shortest length from start to t using exactly k roads.
    best = {start: 0}
    for k in range(1, len(towns)):
        nxt: dict[str, int] = {}
        for a, b, w in roads:
            for u, v in ((a, b), (b, a)):
                if u in best and best[u] + w < nxt.get(v, INF):
                    nxt[v] = best[u] + w
        best = nxt
        if best.get(goal) == target:
            return k
    raise AssertionError("no route found")


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_the_route_is_not_the_most_direct_one(tier: int) -> None:
    """The shortest route needs min_hops roads, and a route with fewer roads exists (a trap)."""
    for seed in SEEDS:
        _, roads, start, goal = parse(make(tier, seed).prompt)
        towns = sorted({a for a, _, _ in roads} | {b for _, b, _ in roads})
        hops = shortest_route_hops(towns, roads, start, goal)
        assert hops >= TIERS[tier].min_hops
        assert bfs(towns, roads, start)[goal] < hops


def bfs(towns: list[str], roads: list[tuple[str, str, int]], start: str) -> dict[str, int]:
    """Fewest roads from ``start`` to each town, ignoring lengths."""
    nbrs: dict[str, list[str]] = {t: [] for t in towns}
    for a, b, _ in roads:
        nbrs[a].append(b)
        nbrs[b].append(a)
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for u in frontier:
            for v in nbrs[u]:
                if v not in seen:
                    seen[v] = seen[u] + 1
                    nxt.append(v)
        frontier = nxt
    return seen


def test_normalise_variants() -> None:
    puzzle = make(3, 5)
    n = int(puzzle.answer)
    variants = (f"{n}", f" {n} ", f"{n} km", f"{n}km", f"{n} KM.", f"{n}.0", f"+{n}", f"\n{n}\n")
    checks.assert_accepts(FAMILY, puzzle, variants)
    near_misses = (f"{n + 1}", f"{n - 1}", f"{n}.5", f"{n} miles or so", "", "abc", None)
    checks.assert_rejects(FAMILY, puzzle, near_misses)
    checks.assert_unreadable(FAMILY, ["about 12", "9" * 5000])


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_normalise_gives_an_integer_or_none(text: str) -> None:
    checks.assert_normalise_total(FAMILY, text, pattern=r"-?[0-9]+")
