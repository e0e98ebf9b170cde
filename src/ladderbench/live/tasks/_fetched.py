"""Problems fetched by ``ladderbench live fetch``: reading, validating and drawing them.

A sources folder holds one ``*.json`` file per problem (``kind`` "competition" or "coding", its
statement, and the answer or the stdin/stdout tests). competition and code_generation draw the
newest fresh problem of their kind; material is the statement, so a release never serves a
problem twice. A malformed file stops the build with one line naming the file and the field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Literal

from ladderbench.errors import UserError
from ladderbench.live.base import Sources

Kind = Literal["competition", "coding"]

_TEXT_FIELDS = ("source", "url", "title", "published", "licence", "statement")


@dataclass(frozen=True)
class FetchedProblem:
    """One validated problem file. ``answer`` and ``choices`` are for competition problems,
    ``tests`` (stdin, expected stdout) for coding ones."""

    file: str
    kind: Kind
    source: str
    url: str
    title: str
    published: str
    statement: str
    answer: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    tests: tuple[tuple[str, str], ...] = ()


def _fail(file: str, name: str, why: str) -> UserError:
    return UserError(f"{file}: field {name!r} {why}")


def _text(data: dict[str, Any], file: str, name: str, required: bool = True) -> str:
    value = data.get(name)
    if not isinstance(value, str) or (required and not value.strip()):
        raise _fail(file, name, "missing or not a non-empty string")
    return value


def _choices(data: dict[str, Any], file: str) -> tuple[tuple[str, str], ...]:
    value = data.get("choices")
    if value is None:
        return ()
    if not isinstance(value, dict) or not value:
        raise _fail(file, "choices", "must be an object of letter -> text, or null")
    for letter, text in value.items():
        if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
            raise _fail(file, "choices", f"has a key {letter!r} that is not a capital letter")
        if not isinstance(text, str) or not text.strip():
            raise _fail(file, "choices", f"has no text for {letter}")
    return tuple(sorted(value.items()))


def _tests(data: dict[str, Any], file: str) -> tuple[tuple[str, str], ...]:
    value = data.get("tests")
    if not isinstance(value, list) or not value:
        raise _fail(file, "tests", "must be a non-empty list of {input, output}")
    out = []
    for i, test in enumerate(value):
        if not isinstance(test, dict):
            raise _fail(file, "tests", f"item {i} is not an object")
        if not isinstance(test.get("input"), str) or not isinstance(test.get("output"), str):
            raise _fail(file, "tests", f"item {i} needs string 'input' and 'output'")
        out.append((test["input"], test["output"]))
    return tuple(out)


def parse_problem(file: str, text: str) -> FetchedProblem:
    """A problem file's contents, validated; raises UserError naming the file and field."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UserError(f"{file}: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise UserError(f"{file}: not a JSON object")
    kind = data.get("kind")
    if kind not in ("competition", "coding"):
        raise _fail(file, "kind", "must be 'competition' or 'coding'")
    fields = {name: _text(data, file, name, name == "statement") for name in _TEXT_FIELDS}
    problem = FetchedProblem(
        file=file,
        kind=kind,
        source=fields["source"],
        url=fields["url"],
        title=fields["title"],
        published=fields["published"],
        statement=fields["statement"],
    )
    if kind == "coding":
        return replace(problem, tests=_tests(data, file))
    choices = _choices(data, file)
    answer = _text(data, file, "answer").strip()
    if choices and answer not in dict(choices):
        raise _fail(file, "answer", f"{answer!r} is not one of the choices' letters")
    return replace(problem, answer=answer, choices=choices)


def fetched_problems(sources: Sources, kind: Kind) -> list[FetchedProblem]:
    """Every problem file of ``kind`` in the sources, newest first (dated by the folder's
    provenance, else by the file's own ``published``; every file is validated, whatever its
    kind: a broken file is reported by the first task that reads the folder)."""
    problems = [parse_problem(name, sources.problems[name]) for name in sorted(sources.problems)]
    mine = [p for p in problems if p.kind == kind]
    dated = replace(sources, dates={p.file: sources.dates.get(p.file) or p.published for p in mine})
    by_name = {p.file: p for p in mine}
    return [by_name[name] for name in dated.newest_first(by_name)]


def next_fresh(sources: Sources, kind: Kind, pool: str) -> FetchedProblem | None:
    """The newest problem of ``kind`` whose statement no earlier question used; None when the
    sources have no problem of that kind (the task falls back to its templates); UserError
    when they have some but every one is used."""
    problems = fetched_problems(sources, kind)
    if not problems:
        return None
    for problem in problems:
        if sources.is_fresh(problem.statement):
            return problem
    raise UserError(
        f"{pool}: every fetched {kind} problem in --sources is used; run 'ladderbench live "
        "fetch' and pass --sources with new problems (or lower --per-task)"
    )
