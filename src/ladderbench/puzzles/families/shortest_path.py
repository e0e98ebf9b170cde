"""Shortest path: the length of the shortest route between two towns on a small road map.

The map is a random connected, weighted, undirected graph (a random spanning tree plus extra
roads), listed road by road in random order. The question asks for the length of a shortest
route, which is a single number even when several routes tie.

Why the tiers get harder: every instance picks a start and a goal whose shortest route needs at
least ``min_hops`` roads and is *not* a route with the fewest roads, so the direct-looking route
is a trap and the answer is never a single listed road. Tier 3 has 8-10 towns and 3+ road routes;
tier 4 has 11-13 towns, more roads and longer weights, and needs routes of 4+ roads, so many more
partial routes must be compared.
"""

from __future__ import annotations

import heapq
import random
import re
from dataclasses import dataclass

from ladderbench.puzzles.base import Family, Puzzle
from ladderbench.puzzles.registry import register


@dataclass(frozen=True)
class ShortestPathConfig:
    """Graph size, road lengths and how long the asked-for route must be."""

    min_nodes: int
    max_nodes: int
    min_extra_edges: int  # roads beyond a spanning tree
    max_extra_edges: int
    max_weight: int  # road lengths are drawn from 1..max_weight
    min_hops: int  # fewest roads on any shortest route between the chosen towns


TIERS: dict[int, ShortestPathConfig] = {
    3: ShortestPathConfig(
        min_nodes=8, max_nodes=10, min_extra_edges=4, max_extra_edges=6, max_weight=20, min_hops=3
    ),
    4: ShortestPathConfig(
        min_nodes=11, max_nodes=13, min_extra_edges=8, max_extra_edges=11, max_weight=40, min_hops=4
    ),
}

# Fictional road network between real-sounding towns; sorted so sampling never depends on hashing.
TOWNS: tuple[str, ...] = (
    "Ashford",
    "Brampton",
    "Colbury",
    "Dunmore",
    "Elwick",
    "Fairhaven",
    "Glenrock",
    "Hartley",
    "Ivydale",
    "Jarrow",
    "Kelso",
    "Lindfield",
    "Marlow",
    "Northam",
    "Oakridge",
    "Pemberton",
)

PROMPT_TEMPLATE = """\
A map shows {count} towns connected by two-way roads. Each line below is one road and its \
length in km:

{roads}

Travelling only along these roads, what is the length in km of the shortest route from \
{start} to {goal}?
Answer with a single whole number: the total length of the shortest route in km.
Put your final answer inside <answer></answer> tags, for example: <answer>{example}</answer>"""

# The format example in the prompt; an instance whose answer equals it is redrawn.
_EXAMPLE = 42
_MAX_ATTEMPTS = 100


def _random_graph(
    rng: random.Random, cfg: ShortestPathConfig
) -> tuple[int, dict[tuple[int, int], int]]:
    """A connected graph on ``n`` nodes: edges (i, j) with i < j mapped to integer weights."""
    n = rng.randint(cfg.min_nodes, cfg.max_nodes)
    edges: dict[tuple[int, int], int] = {}
    for k in range(1, n):  # random spanning tree: attach node k to an earlier node
        j = rng.randrange(k)
        edges[(j, k)] = rng.randint(1, cfg.max_weight)
    target = min(
        len(edges) + rng.randint(cfg.min_extra_edges, cfg.max_extra_edges), n * (n - 1) // 2
    )
    while len(edges) < target:
        i, j = sorted(rng.sample(range(n), 2))
        if (i, j) not in edges:
            edges[(i, j)] = rng.randint(1, cfg.max_weight)
    return n, edges


def _adjacency(n: int, edges: dict[tuple[int, int], int]) -> list[list[tuple[int, int]]]:
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for (i, j), w in sorted(edges.items()):
        adj[i].append((j, w))
        adj[j].append((i, w))
    return adj


def _dijkstra(adj: list[list[tuple[int, int]]], source: int) -> list[tuple[int, int]]:
    """(distance, fewest roads among shortest routes) from ``source`` to every node."""
    best = [(10**9, 10**9)] * len(adj)
    best[source] = (0, 0)
    heap = [(0, 0, source)]
    while heap:
        d, h, u = heapq.heappop(heap)
        if (d, h) > best[u]:
            continue
        for v, w in adj[u]:
            cand = (d + w, h + 1)
            if cand < best[v]:
                best[v] = cand
                heapq.heappush(heap, (d + w, h + 1, v))
    return best


def _bfs_hops(adj: list[list[tuple[int, int]]], source: int) -> list[int]:
    """Fewest roads from ``source`` to every node, ignoring lengths."""
    hops = [-1] * len(adj)
    hops[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for u in frontier:
            for v, _ in adj[u]:
                if hops[v] < 0:
                    hops[v] = hops[u] + 1
                    nxt.append(v)
        frontier = nxt
    return hops


_ANSWER = re.compile(
    r"\s*([+-]?[0-9]{1,9})(?:\.0*)?\s*(?:km|kilometres|kilometers)?\s*\.?\s*", re.I
)


@register
class ShortestPath(Family):
    name = "shortest_path"
    tiers = TIERS

    def generate(self, rng: random.Random, cfg: ShortestPathConfig) -> Puzzle:
        for _ in range(_MAX_ATTEMPTS):
            n, edges = _random_graph(rng, cfg)
            adj = _adjacency(n, edges)
            candidates: list[tuple[int, int, int]] = []
            for s in range(n):
                shortest = _dijkstra(adj, s)
                fewest = _bfs_hops(adj, s)
                for t in range(s + 1, n):
                    dist, hops = shortest[t]
                    # A long shortest route that is not a fewest-roads route, so neither a single
                    # road nor the most direct-looking route is the answer.
                    if hops >= cfg.min_hops and fewest[t] < hops and dist != _EXAMPLE:
                        candidates.append((s, t, dist))
            if not candidates:
                continue
            s, t, dist = rng.choice(candidates)
            if rng.random() < 0.5:
                s, t = t, s
            names = rng.sample(TOWNS, n)
            roads = [(names[i], names[j], w) for (i, j), w in sorted(edges.items())]
            rng.shuffle(roads)
            lines = []
            for a, b, w in roads:
                if rng.random() < 0.5:
                    a, b = b, a
                lines.append(f"{a} - {b}: {w} km")
            prompt = PROMPT_TEMPLATE.format(
                count=n, roads="\n".join(lines), start=names[s], goal=names[t], example=_EXAMPLE
            )
            return Puzzle(prompt=prompt, answer=str(dist))
        raise RuntimeError(f"shortest_path {cfg}: no suitable graph in {_MAX_ATTEMPTS} attempts")

    def normalise(self, text: str) -> str | None:
        """A whole number, optionally with 'km' or a trailing '.0' or full stop."""
        if not isinstance(text, str):
            return None
        m = _ANSWER.fullmatch(text)
        return str(int(m.group(1))) if m else None
