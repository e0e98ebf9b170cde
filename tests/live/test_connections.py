"""connections: every grouping is re-derived from the prompt's words by a search over the whole
lexicon (it must be the only one); the lexicon is audited; partial credit counts exact groups."""

from __future__ import annotations

import json
import math
import re
from functools import cache

import pytest
import task_checks as checks
from hypothesis import given, settings
from hypothesis import strategies as st
from task_checks import INDICES, RELEASE, make_question, record, tagged

from ladderbench.errors import UserError
from ladderbench.live.base import Question, Sources, material_digest, question_rng
from ladderbench.live.tasks.connections import (
    SUBTASKS,
    Connections,
    category_material,
    full_lexicon,
    lexicon,
    parse_groups,
    parse_lexicon,
)

TASK = Connections()
LEXICON = checks.DATA / "connections.json"
ADDITIONS = checks.DATA / "connections_v2.json"


@cache
def make(index: int, release: str = RELEASE) -> Question:
    return make_question(TASK, index, release)


DIFFICULTIES = checks.HARDER_LEVELS
SEEDS = range(8)


def seeds(d: int) -> range:
    """The seeds walked at ``d``: fewer at d = 20, whose exhaustive search takes seconds."""
    return SEEDS if d <= 12 else range(3)


@cache
def make_at(d: int, index: int, release: str = RELEASE) -> Question:
    """Question ``index`` of ``release`` at difficulty ``d``, from built-in data."""
    return TASK.generate(question_rng(release, TASK.name, index), Sources.empty(), d)


def score(q: Question, answer: str) -> float:
    return TASK.score(record(q), answer).score


def groups(q: Question) -> list[list[str]]:
    return [g.split(", ") for g in q.ground_truth.split("; ")]


@cache
def raw_lexicon() -> dict:
    return json.loads(LEXICON.read_text())


@cache
def raw_additions() -> dict:
    return json.loads(ADDITIONS.read_text())


@cache
def memberships(full: bool = False) -> dict[str, frozenset[str]]:
    """Every word's categories, read straight from the JSON file (with ``full``, and from the
    additions file that d >= 1 draws on too)."""
    found: dict[str, set[str]] = {}
    files = [raw_lexicon(), raw_additions()] if full else [raw_lexicon()]
    for data in files:
        for entry in [*data["categories"], *data.get("extend", [])]:
            for word in entry["words"]:
                found.setdefault(word, set()).add(entry["id"])
        for entry in [*data["red_herrings"], *data.get("also", [])]:
            found.setdefault(entry["word"], set()).update(entry["categories"])
    return {w: frozenset(c) for w, c in found.items()}


def all_groupings(
    words: list[str], limit: int = 3, full: bool = False
) -> list[list[frozenset[str]]]:
    """Every way to split the words into groups of four that each share one lexicon category."""
    member = memberships(full)
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


def test_full_lexicon_size_and_shape() -> None:
    """With the additions: 90+ categories, each with 6+ words and 4+ that fit it alone; the
    parsed lexicon agrees with the files read here."""
    member = memberships(full=True)
    ids = [e["id"] for d in (raw_lexicon(), raw_additions()) for e in d["categories"]]
    assert len(ids) == len(set(ids)) >= 90
    for cid in ids:
        assert sum(cid in cats for cats in member.values()) >= 6, cid
        assert sum(cats == {cid} for cats in member.values()) >= 4, cid
    lex = full_lexicon()
    assert sorted(lex.links) == sorted(ids)
    assert dict(lex.membership) == member
    assert len(lex.red_herrings) >= 100
    also = {e["word"] for e in raw_additions()["also"]}
    added = {e["word"] for e in raw_additions()["red_herrings"]}
    assert also <= set(lexicon().membership) and not also & added


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
@pytest.mark.parametrize("full", [False, True])
def test_closed_lists_are_complete(names: set[str], category: str, full: bool) -> None:
    """A word that is a chemical element (NATO word, month...) is listed as one."""
    for word, cats in memberships(full).items():
        if word in names:
            assert category in cats, word


@pytest.mark.parametrize("full", [False, True])
def test_palindromes_are_listed(full: bool) -> None:
    for word, cats in memberships(full).items():
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


# ---------------------------------------------------------------- difficulty


@pytest.mark.parametrize("d", DIFFICULTIES)
def test_decoy_puzzles_rederived_and_unique(d: int) -> None:
    """From the prompt's words alone, an exhaustive search over every lexicon category finds
    exactly one grouping, the ground truth; 4 + d // 2 groups."""
    for index in seeds(d):
        q = make_at(d, index)
        n_groups, words = parse_prompt(q.prompt)
        assert n_groups == 4 + d // 2 and len(words) == 4 * n_groups == len(set(words))
        found = all_groupings(words, full=True)
        assert len(found) == 1, (d, index, found)
        assert set(found[0]) == {frozenset(g) for g in groups(q)}
        assert TASK.score(record(q), TASK.reference(record(q))).score == 1.0


@pytest.mark.parametrize("d", DIFFICULTIES)
def test_decoys_fit_a_second_category(d: int) -> None:
    """Every listed decoy is a puzzle word that fits two or more lexicon categories; the words
    that do are exactly the decoys; no group holds more than two; every step has one."""
    member = memberships(full=True)
    for index in seeds(d):
        q = make_at(d, index)
        decoys = q.fields["decoys"]
        assert 1 <= len(decoys) <= d
        assert sorted(w for w in q.fields["words"] if len(member[w]) > 1) == sorted(decoys)
        for group in groups(q):
            assert sum(w in decoys for w in group) <= 2


def test_wordplay_groups_grow_with_d() -> None:
    """Up to d // 2 groups have a wordplay link (the additions' ``subtle`` list)."""
    subtle = set(raw_additions()["subtle"])
    links = {e["link"]: e["id"] for d in (raw_lexicon(), raw_additions()) for e in d["categories"]}
    assert len(subtle) >= 9 and subtle <= set(links.values())
    for d in DIFFICULTIES:
        for index in seeds(d):
            drawn = [links[link] for link in make_at(d, index).fields["links"]]
            assert sum(cid in subtle for cid in drawn) >= min(d // 2, len(subtle)), (d, drawn)


def candidate_groups(words: list[str]) -> int:
    """How many 4-word sets of the puzzle share a lexicon category: the groups a solver must
    weigh (1 per group when nothing is ambiguous)."""
    member = memberships(full=True)
    per_category: dict[str, int] = {}
    for word in words:
        for cat in member[word]:
            per_category[cat] = per_category.get(cat, 0) + 1
    return sum(math.comb(k, 4) for k in per_category.values())


def test_difficulty_grows_with_d() -> None:
    """Measured from the prompt's words and the lexicon files: the ambiguous words (fitting two
    or more categories) grow by one at every step, the words to place every second step, and the
    candidate groups (4-word sets sharing a category: the search space) never shrink on average
    and grow several-fold from d = 1 to 12; d = 1 is past every v1 puzzle."""
    member = memberships(full=True)

    def mean(d: int, size) -> float:
        return sum(size(make_at(d, i)) for i in range(16 if d <= 12 else 3)) / (
            16 if d <= 12 else 3
        )

    for d in DIFFICULTIES:
        for index in seeds(d):
            words = parse_prompt(make_at(d, index).prompt)[1]
            ambiguous = sum(len(member[w]) > 1 for w in words)
            assert ambiguous == d or (d >= 8 and ambiguous >= 8), (d, index, ambiguous)
    words = [mean(d, lambda q: len(q.fields["words"])) for d in DIFFICULTIES]
    assert words == sorted(words) and words[-1] >= 56
    space = [mean(d, lambda q: candidate_groups(q.fields["words"])) for d in DIFFICULTIES]
    assert space == sorted(space), space
    assert space[DIFFICULTIES.index(12)] > 5 * space[0]
    v1 = max(candidate_groups(make(i).fields["words"]) for i in INDICES)
    assert space[0] > v1 - 1


def test_difficulty_zero_is_v1_and_difficulty_is_deterministic() -> None:
    for index in range(8):
        assert make_at(0, index) == make(index)
        fresh = TASK.generate(question_rng(RELEASE, TASK.name, index), Sources.empty(), 5)
        assert fresh == make_at(5, index)


# ---------------------------------------------------------------- material


def test_each_category_is_material() -> None:
    ids = {e["link"]: e["id"] for d in (raw_lexicon(), raw_additions()) for e in d["categories"]}
    for q in [*(make(i) for i in range(8)), *(make_at(4, i) for i in range(8))]:
        assert sorted(q.material) == sorted(
            category_material(ids[link]) for link in q.fields["links"]
        )


@pytest.mark.parametrize("d", (0, 3))
def test_a_store_never_serves_a_category_twice(d: int) -> None:
    """Questions drawn one after another, each marking its material used, never repeat a
    category; when too few are left the error is one line naming the pool."""
    sources, seen, index = Sources.empty(), set(), 0
    with pytest.raises(UserError) as failure:
        while True:
            q = TASK.generate(question_rng(RELEASE, TASK.name, index), sources, d)
            links = set(q.fields["links"])
            assert not links & seen, (index, links & seen)
            seen |= links
            sources = sources.using(q.material)
            index += 1
    message = str(failure.value)
    assert "\n" not in message and "connections.json" in message and "--per-task" in message
    total = len(raw_lexicon()["categories"]) + (len(raw_additions()["categories"]) if d else 0)
    assert len(seen) > total - 4 - 4 * (d // 2 + 4)


def test_used_categories_are_not_drawn() -> None:
    used = {material_digest(category_material(e["id"])) for e in raw_lexicon()["categories"][:40]}
    banned = {e["link"] for e in raw_lexicon()["categories"][:40]}
    sources = Sources(used=frozenset(used))
    for d in (0, 2, 6):
        for index in range(6):
            q = TASK.generate(question_rng(RELEASE, TASK.name, index), sources, d)
            assert not set(q.fields["links"]) & banned


# ---------------------------------------------------------------- v2 reply formats


def test_label_arrow_pipe_and_table_formats_score_one() -> None:
    for q in [*(make(i) for i in range(16)), make_at(6, 0)]:
        g = groups(q)
        links = q.fields["links"]
        pairs = list(zip(links, g))
        variants = [
            tagged([f"{link.title()} - " + ", ".join(x) for link, x in pairs]),
            tagged([f"{link} \u2192 " + ", ".join(x) for link, x in pairs]),
            tagged([f"{link} -> " + ", ".join(w.upper() for w in x) for link, x in pairs]),
            tagged([f"**{link}** \u2014 " + ", ".join(x) for link, x in pairs]),
            tagged([", ".join(x) + f" - {link}" for link, x in pairs]),
            tagged([", ".join(x) + f" \u2192 {link}" for link, x in pairs]),
            tagged([" | ".join(x) for x in g]),
            tagged([f"{k}. " + " | ".join(x) for k, x in enumerate(g, 1)]),
            tagged(
                ["| link | words |", "|---|---|", *(f"| {a} | {', '.join(x)} |" for a, x in pairs)]
            ),
            tagged([" - ".join(x) for x in g]),
            "Groups:\n\n" + "\n".join(f"{link} - " + ", ".join(x) for link, x in pairs),
        ]
        for text in variants:
            assert score(q, text) == 1.0, text


def test_new_formats_give_no_credit_to_wrong_groups() -> None:
    """A wrong word in a labelled group breaks that group whatever the format, and a label that
    is itself a puzzle word is not read as a fifth word or as a group."""
    for index in range(16):
        q = make(index)
        g = groups(q)
        k = len(g)
        links = q.fields["links"]
        a, b = list(g[0]), list(g[1])
        a[0], b[0] = b[0], a[0]
        broken = [a, b, *g[2:]]
        for fmt in (
            lambda link, x: f"{link} - " + ", ".join(x),
            lambda link, x: f"{link} \u2192 " + ", ".join(x),
            lambda link, x: ", ".join(x) + f" - {link}",
            lambda link, x: " | ".join(x),
        ):
            reply = tagged([fmt(link, x) for link, x in zip(links, broken)])
            assert score(q, reply) == pytest.approx((k - 2) / k), reply
        # "three right words - the fourth" is a group of three: wrong.
        three = [", ".join(x[:3]) + f" - {x[3]}" for x in g]
        assert score(q, tagged(three)) == 0.0
        # A group padded with another group's word on the label side is read without it.
        label_word = [f"{g[1][0]} - " + ", ".join(g[0]), *(", ".join(x) for x in g[1:])]
        assert score(q, tagged(label_word)) == 1.0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*make_at(6, 1).fields["words"], ",", "-", "|", "\n", ":"])))
def test_score_in_range_on_decoy_puzzles(tokens: list[str]) -> None:
    replies = [" ".join(tokens), tagged([" ".join(tokens)])]
    checks.assert_scores_in_range(TASK, [record(make_at(6, 1))], replies)
