"""Shortest path: every answer is re-derived from the prompt alone: v1 lengths with
Floyd-Warshall, v2 routes with Dijkstra and an enumeration of every shortest route (exactly one)."""

from __future__ import annotations

import heapq
import itertools
import re

import family_checks as checks
import pytest
from family_checks import SEEDS, make_at, make_puzzle
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
    start, goal = re.search(r"route from (\w+) to (\w+)(?: is the shortest)?\?", prompt).groups()
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
    checks.assert_normalise_total(FAMILY, text, pattern=r"-?[0-9]+|[A-Z][a-z]*(?:,[A-Z][a-z]*)+")


# ---------------------------------------------------------------- open-ended difficulty (v2)

V2_CASES = (
    [(d, seed) for d in range(13) for seed in range(1, 7)]
    + [(d, seed) for d in (15, 20) for seed in (1, 2)]
    + [(40, 1), (200, 1)]
)  # past every cap: still generated, unique and re-derived


def all_shortest_routes(
    roads: list[tuple[str, str, int]], start: str, goal: str
) -> tuple[int, list[list[str]]]:
    """Dijkstra from ``start``, then every route of the shortest length, enumerated backwards
    through the towns whose distances add up (at most 3 are collected: enough to see a tie)."""
    nbrs: dict[str, list[tuple[str, int]]] = {}
    for a, b, w in roads:
        nbrs.setdefault(a, []).append((b, w))
        nbrs.setdefault(b, []).append((a, w))
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, w in nbrs[u]:
            if d + w < dist.get(v, INF):
                dist[v] = d + w
                heapq.heappush(heap, (d + w, v))
    routes: list[list[str]] = []

    def back(town: str, tail: list[str]) -> None:
        if len(routes) >= 3:
            return
        if town == start:
            routes.append([start, *tail])
            return
        for prev, w in nbrs[town]:
            if prev in dist and dist[prev] + w == dist[town]:
                back(prev, [town, *tail])

    back(goal, [])
    return int(dist[goal]), routes


def greedy_first_steps(roads: list[tuple[str, str, int]], start: str) -> set[str]:
    """Every town a greedy walker may go to first: the ends of the start's shortest roads."""
    out = [(w, b) for a, b, w in roads if a == start] + [(w, a) for a, b, w in roads if b == start]
    least = min(w for w, _ in out)
    return {town for w, town in out if w == least}


@pytest.mark.parametrize(("d", "seed"), V2_CASES)
def test_v2_unique_shortest_route_rederived(d: int, seed: int) -> None:
    puzzle = make_at(FAMILY, d, seed)
    count, roads, start, goal = parse(puzzle.prompt)
    towns = sorted({a for a, _, _ in roads} | {b for _, b, _ in roads})
    cfg = FAMILY.difficulty(d)
    assert len(towns) == count == cfg.min_nodes
    assert len({frozenset((a, b)) for a, b, _ in roads}) == len(roads), "each road once"
    assert len(bfs(towns, roads, towns[0])) == count, "the map is connected"
    length, routes = all_shortest_routes(roads, start, goal)
    assert len(routes) == 1, f"d {d} seed {seed}: shortest routes tie"
    route = routes[0]
    assert ",".join(route) == puzzle.answer, (d, seed)
    weight = {frozenset((a, b)): w for a, b, w in roads}
    assert sum(weight[frozenset(p)] for p in itertools.pairwise(route)) == length
    hops = len(route) - 1
    assert hops >= cfg.min_hops and bfs(towns, roads, start)[goal] < hops
    assert route[1] not in greedy_first_steps(roads, start), "greedy must start off the route"
    assert FAMILY.check(puzzle, puzzle.answer)
    assert FAMILY.check(puzzle, " -> ".join(route).lower())
    assert not FAMILY.check(puzzle, ",".join(reversed(route)))
    assert not FAMILY.check(puzzle, str(length))


def test_v2_difficulty_grows() -> None:
    """Towns, roads and the route's least road count never shrink; 3 steps of d clearly add."""

    def size(d: int) -> tuple[int, ...]:
        c = FAMILY.difficulty(d)
        return (c.min_nodes, c.min_extra_edges, c.min_hops, c.max_weight, c.reach)

    for d in range(40):
        now, nxt, later = size(d), size(d + 1), size(d + 3)
        assert all(b >= a for a, b in zip(now, nxt, strict=True)), d
        assert later[1] > now[1] and later[3] > now[3], d
        assert d >= 26 or (later[0] > now[0] and later[2] > now[2]), d
    assert FAMILY.difficulty(0).min_nodes == 5 and FAMILY.difficulty(20).min_hops == 12
    with pytest.raises(ValueError):
        FAMILY.difficulty(-1)


def test_v2_format_example_is_a_placeholder() -> None:
    prompt = make_at(FAMILY, 3, 1).prompt
    example = re.search(r"in this form: <answer>(.*?)</answer>", prompt).group(1)
    assert example == "TOWN, TOWN, ..., TOWN" and FAMILY.normalise(example) is None
    assert "for example" not in prompt


def test_v2_route_normalise() -> None:
    puzzle = Puzzle("", "Ashford,Colbury,Kelso")
    accepted = [
        "Ashford,Colbury,Kelso",
        "Ashford, Colbury, Kelso.",
        "ashford -> colbury -> kelso",
        "Ashford \u2192 Colbury \u2192 Kelso",
        "Ashford - Colbury - Kelso",
        "Ashford to Colbury to Kelso",
    ]
    checks.assert_accepts(FAMILY, puzzle, accepted)
    rejected = ["Ashford,Kelso", "Kelso,Colbury,Ashford", "Ashford Colbury Kelso", "Ashford", None]
    checks.assert_rejects(FAMILY, puzzle, rejected)
    checks.assert_unreadable(FAMILY, ["Ashford, Colbury, 12", "TOWN, TOWN, ..., TOWN", "Kelso"])
