"""Answer extraction: read the answer a model actually gave out of its free-text reply.

This is the project's one extraction module. It uses only the standard library and Python 3.8
syntax because its source is inlined verbatim into the zero-dependency standalone script
(``ladderbench export standalone``), so the harness and that script read answers identically.

Multiple choice (``extract_choice``) works on *statements*: every place in the reply where an
answer is given (an "Answer:" phrase, a ``\\boxed{}``, an ``<answer>`` tag, a bold or lone letter,
a self-correction such as "no, B", "B is correct", a hedge such as "I think it is B"). Explicit
statements beat hedges, and among them the last one wins; a hedge that follows a change of mind
("wait", "hmm", "on second thought") made after the last explicit statement restates the answer
and counts as explicit. A letter that is the subject of a sentence ("D is tempting", "B looks
right but") is not an answer. A statement naming two letters, or a letter that is not an
option, yields no answer. An option's full text names it too, and an option that is a number
("$18", "1,200", "12.5%", "45 km") is also named by its value however the reply writes it ("18",
"$18.00", "**18 dollars**") when no other option has that value; a number followed by more
arithmetic ("17 + 1 = 18") is working, not an answer. Every position below indexes the same
string: the reply after think-stripping and NFKC, and its "masked" copy in which markup is
blanked out character for character, so that offsets found in one are valid in the other.
"""

from __future__ import annotations

import bisect
import collections
import decimal
import re
import unicodedata

__all__ = ["extract_answer", "extract_choice", "normalise_text", "strip_think"]


def whole_number(digits: str) -> int | None:
    """The value of a run of digits a reply wrote, or None when int() refuses it (more than
    4300 digits, Python's guard against quadratic conversion): no answer is that long."""
    try:
        return int(digits)
    except ValueError:
        return None


def _match_end(pattern: re.Pattern[str], text: str, pos: int, endpos: int | None = None) -> int:
    """Where ``pattern`` matches at pos ends, for the patterns here that match the empty string."""
    m = pattern.match(text, pos, len(text) if endpos is None else endpos)
    assert m is not None, "the pattern matches the empty string"
    return m.end()


# ---------------------------------------------------------------- reasoning blocks

_THINK_NAME = re.compile(r"<(think|thinking|reasoning)\b", re.I)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)\s*>", re.I)


_CLOSE_BY_NAME = {
    name: re.compile(r"</" + name + r"\s*>", re.I) for name in ("think", "thinking", "reasoning")
}


def _without_blocks(text: str) -> str:
    """text without its reasoning blocks: an opening tag up to the first closing tag of its name.

    One left-to-right pass, as ``re.sub`` of ``<(name)\\b[^>]*>.*?</\\1\\s*>`` would do it but
    in linear time: each opening tag's ">" and closing tag are looked up once (the last answer
    is remembered), not scanned for from every tag of a flood of them.
    """
    kept, pos, search_from, gt = [], 0, 0, -1
    closes: dict[str, tuple[int, int, int]] = {}  # name: (searched from, found start, end)
    while True:
        m = _THINK_NAME.search(text, search_from)
        if m is None:
            break
        if gt < m.end():
            gt = text.find(">", m.end())
        if gt < 0:
            break  # no opening tag can end from here on
        name = m.group(1).lower()
        searched, start, end = closes.get(name, (len(text) + 1, -1, -1))
        if not searched <= gt + 1 <= max(start, searched):
            close = _CLOSE_BY_NAME[name].search(text, gt + 1)
            searched, start, end = (gt + 1, *close.span()) if close else (gt + 1, len(text), -1)
            closes[name] = (searched, start, end)
        if end < 0:
            search_from = m.start() + 1  # never closed: left in the text
            continue
        kept.append(text[pos : m.start()])
        pos = search_from = end
    kept.append(text[pos:])
    return "".join(kept)


def _has_opening_tag(text: str) -> bool:
    """Whether text holds ``<think ...>`` (or thinking, reasoning): a name, then a ``>``."""
    m = _THINK_NAME.search(text)
    return m is not None and text.find(">", m.end()) >= 0


def strip_think(text: str) -> str | None:
    """Drop closed reasoning blocks, whose contents are not the answer.

    Returns None when a block is still open: the reply was cut off mid-thought and holds no
    answer. A closing tag with no opening one (the template put ``<think>`` in the prompt)
    means everything before it was reasoning. Linear in the reply (a flood of tags included).
    """
    if not isinstance(text, str):
        return None
    text = _without_blocks(text)
    if _has_opening_tag(text):
        return None
    last_end = 0
    for close in _THINK_CLOSE.finditer(text):
        last_end = close.end()
    return text[last_end:].strip()


# ---------------------------------------------------------------- normalisation

_EMPHASIS = re.compile(r"[*`]|(?<![^\W_])_+|_+(?![^\W_])")
_EDGE_PUNCTUATION = " .,:;!?\"'"


def normalise_text(s: str) -> str:
    """Canonical form of a short answer: NFKC, no markdown emphasis, one space, casefolded.

    Models decorate the same answer differently (``**Paris**``, full-width letters, stray
    spaces); graders should not care.
    """
    if not isinstance(s, str):
        return ""
    s = _EMPHASIS.sub("", unicodedata.normalize("NFKC", s))
    return " ".join(s.split()).casefold()


def _option_key(s: str) -> str:
    """normalise_text without surrounding punctuation: "Paris." and "paris" name one option."""
    return normalise_text(s).strip(_EDGE_PUNCTUATION)


def _ends_a_word(rest: str) -> bool:
    """Whether rest, what follows a matched option, starts a new word (so "12" is not "1")."""
    return not rest or rest[0].isspace() or (rest[0] in ".,;:!?)" and rest[1:2] in ("", " "))


def _starts_with_key(s: str, key: str) -> bool:
    """Whether s begins with the whole option text key (so "12" does not begin with "1")."""
    return bool(key) and s.startswith(key) and _ends_a_word(s[len(key) :])


# ---------------------------------------------------------------- numeric options

# A number as an option or a reply writes it, in a normalised key: "$1,200.00", "-3", "45 km",
# "12.5%", "18 dollars". Group separators must group by threes: "1,5" is not a number.
_CURRENCY = "$€£¥₹"
_QUANTITY = re.compile(
    r"([-−]?)[ \t]*([" + _CURRENCY + r"]?)[ \t]*([-−]?)"
    r"(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
    r"(?:[ \t]*(%|[" + _CURRENCY + r"]|[^\W\d_]+(?:/[^\W\d_]+)?\d?(?![^\W_])))?"
)
_UNIT_NAMES = {
    "dollar": "$", "dollars": "$", "usd": "$", "euro": "€", "euros": "€", "eur": "€",
    "pound": "£", "pounds": "£", "gbp": "£", "yen": "¥", "rupees": "₹", "inr": "₹",
    "percent": "%",
}  # fmt: skip
_Quantity = collections.namedtuple("_Quantity", "value currency unit number_end end")
# currency: a symbol or ""; unit: canonical ("%", "$", "km", "minute") or ""; number_end: where
# the number and its currency end, end: where its unit (if any) ends.


def _canonical_unit(word: str) -> str:
    """One spelling per unit: currency and percent words as symbols, plurals singular ("lbs"
    is "lb"; a one- or two-letter unit such as "s" or "ms" is kept)."""
    word = _UNIT_NAMES.get(word, word)
    return word[:-1] if len(word) >= 3 and word.endswith("s") else word


def _quantity(key: str) -> _Quantity | None:
    """The number that key (an _option_key) starts with, or None."""
    m = _QUANTITY.match(key)
    if not m or (m.group(1) and m.group(3)):
        return None
    value = decimal.Decimal(m.group(4).replace(",", "") + (m.group(5) or ""))
    unit = _canonical_unit(m.group(6)) if m.group(6) else ""
    number_end = m.end(5) if m.group(5) else m.end(4)
    sign = -1 if m.group(1) or m.group(3) else 1
    return _Quantity(sign * value, m.group(2), unit, number_end, m.end())


def _option_quantity(key: str) -> _Quantity | None:
    """The value of an option that is nothing but a number (with currency, percent or unit)."""
    option = _quantity(key)
    return option if option is not None and option.end == len(key) else None


def _quantity_end(q: _Quantity, option: _Quantity, whole: bool) -> int | None:
    """Where the reply's number q, read at the start of its key, states option; None if not.

    The reply may leave out the option's currency or unit but may not add another. Unless whole,
    an unknown word after the number is prose, not a unit ("18 because ...").
    """
    if q.value != option.value or q.currency not in ("", option.currency, option.unit):
        return None
    end = q.end
    if q.unit and q.unit not in (option.unit, option.currency):
        known_unit = q.unit in _UNIT_NAMES.values()
        if whole or known_unit:
            return None
        end = q.number_end
    return end


# "17 + 1 = 18", "14 - 5 = 9": a number followed by more arithmetic is working, not an answer.
_WORKING = re.compile(r"[ \t]*(?:[-+*/×÷^=<>≈]|x(?=[ \t]))[ \t]*[\d(.]")


# Markup is blanked with spaces (never deleted) so the masked text keeps every offset.
_LATEX_WRAPPER = re.compile(
    r"\\(?:boxed|fbox|mbox|emph|text(?:bf|it|rm|tt|sf)?|math(?:bf|rm|it|tt|sf))[ \t]*\{([^{}]*)\}"
)
_MARKUP = re.compile(
    r"^[ \t]*(?:[#>]+|[-+•][ \t]+)"  # headings, quotes, bullets
    r"|[*`$]|\\[()\[\]$]"  # emphasis, code, maths delimiters, an escaped dollar
    r"|</?[A-Za-z][\w-]*[ \t]*/?>"  # html-like tags such as <answer>
    r"|(?<![^\W_])_+|_+(?![^\W_])",  # _emphasis_ (not snake_case)
    re.M,
)


_WRAPPER_NAMES = (
    "boxed", "fbox", "mbox", "emph", "text", "textbf", "textit", "textrm", "texttt", "textsf",
    "mathbf", "mathrm", "mathit", "mathtt", "mathsf",
)  # fmt: skip
_WRAPPER_ENDS = tuple("\\" + name for name in _WRAPPER_NAMES)  # as the text before "{" ends
_WRAPPER_REACH = max(map(len, _WRAPPER_ENDS))


def _wrapper_start(chars: list[str], brace: int) -> int | None:
    """Where the ``\\text`` (or another wrapper) that opens with the "{" at brace starts."""
    end = brace
    while end and chars[end - 1] in " \t":
        end -= 1
    tail = "".join(chars[max(0, end - _WRAPPER_REACH) : end])
    for name in _WRAPPER_ENDS:
        if tail.endswith(name):
            return end - len(name)
    return None


def _mask(text: str) -> str:
    """text with LaTeX wrappers, markdown and tags replaced by spaces, same length.

    A wrapper (``\\text{...}``, ``\\boxed{...}``) is blanked, keeping its content, when every
    brace inside it belongs to a wrapper that is blanked too: one pass with a stack, not one
    pass per level of nesting.
    """
    chars = list(text)
    stack: list[list] = []  # [brace position, wrapper start or None, content still has braces]
    for i, char in enumerate(chars):
        if char == "{":
            stack.append([i, _wrapper_start(chars, i), False])
        elif char == "}" and stack:
            brace, start, braced = stack.pop()
            if start is not None and not braced:
                chars[start : brace + 1] = " " * (brace + 1 - start)
                chars[i] = " "
            elif stack:
                stack[-1][2] = True
    return _MARKUP.sub(lambda m: " " * len(m.group()), "".join(chars))


_BOXED = re.compile(r"\\(?:boxed|fbox)[ \t]*\{")


def _closing_braces(text: str) -> dict[int, int]:
    """The matching "}" of every "{" that is closed, by the position of the "{"."""
    closing, open_braces = {}, []
    for m in re.finditer(r"[{}]", text):
        if m.group() == "{":
            open_braces.append(m.start())
        elif open_braces:
            closing[open_braces.pop()] = m.start()
    return closing


def _boxed_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, end, content start) of every ``\\boxed{...}`` whose braces balance; its content
    is ``text[content_start : end - 1]`` (sliced by the caller: nested boxes would make the
    contents together quadratic in the reply)."""
    closing = _closing_braces(text) if "{" in text else {}
    spans = []
    for m in _BOXED.finditer(text):
        close = closing.get(m.end() - 1)
        if close is not None:
            spans.append((m.start(), close + 1, m.end()))
    return spans


# ---------------------------------------------------------------- multiple choice

_Statement = collections.namedtuple("_Statement", "start end letter explicit soft")
# letter: the chosen label, or None for a statement that names no valid single option.
# explicit: a marked answer (beats hedges). soft: the letter was read through option text or
# sits at the very start of the reply; soft statements are dropped when the reply lists options.


class _Options:
    """One question's option labels (upper case), normalised option texts and numeric values."""

    def __init__(self, choices: list[str], letters: str) -> None:
        self.key_by_label: dict[str, str] = {}
        for letter, choice in zip(letters, choices):
            label = unicodedata.normalize("NFKC", letter).upper()
            if len(label) == 1 and label.isalnum() and label not in self.key_by_label:
                self.key_by_label[label] = _option_key(choice) if isinstance(choice, str) else ""
        self.valid = frozenset(self.key_by_label)
        # "A" and "I" are English words: followed by a word they are a letter only when marked.
        self.plain = self.valid - {"A", "I"}
        self.reach = 64 + 4 * max([len(key) for key in self.key_by_label.values()] or [0])
        # A box holding other boxes is read only up to this length: nested boxes' contents
        # together grow with the square of the reply, and a box this long is working.
        self.box_reach = 16 * self.reach
        self.quantity_by_label: dict[str, _Quantity] = {}
        for label, key in self.key_by_label.items():
            option = _option_quantity(key)
            if option is not None:
                self.quantity_by_label[label] = option

    def clip(self, text: str, pos: int, end: int) -> str:
        """text[pos:end] cut to what ``head`` reads of it, without copying a long line.

        For a reading that the option only begins (whole=False, the one use), head(clip(...))
        names the options head(text[pos:end]) names: head reads up to one character past the
        reach, and beyond that only whether more text follows, which a prefix ignores.
        """
        return text[pos : min(end, pos + self.reach + 1)]

    def head(self, segment: str) -> str:
        """segment cut, at a word boundary, to what an option text could span.

        This keeps a very long line cheap to compare. The cut is marked so that a cut line
        never equals an option text. A word the reach ends inside is left out; a word that ends
        at the reach is kept ("New York" followed by a padded table cell's blanks).
        """
        segment = segment.rstrip()
        if len(segment) <= self.reach:
            return segment
        kept = segment[: self.reach]
        if not (kept[-1].isspace() or segment[self.reach].isspace()):
            kept = kept.rsplit(None, 1)[0]
        return kept.rstrip() + " \x00"

    def _end(self, label: str, seg: str, q: _Quantity | None, whole: bool) -> int | None:
        """Where option label, stated at the start of seg (a key), ends; None if it is not.

        seg names the option by its text, or by its value when the option is a number; a
        number followed by more arithmetic names nothing.
        """
        key = self.key_by_label[label]
        option = self.quantity_by_label.get(label)
        end: int | None = None
        if key and (seg == key if whole else _starts_with_key(seg, key)):
            end = len(key)
        elif option is not None and q is not None:
            end = _quantity_end(q, option, whole)
        if end is None or (whole and end != len(seg)) or not _ends_a_word(seg[end:]):
            return None
        if option is not None and _WORKING.match(seg, end):
            return None
        return end

    def _match_at(self, seg: str, whole: bool) -> tuple[str, int] | None:
        """The option seg states at its start, as (label, end), or None.

        The longest statement wins; at equal length the option's own text beats its value
        ("18" is option "18", not option "$18.00"); a tie beyond that names nothing.
        """
        q = _quantity(seg) if self.quantity_by_label else None
        best, best_rank, tied = None, (0, False), False
        for label in self.key_by_label:
            end = self._end(label, seg, q, whole)
            if end is None:
                continue
            rank = (end, seg[:end] == self.key_by_label[label])
            if rank > best_rank:
                best, best_rank, tied = label, rank, False
            elif rank == best_rank:
                tied = True
        return None if best is None or tied else (best, best_rank[0])

    def match_text(self, segment: str, whole: bool) -> str | None:
        """The label whose option segment is (or, unless whole, begins with).

        An option offered together with another ("41 or 42", "Paris/Rome") names neither.
        """
        seg = _option_key(self.head(segment))
        found = self._match_at(seg, whole)
        if found is None:
            return None
        label, end = found
        alternative = _ALTERNATIVE.match(seg, end)
        if alternative:
            other = self._match_at(seg[alternative.end() :], whole=False)
            if other is not None and other[0] != label:
                return None
        return label

    def names(self, label: str, segment: str, whole: bool) -> bool:
        """Whether segment is (or, unless whole, begins with) option label, by text or value."""
        seg = _option_key(self.head(segment))
        q = _quantity(seg) if label in self.quantity_by_label else None
        return self._end(label, seg, q, whole) is not None


_TOKEN = re.compile(r"([(\[{]?)[ \t]*([^\W_])[ \t]*[)\]}]?(?![^\W_]|['-][^\W_])")
_WORD_NEXT = re.compile(r"[ \t]+[^\W\d_]")


def _letter_at(text: str, pos: int, word_ok: frozenset) -> tuple[str, int] | None:
    """A one-character label at pos, as (upper-case label, end), or None.

    A label followed by a word is accepted only if it is upper case and in word_ok: this is
    what keeps "a bit", "A good question" and "I think" from reading as answers.
    """
    m = _TOKEN.match(text, pos)
    if not m:
        return None
    char = m.group(2)
    label = char.upper()
    bracketed, capital = bool(m.group(1)), char == label
    if _WORD_NEXT.match(text, m.end()) and not bracketed and not (capital and label in word_ok):
        return None
    return label, m.end()


# "D is wrong", "B looks right": a letter followed by a verb is the subject of a sentence, not a
# choice. Affirmations ("B is correct") are read separately, by _LETTER_IS_RIGHT.
_PREDICATE = re.compile(
    r"[ \t]+(?:is|isn't|was|wasn't|are|looks|seems|appears|sounds|would|could|might|may|can"
    r"|can't|cannot|must|has|does|doesn't|gives|fails|works|equals)\b",
    re.I,
)


def _is_subject(text: str, end: int) -> bool:
    return _PREDICATE.match(text, end) is not None


_ALTERNATIVE = re.compile(
    r"[ \t]*(?:,|/|&|\bor\b|\band\b|\bvs\b\.?)[ \t]*(?:(?:option|choice)[ \t]+)?", re.I
)


def _is_ambiguous(text: str, end: int, label: str, opts: _Options) -> bool:
    """Whether the label ending at end is offered together with another ("B or C", "A/B")."""
    m = _ALTERNATIVE.match(text, end)
    other = _letter_at(text, m.end(), opts.plain) if m else None
    return other is not None and other[0] in opts.valid and other[0] != label


_LEAD_WORDS = re.compile(r"\s*(?:(?:option|choice|letter|either|both)\b\s*)*", re.I)


def _read_after(masked: str, pos: int, opts: _Options, word_ok: frozenset, explicit: bool):
    """The answer stated right after a marker phrase, as (label or None, end), or None."""
    pos = _match_end(_LEAD_WORDS, masked, pos)
    token = _letter_at(masked, pos, word_ok)
    if token and _is_subject(masked, token[1]):
        return None
    if token and token[0] in opts.valid:
        label, end = token
        return (None if _is_ambiguous(masked, end, label, opts) else label), end
    if not explicit:
        return None
    line_end = masked.find("\n", pos)
    line_end = len(masked) if line_end < 0 else line_end
    by_text = opts.match_text(opts.clip(masked, pos, line_end), whole=False)
    if by_text:
        return by_text, line_end
    return (None, token[1]) if token else None  # "Answer: E" names a non-option


_WHOLE_PREFIX = re.compile(
    r"(?:(?:(?:final|correct)\s+)?answer\b\s*(?:is\b)?\s*[:=\-–—]?\s*"
    r"|(?:option|choice|letter|either|both)\b\s*)*",
    re.I,
)


def _read_whole(segment: str, opts: _Options):
    """segment read as nothing but an answer ("B", "(B)", "Option C", "B) 42", "Paris").

    Returns (label or None, soft) or None; soft means option text was involved.
    """
    s = segment.strip().rstrip(".!?:;,").strip()
    if not s:
        return None
    stated = _match_end(_WHOLE_PREFIX, s, 0)  # "Answer: 9": what follows "Answer:"
    token = _letter_at(s, stated, opts.valid)
    rest = s[token[1] :].strip(" \t.:)-–—") if token else ""
    if token and token[0] in opts.valid:
        label = token[0]
        if _is_ambiguous(s, token[1], label, opts):
            return None, False
        if not rest:
            return label, False
        if opts.names(label, rest, whole=True):
            return label, True
    by_text = opts.match_text(s[stated:], whole=True)
    if by_text:
        return by_text, True
    if token and not rest:
        return None, False  # a lone label that is not an option, such as "E" of four
    return None


# Marker phrases. Each is followed by the letter it introduces; the table says how much the
# statement counts and which letters may be followed by a word.
_ANSWER_IS = re.compile(
    r"\b(?:answer|option|choice|(?:correct|right)[ \t]+one)\b[ \t]*"
    r"(?:(?:is|would\s+be|should\s+be|will\s+be|must\s+be)\b[ \t]*:?|[:=\-–—])",
    re.I,
)
_I_CHOOSE = re.compile(
    r"\b(?:I(?:'d|'ll|[ \t]+would|[ \t]+will)?[ \t]+(?:choose|pick|select|opt[ \t]+for)"
    r"|I(?:'ll|[ \t]+will|'m[ \t]+going[ \t]+to|[ \t]+am[ \t]+going[ \t]+to)[ \t]+say"
    r"|(?:go|going)[ \t]+with)\b[ \t]*:?",
    re.I,
)
_WHICH_IS = re.compile(  # "48, which is option A"
    r"\b(?:which|that)(?:[ \t]+is|'s)[ \t]+(?=(?:option|choice|letter)\b)", re.I
)
_CERTAINLY = re.compile(r"\b(?:definitely|certainly|surely|clearly)\b[ \t,:]*", re.I)
_NOT_X_BUT = re.compile(  # "Not D. A.", "Not A, but B"
    r"\bnot[ \t]+(?:(?:option|choice)[ \t]+)?[(\[]?[^\W_][)\]]?[ \t]*[.,;!\-–—]+[ \t]*"
    r"(?:but[ \t]+(?:rather[ \t]+)?)?",
    re.I,
)
_CORRECTION_ITS = re.compile(
    r"\b(?:actually|no|wait|oops|sorry|rather|instead|I[ \t]+mean)\b[\s,;:.!\-–—]*"
    r"(?:actually[ \t,]*)?(?:it'?s|it[ \t]+is|it[ \t]+should[ \t]+be|make[ \t]+that)\b[ \t]*",
    re.I,
)
_CORRECTION = re.compile(
    r"\b(?:(?:no|wait|oops)[ \t]*[,;:.!\-–—]+|actually|rather|instead|I[ \t]+mean|correction"
    r"|on[ \t]+second[ \t]+thought|scratch[ \t]+that)"
    r"[ \t,;:\-–—]*",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:I[ \t]+(?:think|believe|guess|would[ \t]+say)|I'd[ \t]+say|probably|likely|therefore"
    r"|thus|hence|so|it'?s|it[ \t]+is|it[ \t]+must[ \t]+be|should[ \t]+be)\b[ \t,:]*",
    re.I,
)
_MARKERS = (
    # (phrase, explicit, which letters may be followed by a word)
    (_ANSWER_IS, True, "valid"),  # "The answer is A because ..."
    (_I_CHOOSE, True, "valid"),
    (_WHICH_IS, True, "valid"),
    (_CERTAINLY, True, "none"),  # "Definitely D"; but not "Clearly C) Berlin is wrong"
    (_NOT_X_BUT, True, "none"),
    (_CORRECTION_ITS, True, "valid"),  # "... no, actually it's C"
    (_CORRECTION, True, "none"),  # "A... no, B"; but not "No, B is wrong"
    (_HEDGE, False, "plain"),  # "I think it is B"
)
# "B is correct", "Option A (48) is the right answer", "(C) is the answer": explicit. "B seems
# right", "B is most likely": hedges, and none at all when a "but" follows ("D looks right but").
_LABEL_SUBJECT = (
    r"(?<![^\W_])(?:(?:option|choice)[ \t]+)?([(\[]?)([^\W_])[)\]]?"
    r"(?:[ \t]*\([^()\n]{1,40}\))?[ \t]+"  # an optional "(48)" after the label
)
_RIGHT = r"(?:(?:correct|right|best)(?:[ \t]+(?:answer|one|option|choice))?|answer)(?![\w-])"
_LETTER_IS_RIGHT = re.compile(
    _LABEL_SUBJECT
    + r"(?:is|'s)[ \t]+(?:the[ \t]+)?"
    + _RIGHT
    + r"(?![ \t]+(?:only[ \t]+)?(?:if|when|unless)\b)",
    re.I,
)
_LETTER_SEEMS_RIGHT = re.compile(
    _LABEL_SUBJECT + r"(?:(?:seems|looks|appears)[ \t]+(?:to[ \t]+be[ \t]+)?(?:the[ \t]+)?"
    r"(?:" + _RIGHT + r"|most[ \t]+likely)|is[ \t]+(?:most[ \t]+)?likely\b)(?![ \t,]*but\b)",
    re.I,
)
# "...so it's 1/3: A." A letter closing a line after a colon (a hedge, unless it follows a change
# of mind).
_TRAILING_LETTER = re.compile(r":[ \t]*([(\[]?)([^\W_])[)\]]?[ \t.!]*$", re.M)
# A change of mind: a hedge after one of these, later than the last explicit answer, restates it.
_RECONSIDER = re.compile(
    r"\b(?:wait|actually|hmm+|oops|correction|I[ \t]+mean|on[ \t]+second[ \t]+thought"
    r"|scratch[ \t]+that|no[ \t]*[,;:.!\-–—])",
    re.I,
)
_ANSWER_OPEN = re.compile(r"<answer>", re.I)
_ANSWER_CLOSE = re.compile(r"</answer>", re.I)
_BOLD = re.compile(r"\*\*([^*\n]+?)\*\*|__([^_\n]+?)__")
_ONLY_PUNCTUATION = re.compile(r"[ \t.!,;:)\]]*(?:\n|\Z)")
_LINE = re.compile(r"[^\n]+")
_LISTED = re.compile(r"(?<![^\W_])(?:\(([^\W_])\)|([^\W_])[.):])[ \t]*")
_ABSTAIN = re.compile(
    r"\bnone\s+of\s+the\s+(?:above|options|choices|answers|given)\b"
    r"|\bneither\s+of\s+(?:them|these|the\s+options)\b"
    r"|\bI\s+(?:do\s+not|don't|dont)\s+know\b"
    r"(?!\s+(?:of|if|why|how|what|whether|which|who|where|when|that|about)\b)"
    r"|\bI(?:'m|\s+am)?\s+(?:can't|cannot|can\s+not|won't|will\s+not|unable\s+to|not\s+able\s+to)"
    r"\s+(?:help|assist|answer|provide|determine|choose|comply)\b"
    r"|\b(?:cannot|can't)\s+be\s+determined\b|\bimpossible\s+to\s+(?:determine|tell)\b"
    r"|\b(?:not\s+enough|insufficient)\s+information\b"
    r"|\bno\s+(?:correct|valid|right)\s+(?:answer|option|choice)\b",
    re.I,
)


def _answer_tags(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of every ``<answer>...</answer>``, as ``re.finditer`` of
    ``<answer>(.*?)</answer>`` finds them, but with each closing tag looked up once (a flood of
    unclosed tags would make the lazy scan quadratic)."""
    tags, pos = [], 0
    close = _ANSWER_CLOSE.search(text)
    while close is not None:
        opening = _ANSWER_OPEN.search(text, pos, close.start())
        if opening is None:
            pos = close.end()
        else:
            tags.append((opening.start(), close.end(), text[opening.end() : close.start()]))
            pos = close.end()
        close = _ANSWER_CLOSE.search(text, pos)
    return tags


def _statements(text: str, masked: str, opts: _Options) -> list:
    """Every answer statement in the reply, in no particular order."""
    found = []

    def add(start: int, end: int, reading, explicit: bool = True, soft: bool = False) -> None:
        if reading is not None:
            found.append(_Statement(start, end, reading[0], explicit, soft or reading[1]))

    for start, end, content in _answer_tags(text):
        add(start, end, _read_whole(_mask(content), opts))
    boxes = _boxed_spans(text)
    for (start, end, content_start), following in zip(boxes, [*boxes[1:], None]):
        holds_a_box = following is not None and following[0] < end
        if not holds_a_box or end - 1 - content_start <= opts.box_reach:
            add(start, end, _read_whole(_mask(text[content_start : end - 1]), opts))
    for m in _BOLD.finditer(text):  # **B** closing its line; "**A** is wrong" is not a statement
        if _ONLY_PUNCTUATION.match(masked, m.end()):
            add(m.start(), m.end(), _read_whole(_mask(m.group(1) or m.group(2)), opts))
    for m in _LINE.finditer(masked):  # a line that is nothing but an answer
        add(m.start(), m.end(), _read_whole(m.group(), opts))

    word_ok = {"valid": opts.valid, "plain": opts.plain, "none": frozenset()}
    for phrase, explicit, allowed in _MARKERS:
        for m in phrase.finditer(masked):
            read = _read_after(masked, m.end(), opts, word_ok[allowed], explicit)
            if read is not None:
                found.append(_Statement(m.start(), read[1], read[0], explicit, False))

    start = len(masked) - len(masked.lstrip())  # "B because ...", "C. The others ..."
    token = _letter_at(masked, start, opts.plain)
    if token and token[0] in opts.valid and not _is_subject(masked, token[1]):
        letter = None if _is_ambiguous(masked, token[1], token[0], opts) else token[0]
        found.append(_Statement(start, token[1], letter, True, True))

    for phrase, explicit in ((_LETTER_IS_RIGHT, True), (_LETTER_SEEMS_RIGHT, False)):
        for m in phrase.finditer(masked):
            label = m.group(2).upper()
            named = m.start(1) > m.start()  # "Option b is correct": not a variable "b"
            if label in opts.valid and (m.group(1) or m.group(2).isupper() or named):
                found.append(_Statement(m.start(), m.end(), label, explicit, False))
    for m in _TRAILING_LETTER.finditer(masked):
        label = m.group(2).upper()
        if label in opts.valid and (m.group(1) or m.group(2).isupper()):
            found.append(_Statement(m.start(), m.end(), label, False, False))
    return found


def _promote_restatements(found: list, masked: str) -> list:
    """Hedges that follow a change of mind made after the last explicit answer become explicit.

    "The answer is A. Hmm, wait: ... so it should be D." reads D: the earlier explicit answer
    was taken back, and the hedge is what the reply settled on.
    """
    cues = [m.start() for m in _RECONSIDER.finditer(masked)]
    explicit_ends = sorted(s.end for s in found if s.explicit)
    promoted = []
    for s in found:
        before = bisect.bisect_right(explicit_ends, s.start)  # explicit answers ending before s
        if not s.explicit and before and cues:
            first_cue = bisect.bisect_left(cues, explicit_ends[before - 1])
            if first_cue < len(cues) and cues[first_cue] < s.start:
                s = s._replace(explicit=True)
        promoted.append(s)
    return promoted


def _listed_labels(masked: str, opts: _Options) -> set:
    """Labels written as "B) <option B's text>": the reply enumerates options."""
    labels = set()
    for m in _LISTED.finditer(masked):
        char = m.group(1) or m.group(2)
        label = char.upper()
        if (m.group(1) or char.isupper()) and opts.key_by_label.get(label):
            line_end = masked.find("\n", m.end())
            line = opts.clip(masked, m.end(), len(masked) if line_end < 0 else line_end)
            if opts.names(label, line, whole=False):
                labels.add(label)
    return labels


_BARE_LETTER = re.compile(r"\(?([A-Z])\)?[.)]?")


def extract_choice(response: str, choices: list[str], letters: str = "ABCD") -> str | None:
    """The option letter a reply chose, or None if it chose no single valid option.

    A letter the grader cannot attribute with confidence is worse than None: None is counted
    as unparsed, a wrong guess as a wrong answer. Never raises.
    """
    if not isinstance(response, str) or not isinstance(letters, str):
        return None
    if not isinstance(choices, (list, tuple)):
        return None
    text = strip_think(response)
    if not text:
        return None
    bare = _BARE_LETTER.fullmatch(text)
    short_option = any(len(str(c).strip()) <= 3 for c in choices)
    if bare and bare.group(1) in letters[: len(choices)] and not short_option:
        return bare.group(1)  # the common reply "B" or "(B)": no need for the full read
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    opts = _Options(list(choices), letters)
    if not opts.valid:
        return None
    masked = _mask(text)
    found = _promote_restatements(_statements(text, masked, opts), masked)

    # A reply that enumerates several options ("A) 1 B) 2 ...") chooses none of them.
    soft_labels = {s.letter for s in found if s.soft and s.letter} | _listed_labels(masked, opts)
    if len(soft_labels) >= 2:
        found = [s for s in found if not s.soft]
    pool = [s for s in found if s.explicit] or found
    if not pool:
        return None
    last = max(pool, key=lambda s: (s.start, s.end))
    if any(m.start() >= last.end for m in _ABSTAIN.finditer(masked)):
        return None  # "The answer is A. Actually, none of the above."
    return last.letter


# ---------------------------------------------------------------- free-form answers

_ANSWER_BLOCK = re.compile(r"<(answer|solution)>(.*?)(?:</\1>|\Z)", re.I | re.S)
_ANSWER_LINE = re.compile(r"\b(?:final[ \t]+)?answer\b[*_ \t]*(?:(is)\b[*_ \t]*[:：]?|[:：])", re.I)
_LABEL_PREFIX = re.compile(r"[ \t>#*_\-]*")  # what may precede an "Answer:" label on its line
_MATH_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))
_INLINE_MATH = re.compile(r"\$([^\s$]+)\$")  # "$19$ km" -> "19 km"; "$5 and $10" is left alone

# Kinds of free-form answer statement, strongest first.
_TAG, _BOXED_KIND, _LABEL, _PHRASE = range(4)
_Found = collections.namedtuple("_Found", "start end value kind")
# value: the answer's text, or for a box the slice of the reply it is (nested boxes' contents
# together would be quadratic in the reply; only the chosen one is cut out).


class _Window:
    """A part ``text[lo:hi]`` of a string, peeled from both ends without copying it."""

    def __init__(self, text: str) -> None:
        self.text, self.lo, self.hi = text, 0, len(text)
        self.inline_math = True  # False once this text[lo:hi] is known to hold no "$x$"
        self.closing: dict[int, int] | None = None

    def value(self) -> str:
        return self.text[self.lo : self.hi]

    def strip(self, chars: str | None = None) -> None:
        """str.strip(chars) on the window."""
        text, lo, hi = self.text, self.lo, self.hi
        inside = str.isspace if chars is None else chars.__contains__
        while lo < hi and inside(text[lo]):
            lo += 1
        while hi > lo and inside(text[hi - 1]):
            hi -= 1
        self.lo, self.hi = lo, hi

    def unwrap_delimiters(self) -> None:
        """Drop the first pair of maths delimiters that encloses the window."""
        for left, right in _MATH_DELIMITERS:
            fits = self.hi - self.lo >= len(left) + len(right)
            if (
                fits
                and self.text.startswith(left, self.lo)
                and self.text.endswith(right, 0, self.hi)
            ):
                self.lo, self.hi = self.lo + len(left), self.hi - len(right)
                return

    def unwrap_box(self) -> None:
        """The content of a \\boxed{} that is the whole window and holds no balanced box."""
        m = _BOXED.match(self.text, self.lo, self.hi)
        if m is None:
            return
        if self.closing is None:
            self.closing = _closing_braces(self.text)
        if self.closing.get(m.end() - 1) != self.hi - 1:
            return
        for inner in _BOXED.finditer(self.text, m.end(), self.hi):
            if self.closing.get(inner.end() - 1, self.hi) < self.hi:
                return  # the last balanced box is an inner one
        self.lo, self.hi = m.end(), self.hi - 1

    def unwrap_latex(self) -> None:
        """The content of a brace-free \\text{} (or other wrapper) that is the whole window."""
        wrapper = _LATEX_WRAPPER.fullmatch(self.text, self.lo, self.hi)
        if wrapper:
            self.lo, self.hi = wrapper.span(1)

    def drop_inline_math(self) -> None:
        """ "$19$ km" -> "19 km": a new string, made only when the window holds such a "$x$"."""
        if not self.inline_math:
            return  # no part of a window without "$x$" holds one
        if _INLINE_MATH.search(self.text, self.lo, self.hi) is None:
            self.inline_math = False
            return
        self.text = _INLINE_MATH.sub(r"\1", self.value())
        self.lo, self.hi, self.closing = 0, len(self.text), None


def _clean(s: str) -> str:
    """Strip whitespace, markdown, maths delimiters, \\boxed/\\text wrappers, a final period.

    One layer per round until nothing changes, on a window of s (peeling a layer copies
    nothing, so a reply of many nested layers stays linear).
    """
    w = _Window(s)
    previous = None
    while previous != (w.text, w.lo, w.hi):
        previous = (w.text, w.lo, w.hi)
        w.strip()
        w.strip("*`")
        w.strip()
        w.unwrap_delimiters()
        w.unwrap_box()
        w.unwrap_latex()
        w.drop_inline_math()
        if w.text.endswith(".", w.lo, w.hi) and not w.text.endswith("..", w.lo, w.hi):
            w.hi -= 1
    return w.value()


# Blank lines, then the lines up to the next blank one: the grid under a lone "Answer:".
_BLOCK = re.compile(r"(?:[ \t]*\n)*(?:[ \t]*\S[^\n]*(?:\n|\Z))*")


_LEAD_IN = frozenset(
    {"the", "so", "thus", "hence", "therefore", "my", "our", "final", "and", "i.e."}
)
_LEAD_IN_SEPARATORS = " \t,;"


def _without_lead_in(value: str) -> str:
    """value without the words that lead into the next marker on its line ("so the", ", and").

    Peeled word by word from the end, so a long run of such words stays linear.
    """
    end = len(value)
    while True:
        stop = end
        while stop and value[stop - 1] in _LEAD_IN_SEPARATORS:
            stop -= 1
        start = stop
        while start and value[start - 1] not in _LEAD_IN_SEPARATORS:
            start -= 1
        if start == stop or value[start:stop].lower() not in _LEAD_IN:
            return value[:stop]
        end = start


def _marked_answers(text: str) -> list:
    """Every "answer: X" / "the answer is X".

    X runs to the end of its line or the next marker; a marker that ends its line introduces
    the block of lines under it.
    """
    markers = list(_ANSWER_LINE.finditer(text))
    found = []
    scanned, prefix_end = 0, _match_end(_LABEL_PREFIX, text, 0)
    for m, following in zip(markers, [*markers[1:], None]):
        limit = following.start() if following else len(text)
        newline = text.rfind("\n", scanned, m.start())  # each stretch searched once
        scanned = m.start()
        if newline >= 0:  # where the "Answer:" label's line starts, and what precedes it
            prefix_end = _match_end(_LABEL_PREFIX, text, newline + 1)
        line_end = text.find("\n", m.end(), limit)
        end = limit if line_end < 0 else line_end
        value = text[m.end() : end]
        if following and line_end < 0:  # "Answer: 7. The answer is 7": "7. The" would be read
            value = _without_lead_in(value)
        if not _clean(value) and end == line_end:
            block_limit = text.rfind("\n", 0, limit) + 1 if following else limit
            end = _match_end(_BLOCK, text, end, max(end, block_limit))
            value = "\n".join(line.strip() for line in text[line_end:end].splitlines())
        is_label = not m.group(1) and prefix_end >= m.start()
        found.append(_Found(m.start(), end, value, _LABEL if is_label else _PHRASE))
    return found


def extract_answer(response: str) -> str | None:
    """The final free-form answer, for exact-match graders (puzzles, maths).

    Candidates, strongest first: an <answer>/<solution> tag, a \\boxed{}, an "Answer:" label
    starting its line (with the lines under it when it ends its line), and "the answer is" inside
    a sentence. The last candidate of the strongest kind wins, unless the reply changes its mind
    ("wait", "actually", "hmm") after it and then states another answer: that later one wins.
    With no candidate, the last non-empty line is the answer, unless it declines to answer.
    Never raises.
    """
    text = strip_think(response)
    if text is None:
        return None
    found = [_Found(m.start(), m.end(), m.group(2), _TAG) for m in _ANSWER_BLOCK.finditer(text)]
    found += [
        _Found(start, end, slice(content_start, end - 1), _BOXED_KIND)
        for start, end, content_start in _boxed_spans(text)
    ]
    found += [f for f in _marked_answers(text) if _clean(f.value)]  # an empty tag is an answer
    if not found:
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines or _ABSTAIN.search(lines[-1]):
            return None
        return _clean(lines[-1]) or None
    strongest = min(f.kind for f in found)
    chosen = max((f for f in found if f.kind == strongest), key=lambda f: f.start)
    change_of_mind = _RECONSIDER.search(text, chosen.end)
    if change_of_mind:  # "<answer>X</answer> Hmm, wait ... Final answer: Y" reads Y
        restated = [f for f in found if f.start >= change_of_mind.end()]
        chosen = max(restated, key=lambda f: f.start, default=chosen)
    value = text[chosen.value] if isinstance(chosen.value, slice) else chosen.value
    return _clean(value) or None


# ---------------------------------------------------------------- whole-text answers

_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)
_LANGUAGE_TAG = re.compile(
    r"(?:csv|tsv|json|jsonl|ndjson|json5|html|markdown|md|text|txt|plaintext|plain|table)",
    re.I,
)


def extract_table_text(response: str) -> str | None:
    """The table text of a reply: the <solution> block, else the last fenced code block.

    A fence inside the solution block is unwrapped too, and a leading language tag that answer
    extraction left behind (```csv) is dropped.
    """
    text = strip_think(response) if isinstance(response, str) else None
    if text is None:
        return None
    tagged = re.search(r"<(?:solution|answer)>", text, re.I)
    if tagged:
        found = extract_answer(response)
    else:
        fences: list[str] = _FENCE.findall(text)
        found = fences[-1] if fences else extract_answer(response)
    if found is None:
        return None
    fences = _FENCE.findall(found)
    if fences:
        found = fences[-1]
    lines = found.strip("\n").split("\n")
    if len(lines) > 1 and _LANGUAGE_TAG.fullmatch(lines[0].strip()):
        lines = lines[1:]
    found = "\n".join(lines).strip("\n")
    return found if found.strip() else None


_SOLUTION_WRAP = re.compile(r"\s*<solution>(.*)</solution>\s*", re.S | re.I)


def extract_reply_text(response: str) -> str | None:
    """The reply as checked: closed <think> blocks dropped, a whole-reply <solution> unwrapped,
    CRLF line ends made LF; None when the reply is still thinking or is not text."""
    if not isinstance(response, str):
        return None
    text = strip_think(response)
    if text is None:
        return None
    wrapped = _SOLUTION_WRAP.fullmatch(text)
    if wrapped:
        text = wrapped.group(1).strip()
    return text.replace("\r\n", "\n").replace("\r", "\n")
