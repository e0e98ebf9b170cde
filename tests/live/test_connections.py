"""connections: every grouping is re-derived from the prompt's words by a search over the whole
lexicon (it must be the only one); the lexicon is audited; partial credit counts exact groups."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record, tagged

from ladderbench.live.base import Question
from ladderbench.live.tasks.connections import (
    SUBTASKS,
    Connections,
    lexicon,
    parse_groups,
    parse_lexicon,
)

TASK = Connections()
LEXICON = checks.DATA / "connections.json"


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


def score(q: Question, answer: str) -> float:
    return TASK.score(record(q), answer).score


def groups(q: Question) -> list[list[str]]:
    return [g.split(", ") for g in q.ground_truth.split("; ")]


@cache
def raw_lexicon() -> dict:
    return json.loads(LEXICON.read_text())


@cache
def memberships() -> dict[str, frozenset[str]]:
    """Every word's categories, read straight from the JSON file."""
    found: dict[str, set[str]] = {}
    for entry in raw_lexicon()["categories"]:
        for word in entry["words"]:
            found.setdefault(word, set()).add(entry["id"])
    for entry in raw_lexicon()["red_herrings"]:
        found.setdefault(entry["word"], set()).update(entry["categories"])
    return {w: frozenset(c) for w, c in found.items()}


def all_groupings(words: list[str], limit: int = 3) -> list[list[frozenset[str]]]:
    """Every way to split the words into groups of four that each share one lexicon category."""
    member = memberships()
    found: list[list[frozenset[str]]] = []

    def walk(left: list[str], used: set[str], acc: list[frozenset[str]]) -> None:
        if len(found) >= limit:
            return
        if not left:
            found.append(list(acc))
            return
        first, rest = left[0], left[1:]
        for cat in sorted(member[first] - used):
            fits = [w for w in rest if cat in member[w]]
            if len(fits) < 3:
                continue
            # Choose the 3 companions of `first` in this category.
            for i in range(len(fits)):
                for j in range(i + 1, len(fits)):
                    for k in range(j + 1, len(fits)):
                        group = {first, fits[i], fits[j], fits[k]}
                        walk(
                            [w for w in rest if w not in group],
                            used | {cat},
                            [*acc, frozenset(group)],
                        )

    walk(words, set(), [])
    return found


def parse_prompt(prompt: str) -> tuple[int, list[str]]:
    n_groups = int(re.search(r"into (\d+) groups of four", prompt).group(1))
    words = re.search(r"^Words: (.+)$", prompt, re.M).group(1).split(", ")
    return n_groups, [w.lower() for w in words]


# ---------------------------------------------------------------- re-derivation


def test_grouping_rederived_and_unique() -> None:
    for index in INDICES:
        q = make(index)
        n_groups, words = parse_prompt(q.prompt)
        cfg = SUBTASKS[q.subtask]
        assert n_groups == cfg.groups and len(words) == 4 * n_groups == len(set(words))
        assert words == q.fields["words"]
        found = all_groupings(words)
        assert len(found) == 1, (index, found)
        assert set(found[0]) == {frozenset(g) for g in groups(q)}


def test_red_herrings_placed_as_documented() -> None:
    member = memberships()
    ids = {e["link"]: e["id"] for e in raw_lexicon()["categories"]}
    for index in INDICES:
        q = make(index)
        chosen = {ids[link] for link in q.fields["links"]}
        herrings = [w for w in q.fields["words"] if len(member[w]) > 1]
        if SUBTASKS[q.subtask].red_herring:
            assert herrings == [q.fields["red_herring"]]
            assert len(member[herrings[0]] & chosen) == 1
        else:
            assert herrings == [] and q.fields["red_herring"] is None
        for word in q.fields["words"]:
            assert len(member[word] & chosen) == 1


def test_every_subtask_appears() -> None:
    assert {make(i).subtask for i in INDICES} == set(SUBTASKS)


# ---------------------------------------------------------------- the lexicon


def _names(text: str) -> set[str]:
    return set(text.split())


ELEMENTS = _names(
    "hydrogen helium lithium beryllium boron carbon nitrogen oxygen fluorine neon sodium "
    "magnesium aluminium aluminum silicon phosphorus sulfur sulphur chlorine argon potassium "
    "calcium scandium titanium vanadium chromium manganese iron cobalt nickel copper zinc gallium "
    "germanium arsenic selenium bromine krypton rubidium strontium yttrium zirconium niobium "
    "molybdenum technetium ruthenium rhodium palladium silver cadmium indium tin antimony "
    "tellurium iodine xenon caesium cesium barium lanthanum cerium neodymium samarium europium "
    "gadolinium terbium erbium ytterbium hafnium tantalum tungsten rhenium osmium iridium "
    "platinum gold mercury thallium lead bismuth polonium astatine radon francium radium thorium "
    "uranium neptunium plutonium americium curium einsteinium nobelium"
)
NATO = _names(
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike "
    "november oscar papa quebec romeo sierra tango uniform victor whiskey whisky xray yankee "
    "zulu"
)
MONTHS = _names(
    "january february march april may june july august september october november december"
)
GREEK = _names(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
    "sigma tau upsilon phi chi psi omega"
)
PLANETS = _names("mercury venus earth mars jupiter saturn uranus neptune")


def test_lexicon_size_and_shape() -> None:
    data = raw_lexicon()
    assert len(data["categories"]) >= 40
    member = memberships()
    for entry in data["categories"]:
        total = sum(entry["id"] in cats for cats in member.values())
        assert total >= 6, entry["id"]
        assert len(entry["words"]) >= 4, entry["id"]
    pure = [w for e in data["categories"] for w in e["words"]]
    assert len(pure) == len(set(pure))
    assert len(data["red_herrings"]) >= 20
    assert parse_lexicon(data).links == lexicon().links


@pytest.mark.parametrize(
    ("names", "category"),
    [
        (ELEMENTS, "elements"),
        (NATO, "nato_alphabet"),
        (MONTHS, "months"),
        (GREEK, "greek_letters"),
        (PLANETS, "planets"),
    ],
)
def test_closed_lists_are_complete(names: set[str], category: str) -> None:
    """A word that is a chemical element (NATO word, month...) is listed as one."""
    for word, cats in memberships().items():
        if word in names:
            assert category in cats, word


def test_palindromes_are_listed() -> None:
    for word, cats in memberships().items():
        assert (word == word[::-1]) == ("palindromes" in cats), word


def test_parse_lexicon_rejects_bad_data() -> None:
    good = {"id": "a", "link": "a", "words": ["one", "two", "three", "four"]}
    with pytest.raises(ValueError, match="twice"):
        parse_lexicon({"categories": [good, good]})
    with pytest.raises(ValueError, match="under 4"):
        parse_lexicon({"categories": [{"id": "b", "link": "b", "words": ["x"]}]})
    with pytest.raises(ValueError, match="pure in two"):
        other = {"id": "b", "link": "b", "words": ["one", "five", "six", "seven"]}
        parse_lexicon({"categories": [good, other]})
    with pytest.raises(ValueError, match="2\\+ known"):
        parse_lexicon(
            {"categories": [good], "red_herrings": [{"word": "ten", "categories": ["a", "z"]}]}
        )
    with pytest.raises(ValueError, match="also a pure"):
        parse_lexicon(
            {"categories": [good], "red_herrings": [{"word": "one", "categories": ["a", "a"]}]}
        )


# ---------------------------------------------------------------- scoring


def test_alternative_formats_score_one() -> None:
    for index in range(16):
        q = make(index)
        g = groups(q)
        rev = [list(reversed(x)) for x in reversed(g)]
        links = q.fields["links"]
        variants = [
            "<solution>" + "; ".join(", ".join(x) for x in g) + "</solution>",
            tagged([", ".join(w.upper() for w in x) for x in rev]),
            tagged([f"Group {k}: " + ", ".join(x) for k, x in enumerate(g, 1)]),
            tagged([f"{k}. " + ", ".join(x) for k, x in enumerate(g, 1)]),
            tagged([f"- **{link.title()}**: " + ", ".join(x) for link, x in zip(links, g)]),
            tagged([", ".join(x) + f" ({link})" for link, x in zip(links, g)]),
            tagged([", ".join(x[:3]) + " and " + x[3] for x in g]),
            "<solution>" + json.dumps(g) + "</solution>",
            "<solution>\n\n" + "\n\n".join(" / ".join(x) for x in g) + "\n</solution>",
            "Here are the groups:\n\n" + "\n".join(", ".join(x) for x in g),  # no tags
            "Answer:\n" + "\n".join(", ".join(x) for x in g),
        ]
        for text in variants:
            assert score(q, text) == 1.0, (index, text)
        # Without tags only the last paragraph counts: groups before it are reasoning.
        spread = "\n\n".join(", ".join(x) for x in g)
        assert score(q, spread) == pytest.approx(1 / len(g))


def test_partial_credit_counts_exact_groups() -> None:
    for index in INDICES:
        q = make(index)
        g = groups(q)
        k = len(g)
        # Swap one word between the first two groups: both broken, the rest intact.
        a, b = list(g[0]), list(g[1])
        a[0], b[0] = b[0], a[0]
        broken = [a, b, *g[2:]]
        assert score(q, tagged([", ".join(x) for x in broken])) == pytest.approx((k - 2) / k)
        # Only the first group given.
        assert score(q, tagged([", ".join(g[0])])) == pytest.approx(1 / k)
        # Hedging: an extra group, or a word in two groups.
        assert score(q, tagged([", ".join(x) for x in g] + [", ".join(g[0])])) == 0.0
        dup = [list(g[0]), [*g[1][:3], g[0][0]], *g[2:]]
        assert score(q, tagged([", ".join(x) for x in dup])) == 0.0
        # A group with a fifth word is wrong.
        five = [[*g[0], "extra"], *g[1:]]
        assert score(q, tagged([", ".join(x) for x in five])) == pytest.approx((k - 1) / k)


def test_parse_groups() -> None:
    assert parse_groups("a, b, c, d; e, f, g, h") == [
        frozenset("abcd"),
        frozenset("efgh"),
    ]
    assert parse_groups("Group 1: A, B\nSet 2) c, d") == [frozenset("ab"), frozenset("cd")]
    assert parse_groups("just one word") == []
    assert parse_groups("") == []


def test_malformed_records_score_zero() -> None:
    assert TASK.score({}, "a, b").score == 0.0
    assert TASK.score({"ground_truth": "a, b, c, d", "groups": "x"}, "a, b, c, d").score == 1.0
    assert TASK.score({"groups": None}, "").score == 0.0


# ---------------------------------------------------------------- robustness


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*make(2).fields["words"], ",", ";", "\n", ":", "x"]), max_size=30))
def test_score_in_range_on_word_soup(tokens: list[str]) -> None:
    reply = "<solution>" + " ".join(tokens) + "</solution>"
    checks.assert_scores_in_range(TASK, [record(make(2))], [reply])
