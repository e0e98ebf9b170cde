"""What extract_code reads out of a coding reply: which fenced block, which tag, or bare code."""

from __future__ import annotations

import pytest

from ladderbench.grading.code import extract_code, fenced_blocks

SOLVE = "def solve(n):\n    return n * 2\n"

CODE_CASES = [
    # --- fences: where a block starts and ends
    ("```python\nx = 1\n```", None, "x = 1\n"),
    ("Here it is:\n```python\nprint(1)\n```\nIt prints 1.", None, "print(1)\n"),
    ("~~~\nx = 1\n~~~", None, "x = 1\n"),
    ("````python\nprint('```')\n```\nx = 1\n````", None, "print('```')\n```\nx = 1\n"),
    ("1. The code:\n   ```python\n   x = 1\n   ```\n2. Run it.", None, "   x = 1\n"),
    ("```python\nx = 1```", None, "x = 1"),
    ("```python\nx = 1\ny = 2", None, "x = 1\ny = 2"),  # never closed: runs to the end
    ("```python\n   \n```", None, None),  # an empty block is no code
    # --- which block: the last Python or untagged one, else the last of any language
    ("```Python\nx = 1\n```\n```text\nout\n```", None, "x = 1\n"),
    ("```js\nlet x;\n```\n```\nx = 1\n```", None, "x = 1\n"),
    ("```bash\npip install numpy\n```", None, "pip install numpy\n"),
    ("```python\nx = 1\n```\n```python\ny = 2\n```\n```python\nz = 3\n```", None, "z = 3\n"),
    # --- with an entry point: the last block that defines it beats a later usage example
    (f"```python\n{SOLVE}```\nUsage:\n```python\nprint(solve(3))\n```", "solve", SOLVE),
    (f"```python\n{SOLVE}```\n```python\nprint(solve(3))\n```", "solver", "print(solve(3))\n"),
    (
        "```python\nclass Solution:\n    def solve(self, n):\n        return n\n```\n```python\n"
        "print(Solution().solve(3))\n```",
        "solve",
        "class Solution:\n    def solve(self, n):\n        return n\n",
    ),
    (f"Draft:\n```python\n{SOLVE}```\nFixed:\n```python\n{SOLVE}\n```", "solve", SOLVE + "\n"),
    # --- no fence: the last <solution>/<answer> tag, dedented
    ("<solution>\n    def f():\n        return 1\n</solution>", None, "def f():\n    return 1\n"),
    ("<answer>x = 1</answer> then <answer>y = 2</answer>", None, "y = 2\n"),
    ("<SOLUTION>\nx = 1\n", None, "x = 1\n"),
    (
        "<solution>\nX = [3, 1, 2]\nprint(sorted(X))\n</solution>",
        None,
        "X = [3, 1, 2]\nprint(sorted(X))\n",
    ),
    ("<solution>\n\n</solution>", None, None),
    # --- no fence, no tag: the whole reply when it starts like code
    ("  import math\nprint(math.pi)\n", None, "import math\nprint(math.pi)\n"),
    ("@cache\ndef f(n):\n    return n", None, "@cache\ndef f(n):\n    return n\n"),
    ("# the sum\nprint(1 + 2)", None, "# the sum\nprint(1 + 2)\n"),
    ("The function is def f(): pass", None, None),
    # --- reasoning is not the answer
    ("<think>\n```python\nbad = 1\n```\n</think>\n```python\ngood = 1\n```", None, "good = 1\n"),
    ("<think>\n```python\nbad = 1\n```", None, None),
    ("", None, None),
]


@pytest.mark.parametrize(("response", "entry", "expected"), CODE_CASES)
def test_extract_code_reads(response: str, entry: str | None, expected: str | None) -> None:
    assert extract_code(response, entry) == expected


def test_fenced_blocks_are_every_block_in_order_with_its_language() -> None:
    reply = "```Python\na\n```\ntext\n~~~ Bash extra\nb\n~~~\n```\nc"
    assert fenced_blocks(reply) == [("python", "a\n"), ("bash", "b\n"), ("", "c")]


def test_non_text_replies_hold_no_code() -> None:
    assert extract_code(None) is None  # type: ignore[arg-type]
    assert extract_code(b"```python\nx = 1\n```") is None  # type: ignore[arg-type]
