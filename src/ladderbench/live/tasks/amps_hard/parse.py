"""Reading an answer: LaTeX or plain notation into a SymPy expression, through a whitelist.

Only whitelisted functions, constants and names reach ``parse_expr``; anything else (an unknown
command or name, a stray character, an overlong text, a number too large to compute safely)
raises, and the answer scores 0.
"""

from __future__ import annotations

import re
import unicodedata

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication,
    parse_expr,
    rationalize,
    standard_transformations,
)

X = sp.Symbol("x", real=True)


class Reject(Exception):
    """The answer holds something the converter does not accept."""


# Function names (LaTeX command or plain word) -> sympy name.
_FUNCTIONS = {
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "sec": "sec",
    "csc": "csc",
    "cosec": "csc",
    "cot": "cot",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsec": "asec",
    "arccsc": "acsc",
    "arccot": "acot",
    "asin": "asin",
    "acos": "acos",
    "atan": "atan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "sech": "sech",
    "csch": "csch",
    "coth": "coth",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "asinh": "asinh",
    "acosh": "acosh",
    "atanh": "atanh",
    "ln": "log",
    "log": "log",
    "exp": "exp",
    "sqrt": "sqrt",
    "abs": "Abs",
    "Abs": "Abs",
    "cbrt": "cbrt",
    "sign": "sign",
    "sgn": "sign",
}
_INVERSE = {
    "sin": "asin",
    "cos": "acos",
    "tan": "atan",
    "sec": "asec",
    "csc": "acsc",
    "cot": "acot",
}
_CONSTANTS = {"pi": "pi"}
_VARIABLES = {"x": "x", "e": "e", "C": "C", "c": "C", "K": "C"}  # C: a constant of integration
_WORDS = sorted([*_FUNCTIONS, *_CONSTANTS], key=len, reverse=True)
_IGNORED_COMMANDS = {
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "biggl",
    "biggr",
    "displaystyle",
    "textstyle",
    "quad",
    "qquad",
    "limits",
}
_SYMBOL_COMMANDS = {"cdot": "*", "times": "*", "ast": "*", "div": "/", "pi": " pi ", "e": " e "}
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_UNICODE = {
    "−": "-",
    "–": "-",
    "—": "-",
    "·": "*",
    "⋅": "*",
    "×": "*",
    "÷": "/",
    "√": "\\sqrt",
    "π": "\\pi",
    "∛": "\\cbrt",
}
_TEXT_WRAPPERS = re.compile(
    r"\\(?:text|mathrm|operatorname|mathit|mathbf|textrm|textit|mathsf)\s*\{([^{}]*)\}"
)
_SIZED_DOT = re.compile(r"\\(?:left|right)\s*\.")
_SIZED = re.compile(r"\\(?:left|right|[bB]igg?[lr]?)(?![A-Za-z])\s*")
_DIFFERENTIAL = re.compile(r"(?:\\,|\s)*(?:\\mathrm\{d\}|d)\s*x\s*$")
_SUBSCRIPTED_CONSTANT = re.compile(r"\b([CcK])_\{?\d+\}?")
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_THIN_SPACE_GROUP = re.compile(r"(\d)(?:\\,|\\ |\{,\}|\u2009|\u202f)(?=\d{3}(?!\d))")
_MAX_LENGTH = 600
_MAX_DIGITS = 3000  # a bound on the size of any number the parsed expression may compute


def _matching(s: str, i: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_ch:
            depth += 1
        elif s[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    raise Reject(f"unbalanced {open_ch}")


def _skip_spaces(s: str, i: int) -> int:
    while i < len(s) and s[i].isspace():
        i += 1
    return i


def _read_group(s: str, i: int) -> tuple[str, int]:
    """One TeX argument at s[i]: a {braced group} or a single character or command."""
    i = _skip_spaces(s, i)
    if i >= len(s):
        raise Reject("missing argument")
    if s[i] == "{":
        j = _matching(s, i, "{", "}")
        return s[i + 1 : j], j + 1
    if s[i] == "\\":
        m = re.match(r"\\[A-Za-z]+", s[i:])
        if m:
            return m.group(), i + m.end()
    return s[i], i + 1


def _read_argument(s: str, i: int) -> tuple[str, int]:
    """An exponent or a root's argument: a (parenthesised) group as in e^(-2x) or √(x+1),
    else one TeX argument."""
    i = _skip_spaces(s, i)
    if i < len(s) and s[i] == "(":
        j = _matching(s, i, "(", ")")
        return s[i : j + 1], j + 1
    return _read_group(s, i)


def _read_atom(s: str, i: int) -> tuple[str, int]:
    """The argument of a function written without brackets: (..), {..}, \\cmd{..}, or 2x."""
    i = _skip_spaces(s, i)
    if i >= len(s):
        raise Reject("function without an argument")
    if s[i] == "(":
        j = _matching(s, i, "(", ")")
        return s[i : j + 1], j + 1
    if s[i] == "[":
        j = _matching(s, i, "[", "]")
        return s[i : j + 1], j + 1
    if s[i] == "{":
        j = _matching(s, i, "{", "}")
        return s[i + 1 : j], j + 1
    if s[i] == "|":
        depth = 0
        for j in range(i + 1, len(s)):
            if s[j] in "({[":
                depth += 1
            elif s[j] in ")}]":
                depth -= 1
            elif s[j] == "|" and depth == 0:
                return s[i : j + 1], j + 1
        raise Reject("unclosed |")
    if s[i] == "\\":
        m = re.match(r"\\([A-Za-z]+)", s[i:])
        if not m:
            raise Reject("bad argument")
        name, j = m.group(1), i + m.end()
        if name in ("frac", "dfrac", "tfrac"):
            _, j = _read_group(s, j)
            _, j = _read_group(s, j)
        elif name in ("abs", "sqrt", "cbrt"):
            j = _skip_spaces(s, j)
            if name == "sqrt" and j < len(s) and s[j] == "[":
                j = _matching(s, j, "[", "]") + 1
            _, j = _read_argument(s, j)
        elif name in _FUNCTIONS:
            _, j = _read_atom(s, j)
        return s[i:j], j
    m = re.match(r"[0-9.]*\s*[A-Za-z]?(?:\^(?:\{[^{}]*\}|[0-9A-Za-z]))?", s[i:])
    if not m or not m.group().strip():
        raise Reject("function without an argument")
    return m.group(), i + m.end()


def _signed_integer(s: str, i: int) -> str:
    """The signed integer written at s[i] (an exponent such as ^-1)."""
    m = re.match(r"[+-]?\d+", s[i:])
    if not m:
        raise Reject("expected an integer")
    return m.group()


def _split_word(word: str, words: list[str], letters: dict[str, str]) -> list[str]:
    """A run of letters as known names and single-letter symbols ("xsinx" -> x, sin, x)."""
    out, i = [], 0
    while i < len(word):
        for name in words:
            if word.startswith(name, i):
                out.append(name)
                i += len(name)
                break
        else:
            if word[i] not in letters:
                raise Reject(f"unknown name {word!r}")
            out.append(word[i])
            i += 1
    return out


class _Converter:
    """Turn LaTeX or plain maths into a string of whitelisted tokens for parse_expr."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.letters = {**_VARIABLES, **{k: v for k, v in aliases.items() if len(k) == 1}}
        words = [*_WORDS, *(k for k in aliases if len(k) > 1 and k.isalpha())]
        self.words = sorted(words, key=len, reverse=True)

    def convert(self, s: str) -> str:
        out: list[str] = []
        abs_open = 0
        i = 0
        n = len(s)
        while i < n:
            ch = s[i]
            if ch.isspace():
                out.append(" ")
                i += 1
            elif ch == "\\":
                m = re.match(r"\\([A-Za-z]+)", s[i:])
                if not m:
                    # \, \; \! \{ \} and friends
                    nxt = s[i + 1 : i + 2]
                    if nxt in (",", ";", ":", "!", " "):
                        out.append(" ")
                    elif nxt == "{":
                        out.append("(")
                    elif nxt == "}":
                        out.append(")")
                    elif nxt == "|":
                        abs_open, piece = self._bar(out, abs_open)
                        out.append(piece)
                    else:
                        raise Reject(f"unknown command \\{nxt}")
                    i += 2
                    continue
                name, i = m.group(1), i + m.end()
                if name in _IGNORED_COMMANDS:
                    if name in ("left", "right") and s[i : i + 1] == ".":
                        i += 1
                    continue
                if name in ("frac", "dfrac", "tfrac", "cfrac"):
                    num, i = _read_group(s, i)
                    den, i = _read_group(s, i)
                    out.append(f"(({self.convert(num)})/({self.convert(den)}))")
                elif name == "sqrt":
                    i = _skip_spaces(s, i)
                    index = None
                    if i < n and s[i] == "[":
                        j = _matching(s, i, "[", "]")
                        index, i = s[i + 1 : j], j + 1
                    arg, i = _read_argument(s, i)
                    if index is None:
                        out.append(f" sqrt({self.convert(arg)})")
                    else:
                        out.append(f"(({self.convert(arg)})**(1/({self.convert(index)})))")
                elif name == "abs":
                    arg, i = _read_argument(s, i)
                    out.append(f" Abs({self.convert(arg)})")
                elif name in _FUNCTIONS:
                    piece, i = self._function(name, s, i)
                    out.append(piece)
                elif name in _SYMBOL_COMMANDS:
                    out.append(_SYMBOL_COMMANDS[name])
                elif name in self.aliases:
                    out.append(f" {self.aliases[name]} ")
                else:
                    raise Reject(f"unknown command \\{name}")
            elif ch.isalpha():
                m = re.match(r"[A-Za-z]+", s[i:])
                if not m:
                    raise Reject(f"unexpected character {ch!r}")
                word, i = m.group(), i + m.end()
                parts = _split_word(word, self.words, self.letters)
                for k, part in enumerate(parts):
                    if part in _FUNCTIONS:
                        if k != len(parts) - 1:
                            # "sinx": the rest of the run is the argument.
                            rest = "".join(parts[k + 1 :])
                            piece, _ = self._function(part, rest, 0)
                            out.append(piece)
                            break
                        piece, i = self._function(part, s, i)
                        out.append(piece)
                    elif part in _CONSTANTS:
                        out.append(f" {_CONSTANTS[part]} ")
                    elif part in self.aliases:
                        out.append(f" {self.aliases[part]} ")
                    else:
                        out.append(f" {self.letters[part]} ")
            elif ch.isdigit() or ch == ".":
                m = re.match(r"\d*\.?\d*", s[i:])
                token = m.group() if m else ""
                if token in ("", "."):
                    raise Reject("stray dot")
                out.append(token)
                i += len(token)
            elif ch == "{":
                j = _matching(s, i, "{", "}")
                out.append(f"({self.convert(s[i + 1 : j])})")
                i = j + 1
            elif ch == "^":
                i = _skip_spaces(s, i + 1)
                if i < n and s[i] == "*":
                    raise Reject("^*")
                if i < n and s[i] in "+-" and i + 1 < n and s[i + 1].isdigit():
                    arg = _signed_integer(s, i)
                    i += len(arg)
                else:
                    arg, i = _read_argument(s, i)
                out.append(f"**({self.convert(arg)})")
            elif ch in "([":
                out.append("(")
                i += 1
            elif ch in ")]":
                out.append(")")
                i += 1
            elif ch == "|":
                abs_open, piece = self._bar(out, abs_open)
                out.append(piece)
                i += 1
            elif ch in "+-*/":
                out.append(ch)
                i += 1
            else:
                raise Reject(f"unexpected character {ch!r}")
        if abs_open:
            raise Reject("unclosed |")
        return "".join(out)

    @staticmethod
    def _bar(out: list[str], abs_open: int) -> tuple[int, str]:
        """A | opens an absolute value after an operator or at the start, else closes one."""
        before = "".join(out).rstrip()
        opens = not before or before[-1] in "(+-*/" or before.endswith("Abs(")
        if abs_open and not opens:
            return abs_open - 1, ")"
        return abs_open + 1, " Abs("

    def _function(self, name: str, s: str, i: int) -> tuple[str, int]:
        """A function applied to its argument, with an optional power (\\sin^2 x)."""
        func = _FUNCTIONS[name]
        i = _skip_spaces(s, i)
        power = None
        if i < len(s) and s[i] == "^":
            j = _skip_spaces(s, i + 1)
            if j < len(s) and s[j] == "-" and s[j + 1 : j + 2].isdigit():
                power = _signed_integer(s, j)
                i = j + len(power)
            else:
                power, i = _read_group(s, j)
            power = self.convert(power)
            if power.strip() in ("-1", "(-1)") and func in _INVERSE:
                func, power = _INVERSE[func], None
        arg, i = _read_atom(s, i)
        call = f" {func}({self.convert(arg)})"
        if power is not None:
            call = f"(({call})**({power}))"
        return call, i


def _prepare(text: str) -> str:
    """Normalise unicode, drop wrappers and decorations, and pick the expression to parse."""
    for old, new in _UNICODE.items():
        text = text.replace(old, new)
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group().translate(_SUPERSCRIPTS) + "}", text)
    text = unicodedata.normalize("NFKC", text)
    text = _TEXT_WRAPPERS.sub(lambda m: m.group(1), text)
    text = text.replace("$", " ").replace("\\(", " ").replace("\\)", " ")
    text = text.replace("\\[", " ").replace("\\]", " ")
    text = _SIZED_DOT.sub("", text)
    text = _SIZED.sub("", text)
    text = re.split(r"\\approx|≈", text)[0]
    parts = [p for p in re.split(r"=|\\equiv", text) if p.strip()]
    if not parts:
        return ""
    text = parts[-1]
    if text.strip() == "0" and len(parts) > 1:
        text = parts[-2]  # "x^3 - ... = 0": the polynomial, not 0
    text = _DIFFERENTIAL.sub("", text)
    text = _SUBSCRIPTED_CONSTANT.sub(r"\1", text)  # C_1, the constant of integration
    text = _THIN_SPACE_GROUP.sub(r"\1", text)
    text = text.strip().rstrip(".").strip()
    if _THOUSANDS.match(text):
        text = text.replace(",", "")
    return text


_TRANSFORMATIONS = (*standard_transformations, convert_xor, implicit_multiplication, rationalize)
_LOCALS = {
    "x": X,
    "e": sp.E,
    "C": sp.Symbol("C"),
    "pi": sp.pi,
    "cbrt": lambda a: sp.root(a, 3),
}


def _digits(expr: sp.Basic) -> int:
    """An upper bound on the number of digits evaluating ``expr`` could produce."""
    if isinstance(expr, sp.Integer):
        return len(str(abs(int(expr))))
    if isinstance(expr, sp.Rational):
        return len(str(abs(expr.p))) + len(str(expr.q))
    if isinstance(expr, sp.Float):
        return 20
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent.free_symbols:
            return max(_digits(base), _digits(exponent))
        if _digits(exponent) > 12:
            raise Reject("exponent too large")
        value = abs(complex(exponent.evalf(15)))  # small numbers only: safe to evaluate
        if not value <= 10_000:
            raise Reject("exponent too large")
        if base.free_symbols:  # only ever evaluated at a point (or expanded, under the limit)
            return _digits(base) + int(value)
        size = _digits(base) * (int(value) + 1)
        if size > _MAX_DIGITS:
            raise Reject("number too large")
        return size
    if not expr.args:
        return 1
    sizes = [_digits(arg) for arg in expr.args]
    if isinstance(expr, sp.Mul):  # the numeric factors multiply out; others stay apart
        numeric = [size for size, arg in zip(sizes, expr.args, strict=True) if not arg.free_symbols]
        total = sum(numeric) + max(sizes) + 1
    else:
        total = max(sizes) + 1
    if total > _MAX_DIGITS:
        raise Reject("number too large")
    return total


def to_sympy(
    text: str, aliases: dict[str, str] | None = None, max_length: int = _MAX_LENGTH
) -> sp.Expr:
    """A model's answer (LaTeX or plain) as a SymPy expression in ``X``; raises on failure.

    ``aliases`` maps extra LaTeX commands or letters to x (``\\lambda`` for a characteristic
    polynomial). Only whitelisted functions and names get through to ``parse_expr``. Answers
    longer than ``max_length`` are refused (long true answers raise it: see ``answer_limit``).
    """
    if not isinstance(text, str) or len(text) > max_length:
        raise Reject("too long")
    aliases = aliases or {}
    text = _prepare(text)
    for letter in [a for a in aliases if len(a) == 1 and not a.isascii()]:
        text = text.replace(letter, f" {aliases[letter]} ")
    code = _Converter(aliases).convert(text)
    if not code.strip():
        raise Reject("empty")
    if re.search(r"[^A-Za-z0-9_ ()+\-*/.]", code):
        raise Reject("unexpected token")
    shape = parse_expr(
        code, local_dict=dict(_LOCALS), transformations=_TRANSFORMATIONS, evaluate=False
    )
    _digits(sp.sympify(shape, evaluate=False))
    expr = parse_expr(code, local_dict=dict(_LOCALS), transformations=_TRANSFORMATIONS)
    if not isinstance(expr, sp.Expr):
        raise Reject("not an expression")
    return expr


def answer_limit(truth: str) -> int:
    """The longest answer read for a ground truth: room for LaTeX of the truth, at least 600
    characters (harder questions have long true answers)."""
    return max(_MAX_LENGTH, 8 * len(truth))


def parse_truth(text: str) -> sp.Expr:
    """A ground-truth string (sympy's str form) back as an expression in ``X``."""
    return sp.sympify(text, locals={"x": X})


# Where a sentence states its maths: inside $...$, \(...\) or **bold**, or after "is" or ":".
_STATED_SPANS = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\*\*(.+?)\*\*", re.S)
_STATED_AFTER = re.compile(r"\b(?:is|are|equals|gives|becomes)\b|:", re.I)
_NEGATION = re.compile(r"\b(?:not|never|cannot|wrong|incorrect)\b|n't\b", re.I)


def stated_maths(statement: str) -> list[str]:
    """The maths a final untagged statement gives ("The determinant is **2682**."), last first.

    A reply with no tags or box is read from its last line; when that line is a sentence, the
    answer is the last delimited maths in it, else what follows its last "is" or colon. A
    sentence that negates ("is not 2682") states no answer.
    """
    if _NEGATION.search(statement):
        return []
    spans = [next(g for g in m.groups() if g) for m in _STATED_SPANS.finditer(statement)]
    found = [span.strip() for span in reversed(spans)]
    plain = statement.replace("**", " ")
    markers = list(_STATED_AFTER.finditer(plain))
    if markers:
        found.append(plain[markers[-1].end() :].strip().rstrip(".").strip())
    return [text for text in found if text]
