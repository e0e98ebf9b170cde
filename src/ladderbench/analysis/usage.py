"""Token totals of a run, and its estimated cost where the user gives prices."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ladderbench.items import ResultRow
from ladderbench.summaries import Usage


@dataclass
class UsageTally:
    """Token counts over a run's answered attempts; cached ones are counted apart (free)."""

    prompt: int = 0
    completion: int = 0
    cached: int = 0
    paid_prompt: int = 0
    paid_completion: int = 0

    def add(self, row: ResultRow) -> None:
        prompt = row.usage.get("prompt_tokens", 0)
        completion = row.usage.get("completion_tokens", 0)
        self.prompt += prompt
        self.completion += completion
        if row.cached:
            self.cached += 1
        else:
            self.paid_prompt += prompt
            self.paid_completion += completion

    def usage(self, price_in: float | None = None, price_out: float | None = None) -> Usage:
        """The totals; with prices (US dollars per million tokens), the estimated cost."""
        usage = Usage(
            prompt_tokens=self.prompt, completion_tokens=self.completion, cached_answers=self.cached
        )
        if price_in is None and price_out is None:
            return usage  # no prices: no cost key at all, rather than a cost of nothing
        usage.price_in, usage.price_out = price_in or 0.0, price_out or 0.0
        usage.cost_usd = round(
            (self.paid_prompt * usage.price_in + self.paid_completion * usage.price_out) / 1e6, 6
        )
        return usage


def usage_totals(
    rows: Iterable[ResultRow], price_in: float | None = None, price_out: float | None = None
) -> Usage:
    tally = UsageTally()
    for row in rows:
        tally.add(row)
    return tally.usage(price_in, price_out)
