"""The built-in puzzle families; importing this package registers all of them."""

from ladderbench.puzzles.families import (
    anagram,
    arithmetic,
    automaton,
    caesar,
    cryptarithm,
    grid_transform,
    hidden_function,
    knights_knaves,
    register_vm,
    sequence,
    shortest_path,
    sudoku,
    text,
    weighted_ordering,
)

__all__ = [
    "anagram",
    "arithmetic",
    "automaton",
    "caesar",
    "cryptarithm",
    "grid_transform",
    "hidden_function",
    "knights_knaves",
    "register_vm",
    "sequence",
    "shortest_path",
    "sudoku",
    "text",
    "weighted_ordering",
]
