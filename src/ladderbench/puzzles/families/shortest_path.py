"""Shortest path: the shortest route between two towns on a road map (v1: its length).

The map is a random connected, weighted, undirected graph (a random spanning tree plus extra
roads), listed road by road in random order. The question asks for the length of a shortest
route, which is a single number even when several routes tie.

Why the tiers get harder: every instance picks a start and a goal whose shortest route needs at
least ``min_hops`` roads and is *not* a route with the fewest roads, so the direct-looking route
is a trap and the answer is never a single listed road. Tier 3 has 8-10 towns and 3+ road routes;
tier 4 has 11-13 towns, more roads and longer weights, and needs routes of 4+ roads, so many more
partial routes must be compared.

Open-ended difficulty ``d`` (suite v2, ``difficulty(d)``): the answer is the route itself, the
towns in order, and it is the *only* shortest route (no other route ties), so it cannot be
reached by adding up a lucky guess. The map is a "corridor": towns are laid out in a line and
roads join towns at most ``reach`` places apart, so routes between far-apart towns are long and
have many near-equal alternatives. Each step of d adds two towns (5 at d = 0, 45 at d = 20,
capped at 60 from d = 28) and about as many extra roads, raises the least number of roads on the
route by one every two steps (2 at d = 0, 6 at d = 8, 12 at d = 20, capped at 18 from d = 32),
lengthens the roads (weights up to 9 + 4d) and, from d = 4, widens ``reach`` (up to 5 at
d = 12) so every town has more roads to weigh. Past the caps d still adds roads (until every
pair of towns within reach is joined) and longer road lengths, so it never gets easier. Every
instance is also a greedy trap: the start's (unique) shortest road leads off the answer, and no
route with the fewest roads is the answer. The format example is a placeholder
(``<answer>TOWN, TOWN, ..., TOWN</answer>``) that the normaliser cannot read.
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
    # v2 (defaults are v1): ask for the unique shortest route on a corridor map whose roads join
    # towns at most ``reach`` places apart (0: v1's random map and length question).
    reach: int = 0


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

# More names for v2's larger maps (v1 samples TOWNS only, so its bytes are unchanged).
MORE_TOWNS: tuple[str, ...] = (
    "Quinton",
    "Redcliff",
    "Saltburn",
    "Thornbury",
    "Upwell",
    "Ventnor",
    "Wexcombe",
    "Yarmouth",
    "Zennor",
    "Alderley",
    "Barnwell",
    "Caldmore",
    "Dovercourt",
    "Eastleigh",
    "Frampton",
    "Grantley",
    "Holmfirth",
    "Ingleby",
    "Kirkham",
    "Langport",
    "Midhurst",
    "Netherby",
    "Ormsby",
    "Padstow",
    "Rothwell",
    "Selby",
    "Tenbury",
    "Uffington",
    "Wantage",
    "Yeovil",
    "Axbridge",
    "Bampton",
    "Chardstock",
    "Dulverton",
    "Exford",
    "Frome",
    "Gillingham",
    "Helston",
    "Ilminster",
    "Keswick",
    "Ledbury",
    "Malvern",
    "Nailsea",
    "Otterton",
)
ALL_TOWNS = TOWNS + MORE_TOWNS
# Caps that keep every d solvable and fast: a corridor of 60 towns whose roads span at most 5
# places always has pairs 18 roads apart on their only shortest route; past the caps, d adds
# roads (up to every pair within reach) and longer road lengths.
_MAX_NODES = 60
_MAX_HOPS = 18
_MAX_REACH = 5

V2_PROMPT_TEMPLATE = """\
A map shows {count} towns connected by two-way roads. Each line below is one road and its \
length in km:

{roads}

Travelling only along these roads, which route from {start} to {goal} is the shortest? There is \
exactly one shortest route.
Answer with the towns of that route in order, from {start} to {goal}, separated by commas.
Put your final answer inside <answer></answer> tags, in this form: \
<answer>TOWN, TOWN, ..., TOWN</answer> with each TOWN replaced by a town's name."""

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


def _corridor_graph(
    rng: random.Random, cfg: ShortestPathConfig
) -> tuple[int, dict[tuple[int, int], int]]:
    """A connected map of towns 0..n-1 in a line; every road joins towns at most ``reach`` apart."""
    n = rng.randint(cfg.min_nodes, cfg.max_nodes)
    edges: dict[tuple[int, int], int] = {}
    for k in range(1, n):  # a spanning tree along the line: attach k to a town just before it
        edges[(rng.randrange(max(0, k - 2), k), k)] = rng.randint(1, cfg.max_weight)
    possible = sum(min(cfg.reach, n - 1 - i) for i in range(n))
    target = min(len(edges) + rng.randint(cfg.min_extra_edges, cfg.max_extra_edges), possible)
    while len(edges) < target:
        i = rng.randrange(n - 1)
        j = rng.randint(i + 1, min(n - 1, i + cfg.reach))
        if (i, j) not in edges:
            edges[(i, j)] = rng.randint(1, cfg.max_weight)
    return n, edges


def _routes_from(
    adj: list[list[tuple[int, int]]], source: int
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Dijkstra from ``source``: distance, number of shortest routes (capped at 2), the previous
    town on a shortest route, and its road count, for every town."""
    inf = 10**9
    dist, count, prev, hops = [inf] * len(adj), [0] * len(adj), [-1] * len(adj), [0] * len(adj)
    dist[source], count[source] = 0, 1
    heap = [(0, source)]
    done = [False] * len(adj)
    while heap:
        d, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        for v, w in adj[u]:
            if d + w < dist[v]:
                dist[v], count[v], prev[v], hops[v] = d + w, count[u], u, hops[u] + 1
                heapq.heappush(heap, (d + w, v))
            elif d + w == dist[v]:
                count[v] = min(2, count[v] + count[u])
    return dist, count, prev, hops


def _greedy_trap(adj: list[list[tuple[int, int]]], route: list[int]) -> bool:
    """The start's shortest road is unique and leads off the route: greedy starts wrong."""
    roads = sorted((w, v) for v, w in adj[route[0]])
    return (len(roads) == 1 or roads[0][0] < roads[1][0]) and roads[0][1] != route[1]


def _v2_instance(
    rng: random.Random, cfg: ShortestPathConfig
) -> tuple[int, dict[tuple[int, int], int], list[int]] | None:
    """A corridor map and a unique shortest route that defeats the fewest-roads and greedy
    shortcuts, or None when this map has no such pair of towns."""
    n, edges = _corridor_graph(rng, cfg)
    adj = _adjacency(n, edges)
    candidates: list[list[int]] = []
    for s in range(n):
        _, count, prev, hops = _routes_from(adj, s)
        fewest = _bfs_hops(adj, s)
        for t in range(n):
            if t != s and count[t] == 1 and hops[t] >= cfg.min_hops and fewest[t] < hops[t]:
                route = [t]
                while route[-1] != s:
                    route.append(prev[route[-1]])
                route.reverse()
                if _greedy_trap(adj, route):
                    candidates.append(route)
    if not candidates:
        return None
    return n, edges, rng.choice(candidates)


_ANSWER = re.compile(
    r"\s*([+-]?[0-9]{1,9})(?:\.0*)?\s*(?:km|kilometres|kilometers)?\s*\.?\s*", re.I
)
# A route: town names (letters only) joined by commas, dashes, arrows, "to" or "then".
_JOINER = r"(?:\s*(?:,|;|->|\u2192|-|\u2013|\u2014|>)\s*|\s+(?:to|then)\s+)"
_ROUTE = re.compile(rf"\s*[A-Za-z]+(?:{_JOINER}[A-Za-z]+)+\s*\.?\s*", re.I)


@register
class ShortestPath(Family):
    name = "shortest_path"
    tiers = TIERS

    def difficulty(self, d: int) -> ShortestPathConfig:
        """Towns 5 + 2d (capped at 60), min roads 2 + d // 2, weights 1..9 + 4d, reach 2 + d // 4
        (see the module docstring)."""
        if d < 0:
            raise ValueError(f"difficulty must be >= 0, got {d}")
        nodes = min(5 + 2 * d, _MAX_NODES)
        return ShortestPathConfig(
            min_nodes=nodes,
            max_nodes=nodes,
            min_extra_edges=2 + d,
            max_extra_edges=3 + 2 * d,
            max_weight=9 + 4 * d,
            min_hops=min(2 + d // 2, _MAX_HOPS),
            reach=min(2 + d // 4, _MAX_REACH),
        )

    def generate(self, rng: random.Random, cfg: ShortestPathConfig) -> Puzzle:
        if cfg.reach:
            return self._generate_v2(rng, cfg)
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

    def _generate_v2(self, rng: random.Random, cfg: ShortestPathConfig) -> Puzzle:
        for _ in range(_MAX_ATTEMPTS):
            found = _v2_instance(rng, cfg)
            if found is None:
                continue
            n, edges, route = found
            names = rng.sample(ALL_TOWNS, n)
            roads = [(names[i], names[j], w) for (i, j), w in sorted(edges.items())]
            rng.shuffle(roads)
            lines = [
                f"{b} - {a}: {w} km" if rng.random() < 0.5 else f"{a} - {b}: {w} km"
                for a, b, w in roads
            ]
            prompt = V2_PROMPT_TEMPLATE.format(
                count=n,
                roads="\n".join(lines),
                start=names[route[0]],
                goal=names[route[-1]],
            )
            return Puzzle(prompt=prompt, answer=",".join(names[i] for i in route))
        raise RuntimeError(f"shortest_path {cfg}: no suitable map in {_MAX_ATTEMPTS} attempts")

    def normalise(self, text: str) -> str | None:
        """A whole number, optionally with 'km' or a trailing '.0' or full stop (v1); or a route
        (v2): two or more town names joined by commas, dashes, arrows or "to", read in any case
        and written back as ``Name,Name,...``."""
        if not isinstance(text, str):
            return None
        m = _ANSWER.fullmatch(text)
        if m:
            return str(int(m.group(1)))
        if _ROUTE.fullmatch(text) is None:
            return None
        words = [w.capitalize() for w in re.findall(r"[A-Za-z]+", text)]
        towns = [w for w in words if w not in ("To", "Then")]
        return ",".join(towns) if len(towns) >= 2 else None
