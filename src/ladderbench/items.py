"""The records that flow through a run: items in, completions and verdicts back, result rows out.

Pydantic models, so that a results file read back (for resume or a report) is validated field by
field, and a bad line is reported with its file, line and field.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Item(BaseModel):
    """One thing to ask: a static question, a puzzle instance, a live task.

    ``expected`` is the canonical gold answer the grader compares with; ``reference`` is the gold
    answer written the way a model should write it (what the oracle adapter replies). ``record``
    holds what a scorer reads besides them (a live question's stored fields, a probe case's
    context); it is never written to result rows.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    prompt: str
    expected: str
    reference: str
    choices: tuple[str, ...] = ()
    level: int | None = None
    tier: int | None = None
    difficulty: int | None = None
    family: str | None = None
    category: str | None = None
    task: str | None = None
    seed: int | None = None
    record: dict[str, Any] = Field(default_factory=dict)


class Completion(BaseModel):
    """What a model adapter returns for one attempt. ``error`` set means no answer was obtained."""

    text: str = ""
    usage: dict[str, int] = Field(default_factory=dict)
    latency_ms: float = 0.0  # the request that answered (retries' waits not included)
    server_ms: float | None = None  # the server's own time for it, when it reports one
    error: str | None = None
    cached: bool = False


class Verdict(BaseModel):
    """What a scorer returns: the text it graded, a score in [0, 1], whether that passes, and why.

    ``explanation`` is for people (the probe's reason, a result audit); it is not written to rows.
    """

    extracted: str | None
    score: float
    passed: bool
    explanation: str = ""


class ResultRow(BaseModel):
    """One attempt, as written to the results JSONL (field names as in DESIGN.md)."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid", strict=True)

    run: str
    adapter: str
    model: str
    suite: str
    id: str
    family: str | None = None
    task: str | None = None
    category: str | None = None
    level: int | None = None
    tier: int | None = None
    difficulty: int | None = None
    seed: int | None = None
    sample: int = 0
    prompt: str
    expected: str
    response: str | None
    extracted: str | None
    score: float | None
    passed: bool | None = Field(alias="pass")
    latency_ms: float = Field(alias="latencyMs")
    server_ms: float | None = Field(default=None, alias="serverMs")
    cached: bool = False
    usage: dict[str, int] = Field(default_factory=dict)
    error: str | None = None

    @property
    def key(self) -> tuple[str, int]:
        """Identity of an attempt within a run: resume writes each key exactly once."""
        return (self.id, self.sample)

    def to_json_dict(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True)


def asked(item: Item) -> dict[str, Any]:
    """The fields a result row copies from the item it answers (one place for every writer
    of rows: the runner, an Inspect log read back)."""
    return {
        "id": item.id,
        "family": item.family,
        "task": item.task,
        "category": item.category,
        "level": item.level,
        "tier": item.tier,
        "difficulty": item.difficulty,
        "seed": item.seed,
        "prompt": item.prompt,
        "expected": item.expected,
    }


class RunHeader(BaseModel):
    """The first line of a results file: which run wrote it, and with what.

    ``settings`` holds everything that changes an answer besides the prompt (endpoint or model
    file and backend build, sampling, token limit, system prompt): a resume with any of them
    different is refused, since its rows would not be comparable. ``provenance`` is for people
    and audits (versions, revision, date, command line without secrets) and is never compared.
    """

    model_config = ConfigDict(extra="forbid")

    type: Literal["run"] = "run"
    run: str
    suite: str
    adapter: str
    model: str
    settings: dict[str, Any]
    provenance: dict[str, Any] = Field(default_factory=dict)
