"""Reading the code out of a reply: its last fenced block, a tagged block, or a bare definition.

One of the answer readers (``grading/``); the coding tasks grade what ``extract_code`` returns.
"""

from __future__ import annotations

import re
import textwrap

from ladderbench.grading.extract import strip_think

_OPENER = re.compile(r"(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+#.-]*)[^\n`]*\n")
_PYTHON_TAGS = frozenset({"", "python", "py", "python3", "py3", "python3.11", "pycon", "ipython"})
_TAG_BLOCK = re.compile(r"<(solution|answer)>(.*?)(?:</\1>|\Z)", re.I | re.S)
_CODE_START = re.compile(r"(?:def|class|import|from|async\s+def)\b|@\w|#")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block as (language tag, body), in order; an unclosed last one runs to the
    end of the text."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _OPENER.search(text, pos)
        if m is None:
            return blocks
        fence = m.group(1)
        closer = re.compile(
            r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$"
            r"|" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$",
            re.M,
        )
        c = closer.search(text, m.end())
        lang = m.group(2).lower()
        if c is None:
            blocks.append((lang, text[m.end() :]))
            return blocks
        blocks.append((lang, text[m.end() : c.start()]))
        pos = c.end()


def defines(code: str, entry: str | None) -> bool:
    return entry is not None and bool(
        re.search(rf"^[ \t]*def[ \t]+{re.escape(entry)}\b", code, re.M)
    )


def extract_code(response: str, entry: str | None = None) -> str | None:
    """The code a reply gives: its last fenced code block.

    Python-tagged or untagged blocks are preferred to blocks tagged with another language, and,
    when ``entry`` is given, the last block that defines ``def entry(`` wins over later blocks
    that do not (a usage example after the solution). Without any fence, the content of the
    last <solution>/<answer> tag is used, else the whole reply when it starts like code (def,
    class, import, from, a decorator or a comment). None when there is no code. Never raises.
    """
    if not isinstance(response, str):
        return None
    text = strip_think(response)
    if not text:
        return None
    blocks = fenced_blocks(text)
    if blocks:
        pythonic = [body for lang, body in blocks if lang in _PYTHON_TAGS] or [b for _, b in blocks]
        defining = [body for body in pythonic if defines(body, entry)]
        code = (defining or pythonic)[-1]
        return code if code.strip() else None
    tags = list(_TAG_BLOCK.finditer(text))
    if tags:
        code = textwrap.dedent(tags[-1].group(2)).strip("\n")
        return code + "\n" if code.strip() else None
    stripped = text.strip()
    if _CODE_START.match(stripped):
        return stripped + "\n"
    return None
