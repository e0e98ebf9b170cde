"""A corpus of malformed level files: each is rejected with file, line and field."""

import json

import pytest

from ladderbench.errors import UserError
from ladderbench.static.loader import load_questions
from ladderbench.static.suite import StaticSuite

GOOD = {
    "id": "l1_01",
    "level": 1,
    "category": "arithmetic",
    "question": "What is 2 + 2?",
    "choices": ["3", "4", "5", "22"],
    "answer": "B",
}


def write(folder, name, *objs):
    folder.mkdir(exist_ok=True)
    lines = [o if isinstance(o, str) else json.dumps(o) for o in objs]
    (folder / name).write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", r"level1_x.jsonl:2: not valid JSON"),
        ("[1, 2, 3]", r"level1_x.jsonl:2: expected a JSON object"),
        (
            {**GOOD, "id": "l1_02", "choices": ["1", "2", "3"]},
            r":2: field 'choices': must be a list of exactly 4",
        ),
        ({**GOOD, "id": "l1_02", "choices": ["1", "2", "3", "4", "5"]}, r":2: field 'choices'"),
        (
            {**GOOD, "id": "l1_02", "choices": ["1", "2", "2", "4"]},
            r":2: field 'choices'.*two choices are the same",
        ),
        ({**GOOD, "id": "l1_02", "answer": "E"}, r":2: field 'answer': must be one of A, B, C, D"),
        ({**GOOD, "id": "l1_02", "answer": "b"}, r":2: field 'answer'"),
        ({**GOOD, "id": "l1_02", "level": 2}, r":2: field 'level': 2 in a level-1 file"),
        (
            {k: v for k, v in GOOD.items() if k != "question"} | {"id": "l1_02"},
            r":2: field 'question': Field required",
        ),
        ({**GOOD, "id": "l1_02", "extra": 1}, r":2: field 'extra': unknown field"),
        ({**GOOD, "id": "l1_02", "question": ""}, r":2: field 'question'"),
        ({**GOOD, "id": "l1_02", "level": "one"}, r":2: field 'level'"),
    ],
)
def test_bad_line_is_rejected_with_file_line_field(tmp_path, line, message):
    folder = write(tmp_path / "data", "level1_x.jsonl", GOOD, line)
    with pytest.raises(UserError, match=message) as err:
        load_questions(folder)
    assert "\n" not in str(err.value)


def test_duplicate_id_across_files(tmp_path):
    folder = write(tmp_path / "d", "level1_a.jsonl", GOOD)
    write(folder, "level2_b.jsonl", {**GOOD, "level": 2})
    with pytest.raises(
        UserError, match=r"level2_b.jsonl: field 'id': 'l1_01' already used in level1_a.jsonl"
    ):
        load_questions(folder)


def test_missing_or_empty_folder(tmp_path):
    with pytest.raises(UserError, match="no such folder"):
        load_questions(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no level files"):
        load_questions(tmp_path / "empty")
    folder = write(tmp_path / "blank", "level1_x.jsonl", "")
    with pytest.raises(UserError, match="no questions"):
        load_questions(folder)


def test_a_new_level_file_registers_by_dropping_it_in(tmp_path):
    folder = write(tmp_path / "d", "level1_a.jsonl", GOOD)
    write(folder, "level6_insane.jsonl", {**GOOD, "id": "l6_01", "level": 6})
    (folder / "notes.jsonl").write_text("ignored: not a level file\n")
    suite = StaticSuite(data_dir=folder)
    assert sorted(i.level for i in suite.items()) == [1, 6]


def test_selection_levels_and_limit():
    suite = StaticSuite(levels=[4, 5], limit=5)
    items = suite.items()
    assert len(items) == 10 and {i.level for i in items} == {4, 5}
    with pytest.raises(UserError, match="--levels: no level 9"):
        StaticSuite(levels=[9])


def test_prompt_template_letters_the_options():
    item = StaticSuite(levels=[1], limit=1).items()[0]
    assert "(A) " in item.prompt and "(D) " in item.prompt
    assert item.prompt.rstrip().endswith(
        "Reply with the letter of the correct option only (A, B, C or D)."
    )
