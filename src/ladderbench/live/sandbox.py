"""The code sandbox moved to ``ladderbench.execution.sandbox``; this name re-exports it for the
coding tasks' helper module until its import moves there too."""

from ladderbench.execution.sandbox import ALLOWED_MODULES, Limits, run_tests

__all__ = ["ALLOWED_MODULES", "Limits", "run_tests"]
