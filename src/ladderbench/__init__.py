"""LadderBench: score every rung of a difficulty ladder, and check the graders too."""

__version__ = "0.1.0"
