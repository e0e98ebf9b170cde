"""LadderBench: score every rung of a difficulty ladder, and check the graders too."""

from ladderbench.api import Evaluation, evaluate, load_results, load_summary

__all__ = ["Evaluation", "evaluate", "load_results", "load_summary"]
__version__ = "0.1.0"
